// The Plans tab (widgets/plans/plan_frontier_view.h) against a run database the test writes with
// record_plan_point, driven as a person would: the table's rows and frontier marks, a click on
// a point's pixel, the cost toggle clicked, the session and resolution combos changed from the
// keyboard, a row double-clicked, the empty state; and in the main window, Ctrl+Shift+P and a
// point opening its run as the run list does.
#include <QtTest/QtTest>

#include <QComboBox>
#include <QPushButton>
#include <QRadioButton>
#include <QTabWidget>
#include <QTableWidget>
#include <qcustomplot.h>

#include <cmath>

#include "app/gui/engine_controller.h"
#include "app/gui/main_window.h"
#include "engine/plan/plan_record.h"
#include "engine/store/run_store.h"
#include "tests/gui/gui_test_support.h"
#include "tests/plan/plan_fixture.h"
#include "tests/support/test_suite.h"
#include "widgets/plans/plan_frontier_view.h"
#include "widgets/runs/run_browser.h"
#include "widgets/runs/run_summary_panel.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_gui_plans {

using namespace adala;
using namespace adala::gui;
using namespace adala::widgets;

namespace {

QStringList column(const PlanFrontierView& view, int col) {
  QStringList texts;
  for (int r = 0; r < view.table()->rowCount(); ++r) texts << view.table()->item(r, col)->text();
  return texts;
}

QList<qint64> frontierRuns(const PlanFrontierView& view) {
  QList<qint64> runs;
  for (int r = 0; r < view.table()->rowCount(); ++r)
    if (view.frontierAtRow(r)) runs << view.runAtRow(r);
  return runs;
}

// Picks a combo box entry from the keyboard: focus, then the arrow keys.
void chooseWithKeys(QComboBox* combo, int index) {
  combo->setFocus();
  while (combo->currentIndex() < index) QTest::keyClick(combo, Qt::Key_Down);
  while (combo->currentIndex() > index) QTest::keyClick(combo, Qt::Key_Up);
}

}  // namespace

class TestGuiPlans : public QObject {
  Q_OBJECT
  QString dir_;
  plan_test::Fixture f_;

 private slots:
  void initTestCase() {
    gui_test::isolateSettings();
    dir_ = gui_test::freshDir(QStringLiteral("plans"));
    f_ = plan_test::write_fixture((dir_ + "/runs.sqlite").toStdString());
  }

