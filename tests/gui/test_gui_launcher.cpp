// The stage launcher's form, validated live by the engine's own parser: a bad field disables
// Start and says which field and why; fixing it enables Start again.
#include <QtTest/QtTest>

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QToolButton>

#include "app/gui/engine_controller.h"
#include "tests/gui/gui_test_support.h"
#include "widgets/launch/data_source_form.h"
#include "widgets/launch/stage_launcher.h"
#include "engine/runtime/device.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_gui_launcher {

using namespace adala;
using adala::widgets::DataSourceForm;
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

  void showTab(QWidget* w) {
    auto* tabs = launcher_->findChild<QTabWidget*>();
    for (int t = 0; t < tabs->count(); ++t)
      if (tabs->widget(t)->isAncestorOf(w)) tabs->setCurrentIndex(t);
  }

  // Types into a line edit of the Data tab: click, select all, type.
  void typeInto(QLineEdit* edit, const QString& text) {
    showTab(edit);
    QTest::mouseClick(edit, Qt::LeftButton);
    QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClick(edit, Qt::Key_Delete);
    QTest::keyClicks(edit, text);
  }

  // Picks a combo box entry with the keyboard, as a person tabbing through the form does.
  void choose(QComboBox* combo, const QString& text) {
    showTab(combo);
    combo->setFocus();
    const int target = combo->findText(text);
    QVERIFY2(target >= 0, qPrintable(text));
    while (combo->currentIndex() < target) QTest::keyClick(combo, Qt::Key_Down);
    while (combo->currentIndex() > target) QTest::keyClick(combo, Qt::Key_Up);
    QCOMPARE(combo->currentText(), text);
  }

  // The document Start hands to the engine.
  QJsonObject startedConfig() {
    QSignalSpy start(launcher_.get(), &StageLauncher::startRequested);
    [&] { QVERIFY(launcher_->startButton()->isEnabled()); }();
    QTest::mouseClick(launcher_->startButton(), Qt::LeftButton);
    if (start.count() != 1) return {};
    return QJsonDocument::fromJson(start.first().first().value<widgets::StartRequest>().configJson)
        .object();
  }

  // An image-folder root: two class folders (contents are never read by validation).
  QString classFolders(const QString& name) {
    const QString root = dir_ + "/" + name;
    QDir().mkpath(root + "/cat");
    QDir().mkpath(root + "/dog");
    return root;
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
    QVERIFY2(launcher_->problem().ok(),
             qPrintable(launcher_->problem().field + ": " + launcher_->problem().reason));
    QVERIFY(launcher_->startButton()->isEnabled());
    QCOMPARE(launcher_->field("stages.attention_alignment.max_steps")->text(), QString("5"));
    QCOMPARE(launcher_->dataForm()->limitEdit(DataSourceForm::Train)->text(), QString("256"));
    QSignalSpy start(launcher_.get(), &StageLauncher::startRequested);
    QTest::mouseClick(launcher_->startButton(), Qt::LeftButton);
    QCOMPARE(start.count(), 1);
    const auto request = start.first().first().value<widgets::StartRequest>();
    QCOMPARE(request.stages, (QList<int>{0, 1, 2, 3}));
    QVERIFY(request.configJson.contains("\"fmnist_micro\""));
  }

  void cuda_on_a_machine_without_it_is_refused_plainly() {
    if (cuda_available()) QSKIP("this machine has CUDA");
    choose(launcher_->combo("device"), "cuda");
    QCOMPARE(launcher_->problem().field, QString("device"));
    QCOMPARE(launcher_->problem().reason,
             QString("no CUDA GPU here (this build's LibTorch is for CPUs, or no GPU is "
                     "visible): choose auto or cpu"));
    QVERIFY(!launcher_->startButton()->isEnabled());
    QVERIFY(launcher_->problemLabel()->text().contains("choose auto or cpu"));
    choose(launcher_->combo("device"), "cpu");
    QVERIFY(launcher_->problem().ok());
  }

  void bad_field_disables_start_and_says_why() {
    const QString path = "stages.attention_alignment.lr";
    retype(path, "-1");
    QLineEdit* edit = launcher_->field(path);
    QCOMPARE(launcher_->problem().field, path);
    QVERIFY2(launcher_->problem().reason.contains("out of range"),
             qPrintable(launcher_->problem().reason));
    QVERIFY(!launcher_->startButton()->isEnabled());
    QVERIFY(launcher_->problemLabel()->text().contains(path));
    QVERIFY(launcher_->problemLabel()->text().contains("out of range"));
    QVERIFY(edit->property("invalid").toBool());
    QCOMPARE(edit->toolTip(), launcher_->problem().reason);
    auto* tabs = launcher_->findChild<QTabWidget*>();
    QVERIFY(tabs->tabText(2).contains(QStringLiteral("⚠")));  // Stages
    // A disabled Start does nothing.
    QSignalSpy start(launcher_.get(), &StageLauncher::startRequested);
    QTest::mouseClick(launcher_->startButton(), Qt::LeftButton);
    QCOMPARE(start.count(), 0);

    // Not a number at all: the engine names the expected type.
    retype(path, "abc");
    QCOMPARE(launcher_->problem().field, path);
    QVERIFY2(launcher_->problem().reason.contains("expected a number"),
             qPrintable(launcher_->problem().reason));
    QVERIFY(!launcher_->startButton()->isEnabled());

    // Fixed: Start comes back, the mark goes.
    retype(path, "0.002");
    QVERIFY(launcher_->problem().ok());
    QVERIFY(launcher_->startButton()->isEnabled());
    QVERIFY(!edit->property("invalid").toBool());
    QVERIFY(!tabs->tabText(2).contains(QStringLiteral("⚠")));
  }

  void bad_top_level_and_integer_fields() {
    retype("seed", "-3");
    QCOMPARE(launcher_->problem().field, QString("seed"));
    QVERIFY(!launcher_->startButton()->isEnabled());
    retype("seed", "4");
    QVERIFY(launcher_->startButton()->isEnabled());
    retype("stages.teacher.batch_size", "2.5");
    QCOMPARE(launcher_->problem().field, QString("stages.teacher.batch_size"));
    QVERIFY2(launcher_->problem().reason.contains("integer"),
             qPrintable(launcher_->problem().reason));
    QVERIFY(!launcher_->startButton()->isEnabled());
    retype("stages.teacher.batch_size", "");  // empty: the default
    QVERIFY(launcher_->problem().ok());
  }

  void stage_selection_is_validated() {
    launcher_->findChild<QTabWidget*>()->setCurrentIndex(2);      // Stages
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

  // A file that switches Stage 1 off unticks it; ticking it again runs it: the config Start
  // sends no longer says "enabled": false for it (the engine skips switched-off stages).
  void a_ticked_stage_runs_though_the_file_switched_it_off() {
    QJsonObject doc = launcher_->document();
    QJsonObject stages = doc.value("stages").toObject();
    QJsonObject s1 = stages.value("attention_alignment").toObject();
    s1["enabled"] = false;
    stages["attention_alignment"] = s1;
    doc["stages"] = stages;
    launcher_->setDocument(doc);
    QVERIFY(!launcher_->stageCheck(1)->isChecked());
    QTest::mouseClick(launcher_->stageCheck(1), Qt::LeftButton);
    QVERIFY(launcher_->stageCheck(1)->isChecked());
    const QJsonObject sent =
        startedConfig().value("stages").toObject().value("attention_alignment").toObject();
    QVERIFY(!sent.contains("enabled"));
  }

  // One image-folder source for all stages, typed into the Data tab: the config Start sends
  // has data.train with the typed folder, the loader settings, and an evaluation limit of its
  // own; the Fashion-MNIST shorthand is gone.
  void data_tab_writes_an_image_folder_source() {
    choose(launcher_->combo("model.preset"), "vit_tiny");  // RGB input
    DataSourceForm* form = launcher_->dataForm();
    const QString root = classFolders("folders");
    choose(form->sourceCombo(DataSourceForm::Train), "image-folder");
    typeInto(form->pathEdit(DataSourceForm::Train), root);
    typeInto(form->limitEdit(DataSourceForm::Train), "");
    typeInto(form->limitEdit(DataSourceForm::Eval), "20");
    typeInto(form->limitEdit(DataSourceForm::Alignment), "");
    typeInto(form->decodeThreadsEdit(), "3");
    choose(form->badImageCombo(), "skip");
    QVERIFY2(launcher_->problem().ok(),
             qPrintable(launcher_->problem().field + ": " + launcher_->problem().reason));
    // One source: the other rows show the training one, greyed.
    QCOMPARE(form->pathEdit(DataSourceForm::Alignment)->text(), root);
    QVERIFY(!form->pathEdit(DataSourceForm::Alignment)->isEnabled());
    const QJsonObject data = startedConfig().value("data").toObject();
    QCOMPARE(data.value("train").toObject(),
             (QJsonObject{{"source", "image-folder"}, {"root", root}}));
    QCOMPARE(data.value("eval").toObject(),
             (QJsonObject{{"source", "image-folder"}, {"root", root}, {"limit", 20}}));
    QVERIFY(!data.contains("alignment"));  // inherits data.train
    QCOMPARE(data.value("decode_threads").toInt(), 3);
    QCOMPARE(data.value("on_bad_image").toString(), QString("skip"));
    for (const char* legacy : {"train_limit", "test_limit", "alignment_limit", "root"})
      QVERIFY2(!data.contains(legacy), legacy);
  }

  // A folder that is not there: the engine's check names data.train.root; the reason shows
  // under the row, the field is marked, and Start refuses. A real folder clears it.
  void missing_folder_is_shown_next_to_the_field_and_refused() {
    choose(launcher_->combo("model.preset"), "vit_tiny");
    DataSourceForm* form = launcher_->dataForm();
    choose(form->sourceCombo(DataSourceForm::Train), "image-folder");
    const QString missing = dir_ + "/no/such/folder";
    typeInto(form->pathEdit(DataSourceForm::Train), missing);
    QCOMPARE(launcher_->problem().field, QString("data.train.root"));
    QCOMPARE(launcher_->problem().reason, "no such folder: " + missing);
    QCOMPARE(form->problemText(DataSourceForm::Train),
             QStringLiteral("⚠ data.train.root: no such folder: ") + missing);
    QVERIFY(form->pathEdit(DataSourceForm::Train)->property("invalid").toBool());
    QVERIFY(!launcher_->startButton()->isEnabled());
    QVERIFY(launcher_->problemLabel()->text().contains("no such folder"));
    QVERIFY(launcher_->findChild<QTabWidget*>()->tabText(1).contains(QStringLiteral("⚠")));
    QSignalSpy start(launcher_.get(), &StageLauncher::startRequested);
    QTest::mouseClick(launcher_->startButton(), Qt::LeftButton);
    QCOMPARE(start.count(), 0);

    typeInto(form->pathEdit(DataSourceForm::Train), classFolders("fixed"));
    QVERIFY(launcher_->problem().ok());
    QVERIFY(form->problemText(DataSourceForm::Train).isEmpty());
    QVERIFY(!form->pathEdit(DataSourceForm::Train)->property("invalid").toBool());
    QVERIFY(launcher_->startButton()->isEnabled());
  }

  // "Other source per stage": evaluation from another folder, alignment from an image list.
  void other_source_per_stage() {
    choose(launcher_->combo("model.preset"), "vit_tiny");
    DataSourceForm* form = launcher_->dataForm();
    const QString train = classFolders("train"), val = classFolders("val");
    choose(form->sourceCombo(DataSourceForm::Train), "image-folder");
    typeInto(form->pathEdit(DataSourceForm::Train), train);
    showTab(form->perStageCheck());
    QCheckBox* perStage = form->perStageCheck();  // click its box, not the empty row's middle
    QTest::mouseClick(perStage, Qt::LeftButton, {}, QPoint(8, perStage->height() / 2));
    QVERIFY(form->perStageCheck()->isChecked());
    QVERIFY(form->pathEdit(DataSourceForm::Eval)->isEnabled());
    typeInto(form->pathEdit(DataSourceForm::Eval), val);
    choose(form->sourceCombo(DataSourceForm::Alignment), "image-list");
    const QString list = dir_ + "/images";
    QDir().mkpath(list);
    typeInto(form->pathEdit(DataSourceForm::Alignment), list);
    typeInto(form->limitEdit(DataSourceForm::Alignment), "500");
    const QJsonObject data = startedConfig().value("data").toObject();
    QCOMPARE(data.value("train").toObject(),
             (QJsonObject{{"source", "image-folder"}, {"root", train}, {"limit", 256}}));
    QCOMPARE(data.value("eval").toObject(),
             (QJsonObject{{"source", "image-folder"}, {"root", val}, {"limit", 256}}));
    QCOMPARE(data.value("alignment").toObject(),
             (QJsonObject{{"source", "image-list"}, {"root", list}, {"limit", 500}}));
    // A bad evaluation folder is marked on the evaluation row, not the training one.
    typeInto(form->pathEdit(DataSourceForm::Eval), dir_ + "/nope");
    QCOMPARE(launcher_->problem().field, QString("data.eval.root"));
    QVERIFY(form->pathEdit(DataSourceForm::Eval)->property("invalid").toBool());
    QVERIFY(!form->pathEdit(DataSourceForm::Train)->property("invalid").toBool());
    QVERIFY(form->problemText(DataSourceForm::Eval).contains("no such folder"));
    QVERIFY(!launcher_->startButton()->isEnabled());
  }

  // Fashion-MNIST stays the shorthand the file had; the grey model refuses an RGB folder with
  // the engine's reason under the training row.
  void fashion_mnist_keeps_its_shorthand_and_channels_are_checked() {
    DataSourceForm* form = launcher_->dataForm();
    typeInto(form->limitEdit(DataSourceForm::Train), "100");
    QJsonObject data = startedConfig().value("data").toObject();
    QCOMPARE(data,
             (QJsonObject{{"train_limit", 100}, {"test_limit", 256}, {"alignment_limit", 256}}));
    choose(form->sourceCombo(DataSourceForm::Train), "image-folder");
    typeInto(form->pathEdit(DataSourceForm::Train), classFolders("rgb"));
    QCOMPARE(launcher_->problem().field, QString("data.train.channels"));
    QVERIFY(form->problemText(DataSourceForm::Train).contains("model takes 1"));
    QVERIFY(!launcher_->startButton()->isEnabled());
  }

  // The input side per stage: typed per row, written as data.<row>.res; a side the patch does
  // not divide is refused under its own row, naming the field.
  void input_side_per_stage() {
    choose(launcher_->combo("model.preset"), "vit_tiny");  // patch 16
    DataSourceForm* form = launcher_->dataForm();
    const QString root = classFolders("sides");
    choose(form->sourceCombo(DataSourceForm::Train), "image-folder");
    typeInto(form->pathEdit(DataSourceForm::Train), root);
    typeInto(form->limitEdit(DataSourceForm::Train), "");
    typeInto(form->limitEdit(DataSourceForm::Eval), "");
    typeInto(form->limitEdit(DataSourceForm::Alignment), "");
    typeInto(form->resEdit(DataSourceForm::Train), "64");
    typeInto(form->resEdit(DataSourceForm::Alignment), "100");
    QCOMPARE(launcher_->problem().field, QString("data.alignment.res"));
    QVERIFY2(launcher_->problem().reason.contains("does not divide 100"),
             qPrintable(launcher_->problem().reason));
    QVERIFY(form->resEdit(DataSourceForm::Alignment)->property("invalid").toBool());
    QVERIFY(form->problemText(DataSourceForm::Alignment).contains("data.alignment.res"));
    QVERIFY(form->problemText(DataSourceForm::Train).isEmpty());
    QVERIFY(!launcher_->startButton()->isEnabled());
    typeInto(form->resEdit(DataSourceForm::Alignment), "96");
    const QJsonObject data = startedConfig().value("data").toObject();
    QCOMPARE(data.value("train").toObject(),
             (QJsonObject{{"source", "image-folder"}, {"root", root}, {"res", 64}}));
    QVERIFY(!data.contains("eval"));  // inherits data.train, its side too
    QCOMPARE(data.value("alignment").toObject(),
             (QJsonObject{{"source", "image-folder"}, {"root", root}, {"res", 96}}));
    // Loading that document shows the sides again.
    form->setData(data);
    QCOMPARE(form->resEdit(DataSourceForm::Train)->text(), QString("64"));
    QCOMPARE(form->resEdit(DataSourceForm::Eval)->text(), QString());
    QCOMPARE(form->resEdit(DataSourceForm::Alignment)->text(), QString("96"));
  }

  // A loaded file's relative data paths point from its folder, whatever the working folder:
  // validation accepts them and Start hands that folder to the engine with the document.
  void relative_paths_are_relative_to_the_loaded_file() {
    const QString project = dir_ + "/project";
    QDir().mkpath(project + "/images/cat");
    QDir().mkpath(project + "/images/dog");
    const QString path = gui_test::writeTinyExperiment(project, "relative");
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QJsonObject doc = QJsonDocument::fromJson(f.readAll()).object();
    f.close();
    doc["data"] = QJsonObject{
        {"train", QJsonObject{{"source", "image-folder"}, {"root", "images"}, {"channels", 1}}}};
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(QJsonDocument(doc).toJson());
    f.close();
    QVERIFY(QDir::currentPath() != project);
    QVERIFY(launcher_->loadFile(path));
    QVERIFY2(launcher_->problem().ok(),
             qPrintable(launcher_->problem().field + ": " + launcher_->problem().reason));
    QCOMPARE(launcher_->baseDir(), project);
    QSignalSpy start(launcher_.get(), &StageLauncher::startRequested);
    QTest::mouseClick(launcher_->startButton(), Qt::LeftButton);
    QCOMPARE(start.count(), 1);
    const auto request = start.first().first().value<widgets::StartRequest>();
    QCOMPARE(request.configDir, project);
    // From the working folder instead, the same document names the missing folder.
    const auto problem = gui::EngineController::validateConfig(request.configJson, {0, 1, 2, 3},
                                                               QDir::currentPath());
    QCOMPARE(problem.field, QString("data.train.root"));
  }

  // The folder picker: the "…" button opens a folder dialog; its choice fills the path.
  void folder_picker_fills_the_path() {
    choose(launcher_->combo("model.preset"), "vit_tiny");
    DataSourceForm* form = launcher_->dataForm();
    choose(form->sourceCombo(DataSourceForm::Train), "image-folder");
    const QString root = classFolders("picked");
    QTest::mouseClick(form->browseButton(DataSourceForm::Train), Qt::LeftButton);
    QFileDialog* dialog = nullptr;
    QTRY_VERIFY((dialog = form->findChild<QFileDialog*>("dataFolderDialog")) != nullptr);
    QTRY_VERIFY(dialog->isVisible());
    QCOMPARE(dialog->fileMode(), QFileDialog::Directory);
    dialog->setDirectory(dir_);
    dialog->selectFile(root);
    static_cast<QDialog*>(dialog)->accept();  // QFileDialog::accept, as its Choose button
    QTRY_COMPARE(QDir(form->pathEdit(DataSourceForm::Train)->text()), QDir(root));
    QVERIFY(launcher_->problem().ok());
    QCOMPARE(QDir(startedConfig()
                      .value("data")
                      .toObject()
                      .value("train")
                      .toObject()
                      .value("root")
                      .toString()),
             QDir(root));
  }

  // The running stage's progress line shows its data-wait share; the end line the stage mean
  // weighted by the steps each report covers: (0.5 * 4 + 0.1 * 16) / 20 = 18%.
  void progress_shows_the_data_wait_share() {
    widgets::StageUpdate started;
    started.stage = "attention_alignment";
    started.totalSteps = 20;
    launcher_->onStage(started);
    auto step = [](qint64 s, double share) {
      widgets::StepUpdate u;
      u.stage = "attention_alignment";
      u.step = s;
      u.totalSteps = 20;
      u.loss = 0.25;
      u.imagesPerSecond = 50;
      u.dataWaitShare = share;
      return u;
    };
    launcher_->onSteps({step(4, 0.5)});
    QVERIFY2(launcher_->stageStatus(1)->text().contains(" · data 50% · loss 0.25"),
             qPrintable(launcher_->stageStatus(1)->text()));
    launcher_->onSteps({step(10, 0.1), step(20, 0.1)});
    QVERIFY2(launcher_->stageStatus(1)->text().contains(" · data 10% · "),
             qPrintable(launcher_->stageStatus(1)->text()));
    widgets::StageUpdate done = started;
    done.kind = widgets::StageUpdate::Kind::Finished;
    done.step = 20;
    done.seconds = 65;
    launcher_->onStage(done);
    QCOMPARE(launcher_->stageStatus(1)->text(), QString("done in 1:05 · data wait 18%"));
  }

  // Steps the engine reported before it held can reach the window after the pause: the line
  // keeps saying paused (with their step) until the run resumes.
  void a_late_step_report_keeps_the_paused_line() {
    widgets::JobState job;
    job.jobId = 1;
    job.runId = 1;
    job.status = widgets::JobStatus::Running;
    launcher_->onJobStarted(job);
    widgets::StageUpdate started;
    started.stage = "attention_alignment";
    started.totalSteps = 20;
    launcher_->onStage(started);
    auto step = [](qint64 s) {
      widgets::StepUpdate u;
      u.stage = "attention_alignment";
      u.step = s;
      u.totalSteps = 20;
      u.loss = 0.25;
      u.imagesPerSecond = 50;
      return u;
    };
    launcher_->onSteps({step(4)});
    launcher_->onPaused(true);
    QCOMPARE(launcher_->stageStatus(1)->text(), QString("paused at step 4 of 20"));
    launcher_->onSteps({step(6)});
    QCOMPARE(launcher_->stageStatus(1)->text(), QString("paused at step 6 of 20"));
    launcher_->onPaused(false);
    QCOMPARE(launcher_->stageStatus(1)->text(), QString("resumed at step 6"));
    launcher_->onSteps({step(8)});
    QVERIFY2(launcher_->stageStatus(1)->text().startsWith("ETA "),
             qPrintable(launcher_->stageStatus(1)->text()));
  }
};

ADALA_TEST_MAIN(TestGuiLauncher)
}  // namespace test_gui_launcher

#include "test_gui_launcher.moc"
