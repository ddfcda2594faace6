#pragma once
// The trained attention plans of the run database (engine/plan/plan_record.h, written by
// `adala plan CONFIG --res R --train`), read through its own read-only connection: top-1
// against ms / image or peak memory (a toggle) at one resolution where every plan has a cost,
// one point per plan labelled with its name and its per-block strip (a coloured square per
// block: softmax, window + linear, linear), the accuracy-cost frontier drawn as steps through
// its points; a planning-session filter; a table of the points below. A click on a point or a
// double-click (Enter) on a row asks for its run to be opened (runOpened).
#include <QString>
#include <QVector>
#include <QWidget>

#include <vector>

#include "engine/plan/plan_record.h"

class QButtonGroup;
class QComboBox;
class QHBoxLayout;
class QCPGraph;
class QCustomPlot;
class QLabel;
class QMouseEvent;
class QPushButton;
class QRadioButton;
class QStackedWidget;
class QTableWidget;

namespace adala::widgets {

class PlanFrontierView : public QWidget {
  Q_OBJECT
 public:
  enum Column {
    PlanColumn,
    SessionColumn,  // hidden unless several sessions are shown
    BlocksColumn,
    Top1Column,
    GapColumn,
    MsColumn,
    PeakColumn,
    RunColumn,
    FrontierColumn,
    ColumnCount
  };

  explicit PlanFrontierView(QWidget* parent = nullptr);

  void setDatabasePath(const QString& path);
  QString databasePath() const { return dbPath_; }

  // The session shown ("" = every session); false where the database has no such session.
  QString planner() const;
  bool setPlanner(const QString& folder);
  QStringList planners() const;  // the sessions the filter offers, "" (all) first
  // The resolution shown (0: none; the plans share no resolution with costs).
  qint64 resolution() const;
  bool setResolution(qint64 resolution);
  QVector<qint64> resolutions() const;
  FrontierCost costAxis() const { return axis_; }
  void setCostAxis(FrontierCost axis);

  // What is shown: the points of the session (oldest run first) and the table's rows in order.
  const std::vector<PlanPoint>& points() const { return points_; }
  const std::vector<PlanRow>& rows() const { return rows_; }
  qint64 runAtRow(int row) const;
  bool frontierAtRow(int row) const;
  // The x of the run's point (ms, or MB of peak memory), NaN where it is not drawn; its pixel
  // in plot() coordinates ((-1, -1) where it is not drawn).
  double plottedX(qint64 run) const;
  QPoint pointPosition(qint64 run) const;
  // The run whose point is within `radius` pixels of `pixel` (the nearest), or -1.
  qint64 runAt(const QPoint& pixel, double radius = 10.0) const;
  // No plan to show: the message says why and how to record some.
  bool showsEmptyState() const;
  QString message() const;

  QCustomPlot* plot() const { return plot_; }
  QTableWidget* table() const { return table_; }
  QComboBox* plannerCombo() const { return plannerCombo_; }
  QComboBox* resolutionCombo() const { return resolutionCombo_; }
  QRadioButton* msButton() const { return msButton_; }
  QRadioButton* peakButton() const { return peakButton_; }
  QPushButton* refreshButton() const { return refreshButton_; }
  QCPGraph* pointsGraph() const { return pointsGraph_; }
  QCPGraph* frontierGraph() const { return frontierGraph_; }

  static QString emptyHint();

 public slots:
  // Reads the database again, keeping the session, resolution and cost shown where it can.
  void refresh();

 signals:
  void runOpened(qint64 id);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  struct Plotted {
    size_t index = 0;  // into points_
    double x = 0, y = 0;
  };
  QHBoxLayout* buildControls();
  QWidget* buildContent();
  void connectControls();
  void choosePoints();  // points_ of the session, the resolution combo
  void redraw();
  void fillTable();
  void drawPlot();
  void plotPoints(const QColor& text, const QColor& base);
  void addPlotItems(const QColor& text);
  void fitPlotRanges();
  void updateLegend();
  void updateSummary(qint64 res);
  void showEmpty(const QString& text);
  void onPlotPress(QMouseEvent* event);
  void onPlotRelease(QMouseEvent* event);
  void onPlotMove(QMouseEvent* event);
  void selectRun(qint64 run);
  QString pointText(const PlanPoint& p) const;

  QString dbPath_;
  std::vector<PlanPoint> all_, points_;
  std::vector<PlanRow> rows_;
  std::vector<Plotted> plotted_;
  FrontierCost axis_ = FrontierCost::MsPerImage;
  bool updating_ = false;
  QPoint pressPos_{-1, -1};

  QStackedWidget* stack_ = nullptr;
  QLabel* empty_ = nullptr;
  QComboBox* plannerCombo_ = nullptr;
  QComboBox* resolutionCombo_ = nullptr;
  QRadioButton* msButton_ = nullptr;
  QRadioButton* peakButton_ = nullptr;
  QButtonGroup* costGroup_ = nullptr;
  QPushButton* refreshButton_ = nullptr;
  QLabel* summary_ = nullptr;
  QLabel* legend_ = nullptr;
  QCustomPlot* plot_ = nullptr;
  QCPGraph* pointsGraph_ = nullptr;
  QCPGraph* frontierGraph_ = nullptr;
  QTableWidget* table_ = nullptr;
};

}  // namespace adala::widgets
