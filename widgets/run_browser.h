#pragma once
// The runs of the database (its own read-only connection): status, stage, best metric, tags.
// Filter by text and status, sort by any column; double-click opens a run, a multi-selection
// can be compared, an interrupted run resumed.
#include <QList>
#include <QString>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QStandardItem;
class QStandardItemModel;
class QTreeView;

namespace adala::widgets {

class RunBrowser : public QWidget {
  Q_OBJECT
 public:
  enum Column { IdColumn, NameColumn, StatusColumn, StageColumn, BestColumn, TagsColumn, CreatedColumn, ColumnCount };

  explicit RunBrowser(QWidget* parent = nullptr);

  void setDatabasePath(const QString& path);
  QString databasePath() const { return dbPath_; }
  QList<qint64> selectedRuns() const;
  void selectRun(qint64 id);
  // Rows after filtering, and the status shown for a run ("" if absent).
  int visibleRunCount() const;
  // "paused" for the run setPausedRun names.
  QString statusOf(qint64 id) const;
  QString runDirOf(qint64 id) const;
  QString kindOf(qint64 id) const;  // "training" | "benchmark" ("" if absent)
  QString nameOf(qint64 id) const;
  QTreeView* view() const { return view_; }
  // The live run held paused (its status reads "paused" until it resumes); -1: none.
  void setPausedRun(qint64 id);

 public slots:
  void refresh();
  void setFilterText(const QString& text);

 signals:
  void runOpened(qint64 id);
  void compareRequested(const QList<qint64>& ids);
  void resumeRequested(qint64 id);
  void refreshed();

 private:
  void updateButtons();
  void applyFilter();
  // The status cell: the stored status (kept for the filter), or paused, in words and colour.
  void showStatus(QStandardItem* item, qint64 id) const;

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
};

}  // namespace adala::widgets
