#include "widgets/runs/run_compare_table.h"
#include "widgets/common/table_cells.h"

#include <cmath>

#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include "engine/store/run_store.h"
#include "widgets/runs/run_summary_panel.h"
#include "widgets/runs/run_types.h"

namespace adala::widgets {
namespace {

constexpr int kHighlightRole = Qt::UserRole + 1;

// One text per run, in the table's column order.
template <typename Text>
QStringList perRunText(const std::vector<store::RunOverview>& runs, Text text) {
  QStringList values;
  for (const auto& r : runs) values << text(r);
  return values;
}

}  // namespace

RunCompareTable::RunCompareTable(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  auto* top = new QHBoxLayout;
  title_ = new QLabel(this);
  QFont f = title_->font();
  f.setBold(true);
  f.setPointSizeF(f.pointSizeF() * 1.2);
  title_->setFont(f);
  top->addWidget(title_, 1);
  showAll_ = new QCheckBox(this);
  top->addWidget(showAll_);
  layout->addLayout(top);
  table_ = new QTableWidget(this);
  table_->setObjectName(QStringLiteral("compareTable"));
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  table_->setWordWrap(false);
  layout->addWidget(table_, 1);
  connect(showAll_, &QCheckBox::toggled, this, [this] { rebuild(); });
  rebuild();
}

bool RunCompareTable::loadRuns(const QString& dbPath, const QList<qint64>& runIds, QString* error) {
  try {
    store::RunStore db(dbPath.toStdString(), store::OpenMode::ReadOnly);
    std::vector<store::RunOverview> runs;
    for (qint64 id : runIds) runs.push_back(store::load_run_overview(db, id));
    setRuns(runs);
    return true;
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    return false;
  }
}

void RunCompareTable::setRuns(const std::vector<store::RunOverview>& runs) {
  runs_ = runs;
  rebuild();
}

void RunCompareTable::setShowAllKeys(bool all) { showAll_->setChecked(all); }
bool RunCompareTable::showAllKeys() const { return showAll_->isChecked(); }

void RunCompareTable::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange || event->type() == QEvent::PaletteChange) rebuild();
  QWidget::changeEvent(event);
}

void RunCompareTable::rebuild() {
  showAll_->setText(tr("Show every config key"));
  showAll_->setToolTip(tr("Off: only the config keys whose values differ between the runs"));
  const int n = int(runs_.size());
  QStringList ids;
  for (const auto& r : runs_) ids << tr("#%1").arg(r.run.id);
  title_->setText(n == 0 ? tr("Select two or more runs in the run list and press Compare.")
                         : tr("Comparing runs %1").arg(ids.join(QStringLiteral(", "))));
  table_->clear();
  table_->setColumnCount(n + 1);
  QStringList headers{tr("Run")};
  for (const auto& r : runs_)
    headers << tr("#%1 %2").arg(r.run.id).arg(QString::fromStdString(r.run.name));
  table_->setHorizontalHeaderLabels(headers);
  table_->setRowCount(0);

  addResultRows();
  addStageRows();
  addConfigRows();
  table_->resizeColumnsToContents();
  for (int c = 1; c <= n; ++c) table_->setColumnWidth(c, std::min(table_->columnWidth(c), 320));
}

void RunCompareTable::addSpanningRow(QTableWidgetItem* item) {
  const int row = table_->rowCount();
  table_->insertRow(row);
  table_->setItem(row, 0, item);
  table_->setSpan(row, 0, 1, int(runs_.size()) + 1);
}

void RunCompareTable::addSection(const QString& title) {
  auto* item = readOnlyCell(title);
  QFont f = item->font();
  f.setBold(true);
  item->setFont(f);
  item->setBackground(palette().color(QPalette::AlternateBase));
  addSpanningRow(item);
}

void RunCompareTable::addRow(const QString& name, const QStringList& values,
                             bool highlightDiffering) {
  const int row = table_->rowCount();
  table_->insertRow(row);
  table_->setItem(row, 0, readOnlyCell(name));
  bool differs = false;
  for (int i = 1; i < values.size(); ++i) differs = differs || values[i] != values[0];
  QColor highlight = palette().color(QPalette::Highlight);
  highlight.setAlpha(70);
  for (int i = 0; i < values.size(); ++i) {
    auto* item = readOnlyCell(values[i]);
    if (highlightDiffering && differs) {
      item->setBackground(highlight);
      item->setData(kHighlightRole, true);
    }
    table_->setItem(row, i + 1, item);
  }
}

