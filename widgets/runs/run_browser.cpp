#include "widgets/runs/run_browser.h"

#include <QAction>
#include <QComboBox>
#include <QDateTime>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "engine/store/run_status.h"
#include "engine/store/run_store.h"
#include "engine/train/stage_catalog.h"
#include "widgets/runs/run_types.h"
#include "widgets/common/sort_arrow_style.h"

namespace adala::widgets {

namespace {

constexpr int kSortRole = Qt::UserRole;
constexpr int kIdRole = Qt::UserRole + 1;
constexpr int kRunDirRole = Qt::UserRole + 2;
constexpr int kStatusRole = Qt::UserRole + 3;
constexpr int kKindRole = Qt::UserRole + 4;
constexpr int kShownStatusRole = Qt::UserRole + 5;  // the JobStatus shown (none if unknown)

// Text filter on every column plus a status filter.
class RunFilterProxy : public QSortFilterProxyModel {
 public:
  using QSortFilterProxyModel::QSortFilterProxyModel;
  void setStatus(const QString& status) {
    status_ = status;
    invalidateFilter();
  }
  void setText(const QString& text) {
    text_ = text.trimmed();
    invalidateFilter();
  }

 protected:
  bool filterAcceptsRow(int row, const QModelIndex& parent) const override {
    auto* m = sourceModel();
    if (!status_.isEmpty() &&
        m->index(row, RunBrowser::StatusColumn, parent).data(kStatusRole).toString() != status_)
      return false;
    if (text_.isEmpty()) return true;
    for (const auto& word : text_.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
      bool found = false;
      for (int c = 0; c < RunBrowser::ColumnCount && !found; ++c)
        found = m->index(row, c, parent).data().toString().contains(word, Qt::CaseInsensitive);
      if (!found) return false;
    }
    return true;
  }

