// The attention plan in the front ends, driven as a person does: the launcher's "Attention
// plan" field writes the document's "attention" object (per block, or the softmax blocks and
// one mode, and the window's k), reads it back, and shows the engine's errors on the field;
// the Scaling tab's form passes the plan to `adala bench scaling` as --softmax-blocks / --plan
// / --window.
#include <QtTest/QtTest>

#include <QCheckBox>
#include <QComboBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QToolButton>

#include "app/gui/engine_controller.h"
#include "app/gui/scaling_bench_process.h"
#include "app/gui/scaling_panel.h"
#include "tests/gui/gui_test_support.h"
#include "widgets/launch/attention_blocks_editor.h"
#include "widgets/launch/attention_plan_form.h"
#include "widgets/scaling/scaling_form.h"
#include "widgets/launch/stage_launcher.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_gui_attention_plan {

using namespace adala;
using adala::gui::ScalingBenchProcess;
using adala::gui::ScalingPanel;
using adala::widgets::AttentionBlocksEditor;
using adala::widgets::AttentionPlanForm;
using adala::widgets::ScalingForm;
using adala::widgets::StageLauncher;

namespace {

QString writeScript(const QString& path, const QByteArray& body) {
  QFile f(path);
  f.open(QIODevice::WriteOnly | QIODevice::Truncate);
  f.write("#!/bin/sh\n" + body);
  f.close();
  QFile::setPermissions(path,
                        QFile::permissions(path) | QFileDevice::ExeOwner | QFileDevice::ExeUser);
  return path;
}

}  // namespace

class TestGuiAttentionPlan : public QObject {
  Q_OBJECT

  QString dir_;
  std::unique_ptr<StageLauncher> launcher_;

  AttentionPlanForm* plan() const { return launcher_->planForm(); }
  QJsonObject attention() const {
    return launcher_->document().value(QStringLiteral("attention")).toObject();
  }

  void showTab(QWidget* w) {
    auto* tabs = launcher_->findChild<QTabWidget*>();
    for (int t = 0; t < tabs->count(); ++t)
      if (tabs->widget(t)->isAncestorOf(w)) tabs->setCurrentIndex(t);
  }

  // Picks a combo box entry with the keyboard, as a person tabbing through the form does.
  static void chooseIndex(QComboBox* combo, int target) {
    combo->setFocus();
    QVERIFY(target >= 0 && target < combo->count());
    while (combo->currentIndex() < target) QTest::keyClick(combo, Qt::Key_Down);
    while (combo->currentIndex() > target) QTest::keyClick(combo, Qt::Key_Up);
    QCOMPARE(combo->currentIndex(), target);
  }

  static void retype(QWidget* edit, const QString& text) {
    QTest::mouseClick(edit, Qt::LeftButton);
    QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClick(edit, Qt::Key_Delete);
    QTest::keyClicks(edit, text);
  }

  static QStringList letters(AttentionBlocksEditor* blocks) {
    QStringList out;
    for (int b = 0; b < blocks->depth(); ++b) out << blocks->blockButton(b)->text();
    return out;
  }

  QString problemText() const {
    return launcher_->problem().field + ": " + launcher_->problem().reason;
  }

 private slots:
  void initTestCase() {
    gui_test::isolateSettings();
    gui::registerMetaTypes();
    dir_ = gui_test::freshDir("attention-plan");
  }

  void init() {
    launcher_ = std::make_unique<StageLauncher>();
    launcher_->setPresets(gui::EngineController::presetNames());
    launcher_->setPresetDepths(gui::EngineController::presetDepths());
    launcher_->setValidator(&gui::EngineController::validateConfig);
    launcher_->resize(520, 900);
    launcher_->show();
    QVERIFY(QTest::qWaitForWindowExposed(launcher_.get()));
    QVERIFY(launcher_->loadFile(gui_test::writeTinyExperiment(dir_, "plan")));  // fmnist_micro
    showTab(plan());
  }

  void cleanup() { launcher_.reset(); }

  // No "attention" in the file: the method's attention, nothing written.
  void without_a_plan_nothing_is_written() {
    QCOMPARE(plan()->form(), AttentionPlanForm::MethodDefault);
    QVERIFY(!plan()->blocksEditor()->isVisible());
    QVERIFY(!plan()->softmaxBlocksEdit()->isVisible());
    QCOMPARE(plan()->blocksEditor()->depth(), 2);  // fmnist_micro's blocks
    QCOMPARE(plan()->windowBox()->value(), 3);
    QVERIFY2(launcher_->problem().ok(), qPrintable(problemText()));
    QVERIFY(!launcher_->document().contains("attention"));
  }