  void table_rows_and_frontier_of_a_session() {
    PlanFrontierView view;
    view.resize(1000, 800);
    view.setDatabasePath(QString::fromStdString(f_.path));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(!view.showsEmptyState());
    QCOMPARE(view.planners(), (QStringList{QString(), "sess-a", "sess-b"}));
    QCOMPARE(view.plannerCombo()->currentText(), QStringLiteral("All sessions"));
    // Every session: only 32 px has a cost for each plan; a Session column.
    QCOMPARE(view.resolutions(), (QVector<qint64>{32}));
    QCOMPARE(view.table()->rowCount(), 7);
    QVERIFY(!view.table()->isColumnHidden(PlanFrontierView::SessionColumn));

    chooseWithKeys(view.plannerCombo(), 1);
    QCOMPARE(view.planner(), QStringLiteral("sess-a"));
    QVERIFY(view.table()->isColumnHidden(PlanFrontierView::SessionColumn));
    QCOMPARE(view.resolutions(), (QVector<qint64>{32, 64}));
    QCOMPARE(view.resolution(), qint64(32));
    QCOMPARE(column(view, PlanFrontierView::PlanColumn),
             (QStringList{"all-linear", "window3", "softmax-0", "softmax-0-3", "teacher"}));
    QCOMPARE(column(view, PlanFrontierView::BlocksColumn),
             (QStringList{"LLLL", "WWWW", "SLLL", "SLLS", "SSSS"}));
    QCOMPARE(column(view, PlanFrontierView::Top1Column),
             (QStringList{"80.00", "84.00", "86.00", "85.00", "90.00"}));
    QCOMPARE(column(view, PlanFrontierView::GapColumn),
             (QStringList{"-10.00", "-6.00", "-4.00", "-5.00", "0.00"}));
    QCOMPARE(column(view, PlanFrontierView::MsColumn),
             (QStringList{"1.000", "1.500", "2.000", "2.500", "4.000"}));
    QCOMPARE(column(view, PlanFrontierView::PeakColumn),
             (QStringList{"10.00", "30.00", "18.00", "25.00", "40.00"}));
    QCOMPARE(column(view, PlanFrontierView::RunColumn).last(), QString::number(f_.teacher));
    QCOMPARE(column(view, PlanFrontierView::FrontierColumn), (QStringList{"●", "●", "●", "", "●"}));
    QCOMPARE(frontierRuns(view),
             (QList<qint64>{f_.all_linear, f_.window3, f_.softmax0, f_.teacher}));
    // The plot: a point per plan, the frontier's four drawn as steps.
    QCOMPARE(view.pointsGraph()->dataCount(), 5);
    QCOMPARE(view.frontierGraph()->dataCount(), 4);
    QCOMPARE(view.frontierGraph()->lineStyle(), QCPGraph::lsStepLeft);
    QVERIFY(view.message().contains(QStringLiteral("all-linear → window3 → softmax-0 → teacher")));

    // 64 px from the keyboard: other costs, the same frontier order by ms.
    chooseWithKeys(view.resolutionCombo(), 1);
    QCOMPARE(view.resolution(), qint64(64));
    // The fixture's ms / image, stored as a SQLite REAL and read back: the same bits.
    ADALA_COMPARE_EXACT(view.plottedX(f_.teacher), 16.0);
    QCOMPARE(column(view, PlanFrontierView::MsColumn).last(), QStringLiteral("16.000"));
    QVERIFY(view.plot()->xAxis->label().contains(QStringLiteral("64 px")));

    chooseWithKeys(view.plannerCombo(), 2);
    QCOMPARE(column(view, PlanFrontierView::PlanColumn), (QStringList{"all-linear", "teacher"}));
    QCOMPARE(view.resolutions(), (QVector<qint64>{32}));
  }

  void toggling_the_cost_moves_the_points() {
    PlanFrontierView view;
    view.resize(1000, 800);
    view.setDatabasePath(QString::fromStdString(f_.path));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(view.setPlanner(QStringLiteral("sess-a")));
    QCOMPARE(view.costAxis(), FrontierCost::MsPerImage);
    // The fixture's costs read back from SQLite (ms as stored; MB = bytes / 1e6 of whole
    // millions, an exact quotient): the same bits.
    ADALA_COMPARE_EXACT(view.plottedX(f_.window3), 1.5);
    ADALA_COMPARE_EXACT(view.plottedX(f_.softmax0), 2.0);
    QVERIFY(view.plot()->xAxis->label().startsWith(QStringLiteral("ms / image")));
    QTest::mouseClick(view.peakButton(), Qt::LeftButton);
    QCOMPARE(view.costAxis(), FrontierCost::PeakBytes);
    ADALA_COMPARE_EXACT(view.plottedX(f_.window3), 30.0);  // MB
    ADALA_COMPARE_EXACT(view.plottedX(f_.softmax0), 18.0);
    QVERIFY(view.plot()->xAxis->label().startsWith(QStringLiteral("peak memory (MB)")));
    // By peak memory window3 (30 MB, 84 %) is beaten by softmax-0 (18 MB, 86 %).
    QCOMPARE(frontierRuns(view), (QList<qint64>{f_.all_linear, f_.softmax0, f_.teacher}));
    QCOMPARE(column(view, PlanFrontierView::PlanColumn).first(), QStringLiteral("all-linear"));
    QCOMPARE(column(view, PlanFrontierView::PlanColumn).at(1), QStringLiteral("softmax-0"));
    QTest::mouseClick(view.msButton(), Qt::LeftButton);
    ADALA_COMPARE_EXACT(view.plottedX(f_.window3), 1.5);
  }