 private:
  QString status_, text_;
};

using store::RunStatus;

QColor statusColor(JobStatus status) {
  switch (status) {
    case JobStatus::Running:
      return QColor(30, 120, 220);
    case JobStatus::Paused:
      return QColor(150, 110, 200);
    case JobStatus::Done:
      return QColor(40, 150, 60);
    case JobStatus::Interrupted:
      return QColor(220, 130, 20);
    case JobStatus::Failed:
      return QColor(210, 40, 40);
    case JobStatus::Queued:
    case JobStatus::Cancelled:
      return {};
  }
  return {};
}

QString localTime(const std::string& iso) {
  if (iso.empty()) return {};
  auto t = QDateTime::fromString(QString::fromStdString(iso), Qt::ISODateWithMs);
  return t.isValid() ? t.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"))
                     : QString::fromStdString(iso);
}

}  // namespace

RunBrowser::RunBrowser(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(buildFilterRow());
  layout->addWidget(buildRunView(), 1);

  auto* buttons = new QHBoxLayout;
  openButton_ = new QPushButton(tr("Open"), this);
  openButton_->setToolTip(tr("Show the run's plots and checkpoints (double-click a run)"));
  compareButton_ = new QPushButton(tr("Compare"), this);
  compareButton_->setToolTip(tr("Overlay the selected runs' plots (select two or more)"));
  resumeButton_ = new QPushButton(tr("Resume"), this);
  resumeButton_->setToolTip(tr("Continue an interrupted run from its last checkpoint"));
  auto* refreshButton = new QPushButton(tr("Refresh"), this);
  refreshButton->setToolTip(tr("Read the database again (F5)"));
  for (auto* b : {openButton_, compareButton_, resumeButton_, refreshButton}) buttons->addWidget(b);
  layout->addLayout(buttons);
  message_ = new QLabel(this);
  message_->setWordWrap(true);
  layout->addWidget(message_);

  connectControls(refreshButton);
  addEditActions();
  updateButtons();
}

QHBoxLayout* RunBrowser::buildFilterRow() {
  auto* filterRow = new QHBoxLayout;
  filter_ = new QLineEdit(this);
  filter_->setPlaceholderText(tr("Filter runs (name, tag, status…)"));
  filter_->setClearButtonEnabled(true);
  filterRow->addWidget(filter_, 1);
  statusFilter_ = new QComboBox(this);
  statusFilter_->addItem(tr("all"), QString());
  for (RunStatus status : {RunStatus::Running, RunStatus::Done, RunStatus::Interrupted,
                           RunStatus::Failed, RunStatus::Queued})
    statusFilter_->addItem(jobStatusText(jobStatusOf(status)),
                           QString::fromLatin1(store::run_status_name(status)));
  statusFilter_->setToolTip(tr("Show only runs with this status"));
  filterRow->addWidget(statusFilter_);
  return filterRow;
}

QTreeView* RunBrowser::buildRunView() {
  model_ = new QStandardItemModel(0, ColumnCount, this);
  model_->setHorizontalHeaderLabels(
      {tr("ID"), tr("Name"), tr("Status"), tr("Stage"), tr("Best"), tr("Tags"), tr("Created")});
  proxy_ = new RunFilterProxy(this);
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(kSortRole);
  view_ = new QTreeView(this);
  view_->setModel(proxy_);
  view_->setRootIsDecorated(false);
  view_->setSortingEnabled(true);
  view_->sortByColumn(IdColumn, Qt::DescendingOrder);
  view_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  view_->setAlternatingRowColors(true);
  view_->setUniformRowHeights(true);
  view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  view_->setContextMenuPolicy(Qt::CustomContextMenu);
  view_->header()->setStretchLastSection(true);
  useSortArrowsThatFollowTheOrder(view_->header());
  // Shown as ID, Name, Status, Best, Stage, Tags, Created: the result before the progress, so a
  // narrow dock shows it without scrolling (drag a header to reorder).
  view_->header()->moveSection(view_->header()->visualIndex(BestColumn),
                               view_->header()->visualIndex(StageColumn));
  return view_;
}

void RunBrowser::connectControls(QPushButton* refreshButton) {
  connect(filter_, &QLineEdit::textChanged, this, &RunBrowser::setFilterText);
  connect(statusFilter_, &QComboBox::currentIndexChanged, this, [this] {
    static_cast<RunFilterProxy*>(proxy_)->setStatus(statusFilter_->currentData().toString());
    updateButtons();
  });
  connect(view_, &QTreeView::doubleClicked, this, [this](const QModelIndex& index) {
    emit runOpened(index.sibling(index.row(), IdColumn).data(kIdRole).toLongLong());
  });
  connect(view_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
          &RunBrowser::updateButtons);
  connect(openButton_, &QPushButton::clicked, this, [this] {
    const auto ids = selectedRuns();
    if (!ids.isEmpty()) emit runOpened(ids.first());
  });
  connect(compareButton_, &QPushButton::clicked, this, [this] {
    const auto ids = selectedRuns();
    if (ids.size() >= 2) emit compareRequested(ids);
  });
  connect(resumeButton_, &QPushButton::clicked, this, [this] {
    const auto ids = selectedRuns();
    if (ids.size() == 1) emit resumeRequested(ids.first());
  });
  connect(refreshButton, &QPushButton::clicked, this, &RunBrowser::refresh);
  connect(view_, &QTreeView::customContextMenuRequested, this, [this](const QPoint& pos) {
    QMenu menu(this);
    menu.addAction(openButton_->text(), openButton_, &QPushButton::click)
        ->setEnabled(openButton_->isEnabled());
    menu.addAction(compareButton_->text(), compareButton_, &QPushButton::click)
        ->setEnabled(compareButton_->isEnabled());
    menu.addAction(resumeButton_->text(), resumeButton_, &QPushButton::click)
        ->setEnabled(resumeButton_->isEnabled());
    menu.addSeparator();
    for (QAction* a : {renameAction_, tagsAction_, notesAction_, deleteAction_}) menu.addAction(a);
    menu.exec(view_->viewport()->mapToGlobal(pos));
  });
}

// The record edits: on the list's keyboard focus (F2, Delete) and in its context menu.
void RunBrowser::addEditActions() {
  const auto addEdit = [this](const QString& text, const QKeySequence& keys,
                              void (RunBrowser::*ask)()) {
    auto* action = new QAction(text, this);
    action->setShortcut(keys);
    action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    view_->addAction(action);
    connect(action, &QAction::triggered, this, ask);
    return action;
  };
  renameAction_ = addEdit(tr("Rename…"), QKeySequence(Qt::Key_F2), &RunBrowser::askRename);
  tagsAction_ = addEdit(tr("Tags…"), QKeySequence(tr("Ctrl+Shift+T")), &RunBrowser::askTags);
  notesAction_ = addEdit(tr("Notes…"), QKeySequence(tr("Ctrl+Shift+N")), &RunBrowser::askNotes);
  deleteAction_ =
      addEdit(tr("Delete…"), QKeySequence(QKeySequence::Delete), &RunBrowser::askDelete);
}

void RunBrowser::setDatabasePath(const QString& path) {
  dbPath_ = path;
  refresh();
}

void RunBrowser::setFilterText(const QString& text) {
  if (filter_->text() != text) filter_->setText(text);
  static_cast<RunFilterProxy*>(proxy_)->setText(text);
  updateButtons();
}

void RunBrowser::refresh() {
  const QList<qint64> selected = selectedRuns();
  message_->clear();
  if (dbPath_.isEmpty() || !QFileInfo::exists(dbPath_)) {
    model_->removeRows(0, model_->rowCount());
    message_->setText(
        tr("No run database yet at %1: it is created by the first run.").arg(dbPath_));
    updateButtons();
    emit refreshed();
    return;
  }
  // Rows are built apart and replace the shown ones only when the whole read succeeded: a read
  // that fails (another process holding or rewriting the file at that moment) leaves the list
  // as last read, says why, and tries again shortly.
  QList<QList<QStandardItem*>> rows;
  try {
    store::RunStore db(dbPath_.toStdString(), store::OpenMode::ReadOnly);
    for (const auto& run : db.list_runs()) rows << runRow(db, run);
    model_->removeRows(0, model_->rowCount());
    for (const auto& row : rows) model_->appendRow(row);
    failedReads_ = 0;
  } catch (const std::exception& e) {
    for (const auto& row : rows) qDeleteAll(row);
    showReadFailure(QString::fromUtf8(e.what()));
  }
  fitColumns();
  for (qint64 id : selected) selectRun(id);
  updateButtons();
  emit refreshed();
}

QList<QStandardItem*> RunBrowser::runRow(store::RunStore& db, const store::RunInfo& run) const {
  QList<QStandardItem*> row;
  for (int c = 0; c < ColumnCount; ++c) row << new QStandardItem;
  const QString status = QString::fromStdString(run.status);
  row[IdColumn]->setText(QString::number(run.id));
  row[IdColumn]->setData(qlonglong(run.id), kSortRole);
  row[IdColumn]->setData(qlonglong(run.id), kIdRole);
  row[IdColumn]->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  row[NameColumn]->setText(QString::fromStdString(run.name));
  row[StatusColumn]->setData(status, kStatusRole);
  showStatus(row[StatusColumn], run.id);
  row[IdColumn]->setData(QString::fromStdString(run.kind), kKindRole);
  showStage(row[StageColumn], db, run);
  showBest(row[BestColumn], db, run.id);
  QStringList tags;
  for (const auto& t : run.tags) tags << QString::fromStdString(t);
  row[TagsColumn]->setText(tags.join(QStringLiteral(", ")));
  row[CreatedColumn]->setText(localTime(run.created_at));
  row[CreatedColumn]->setData(QString::fromStdString(run.created_at), kSortRole);
  if (!run.folder.empty()) row[IdColumn]->setData(QString::fromStdString(run.folder), kRunDirRole);
  for (int c = 0; c < ColumnCount; ++c)
    if (!row[c]->data(kSortRole).isValid()) row[c]->setData(row[c]->text(), kSortRole);
  row[NameColumn]->setToolTip(
      QStringList{row[NameColumn]->text(), row[IdColumn]->data(kRunDirRole).toString()}
          .join(QLatin1Char('\n'))
          .trimmed());
  row[TagsColumn]->setToolTip(row[TagsColumn]->text());
  row[BestColumn]->setToolTip(row[BestColumn]->text());
  return row;
}

// Stage: the highest stage that has a row, with its progress; a benchmark's points.
void RunBrowser::showStage(QStandardItem* item, store::RunStore& db,
                           const store::RunInfo& run) const {
  const auto stages = db.stages(run.id);
  if (run.kind == "benchmark") {
    const int points = static_cast<int>(db.benchmark_points(run.id).size());
    item->setText(tr("benchmark · %n point(s)", nullptr, points));
    item->setToolTip(tr("Open it to see the scaling plots"));
    item->setData(-0.5, kSortRole);
  } else if (!stages.empty()) {
    const auto& s = stages.back();
    const qint64 step = std::max<int64_t>(0, s.last_step);
    item->setText(
        tr("%1 %2 (%3/%4)")
            .arg(s.index)
            .arg(QString::fromStdString(s.stage).replace(QLatin1Char('_'), QLatin1Char(' ')))
            .arg(step)
            .arg(s.total_steps));
    item->setToolTip(
        tr("%1 · stage status: %2").arg(item->text(), QString::fromStdString(s.status)));
    item->setData(s.index * 1e9 + double(step), kSortRole);
  } else {
    item->setData(-1.0, kSortRole);
  }
}

// Best: the accuracy of the most adapted model evaluated, else the final Stage-1 MSE.
void RunBrowser::showBest(QStandardItem* item, store::RunStore& db, qint64 runId) const {
  const auto evals = db.evaluations(runId);
  double best = std::nan("");
  QString bestText;
  std::vector<std::string> bestKeys = student_top1_keys();
  bestKeys.push_back(teacher_top1_key());
  for (const std::string& key : bestKeys) {
    auto it = evals.find(key);
    if (it != evals.end()) {
      best = it->second;
      bestText = tr("top-1 %1% (%2)")
                     .arg(100.0 * it->second, 0, 'f', 1)
                     .arg(QString::fromStdString(key.substr(0, key.find('/'))));
      break;
    }
  }
  if (bestText.isEmpty()) {
    double sum = 0;
    int n = 0;
    for (const auto& m : db.final_metrics(runId))
      if (stage_index(m.stage) == 1 && m.key == "block_mse") {
        sum += m.value;
        ++n;
      }
    if (n > 0) {
      bestText = tr("stage-1 MSE %1").arg(sum / n, 0, 'g', 3);
      best = -sum / n;  // sorts below any accuracy
    }
  }
  item->setText(bestText);
  item->setData(std::isnan(best) ? -1e300 : best, kSortRole);
}

void RunBrowser::showReadFailure(const QString& reason) {
  QString text = tr("Cannot read %1: %2").arg(dbPath_, reason);
  if (model_->rowCount() > 0)
    text += QLatin1Char('\n') + tr("The list shows the runs as last read.");
  if (failedReads_ < kReadRetries) {
    ++failedReads_;
    text += QLatin1Char(' ') + tr("Trying again in a moment (F5 to retry now).");
    QTimer::singleShot(1000 * failedReads_, this, &RunBrowser::refresh);
  }
  message_->setText(text);
}

// Long names, stages and tags are cut (their cells' tooltips hold them whole) so that every
// column fits the dock instead of hiding the last ones behind a scrollbar.
void RunBrowser::fitColumns() {
  const int cap = fontMetrics().horizontalAdvance(QLatin1Char('x')) * 18;
  for (int c = 0; c < ColumnCount - 1; ++c) {
    view_->resizeColumnToContents(c);
    if (c != IdColumn && c != StatusColumn)
      view_->setColumnWidth(c, std::min(view_->columnWidth(c), cap));
  }
}

QList<qint64> RunBrowser::selectedRuns() const {
  QList<qint64> ids;
  for (const auto& index : view_->selectionModel()->selectedRows(IdColumn))
    ids << index.data(kIdRole).toLongLong();
  return ids;
}

void RunBrowser::selectRun(qint64 id) {
  for (int r = 0; r < proxy_->rowCount(); ++r) {
    const auto index = proxy_->index(r, IdColumn);
    if (index.data(kIdRole).toLongLong() == id) {
      view_->selectionModel()->select(index,
                                      QItemSelectionModel::Select | QItemSelectionModel::Rows);
      view_->scrollTo(index);
    }
  }
}

int RunBrowser::visibleRunCount() const { return proxy_->rowCount(); }

std::optional<JobStatus> RunBrowser::statusOf(qint64 id) const {
  const int r = rowOf(id);
  const QVariant shown = r < 0 ? QVariant() : model_->item(r, StatusColumn)->data(kShownStatusRole);
  return shown.isValid() ? std::optional(shown.value<JobStatus>()) : std::nullopt;
}

void RunBrowser::setPausedRun(qint64 id) {
  pausedRun_ = id;
  for (int r = 0; r < model_->rowCount(); ++r)
    showStatus(model_->item(r, StatusColumn),
               model_->item(r, IdColumn)->data(kIdRole).toLongLong());
}

void RunBrowser::showStatus(QStandardItem* item, qint64 id) const {
  const QString stored = item->data(kStatusRole).toString();
  const auto recorded = store::parse_run_status(stored.toStdString());
  if (!recorded) {  // a status this version does not know: shown as stored
    item->setData(QVariant(), kShownStatusRole);
    item->setText(stored);
    item->setForeground(QBrush());
    return;
  }
  JobStatus shown = jobStatusOf(*recorded);
  if (id == pausedRun_ && shown == JobStatus::Running) shown = JobStatus::Paused;
  item->setData(QVariant::fromValue(shown), kShownStatusRole);
  item->setText(jobStatusText(shown));
  const QColor colour = statusColor(shown);
  item->setForeground(colour.isValid() ? QBrush(colour) : QBrush());
}

QString RunBrowser::runDirOf(qint64 id) const {
  const int r = rowOf(id);
  return r < 0 ? QString() : model_->item(r, IdColumn)->data(kRunDirRole).toString();
}

QString RunBrowser::nameOf(qint64 id) const {
  const int r = rowOf(id);
  return r < 0 ? QString() : model_->item(r, NameColumn)->text();
}

QString RunBrowser::kindOf(qint64 id) const {
  const int r = rowOf(id);
  return r < 0 ? QString() : model_->item(r, IdColumn)->data(kKindRole).toString();
}

void RunBrowser::updateButtons() {
  const auto ids = selectedRuns();
  if (renameAction_) {
    for (QAction* a : {renameAction_, tagsAction_, notesAction_}) a->setEnabled(ids.size() == 1);
    // A run another process (or this one) is writing cannot be deleted under it.
    const auto status = ids.size() == 1 ? statusOf(ids.first()) : std::nullopt;
    deleteAction_->setEnabled(ids.size() == 1 && status != JobStatus::Running &&
                              status != JobStatus::Paused);
  }
  openButton_->setEnabled(ids.size() == 1);
  compareButton_->setEnabled(ids.size() >= 2);
  resumeButton_->setEnabled(ids.size() == 1 && statusOf(ids.first()) == JobStatus::Interrupted &&
                            !runDirOf(ids.first()).isEmpty());
}

template <typename Edit>
bool RunBrowser::editRecord(qint64 id, Edit edit, QString* error) {
  try {
    store::RunStore db(dbPath_.toStdString(), store::OpenMode::ReadWrite);
    edit(db, static_cast<int64_t>(id));
  } catch (const std::exception& e) {
    const QString why = QString::fromUtf8(e.what());
    message_->setText(why);
    if (error) *error = why;
    return false;
  }
  refresh();
  return true;
}

bool RunBrowser::renameRun(qint64 id, const QString& name, QString* error) {
  return editRecord(
      id,
      [&](store::RunStore& db, int64_t run) { db.rename_run(run, name.trimmed().toStdString()); },
      error);
}

bool RunBrowser::setRunTags(qint64 id, const QStringList& tags, QString* error) {
  return editRecord(
      id,
      [&](store::RunStore& db, int64_t run) {
        std::vector<std::string> wanted;
        for (const QString& t : tags)
          if (!t.trimmed().isEmpty()) wanted.push_back(t.trimmed().toStdString());
        const auto info = db.find_run(run);
        if (!info) throw std::invalid_argument("there is no run " + std::to_string(run));
        for (const auto& old : info->tags)
          if (std::find(wanted.begin(), wanted.end(), old) == wanted.end()) db.remove_tag(run, old);
        for (const auto& t : wanted) db.add_tag(run, t);
      },
      error);
}

bool RunBrowser::setRunNotes(qint64 id, const QString& notes, QString* error) {
  return editRecord(
      id, [&](store::RunStore& db, int64_t run) { db.set_notes(run, notes.toStdString()); }, error);
}

bool RunBrowser::deleteRun(qint64 id, QString* error) {
  const bool deleted = editRecord(
      id, [&](store::RunStore& db, int64_t run) { db.delete_run(run); }, error);
  if (deleted) emit runDeleted(id);
  return deleted;
}

void RunBrowser::askRename() {
  const auto ids = selectedRuns();
  if (ids.size() != 1) return;
  const QString current = nameOf(ids.first());
  bool ok = false;
  const QString name = QInputDialog::getText(this, tr("Rename run %1").arg(ids.first()),
                                             tr("New name (its folder keeps its own):"),
                                             QLineEdit::Normal, current, &ok);
  if (ok && name != current) renameRun(ids.first(), name);
}

void RunBrowser::askTags() {
  const auto ids = selectedRuns();
  if (ids.size() != 1) return;
  const QString current = model_->item(rowOf(ids.first()), TagsColumn)->text();
  bool ok = false;
  const QString text =
      QInputDialog::getText(this, tr("Tags of run %1").arg(ids.first()),
                            tr("Tags, separated by commas:"), QLineEdit::Normal, current, &ok);
  if (ok) setRunTags(ids.first(), text.split(QLatin1Char(','), Qt::SkipEmptyParts));
}

void RunBrowser::askNotes() {
  const auto ids = selectedRuns();
  if (ids.size() != 1) return;
  QString current;
  try {
    store::RunStore db(dbPath_.toStdString(), store::OpenMode::ReadOnly);
    if (const auto info = db.find_run(ids.first())) current = QString::fromStdString(info->notes);
  } catch (const std::exception& e) {
    message_->setText(QString::fromUtf8(e.what()));
    return;
  }
  bool ok = false;
  const QString text = QInputDialog::getMultiLineText(this, tr("Notes of run %1").arg(ids.first()),
                                                      tr("Notes:"), current, &ok);
  if (ok && text != current) setRunNotes(ids.first(), text);
}

void RunBrowser::askDelete() {
  const auto ids = selectedRuns();
  if (ids.size() != 1 || !deleteAction_->isEnabled()) return;
  const qint64 id = ids.first();
  const QString name = nameOf(id);
  const auto answer = QMessageBox::question(
      this, tr("Delete run %1").arg(id),
      tr("Delete run %1 (%2) from the database, with its checkpoints and weights on disk? This "
         "cannot be undone.")
          .arg(id)
          .arg(name),
      QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
  if (answer == QMessageBox::Yes) deleteRun(id);
}

int RunBrowser::rowOf(qint64 id) const {
  for (int r = 0; r < model_->rowCount(); ++r)
    if (model_->item(r, IdColumn)->data(kIdRole).toLongLong() == id) return r;
  return -1;
}

}  // namespace adala::widgets
