#pragma once
// The runs of the database (its own read-only connection): status, stage, best metric, tags.
// Filter by text and status, sort by any column; double-click opens a run, a multi-selection
// can be compared, an interrupted run resumed; a run can be renamed (F2), tagged, annotated and
// deleted (Delete, after a question) from its context menu.
#include <QList>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <optional>

#include "widgets/runs/job_status.h"

class QAction;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QStandardItem;
class QStandardItemModel;
class QTreeView;

namespace adala::store {
class RunStore;
struct RunInfo;
}  // namespace adala::store

namespace adala::widgets {

class RunBrowser : public QWidget {
  Q_OBJECT
 public:
  enum Column {
    IdColumn,
    NameColumn,
    StatusColumn,
    StageColumn,
    BestColumn,
    TagsColumn,
    CreatedColumn,
    ColumnCount
  };

  explicit RunBrowser(QWidget* parent = nullptr);

  void setDatabasePath(const QString& path);
  QString databasePath() const { return dbPath_; }
  QList<qint64> selectedRuns() const;
  void selectRun(qint64 id);
  // Rows after filtering, and the status shown for a run (none if absent): its recorded status,
  // or Paused for the run setPausedRun names.
  int visibleRunCount() const;
  std::optional<JobStatus> statusOf(qint64 id) const;
  QString runDirOf(qint64 id) const;
  QString kindOf(qint64 id) const;  // "training" | "benchmark" ("" if absent)
  QString nameOf(qint64 id) const;
  QTreeView* view() const { return view_; }
  // The live run held paused (its status reads paused until it resumes); -1: none.
  void setPausedRun(qint64 id);
  // Edits of a run's record through a short read-write connection; false + the reason (also
  // shown under the list). The list is read again after each.
  bool renameRun(qint64 id, const QString& name, QString* error = nullptr);
  bool setRunTags(qint64 id, const QStringList& tags, QString* error = nullptr);
  bool setRunNotes(qint64 id, const QString& notes, QString* error = nullptr);
  bool deleteRun(qint64 id, QString* error = nullptr);
  QAction* renameAction() const { return renameAction_; }
  QAction* tagsAction() const { return tagsAction_; }
  QAction* notesAction() const { return notesAction_; }
  QAction* deleteAction() const { return deleteAction_; }

 public slots:
  void refresh();
  void setFilterText(const QString& text);

 signals:
  void runOpened(qint64 id);
  void compareRequested(const QList<qint64>& ids);
  void resumeRequested(qint64 id);
  void refreshed();
  void runDeleted(qint64 id);

 private:
  QHBoxLayout* buildFilterRow();
  QTreeView* buildRunView();
  void connectControls(QPushButton* refreshButton);
  void addEditActions();
  // One run's cells, read from `db`.
  QList<QStandardItem*> runRow(store::RunStore& db, const store::RunInfo& run) const;
  void showStage(QStandardItem* item, store::RunStore& db, const store::RunInfo& run) const;
  void showBest(QStandardItem* item, store::RunStore& db, qint64 runId) const;
  // A failed read: says why under the list and schedules another try.
  void showReadFailure(const QString& reason);
  void fitColumns();
  void updateButtons();
  void applyFilter();
  // The status cell: the stored status (kept for the filter), or Paused, in words and colour.
  void showStatus(QStandardItem* item, qint64 id) const;
  // The dialogs behind the actions, for the one selected run.
  void askRename();
  void askTags();
  void askNotes();
  void askDelete();
  // Runs `edit` on a read-write store; false + message on failure.
  int rowOf(qint64 id) const;  // in model_, -1 if absent
  template <typename Edit>
  bool editRecord(qint64 id, Edit edit, QString* error);

  QString dbPath_;
  QLineEdit* filter_ = nullptr;
  QComboBox* statusFilter_ = nullptr;
  QTreeView* view_ = nullptr;
  QStandardItemModel* model_ = nullptr;
  QSortFilterProxyModel* proxy_ = nullptr;
  QPushButton* openButton_ = nullptr;
  QPushButton* compareButton_ = nullptr;
  QPushButton* resumeButton_ = nullptr;
  QLabel* message_ = nullptr;
  qint64 pausedRun_ = -1;
  // Reads that failed in a row; each schedules one more try, up to kReadRetries.
  static constexpr int kReadRetries = 3;
  int failedReads_ = 0;
  QAction* renameAction_ = nullptr;
  QAction* tagsAction_ = nullptr;
  QAction* notesAction_ = nullptr;
  QAction* deleteAction_ = nullptr;
};

}  // namespace adala::widgets