  // Per block: one toggle per block, clicked or Space; the document gets "blocks", Start
  // hands it to the engine; the window's k is odd.
  void per_block_modes_are_written() {
    chooseIndex(plan()->formCombo(), AttentionPlanForm::PerBlock);
    AttentionBlocksEditor* blocks = plan()->blocksEditor();
    QVERIFY(blocks->isVisible());
    QCOMPARE(letters(blocks), (QStringList{"L", "L"}));
    QCOMPARE(attention(), (QJsonObject{{"blocks", QJsonArray{"linear", "linear"}}}));
    QVERIFY2(launcher_->problem().ok(), qPrintable(problemText()));
    // Block 0: linear -> window+linear -> softmax (two clicks); block 1: Space -> window+linear.
    QTest::mouseClick(blocks->blockButton(0), Qt::LeftButton);
    QCOMPARE(blocks->blockButton(0)->text(), QString("W"));
    QTest::mouseClick(blocks->blockButton(0), Qt::LeftButton);
    blocks->blockButton(1)->setFocus();
    QTest::keyClick(blocks->blockButton(1), Qt::Key_Space);
    QCOMPARE(letters(blocks), (QStringList{"S", "W"}));
    QCOMPARE(attention(), (QJsonObject{{"blocks", QJsonArray{"softmax", "window+linear"}}}));
    QVERIFY2(launcher_->problem().ok(), qPrintable(problemText()));

    // k: an even number typed becomes the next odd one when the field is left.
    retype(plan()->windowBox(), "6");
    QTest::keyClick(plan()->windowBox(), Qt::Key_Tab);
    QCOMPARE(plan()->windowBox()->value(), 7);
    QCOMPARE(attention().value("window").toInt(), 7);
    // The arrow keys step from odd to odd.
    plan()->windowBox()->setFocus();
    QTest::keyClick(plan()->windowBox(), Qt::Key_Up);
    QCOMPARE(attention().value("window").toInt(), 9);
    QVERIFY2(launcher_->problem().ok(), qPrintable(problemText()));

    QSignalSpy start(launcher_.get(), &StageLauncher::startRequested);
    QTest::mouseClick(launcher_->startButton(), Qt::LeftButton);
    QCOMPARE(start.count(), 1);
    const QJsonObject config =
        QJsonDocument::fromJson(start.first().first().value<widgets::StartRequest>().configJson)
            .object();
    QCOMPARE(config.value("attention").toObject(),
             (QJsonObject{{"blocks", QJsonArray{"softmax", "window+linear"}}, {"window", 9}}));
  }

  // The short form: the softmax blocks typed, the others' mode chosen; switching forms carries
  // the plan over.
  void softmax_blocks_and_one_mode() {
    chooseIndex(plan()->formCombo(), AttentionPlanForm::SoftmaxBlocks);
    QVERIFY(plan()->softmaxBlocksEdit()->isVisible());
    QVERIFY(plan()->modeCombo()->isVisible());
    retype(plan()->softmaxBlocksEdit(), "1");
    QCOMPARE(attention(), (QJsonObject{{"softmax_blocks", QJsonArray{1}}}));
    QVERIFY2(launcher_->problem().ok(), qPrintable(problemText()));
    chooseIndex(plan()->modeCombo(), plan()->modeCombo()->findData("window+linear"));
    QCOMPARE(attention(),
             (QJsonObject{{"softmax_blocks", QJsonArray{1}}, {"mode", "window+linear"}}));
    QVERIFY2(launcher_->problem().ok(), qPrintable(problemText()));
    // Per block now: block 1 softmax, the other window+linear.
    chooseIndex(plan()->formCombo(), AttentionPlanForm::PerBlock);
    QCOMPARE(attention(), (QJsonObject{{"blocks", QJsonArray{"window+linear", "softmax"}}}));
    QCOMPARE(letters(plan()->blocksEditor()), (QStringList{"W", "S"}));
    // And back, after the softmax blocks were cleared: the strip's softmax block and the
    // others' one mode.
    chooseIndex(plan()->formCombo(), AttentionPlanForm::SoftmaxBlocks);
    retype(plan()->softmaxBlocksEdit(), "");
    chooseIndex(plan()->formCombo(), AttentionPlanForm::PerBlock);
    QCOMPARE(letters(plan()->blocksEditor()), (QStringList{"W", "W"}));         // the others' mode
    QTest::mouseClick(plan()->blocksEditor()->blockButton(0), Qt::LeftButton);  // W -> S
    QCOMPARE(attention(), (QJsonObject{{"blocks", QJsonArray{"softmax", "window+linear"}}}));
    chooseIndex(plan()->formCombo(), AttentionPlanForm::SoftmaxBlocks);
    QCOMPARE(plan()->softmaxBlocksEdit()->text(), QString("0"));
    QCOMPARE(attention(),
             (QJsonObject{{"softmax_blocks", QJsonArray{0}}, {"mode", "window+linear"}}));
    // The method's: the keys go, and so does the object.
    chooseIndex(plan()->formCombo(), AttentionPlanForm::MethodDefault);
    QVERIFY(!launcher_->document().contains("attention"));
  }

