// The Summary tab against run databases written through RunStore's API (as the engine's
// RunStoreSink writes them): the panel shows exactly the teacher and student top-1 the database
// holds and the gap between them, each stage's last loss / lr / training accuracy, the config;
// a run that was never evaluated reads "not evaluated", not 0; opening a run in the main window
// shows its summary first.
#include <QtTest/QtTest>

#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QTabWidget>
#include <QTableWidget>

#include <cmath>

#include "app/gui/engine_controller.h"
#include "app/gui/main_window.h"
#include "engine/store/run_overview.h"
#include "engine/store/run_store.h"
#include "engine/train/stage_catalog.h"
#include "tests/gui/gui_test_support.h"
#include "widgets/runs/run_compare_table.h"
#include "widgets/runs/run_summary_panel.h"
#include "widgets/launch/stage_launcher.h"
#include "tests/support/test_suite.h"

using namespace adala;
using namespace adala::gui;
using namespace adala::widgets;

namespace {

std::string configJson(double ftLr, int rank, const std::string& method = "adala") {
  return R"({"name":"summary","seed":3,"method":")" + method +
         R"(","model":{"preset":"fmnist_micro","feature_map":"elu"},"lora_rank":)" +
         std::to_string(rank) +
         R"(,"stages":{"attention_alignment":{"max_steps":20,"lr":0.001},"fine_tuning":{"max_steps":30,"lr":)" +
         QByteArray::number(ftLr, 'g', 17).toStdString() + "}}}";
}

// Loss, lr and training accuracy of a stage at a step (distinct per stage and step).
double lossAt(int stage, qint64 step) { return 2.0 / (1.0 + 0.1 * double(step)) + 0.01 * stage; }
double lrAt(int stage, qint64 step) { return 1e-3 * (1.0 - double(step) / 40.0) / (stage + 1); }
double accAt(qint64 step) { return 0.1 + 0.02 * double(step); }

// A finished run: Stages 1 and 3 logged every 10 steps, evaluated when `evaluated`.
int64_t writeRun(store::RunStore& db, const std::string& config, bool evaluated, double teacher,
                 double student) {
  const int64_t run = db.create_run("summary", config, "cpu", "1.13.1", "0.9.0");
  db.set_run_status(run, store::RunStatus::Running);
  for (int stage : {1, 3}) {
    const std::string name = stage_name(stage);
    db.begin_stage(run, name, stage, stage == 1 ? 20 : 30);
    for (qint64 step = 0; step <= (stage == 1 ? 20 : 30); step += 10) {
      db.add_metric(run, name, step, "loss", -1, lossAt(stage, step));
      db.add_metric(run, name, step, "lr", -1, lrAt(stage, step));
      if (stage == 3) db.add_metric(run, name, step, "train_acc", -1, accAt(step));
      db.add_metric(run, name, step, "block_mse", 0, 0.5);  // per block: not a stage's loss
    }
    // Stage 3 records its training time (12.5 s), Stage 1 none (as before schema v5).
    db.end_stage(run, name, store::RunStatus::Done, stage == 3 ? 12.5 : -1.0);
  }
  if (evaluated) {
    db.add_evaluation(run, stage_name(0), "top1", teacher);
    db.add_evaluation(run, stage_name(3), "top1", student);
  }
  db.add_tag(run, "method:adala");
  db.set_notes(run, "written by test_gui_summary");
  db.set_run_status(run, store::RunStatus::Done);
  db.flush();
  return run;
}

// Formatted the way a reader expects, from the raw value: two decimals and a percent sign.
QString expectedPercent(double fraction) {
  return QStringLiteral("%1 %").arg(QLocale().toString(100.0 * fraction, 'f', 2));
}

}  // namespace

class TestGuiSummary : public QObject {
  Q_OBJECT
  QString dir_, db_;
  int64_t evaluated_ = 0, plain_ = 0;
  QList<qint64> three_;

