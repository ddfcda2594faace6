#include "widgets/runs/run_summary_panel.h"
#include "widgets/common/table_cells.h"

#include <cmath>

#include <QEvent>
#include <QFrame>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTableWidget>
#include <QVBoxLayout>

#include "engine/store/run_store.h"
#include "widgets/runs/job_status.h"
#include "widgets/runs/run_types.h"

namespace adala::widgets {
namespace {

constexpr QChar kMinus(0x2212);  // − : a negative number

QString orDash(const std::string& text) {
  return text.empty() ? QString(kDash) : QString::fromStdString(text);
}

QLabel* valueLabel(const QString& name, QWidget* parent) {
  auto* label = new QLabel(parent);
  label->setObjectName(name);
  QFont f = label->font();
  f.setPointSizeF(f.pointSizeF() * 1.8);
  f.setBold(true);
  label->setFont(f);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  return label;
}

QFrame* card(QLabel* caption, QLabel* value, QWidget* parent) {
  auto* frame = new QFrame(parent);
  frame->setFrameShape(QFrame::StyledPanel);
  auto* layout = new QVBoxLayout(frame);
  layout->setContentsMargins(12, 8, 12, 8);
  layout->addWidget(caption);
  layout->addWidget(value);
  return frame;
}

QLabel* heading(QWidget* parent) {
  auto* label = new QLabel(parent);
  QFont f = label->font();
  f.setBold(true);
  label->setFont(f);
  return label;
}

}  // namespace

RunSummaryPanel::RunSummaryPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  title_ = new QLabel(this);
  title_->setObjectName(QStringLiteral("summaryTitle"));
  QFont tf = title_->font();
  tf.setPointSizeF(tf.pointSizeF() * 1.4);
  tf.setBold(true);
  title_->setFont(tf);
  title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  title_->setWordWrap(true);
  subtitle_ = new QLabel(this);
  subtitle_->setWordWrap(true);
  subtitle_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(title_);
  layout->addWidget(subtitle_);

  teacherCaption_ = new QLabel(this);
  studentCaption_ = new QLabel(this);
  gapCaption_ = new QLabel(this);
  teacher_ = valueLabel(QStringLiteral("teacherTop1"), this);
  student_ = valueLabel(QStringLiteral("studentTop1"), this);
  gap_ = valueLabel(QStringLiteral("gapPoints"), this);
  auto* cards = new QHBoxLayout;
  cards->addWidget(card(teacherCaption_, teacher_, this), 1);
  cards->addWidget(card(studentCaption_, student_, this), 1);
  cards->addWidget(card(gapCaption_, gap_, this), 1);
  layout->addLayout(cards);

  stagesHeading_ = heading(this);
  layout->addWidget(stagesHeading_);
  stages_ = new QTableWidget(0, 9, this);
  stages_->setObjectName(QStringLiteral("summaryStages"));
  stages_->verticalHeader()->hide();
  stages_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  stages_->setSelectionMode(QAbstractItemView::NoSelection);
  stages_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  stages_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  stages_->horizontalHeader()->setStretchLastSection(false);
  stages_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  stages_->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
  layout->addWidget(stages_);

  tags_ = new QLabel(this);
  tags_->setWordWrap(true);
  tags_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  notes_ = new QLabel(this);
  notes_->setWordWrap(true);
  notes_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(tags_);
  layout->addWidget(notes_);

  configHeading_ = heading(this);
  layout->addWidget(configHeading_);
  config_ = new QTableWidget(0, 2, this);
  config_->setObjectName(QStringLiteral("summaryConfig"));
  config_->verticalHeader()->hide();
  config_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  config_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  config_->horizontalHeader()->setStretchLastSection(true);
  config_->setAlternatingRowColors(true);
  layout->addWidget(config_, 1);

  retranslate();
  clear();
}

QString RunSummaryPanel::numberText(double value) {
  if (!std::isfinite(value)) return QString(kDash);
  QString text = QLocale().toString(value, 'g', 4);
  if (text.startsWith(QLatin1Char('-'))) text[0] = kMinus;
  return text;
}

QString RunSummaryPanel::percentText(double fraction) {
  if (!std::isfinite(fraction)) return QString(kDash);
  return tr("%1 %").arg(QLocale().toString(100.0 * fraction, 'f', 2));
}