  // What the file says is what the form shows, and an edit keeps the rest.
  void a_file_plan_reads_back() {
    QJsonObject doc = launcher_->document();
    doc.insert(
        "attention",
        QJsonObject{{"softmax_blocks", QJsonArray{0}}, {"mode", "window+linear"}, {"window", 5}});
    launcher_->setDocument(doc);
    QCOMPARE(plan()->form(), AttentionPlanForm::SoftmaxBlocks);
    QCOMPARE(plan()->softmaxBlocksEdit()->text(), QString("0"));
    QCOMPARE(plan()->modeCombo()->currentData().toString(), QString("window+linear"));
    QCOMPARE(plan()->windowBox()->value(), 5);
    QVERIFY2(launcher_->problem().ok(), qPrintable(problemText()));
    retype(plan()->softmaxBlocksEdit(), "0");  // the same, typed again
    QCOMPARE(launcher_->document(), doc);

    // Saved and opened again: the same document, the same form.
    chooseIndex(plan()->formCombo(), AttentionPlanForm::PerBlock);
    QCOMPARE(letters(plan()->blocksEditor()), (QStringList{"S", "W"}));
    QTest::mouseClick(plan()->blocksEditor()->blockButton(0), Qt::LeftButton);  // S -> L
    const QJsonObject saved = launcher_->document();
    QCOMPARE(saved.value("attention").toObject(),
             (QJsonObject{{"blocks", QJsonArray{"linear", "window+linear"}}, {"window", 5}}));
    const QString path = dir_ + "/saved-plan.json";
    QVERIFY(launcher_->saveFile(path));
    StageLauncher other;
    other.setPresets(gui::EngineController::presetNames());
    other.setPresetDepths(gui::EngineController::presetDepths());
    QVERIFY(other.loadFile(path));
    QCOMPARE(other.document(), saved);
    QCOMPARE(other.planForm()->form(), AttentionPlanForm::PerBlock);
    QCOMPARE(letters(other.planForm()->blocksEditor()), (QStringList{"L", "W"}));
    QCOMPARE(other.planForm()->windowBox()->value(), 5);
  }