 private slots:
  void initTestCase() {
    gui_test::isolateSettings();
    QLocale::setDefault(QLocale::c());
    dir_ = gui_test::freshDir(QStringLiteral("summary"));
    db_ = dir_ + QStringLiteral("/runs.sqlite");
    store::RunStore db(db_.toStdString());
    evaluated_ = writeRun(db, configJson(3e-4, 8), true, 0.89312, 0.86217);
    plain_ = writeRun(db, configJson(3e-4, 8), false, 0, 0);
    // Three runs whose configs differ in exactly two keys: the Stage-3 lr and the LoRA rank.
    three_ << writeRun(db, configJson(3e-4, 8), true, 0.9, 0.85)
           << writeRun(db, configJson(1e-4, 8), true, 0.9, 0.875)
           << writeRun(db, configJson(3e-4, 16), false, 0, 0);
  }

  void panel_shows_the_databases_top1_and_gap() {
    // The values as the database holds them, read on their own.
    store::RunStore db(db_.toStdString(), store::OpenMode::ReadOnly);
    const auto evals = db.evaluations(evaluated_);
    const double teacher = evals.at("teacher/top1"), student = evals.at("fine_tuning/top1");
    ADALA_COMPARE_EXACT(teacher, 0.89312);  // stored as a SQLite REAL, read back

    RunSummaryPanel panel;
    QVERIFY(panel.loadRun(db_, evaluated_));
    QCOMPARE(panel.runId(), qint64(evaluated_));
    QCOMPARE(panel.teacherText(), expectedPercent(teacher));  // "89.31 %"
    QCOMPARE(panel.studentText(), expectedPercent(student));  // "86.22 %"
    QCOMPARE(panel.teacherText(), QStringLiteral("89.31 %"));
    QCOMPARE(panel.studentText(), QStringLiteral("86.22 %"));
    // 100 × (0.86217 − 0.89312) = −3.095 points, with a real minus sign.
    const double gap = 100.0 * (student - teacher);
    QCOMPARE(panel.gapText(),
             QString(QChar(0x2212)) + QStringLiteral("%1 pt").arg(-gap, 0, 'f', 2));
    QCOMPARE(panel.gapText(), QString(QChar(0x2212)) + QStringLiteral("3.10 pt"));
    QVERIFY(std::abs(panel.overview().gap_points - gap) < 1e-12);

    // Stages: the last logged loss, lr and training accuracy of each, from the database.
    QTableWidget* stages = panel.stageTable();
    QCOMPARE(stages->rowCount(), 2);
    QCOMPARE(stages->item(0, 0)->text(), stageTitle(1));
    QCOMPARE(stages->item(1, 0)->text(), stageTitle(3));
    QCOMPARE(stages->item(1, 2)->text(), QStringLiteral("30 / 30"));
    for (int row = 0; row < 2; ++row) {
      const int stage = row == 0 ? 1 : 3;
      const auto rows = db.metrics(evaluated_, stage_name(stage), "loss");
      // The double writeRun() stored (SQLite REAL round-trips it): the same function, inputs.
      ADALA_COMPARE_EXACT(rows.back().value, lossAt(stage, stage == 1 ? 20 : 30));
      QCOMPARE(stages->item(row, 6)->text(), QLocale().toString(rows.back().value, 'g', 4));
      const auto lr = db.metrics(evaluated_, stage_name(stage), "lr");
      QCOMPARE(stages->item(row, 7)->text(), QLocale().toString(lr.back().value, 'g', 4));
    }
    // Training time where the stage recorded it, "—" where not.
    QVERIFY(!stages->isColumnHidden(4));
    QCOMPARE(stages->item(1, 4)->text(), QStringLiteral("12.5 s"));
    QCOMPARE(stages->item(0, 4)->text(), QString(QChar(0x2014)));
    // Stored as a SQLite REAL and read back: the same bits.
    ADALA_COMPARE_EXACT(panel.overview().stages[1].compute_seconds, 12.5);
    QCOMPARE(stages->item(1, 8)->text(), expectedPercent(accAt(30)));  // 70.00 %
    QCOMPARE(stages->item(0, 8)->text(), QString(QChar(0x2014)));      // Stage 1 logs none

    // Method, feature map, device and the config.
    QCOMPARE(panel.titleLabel()->text(), QStringLiteral("#%1 summary").arg(evaluated_));
    bool methodShown = false;
    for (auto* label : panel.findChildren<QLabel*>())
      methodShown = methodShown || (label->text().contains("method: adala") &&
                                    label->text().contains("feature map: elu") &&
                                    label->text().contains("device: cpu"));
    QVERIFY(methodShown);
    QTableWidget* config = panel.configTable();
    bool lrRow = false;
    for (int r = 0; r < config->rowCount(); ++r)
      lrRow = lrRow || (config->item(r, 0)->text() == "stages.fine_tuning.lr" &&
                        config->item(r, 1)->text() == "0.0003");
    QVERIFY(lrRow);
  }