QString RunSummaryPanel::pointsText(double points) {
  if (!std::isfinite(points)) return QString(kDash);
  QString number = QLocale().toString(std::abs(points), 'f', 2);
  const QString sign = points < 0 ? QString(kMinus) : points > 0 ? QStringLiteral("+") : QString();
  return tr("%1 pt").arg(sign + number);
}

QString RunSummaryPanel::durationText(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return QString(kDash);
  if (seconds < 60) return tr("%1 s").arg(QLocale().toString(seconds, 'f', 1));
  const qint64 s = qRound64(seconds);
  if (s < 3600) return tr("%1 min %2 s").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
  return tr("%1 h %2 min").arg(s / 3600).arg((s % 3600) / 60, 2, 10, QLatin1Char('0'));
}

bool RunSummaryPanel::loadRun(const QString& dbPath, qint64 runId, QString* error) {
  try {
    store::RunStore db(dbPath.toStdString(), store::OpenMode::ReadOnly);
    setOverview(store::load_run_overview(db, runId));
    return true;
  } catch (const std::exception& e) {
    const QString why = QString::fromStdString(e.what());
    clear(tr("Cannot read run %1: %2").arg(runId).arg(why));
    if (error) *error = why;
    return false;
  }
}

void RunSummaryPanel::clear(const QString& message) {
  overview_ = {};
  runId_ = -1;
  hasRun_ = false;
  message_ = message;
  retranslate();
}

void RunSummaryPanel::setOverview(const store::RunOverview& overview) {
  overview_ = overview;
  runId_ = overview.run.id;
  hasRun_ = true;
  message_.clear();
  retranslate();
}

QString RunSummaryPanel::teacherText() const { return teacher_->text(); }
QString RunSummaryPanel::studentText() const { return student_->text(); }
QString RunSummaryPanel::gapText() const { return gap_->text(); }

void RunSummaryPanel::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslate();
  QWidget::changeEvent(event);
}

QString RunSummaryPanel::statusText(const std::string& status) {
  const auto recorded = store::parse_run_status(status);
  return recorded ? jobStatusText(jobStatusOf(*recorded)) : orDash(status);
}

void RunSummaryPanel::retranslate() {
  retranslateHeadings();
  const store::RunOverview& o = overview_;
  if (!hasRun_) {
    title_->setText(message_.isEmpty() ? tr("No run open") : message_);
    subtitle_->setText(
        tr("Open a run in the run list (double-click) to see its summary; select "
           "two or more and press Compare to compare them."));
    for (QLabel* v : {teacher_, student_, gap_}) v->setText(QString(kDash));
    stages_->setRowCount(0);
    config_->setRowCount(0);
    tags_->clear();
    notes_->clear();
    fitStagesHeight();
    return;
  }
  showFacts(o);
  showResults(o);
  fillStages(o);

  QStringList tags;
  for (const auto& t : o.run.tags) tags << QString::fromStdString(t);
  tags_->setText(
      tr("Tags: %1").arg(tags.isEmpty() ? QString(kDash) : tags.join(QStringLiteral(", "))));
  notes_->setText(
      tr("Notes: %1")
          .arg(o.run.notes.empty() ? QString(kDash) : QString::fromStdString(o.run.notes)));

  config_->setRowCount(int(o.config.size()));
  for (int r = 0; r < int(o.config.size()); ++r) {
    config_->setItem(r, 0, readOnlyCell(QString::fromStdString(o.config[size_t(r)].first)));
    config_->setItem(r, 1, readOnlyCell(QString::fromStdString(o.config[size_t(r)].second)));
  }
}

void RunSummaryPanel::retranslateHeadings() {
  teacherCaption_->setText(tr("Teacher top-1 (softmax attention)"));
  studentCaption_->setText(tr("Student top-1 (linear attention)"));
  gapCaption_->setText(tr("Gap (student − teacher)"));
  stagesHeading_->setText(tr("Stages"));
  configHeading_->setText(tr("Configuration"));
  stages_->setHorizontalHeaderLabels({tr("Stage"), tr("Status"), tr("Steps"), tr("Wall time"),
                                      tr("Compute"), tr("Idle"), tr("Final loss"), tr("Final lr"),
                                      tr("Train accuracy")});
  config_->setHorizontalHeaderLabels({tr("Key"), tr("Value")});
  stages_->setToolTip(
      tr("Wall time: from the stage's start to its end, pauses included. Compute: the time it "
         "trained; idle: the rest (paused, or between a cancel and the resume). Final loss, lr "
         "and training accuracy: the last logged step."));
}