  // The engine's errors land on the field that holds them.
  void engine_errors_are_shown_on_the_field() {
    auto* tabs = launcher_->findChild<QTabWidget*>();
    chooseIndex(plan()->formCombo(), AttentionPlanForm::SoftmaxBlocks);
    retype(plan()->softmaxBlocksEdit(), "0, 1");
    QCOMPARE(launcher_->problem().field, QString("attention.softmax_blocks"));
    QVERIFY2(launcher_->problem().reason.contains("every block is softmax"),
             qPrintable(problemText()));
    QVERIFY(!launcher_->startButton()->isEnabled());
    QVERIFY(plan()->softmaxBlocksEdit()->property("invalid").toBool());
    QCOMPARE(plan()->softmaxBlocksEdit()->toolTip(), launcher_->problem().reason);
    QVERIFY(plan()->problemText().contains("every block is softmax"));
    QVERIFY(tabs->tabText(0).contains(QStringLiteral("⚠")));  // Experiment
    retype(plan()->softmaxBlocksEdit(), "0, 7");
    QVERIFY2(launcher_->problem().field.startsWith("attention.softmax_blocks"),
             qPrintable(problemText()));
    QVERIFY(plan()->softmaxBlocksEdit()->property("invalid").toBool());
    retype(plan()->softmaxBlocksEdit(), "0");
    QVERIFY2(launcher_->problem().ok(), qPrintable(problemText()));
    QVERIFY(!plan()->softmaxBlocksEdit()->property("invalid").toBool());
    QVERIFY(plan()->problemText().isEmpty());
    QVERIFY(!tabs->tabText(0).contains(QStringLiteral("⚠")));

    // Every block softmax, per block: the strip is marked.
    chooseIndex(plan()->formCombo(), AttentionPlanForm::PerBlock);
    AttentionBlocksEditor* blocks = plan()->blocksEditor();
    QCOMPARE(letters(blocks), (QStringList{"S", "L"}));
    QTest::mouseClick(blocks->blockButton(1), Qt::LeftButton);  // L -> W
    QTest::mouseClick(blocks->blockButton(1), Qt::LeftButton);  // W -> S
    QCOMPARE(launcher_->problem().field, QString("attention.blocks"));
    QVERIFY(!launcher_->startButton()->isEnabled());
    QVERIFY(blocks->blockButton(0)->property("invalid").toBool());
    QVERIFY(blocks->blockButton(1)->property("invalid").toBool());
    QTest::mouseClick(blocks->blockButton(1), Qt::LeftButton);  // S -> L
    QVERIFY2(launcher_->problem().ok(), qPrintable(problemText()));
    QVERIFY(!blocks->blockButton(1)->property("invalid").toBool());
  }

  // A file whose plan does not fit the model is shown as it is, with the engine's reason; a
  // name the engine does not know is marked on its block.
  void a_plan_that_does_not_fit_is_named() {
    QJsonObject doc = launcher_->document();
    doc.insert("attention", QJsonObject{{"blocks", QJsonArray{"softmax", "linear", "linear"}}});
    launcher_->setDocument(doc);
    QCOMPARE(launcher_->problem().field, QString("attention.blocks"));
    QVERIFY2(launcher_->problem().reason.contains("3 entries for a model of 2 blocks"),
             qPrintable(problemText()));
    QCOMPARE(launcher_->document(), doc);  // loading changes nothing
    QCOMPARE(plan()->form(), AttentionPlanForm::PerBlock);
    QVERIFY(plan()->blocksEditor()->blockButton(0)->property("invalid").toBool());

    doc.insert("attention", QJsonObject{{"blocks", QJsonArray{"softmax", "quadratic"}}});
    launcher_->setDocument(doc);
    QCOMPARE(launcher_->problem().field, QString("attention.blocks[1]"));
    QCOMPARE(plan()->blocksEditor()->blockButton(1)->text(), QString("?"));
    QVERIFY(plan()->blocksEditor()->blockButton(1)->property("invalid").toBool());
    QVERIFY(!plan()->blocksEditor()->blockButton(0)->property("invalid").toBool());
    QTest::mouseClick(plan()->blocksEditor()->blockButton(1), Qt::LeftButton);  // ? -> softmax
    QTest::mouseClick(plan()->blocksEditor()->blockButton(1), Qt::LeftButton);  // -> linear
    QCOMPARE(attention(), (QJsonObject{{"blocks", QJsonArray{"softmax", "linear"}}}));
    QVERIFY2(launcher_->problem().ok(), qPrintable(problemText()));

    // An even window in the file: shown, and refused by the engine on the window's box.
    doc.insert("attention", QJsonObject{{"mode", "window+linear"}, {"window", 4}});
    launcher_->setDocument(doc);
    QCOMPARE(launcher_->problem().field, QString("attention.window"));
    QCOMPARE(plan()->windowBox()->value(), 4);
    QVERIFY(plan()->windowBox()->property("invalid").toBool());
  }

  // Another preset: one toggle per block of it, the per-block list follows.
  void the_blocks_follow_the_model() {
    chooseIndex(plan()->formCombo(), AttentionPlanForm::PerBlock);
    QTest::mouseClick(plan()->blocksEditor()->blockButton(0), Qt::LeftButton);
    QTest::mouseClick(plan()->blocksEditor()->blockButton(0), Qt::LeftButton);  // S
    QComboBox* preset = launcher_->combo("model.preset");
    chooseIndex(preset, preset->findText("fmnist_tiny"));
    QCOMPARE(plan()->blocksEditor()->depth(), 4);
    QCOMPARE(attention().value("blocks").toArray(),
             (QJsonArray{"softmax", "linear", "linear", "linear"}));
    QVERIFY2(launcher_->problem().ok(), qPrintable(problemText()));
  }