  void defaults_are_named_as_such() {
    // A config without "method" or "model.feature_map": the run used adala and elu1.
    store::RunStore db(db_.toStdString());
    const int64_t run = db.create_run(
        "defaults", R"({"name":"defaults","model":{"preset":"fmnist_micro"}})", "cpu", "", "");
    const auto o = store::load_run_overview(db, run);
    QCOMPARE(QString::fromStdString(o.method), QStringLiteral("adala"));
    QVERIFY(o.method_default && o.feature_map_default);
    QCOMPARE(QString::fromStdString(o.feature_map), QStringLiteral("elu1"));
    const auto lolcats = store::flatten_config(configJson(3e-4, 8, "lolcats"));
    QVERIFY(std::find(lolcats.begin(), lolcats.end(),
                      std::make_pair(std::string("method"), std::string("lolcats"))) !=
            lolcats.end());
    RunSummaryPanel panel;
    panel.setOverview(o);
    bool shown = false;
    for (auto* label : panel.findChildren<QLabel*>())
      shown = shown || (label->text().contains("method: adala (default)") &&
                        label->text().contains("feature map: elu1 (default)"));
    QVERIFY(shown);
  }

  void a_run_without_evaluation_reads_not_evaluated() {
    RunSummaryPanel panel;
    QVERIFY(panel.loadRun(db_, plain_));
    QCOMPARE(panel.teacherText(), QStringLiteral("not evaluated"));
    QCOMPARE(panel.studentText(), QStringLiteral("not evaluated"));
    QCOMPARE(panel.gapText(), QString(QChar(0x2014)));
    QVERIFY(!panel.teacherText().contains('0'));
    QVERIFY(std::isnan(panel.overview().teacher_top1));
  }

  void a_missing_run_is_refused() {
    RunSummaryPanel panel;
    QString error;
    QVERIFY(!panel.loadRun(db_, 999, &error));
    QVERIFY2(error.contains("999"), qPrintable(error));
    QCOMPARE(panel.teacherText(), QString(QChar(0x2014)));
  }

  void compare_lists_exactly_the_differing_config_keys() {
    RunCompareTable table;
    QVERIFY(table.loadRuns(db_, three_));
    QCOMPARE(table.configPaths(), (QStringList{"lora_rank", "stages.fine_tuning.lr"}));
    QCOMPARE(table.cellText("lora_rank", 0), QStringLiteral("8"));
    QCOMPARE(table.cellText("lora_rank", 1), QStringLiteral("8"));
    QCOMPARE(table.cellText("lora_rank", 2), QStringLiteral("16"));
    QCOMPARE(table.cellText("stages.fine_tuning.lr", 0), QStringLiteral("0.0003"));
    QCOMPARE(table.cellText("stages.fine_tuning.lr", 1), QStringLiteral("0.0001"));
    QCOMPARE(table.cellText("stages.fine_tuning.lr", 2), QStringLiteral("0.0003"));
    for (int run = 0; run < 3; ++run) {
      QVERIFY(table.cellHighlighted("lora_rank", run));
      QVERIFY(table.cellHighlighted("stages.fine_tuning.lr", run));
    }
    // Results from the evaluations; the unevaluated run says so.
    QCOMPARE(table.cellText("Teacher top-1", 0), QStringLiteral("90.00 %"));
    QCOMPARE(table.cellText("Student top-1", 1), QStringLiteral("87.50 %"));
    QCOMPARE(table.cellText("Gap (student − teacher)", 1), QString(QChar(0x2212)) + "2.50 pt");
    QCOMPARE(table.cellText("Student top-1", 2), QStringLiteral("not evaluated"));
    QCOMPARE(table.cellText("Gap (student − teacher)", 2), QString(QChar(0x2014)));
    QCOMPARE(table.cellText(stageTitle(3) + " · compute time", 0), QStringLiteral("12.5 s"));

    // Every key: the shared ones too, not highlighted.
    table.showAllBox()->click();
    const QStringList all = table.configPaths();
    store::RunStore db(db_.toStdString(), store::OpenMode::ReadOnly);
    QCOMPARE(all.size(), int(store::flatten_config(db.find_run(three_[0])->config_json).size()));
    QVERIFY(all.contains("seed") && all.contains("lora_rank") && all.contains("model.feature_map"));
    QCOMPARE(table.cellText("seed", 2), QStringLiteral("3"));
    QVERIFY(!table.cellHighlighted("seed", 0));
    QVERIFY(table.cellHighlighted("lora_rank", 2));
    table.setShowAllKeys(false);
    QCOMPARE(table.configPaths().size(), 2);
  }

