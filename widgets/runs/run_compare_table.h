#pragma once
// Runs side by side, as MLflow's and W&B's compare views: one column per run; rows for the
// results (teacher / student top-1, gap, status, method, feature map, device, run time), each
// stage's time and last loss, then the config keys whose values differ between the runs
// (flattened paths such as stages.feature_alignment.lr), differing cells highlighted. "Show
// every config key" lists the keys the runs share too. Draws store::RunOverview structs;
// loadRuns reads them through its own read-only connection, once.
#include <QList>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <vector>

#include "engine/store/run_overview.h"

class QCheckBox;
class QLabel;
class QTableWidget;
class QTableWidgetItem;

namespace adala::widgets {

class RunCompareTable : public QWidget {
  Q_OBJECT
 public:
  explicit RunCompareTable(QWidget* parent = nullptr);

  bool loadRuns(const QString& dbPath, const QList<qint64>& runIds, QString* error = nullptr);
  void setRuns(const std::vector<adala::store::RunOverview>& runs);
  const std::vector<adala::store::RunOverview>& runs() const { return runs_; }

  void setShowAllKeys(bool all);
  bool showAllKeys() const;

  // What is shown (for tests): the config paths listed, the text of a row's cell for run
  // column `run`, whether that cell is highlighted as differing; rows by their first column.
  QStringList configPaths() const;
  QString cellText(const QString& rowName, int run) const;
  bool cellHighlighted(const QString& rowName, int run) const;
  QTableWidget* table() const { return table_; }
  QCheckBox* showAllBox() const { return showAll_; }

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void rebuild();
  void addSpanningRow(QTableWidgetItem* item);
  void addSection(const QString& title);
  // highlightDiffering: the values are marked (highlight colour, kHighlightRole) where they
  // are not all the same.
  void addRow(const QString& name, const QStringList& values, bool highlightDiffering);
  void addResultRows();
  void addStageRows();
  void addConfigRows();
  int rowOf(const QString& rowName) const;

  std::vector<adala::store::RunOverview> runs_;
  QLabel* title_ = nullptr;
  QCheckBox* showAll_ = nullptr;
  QTableWidget* table_ = nullptr;
  int firstConfigRow_ = -1;
};

}  // namespace adala::widgets