  // The Scaling tab: softmax blocks, or each block's mode, and the window, on the command line
  // of the child `adala bench scaling`.
  void scaling_form_passes_the_plan() {
    const QString script = writeScript(
        dir_ + "/fake_adala.sh", "echo '{\"event\":\"error\",\"message\":\"fake\"}' >&2\nexit 1\n");
    ScalingPanel panel(dir_ + "/scaling.sqlite");
    panel.setPresets({"vit_small", "vit_tiny"});
    panel.process()->setProgram(script);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    ScalingForm* form = panel.form();
    form->resolutionEdit()->clear();
    QTest::keyClicks(form->resolutionEdit(), "224");
    QVERIFY(!form->softmaxBlocksEdit()->isVisible());
    QVERIFY(!form->blocksEditor()->isVisible());
    auto run = [&](const QStringList& expected) {
      QSignalSpy failed(panel.process(), &ScalingBenchProcess::failed);
      QTest::mouseClick(form->runButton(), Qt::LeftButton);
      QVERIFY2(!form->messageIsError() || form->running(), qPrintable(form->message()));
      const QStringList args = panel.process()->arguments();
      QVERIFY(failed.wait(10000));
      QCOMPARE(args.mid(0, args.indexOf("--csv")), expected);
    };

    // Softmax blocks 0 and 11, the others linear.
    chooseIndex(form->planFormBox(), ScalingForm::SoftmaxBlocksPlan);
    QVERIFY(form->softmaxBlocksEdit()->isVisible());
    QTest::mouseClick(form->softmaxBlocksEdit(), Qt::LeftButton);
    QTest::keyClicks(form->softmaxBlocksEdit(), "0, 11");
    run({"bench", "scaling", "--preset", "vit_small", "--res", "224", "--modes",
         "softmax,softmax-chunked,linear,plan", "--batch", "1", "--softmax-blocks", "0,11"});
    const int launched = panel.process()->launchCount();

    // A block that vit_small has not: refused in the form, nothing started.
    retype(form->softmaxBlocksEdit(), "0,12");
    QTest::keyClick(form->softmaxBlocksEdit(), Qt::Key_Return);
    QVERIFY(form->messageIsError());
    QVERIFY2(form->message().contains("block 12 is not in 0..11"), qPrintable(form->message()));
    QCOMPARE(panel.process()->launchCount(), launched);

    // Per block (12 toggles for vit_small): block 0 softmax, block 3 window+linear; the
    // window-linear mode too, k = 5.
    chooseIndex(form->planFormBox(), ScalingForm::PerBlockPlan);
    AttentionBlocksEditor* blocks = form->blocksEditor();
    QVERIFY(blocks->isVisible());
    QCOMPARE(blocks->depth(), 12);
    QTest::mouseClick(blocks->blockButton(0), Qt::LeftButton);
    QTest::mouseClick(blocks->blockButton(0), Qt::LeftButton);
    blocks->blockButton(3)->setFocus();
    QTest::keyClick(blocks->blockButton(3), Qt::Key_Space);
    QTest::mouseClick(form->modeBox("softmax-chunked"), Qt::LeftButton);  // off
    QTest::mouseClick(form->modeBox("window-linear"), Qt::LeftButton);    // on
    retype(form->windowBox(), "5");
    QStringList plan(12, "linear");
    plan[0] = "softmax";
    plan[3] = "window+linear";
    run({"bench", "scaling", "--preset", "vit_small", "--res", "224", "--modes",
         "softmax,linear,window-linear,plan", "--batch", "1", "--plan", plan.join(','), "--window",
         "5"});

    // Another preset: its own blocks.
    chooseIndex(form->presetBox(), form->presetBox()->findText("vit_tiny"));
    QCOMPARE(blocks->depth(), 12);
    // No plan: neither option, and no window without a window mode.
    chooseIndex(form->planFormBox(), ScalingForm::NoPlan);
    QTest::mouseClick(form->modeBox("window-linear"), Qt::LeftButton);  // off
    run({"bench", "scaling", "--preset", "vit_tiny", "--res", "224", "--modes", "softmax,linear",
         "--batch", "1"});
  }
};

ADALA_TEST_MAIN(TestGuiAttentionPlan)
}  // namespace test_gui_attention_plan

#include "test_gui_attention_plan.moc"