  void opening_a_run_shows_its_summary_first() {
    EngineController controller(db_);
    MainWindow window(&controller);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto* tabs = window.findChild<QTabWidget*>();
    QVERIFY(tabs);
    QVERIFY(tabs->widget(MainWindow::SummaryTab)->isAncestorOf(window.summaryPanel()));
    // Every tab, both docks and the toolbar fit a 1600-pixel-wide screen (the window's own
    // minimum: a wider one runs off the screen's edge, hiding the launcher's buttons).
    QVERIFY2(window.minimumSizeHint().width() <= 1600,
             qPrintable(QString::number(window.minimumSizeHint().width())));
    QCOMPARE(tabs->tabText(MainWindow::SummaryTab), QStringLiteral("Summary"));
    window.showTab(MainWindow::PlotTab);
    QVERIFY(window.openRun(evaluated_));
    QCOMPARE(tabs->currentIndex(), int(MainWindow::SummaryTab));
    QCOMPARE(window.summaryPanel()->runId(), qint64(evaluated_));
    QCOMPARE(window.summaryPanel()->studentText(), QStringLiteral("86.22 %"));
    QVERIFY(window.openRun(plain_));
    QCOMPARE(window.summaryPanel()->studentText(), QStringLiteral("not evaluated"));
    window.showTab(MainWindow::PlotTab);
    QTest::keyClick(&window, Qt::Key_0, Qt::ControlModifier);
    QCOMPARE(tabs->currentIndex(), int(MainWindow::SummaryTab));
    // Compare: the Summary tab shows the compare table; opening one run brings the summary back.
    window.showTab(MainWindow::PlotTab);
    window.compareRuns(three_);
    QCOMPARE(tabs->currentIndex(), int(MainWindow::SummaryTab));
    QVERIFY(window.compareTable()->isVisible());
    QVERIFY(!window.summaryPanel()->isVisible());
    QCOMPARE(window.compareTable()->configPaths().size(), 2);
    QVERIFY(window.openRun(evaluated_));
    QVERIFY(window.summaryPanel()->isVisible());
  }

  // Opening a recorded run puts its configuration in the launcher, to edit or run again; an
  // experiment the user edited and did not save stays.
  void opening_a_run_offers_its_config_in_the_launcher() {
    EngineController controller(db_);
    MainWindow window(&controller);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    StageLauncher* launcher = window.launcher();
    QCOMPARE(launcher->fileLabel()->text(), QStringLiteral("(unsaved experiment)"));
    QVERIFY(window.openRun(plain_));
    QCOMPARE(launcher->fileLabel()->text(),
             QStringLiteral("run #%1's recorded config").arg(plain_));
    QLineEdit* seed = launcher->field(QStringLiteral("seed"));
    QVERIFY(seed);
    QCOMPARE(seed->text(), QStringLiteral("3"));
    QVERIFY(!launcher->hasUnsavedEdits());
    // The user edits a field as a person would, then opens another run.
    seed->selectAll();
    QTest::keyClicks(seed, QStringLiteral("41"));
    QVERIFY(launcher->hasUnsavedEdits());
    QVERIFY(window.openRun(evaluated_));
    QCOMPARE(launcher->fileLabel()->text(),
             QStringLiteral("run #%1's recorded config").arg(plain_));
    QCOMPARE(launcher->document().value(QStringLiteral("seed")).toInt(), 41);
    QVERIFY(window.statusLabel()->text().contains(QStringLiteral("keeps its unsaved experiment")));
  }
};

ADALA_TEST_MAIN(TestGuiSummary)
#include "test_gui_summary.moc"
