// The stage launcher's form, validated live by the engine's own parser: a bad field disables
// Start and says which field and why; fixing it enables Start again.
#include <QtTest/QtTest>

#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTabWidget>

#include "app/gui/engine_controller.h"
#include "tests/gui/gui_test_support.h"
#include "widgets/stage_launcher.h"

using namespace adala;
using adala::widgets::StageLauncher;

class TestGuiLauncher : public QObject {
  Q_OBJECT

  QString dir_;
  std::unique_ptr<StageLauncher> launcher_;

  // Replaces a field's text the way a user does: click, select all, type.
  void retype(const QString& path, const QString& text) {
    QLineEdit* edit = launcher_->field(path);
    QVERIFY2(edit, qPrintable(path));
    auto* tabs = launcher_->findChild<QTabWidget*>();
    for (int t = 0; t < tabs->count(); ++t)
      if (tabs->widget(t)->isAncestorOf(edit)) tabs->setCurrentIndex(t);
    QTest::mouseClick(edit, Qt::LeftButton);
    QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClick(edit, Qt::Key_Delete);
    QTest::keyClicks(edit, text);
  }

 private slots:
  void initTestCase() {
    gui_test::isolateSettings();
    gui::registerMetaTypes();
    dir_ = gui_test::freshDir("launcher");
  }

  void init() {
    launcher_ = std::make_unique<StageLauncher>();
    launcher_->setPresets(gui::EngineController::presetNames());
    launcher_->setValidator(&gui::EngineController::validateConfig);
    launcher_->resize(480, 800);
    launcher_->show();
    QVERIFY(QTest::qWaitForWindowExposed(launcher_.get()));
    QVERIFY(launcher_->loadFile(gui_test::writeTinyExperiment(dir_, "form")));
  }

  void cleanup() { launcher_.reset(); }

  void valid_file_enables_start() {
    QVERIFY2(launcher_->problem().ok(), qPrintable(launcher_->problem().field + ": " + launcher_->problem().reason));
    QVERIFY(launcher_->startButton()->isEnabled());
    QCOMPARE(launcher_->field("stages.attention_alignment.max_steps")->text(), QString("5"));
    QCOMPARE(launcher_->field("data.train_limit")->text(), QString("256"));
    QSignalSpy start(launcher_.get(), &StageLauncher::startRequested);
    QTest::mouseClick(launcher_->startButton(), Qt::LeftButton);
    QCOMPARE(start.count(), 1);
    const auto request = start.first().first().value<widgets::StartRequest>();
    QCOMPARE(request.stages, (QList<int>{0, 1, 2, 3}));
    QVERIFY(request.configJson.contains("\"fmnist_micro\""));
  }

  void bad_field_disables_start_and_says_why() {
    const QString path = "stages.attention_alignment.lr";
    retype(path, "-1");
    QLineEdit* edit = launcher_->field(path);
    QCOMPARE(launcher_->problem().field, path);
    QVERIFY2(launcher_->problem().reason.contains("out of range"), qPrintable(launcher_->problem().reason));
    QVERIFY(!launcher_->startButton()->isEnabled());
    QVERIFY(launcher_->problemLabel()->text().contains(path));
    QVERIFY(launcher_->problemLabel()->text().contains("out of range"));
    QVERIFY(edit->property("invalid").toBool());
    QCOMPARE(edit->toolTip(), launcher_->problem().reason);
    auto* tabs = launcher_->findChild<QTabWidget*>();
    QVERIFY(tabs->tabText(1).contains(QStringLiteral("⚠")));
    // A disabled Start does nothing.
    QSignalSpy start(launcher_.get(), &StageLauncher::startRequested);
    QTest::mouseClick(launcher_->startButton(), Qt::LeftButton);
    QCOMPARE(start.count(), 0);

    // Not a number at all: the engine names the expected type.
    retype(path, "abc");
    QCOMPARE(launcher_->problem().field, path);
    QVERIFY2(launcher_->problem().reason.contains("expected a number"), qPrintable(launcher_->problem().reason));
    QVERIFY(!launcher_->startButton()->isEnabled());

    // Fixed: Start comes back, the mark goes.
    retype(path, "0.002");
    QVERIFY(launcher_->problem().ok());
    QVERIFY(launcher_->startButton()->isEnabled());
    QVERIFY(!edit->property("invalid").toBool());
    QVERIFY(!tabs->tabText(1).contains(QStringLiteral("⚠")));
  }

  void bad_top_level_and_integer_fields() {
    retype("seed", "-3");
    QCOMPARE(launcher_->problem().field, QString("seed"));
    QVERIFY(!launcher_->startButton()->isEnabled());
    retype("seed", "4");
    QVERIFY(launcher_->startButton()->isEnabled());
    retype("stages.teacher.batch_size", "2.5");
    QCOMPARE(launcher_->problem().field, QString("stages.teacher.batch_size"));
    QVERIFY2(launcher_->problem().reason.contains("integer"), qPrintable(launcher_->problem().reason));
    QVERIFY(!launcher_->startButton()->isEnabled());
    retype("stages.teacher.batch_size", "");  // empty: the default
    QVERIFY(launcher_->problem().ok());
  }

  void stage_selection_is_validated() {
    launcher_->findChild<QTabWidget*>()->setCurrentIndex(1);
    QTest::mouseClick(launcher_->stageCheck(0), Qt::LeftButton);  // no teacher, no weights
    QVERIFY(!launcher_->stageCheck(0)->isChecked());
    QCOMPARE(launcher_->problem().field, QString("teacher.weights"));
    QVERIFY(!launcher_->startButton()->isEnabled());
    for (int s = 1; s < 4; ++s) launcher_->stageCheck(s)->setChecked(false);
    QCOMPARE(launcher_->problem().field, QString("stages"));
    QVERIFY(launcher_->problemLabel()->text().contains("at least one stage"));
    launcher_->setSelectedStages({0, 1});
    QVERIFY(launcher_->startButton()->isEnabled());
  }
};

QTEST_MAIN(TestGuiLauncher)
#include "test_gui_launcher.moc"