  void clicking_a_point_or_a_row_opens_its_run() {
    PlanFrontierView view;
    view.resize(1000, 800);
    view.setDatabasePath(QString::fromStdString(f_.path));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(view.setPlanner(QStringLiteral("sess-a")));
    QSignalSpy opened(&view, &PlanFrontierView::runOpened);
    view.plot()->replot();
    for (qint64 run : {f_.softmax0, f_.teacher, f_.window3}) {
      const QPoint at = view.pointPosition(run);
      QVERIFY(view.plot()->rect().contains(at));
      QTest::mouseClick(view.plot(), Qt::LeftButton, {}, at);
      QCOMPARE(opened.size(), 1);
      QCOMPARE(opened.takeFirst().at(0).toLongLong(), run);
      // Its row is selected.
      QCOMPARE(view.runAtRow(view.table()->currentRow()), run);
    }
    // A click on empty plot area opens nothing.
    QTest::mouseClick(view.plot(), Qt::LeftButton, {}, QPoint(5, 5));
    QCOMPARE(opened.size(), 0);
    // A row double-clicked.
    const QRect cell = view.table()->visualItemRect(view.table()->item(3, 0));
    QTest::mouseClick(view.table()->viewport(), Qt::LeftButton, {}, cell.center());
    QTest::mouseDClick(view.table()->viewport(), Qt::LeftButton, {}, cell.center());
    QCOMPARE(opened.size(), 1);
    QCOMPARE(opened.takeFirst().at(0).toLongLong(), f_.softmax03);
  }

  void empty_database_says_how_to_record_plans() {
    const QString path = dir_ + "/empty.sqlite";
    {
      store::RunStore db(path.toStdString());
      db.create_run("not a plan", "{}", "cpu", "1.13", "0.1");
    }
    PlanFrontierView view;
    view.setDatabasePath(path);
    QVERIFY(view.showsEmptyState());
    QVERIFY(view.message().contains(QStringLiteral("adala plan CONFIG --res R --train")));
    QCOMPARE(view.table()->rowCount(), 0);
    QCOMPARE(view.planners(), QStringList{QString()});
    // A plan recorded later shows after Refresh.
    {
      store::RunStore db(path.toStdString());
      plan_test::record(
          db, plan_test::make_point("teacher", "s", {plan_test::S}, 0.9, {{32, 1.0, 1e6}}));
    }
    QTest::mouseClick(view.refreshButton(), Qt::LeftButton);
    QVERIFY(!view.showsEmptyState());
    QCOMPARE(view.table()->rowCount(), 1);
    // A database that is not there: the same hint.
    view.setDatabasePath(dir_ + "/missing.sqlite");
    QVERIFY(view.showsEmptyState());
  }

  void main_window_plans_tab() {
    EngineController controller(QString::fromStdString(f_.path));
    MainWindow window(&controller);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto* tabs = window.findChild<QTabWidget*>();
    QVERIFY(tabs);
    QVERIFY2(window.minimumSizeHint().width() <= 1600,
             qPrintable(QString::number(window.minimumSizeHint().width())));
    window.showTab(MainWindow::PlotTab);
    QTest::keyClick(&window, Qt::Key_P, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(tabs->currentWidget(), window.planFrontier());
    QCOMPARE(tabs->tabText(tabs->currentIndex()), QStringLiteral("Plans"));
    PlanFrontierView* view = window.planFrontier();
    QCOMPARE(view->table()->rowCount(), 7);
    QVERIFY(view->setPlanner(QStringLiteral("sess-a")));
    view->plot()->replot();
    QTest::mouseClick(view->plot(), Qt::LeftButton, {}, view->pointPosition(f_.softmax0));
    // Opened as the run list opens a run: its summary, and selected in the run list.
    QCOMPARE(tabs->currentIndex(), int(MainWindow::SummaryTab));
    QCOMPARE(window.summaryPanel()->runId(), qint64(f_.softmax0));
    QCOMPARE(window.runBrowser()->selectedRuns(), QList<qint64>{f_.softmax0});
    // F5 reads the database again (the run list, and the plans with it).
    {
      store::RunStore db(f_.path);
      plan_test::record(
          db, plan_test::make_point("softmax-1", "sess-a",
                                    {plan_test::L, plan_test::S, plan_test::L, plan_test::L}, 0.87,
                                    {{32, 2.2, 19e6}, {64, 6.0, 61e6}}));
    }
    QTest::keyClick(&window, Qt::Key_F5);
    QCOMPARE(view->planner(), QStringLiteral("sess-a"));  // kept
    QCOMPARE(view->table()->rowCount(), 6);
  }
};

ADALA_TEST_MAIN(TestGuiPlans)
}  // namespace test_gui_plans

#include "test_gui_plans.moc"