void RunCompareTable::addResultRows() {
  addSection(tr("Results"));
  addRow(tr("Teacher top-1"),
         perRunText(runs_,
                    [](const store::RunOverview& r) {
                      return std::isfinite(r.teacher_top1)
                                 ? RunSummaryPanel::percentText(r.teacher_top1)
                                 : tr("not evaluated");
                    }),
         false);
  addRow(tr("Student top-1"),
         perRunText(runs_,
                    [](const store::RunOverview& r) {
                      return std::isfinite(r.student_top1)
                                 ? RunSummaryPanel::percentText(r.student_top1)
                                 : tr("not evaluated");
                    }),
         false);
  addRow(tr("Gap (student − teacher)"),
         perRunText(
             runs_,
             [](const store::RunOverview& r) { return RunSummaryPanel::pointsText(r.gap_points); }),
         false);
  addRow(tr("Status"),
         perRunText(
             runs_,
             [](const store::RunOverview& r) { return RunSummaryPanel::statusText(r.run.status); }),
         true);
  addRow(tr("Method"),
         perRunText(runs_,
                    [](const store::RunOverview& r) { return QString::fromStdString(r.method); }),
         true);
  addRow(
      tr("Feature map"),
      perRunText(runs_,
                 [](const store::RunOverview& r) { return QString::fromStdString(r.feature_map); }),
      true);
  addRow(
      tr("Device"),
      perRunText(runs_,
                 [](const store::RunOverview& r) { return QString::fromStdString(r.run.device); }),
      true);
  addRow(tr("Run time"),
         perRunText(runs_,
                    [](const store::RunOverview& r) {
                      return RunSummaryPanel::durationText(r.wall_seconds);
                    }),
         false);
}

// Every stage any of the runs has, in stage order: wall time, compute time (where any run
// timed it) and final loss.
void RunCompareTable::addStageRows() {
  QList<int> stages;
  for (const auto& r : runs_)
    for (const auto& s : r.stages)
      if (!stages.contains(s.index)) stages << s.index;
  std::sort(stages.begin(), stages.end());
  if (!stages.isEmpty()) addSection(tr("Stages"));
  for (int index : stages) {
    auto stageOf = [index](const store::RunOverview& r) -> const store::StageOverview* {
      for (const auto& s : r.stages)
        if (s.index == index) return &s;
      return nullptr;
    };
    bool timed = false;
    for (const auto& r : runs_)
      if (const auto* s = stageOf(r)) timed = timed || std::isfinite(s->compute_seconds);
    addRow(tr("%1 · wall time").arg(stageTitle(index)),
           perRunText(runs_,
                      [&](const store::RunOverview& r) {
                        const auto* s = stageOf(r);
                        return s ? RunSummaryPanel::durationText(s->wall_seconds) : QString(kDash);
                      }),
           false);
    if (timed)
      addRow(tr("%1 · compute time").arg(stageTitle(index)),
             perRunText(runs_,
                        [&](const store::RunOverview& r) {
                          const auto* s = stageOf(r);
                          return s ? RunSummaryPanel::durationText(s->compute_seconds)
                                   : QString(kDash);
                        }),
             false);
    addRow(tr("%1 · final loss").arg(stageTitle(index)),
           perRunText(runs_,
                      [&](const store::RunOverview& r) {
                        const auto* s = stageOf(r);
                        return s ? RunSummaryPanel::numberText(s->final_loss) : QString(kDash);
                      }),
           false);
  }
}

void RunCompareTable::addConfigRows() {
  const auto diff = store::config_diff(runs_, showAll_->isChecked());
  addSection(showAll_->isChecked() ? tr("Config (every key; differing values highlighted)")
                                   : tr("Config (only the keys that differ)"));
  firstConfigRow_ = table_->rowCount();
  if (diff.empty() && !runs_.empty()) {
    addSpanningRow(readOnlyCell(tr("The runs' configs are the same.")));
    firstConfigRow_ = -1;
  }
  for (const auto& d : diff) {
    QStringList values;
    for (size_t i = 0; i < d.values.size(); ++i)
      values << (d.present[i] ? QString::fromStdString(d.values[i]) : QString(kDash));
    addRow(QString::fromStdString(d.path), values, true);
  }
}

int RunCompareTable::rowOf(const QString& rowName) const {
  for (int r = 0; r < table_->rowCount(); ++r)
    if (table_->item(r, 0) && table_->item(r, 0)->text() == rowName) return r;
  return -1;
}

QStringList RunCompareTable::configPaths() const {
  QStringList paths;
  if (firstConfigRow_ < 0) return paths;
  for (int r = firstConfigRow_; r < table_->rowCount(); ++r) paths << table_->item(r, 0)->text();
  return paths;
}

QString RunCompareTable::cellText(const QString& rowName, int run) const {
  const int row = rowOf(rowName);
  const QTableWidgetItem* item = row >= 0 ? table_->item(row, run + 1) : nullptr;
  return item ? item->text() : QString();
}

bool RunCompareTable::cellHighlighted(const QString& rowName, int run) const {
  const int row = rowOf(rowName);
  const QTableWidgetItem* item = row >= 0 ? table_->item(row, run + 1) : nullptr;
  return item && item->data(kHighlightRole).toBool();
}

}  // namespace adala::widgets