// The title and the line of facts under it.
void RunSummaryPanel::showFacts(const store::RunOverview& o) {
  title_->setText(tr("#%1 %2").arg(o.run.id).arg(QString::fromStdString(o.run.name)));
  QStringList facts;
  facts << tr("status: %1").arg(statusText(o.run.status));
  facts << tr("device: %1").arg(orDash(o.run.device));
  facts << (o.method_default ? tr("method: %1 (default)") : tr("method: %1")).arg(orDash(o.method));
  facts << (o.feature_map_default ? tr("feature map: %1 (default)") : tr("feature map: %1"))
               .arg(orDash(o.feature_map));
  facts << tr("model: %1").arg(orDash(o.preset));
  facts << tr("run time: %1").arg(durationText(o.wall_seconds));
  if (!o.run.project_version.empty())
    facts << tr("version: %1").arg(QString::fromStdString(o.run.project_version));
  subtitle_->setText(facts.join(QStringLiteral("   ·   ")));
}

// Teacher and student top-1 and the gap between them.
void RunSummaryPanel::showResults(const store::RunOverview& o) {
  const QString notEvaluated = tr("not evaluated");
  teacher_->setText(std::isfinite(o.teacher_top1) ? percentText(o.teacher_top1) : notEvaluated);
  student_->setText(std::isfinite(o.student_top1) ? percentText(o.student_top1) : notEvaluated);
  gap_->setText(pointsText(o.gap_points));
  teacher_->setToolTip(tr("teacher/top1 in the run's evaluations"));
  student_->setToolTip(
      o.student_top1_key.empty()
          ? tr("The run has no student evaluation (fine_tuning/top1).")
          : tr("%1 in the run's evaluations").arg(QString::fromStdString(o.student_top1_key)));
  gap_->setToolTip(tr("100 × (student top-1 − teacher top-1), in percentage points"));
}

void RunSummaryPanel::fillStages(const store::RunOverview& o) {
  stages_->setRowCount(int(o.stages.size()));
  const Qt::Alignment right = Qt::AlignRight | Qt::AlignVCenter;
  for (int r = 0; r < int(o.stages.size()); ++r) {
    const store::StageOverview& s = o.stages[size_t(r)];
    stages_->setItem(r, 0, readOnlyCell(stageTitle(s.index)));
    stages_->setItem(r, 1, readOnlyCell(statusText(s.status)));
    stages_->setItem(
        r, 2,
        readOnlyCell(tr("%1 / %2").arg(std::max<qint64>(s.last_step, 0)).arg(s.total_steps),
                     right));
    stages_->setItem(r, 3, readOnlyCell(durationText(s.wall_seconds), right));
    stages_->setItem(r, 4, readOnlyCell(durationText(s.compute_seconds), right));
    stages_->setItem(r, 5, readOnlyCell(durationText(s.idle_seconds), right));
    stages_->setItem(r, 6, readOnlyCell(numberText(s.final_loss), right));
    stages_->setItem(r, 7, readOnlyCell(numberText(s.final_lr), right));
    stages_->setItem(r, 8, readOnlyCell(percentText(s.final_train_acc), right));
  }
  // Compute and idle time only where the database records them.
  bool timed = false;
  for (const auto& s : o.stages) timed = timed || std::isfinite(s.compute_seconds);
  stages_->setColumnHidden(4, !timed);
  stages_->setColumnHidden(5, !timed);
  fitStagesHeight();
}

// The stages table as tall as its header and rows.
void RunSummaryPanel::fitStagesHeight() {
  int height = stages_->horizontalHeader()->sizeHint().height() + 2 * stages_->frameWidth();
  for (int r = 0; r < stages_->rowCount(); ++r) height += stages_->verticalHeader()->sectionSize(r);
  stages_->setFixedHeight(height);
}

}  // namespace adala::widgets
