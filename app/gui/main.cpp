// `adala-workbench`: the desktop face of the engine. Every option drives the real window, so
// the same invocations serve users, scripted demos and screenshots.
#include "engine/core/build_info.h"
#include "engine/core/device.h"
#include "engine/core/memory_reuse.h"
#ifdef ADALA_HAVE_STORE
#include "engine/store/run_store.h"
#endif

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QTimer>

#include <QSocketNotifier>
#include <QSpinBox>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <sys/socket.h>
#include <unistd.h>

#ifdef ADALA_HAVE_REPORT_GUI
#include "app/i18n/language.h"
#endif
#include "app/gui/engine_controller.h"
#include "app/gui/main_window.h"
#include "app/gui/stall_meter.h"
#include "app/gui/theme.h"
#include "resources/resources.h"
#include "widgets/attention_inspector.h"
#include "widgets/attention_mse_plot.h"
#include "widgets/feature_view.h"
#include "widgets/segmentation_viewer.h"
#include "widgets/stage_launcher.h"

using namespace adala;
using namespace adala::gui;

namespace {

QList<int> parseStages(const QString& text, bool* ok) {
  QList<int> stages;
  *ok = true;
  for (const auto& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
    bool good = false;
    const int s = part.trimmed().toInt(&good);
    if (!good || s < 0 || s > 3)
      *ok = false;
    else
      stages << s;
  }
  return stages;
}

QString defaultDatabase() {
#ifdef ADALA_HAVE_STORE
  return QString::fromStdString(store::RunStore::default_path());
#else
  return QDir::home().filePath(QStringLiteral(".local/share/adala/runs.sqlite"));
#endif
}

// SIGINT / SIGTERM reach the event loop through a socket pair, then close the window the
// normal way: a running job stops after its step, checkpoints and is marked interrupted.
int g_signalFd[2] = {-1, -1};

extern "C" void onTerminationSignal(int) {
  const char byte = 1;
  [[maybe_unused]] const auto n = ::write(g_signalFd[0], &byte, 1);
}

}  // namespace

int main(int argc, char** argv) {
  adala::reexec_with_passive_thread_waits(argv);
  adala::keep_freed_memory_for_reuse();
  // --help and --version print and exit: they need no display (an ssh session, a CI log).
  for (int i = 1; i < argc; ++i)
    for (const char* flag : {"-h", "--help", "--help-all", "-v", "--version", "-?"})
      if (std::strcmp(argv[i], flag) == 0 && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("AdaLA"));
  QApplication::setApplicationName(QStringLiteral("Workbench"));
  QApplication::setApplicationDisplayName(QApplication::translate("main", "AdaLA Workbench"));
  QApplication::setApplicationVersion(QString::fromLatin1(adala::kProjectVersion));
  QApplication::setWindowIcon(workbenchIcon("adala"));
  QGuiApplication::setDesktopFileName(QStringLiteral("adala-workbench"));
#ifdef ADALA_HAVE_REPORT_GUI
  // English or Korean, following the system unless chosen in View > Language.
  adala::i18n::install_translator(app, adala::i18n::saved_language());
#endif

  QCommandLineParser cli;
  cli.setApplicationDescription(QApplication::translate(
      "main",
      "AdaLA Workbench: adapt a softmax ViT into a linear-attention ViT and inspect every step."));
  cli.addHelpOption();
  cli.addVersionOption();
  cli.addPositionalArgument(QStringLiteral("experiment"),
                            QApplication::translate("main", "Experiment file to open."),
                            QStringLiteral("[experiment.json]"));
  const QCommandLineOption db(
      {QStringLiteral("db")},
      QApplication::translate("main", "Run database (default: %1).").arg(defaultDatabase()),
      QStringLiteral("file"), defaultDatabase());
  const QCommandLineOption run(
      {QStringLiteral("run")},
      QApplication::translate("main", "Open this experiment and start it."),
      QStringLiteral("config"));
  const QCommandLineOption stages({QStringLiteral("stages")},
                                  QApplication::translate("main", "Stages to run, e.g. 0,1,2,3."),
                                  QStringLiteral("list"));
  const QCommandLineOption openRun({QStringLiteral("open-run")},
                                   QApplication::translate("main", "Show this recorded run."),
                                   QStringLiteral("id"));
  const QCommandLineOption compare({QStringLiteral("compare")},
                                   QApplication::translate("main", "Overlay these recorded runs."),
                                   QStringLiteral("id,id,..."));
  const QCommandLineOption inspect(
      {QStringLiteral("inspect")},
      QApplication::translate("main", "Inspect the attention of this checkpoint."),
      QStringLiteral("checkpoint"));
  const QCommandLineOption image({QStringLiteral("image")},
                                 QApplication::translate("main", "Image file for the inspector."),
                                 QStringLiteral("file"));
  const QCommandLineOption item({QStringLiteral("dataset-index")},
                                QApplication::translate("main", "Dataset item for the inspector."),
                                QStringLiteral("n"));
  const QCommandLineOption dataset(
      {QStringLiteral("dataset")},
      QApplication::translate("main",
                              "The inspector's dataset: class folders, an image folder or list, "
                              "or a run's config.json (default: Fashion-MNIST's test split)."),
      QStringLiteral("path"));
  const QCommandLineOption inspectPrecision(
      {QStringLiteral("precision")},
      QApplication::translate("main", "Inspector forward pass: fp32 or bf16."),
      QStringLiteral("precision"));
  const QCommandLineOption inputSize(
      {QStringLiteral("input-size")},
      QApplication::translate(
          "main", "Inspector input: 0 = the model's size, -1 = the image's, or a square side."),
      QStringLiteral("pixels"));
  const QCommandLineOption block({QStringLiteral("block")},
                                 QApplication::translate("main", "Inspector block."),
                                 QStringLiteral("b"));
  const QCommandLineOption head({QStringLiteral("head")},
                                QApplication::translate("main", "Inspector head."),
                                QStringLiteral("h"));
  const QCommandLineOption query({QStringLiteral("query-patch")},
                                 QApplication::translate("main", "Inspector query patch."),
                                 QStringLiteral("row,col"));
  const QCommandLineOption tab(
      {QStringLiteral("tab")},
      QApplication::translate(
          "main", "Central tab to show: summary, plot, health, inspector, scaling or features."),
      QStringLiteral("name"));
  const QCommandLineOption scalingCsv(
      {QStringLiteral("scaling-csv")},
      QApplication::translate("main",
                              "Plot this CSV of adala bench scaling --csv in the Scaling tab."),
      QStringLiteral("file"));
  const QCommandLineOption theme({QStringLiteral("theme")},
                                 QApplication::translate("main", "system, light or dark."),
                                 QStringLiteral("name"));
  const QCommandLineOption threads(
      {QStringLiteral("threads")},
      QApplication::translate("main", "LibTorch threads (default: all cores)."),
      QStringLiteral("n"), QStringLiteral("0"));
  const QCommandLineOption quitAfter(
      {QStringLiteral("quit-after")},
      QApplication::translate(
          "main", "Close after this many seconds (a running job is cancelled and left resumable)."),
      QStringLiteral("seconds"));
  const QCommandLineOption quitWhenDone(
      {QStringLiteral("quit-when-done")},
      QApplication::translate("main", "Close once the started run is over."));
  const QCommandLineOption measureStall(
      {QStringLiteral("measure-stall")},
      QApplication::translate(
          "main",
          "Benchmark: run this experiment and print the longest GUI-thread stall during Stage 2."),
      QStringLiteral("config"));
  for (const auto* o :
       {&db,        &run,          &stages,      &openRun,          &compare,   &inspect,
        &image,     &item,         &dataset,     &inspectPrecision, &inputSize, &block,
        &head,      &query,        &tab,         &scalingCsv,       &theme,     &threads,
        &quitAfter, &quitWhenDone, &measureStall})
    cli.addOption(*o);
  const QCommandLineOption colourScale(
      {QStringLiteral("scale")},
      QApplication::translate(
          "main", "Inspector colour scale: shared, per-pane, log, or a range min..max."),
      QStringLiteral("scale"));
  const QCommandLineOption inspectorView(
      {QStringLiteral("inspector-view")},
      QApplication::translate(
          "main", "Inspector view: maps (one block and head), rollout, or grid (blocks × heads)."),
      QStringLiteral("view"));
  const QCommandLineOption exportFigure(
      {QStringLiteral("export-figure")},
      QApplication::translate("main",
                              "Write the inspector's figure (PNG or PDF) once its maps are drawn."),
      QStringLiteral("file"));
  cli.addOption(colourScale);
  cli.addOption(inspectorView);
  cli.addOption(exportFigure);
  const QCommandLineOption openSegmentation(
      {QStringLiteral("open-segmentation")},
      QApplication::translate(
          "main",
          "Show these segmentation results (a results folder, a folder of them, or a run folder)."),
      QStringLiteral("folder"));
  const QCommandLineOption segmentationImage(
      {QStringLiteral("segmentation-image")},
      QApplication::translate("main", "Image the segmentation viewer shows first (1 = the first)."),
      QStringLiteral("n"));
  cli.addOption(openSegmentation);
  cli.addOption(segmentationImage);
  cli.process(app);

  configure_threads(cli.value(threads).toInt());
  const QString themeChoice =
      cli.isSet(theme)
          ? cli.value(theme)
          : QSettings().value(QStringLiteral("theme"), QStringLiteral("system")).toString();
  ThemeManager::instance()->apply(themeFromName(themeChoice));

  QString dbPath = QFileInfo(cli.value(db)).absoluteFilePath();
  EngineController controller(dbPath);
  MainWindow window(&controller);
  window.show();

  if (!cli.positionalArguments().isEmpty())
    window.openExperiment(cli.positionalArguments().first());
  QList<int> stageList;
  if (cli.isSet(stages)) {
    bool ok = false;
    stageList = parseStages(cli.value(stages), &ok);
    if (!ok || stageList.isEmpty()) {
      std::fprintf(stderr, "adala-workbench: --stages: expected numbers 0..3, e.g. 0,1,2,3\n");
      return 2;
    }
  }

  // --measure-stall: the benchmark. The stall meter runs while Stage 2 trains; the result is
  // printed when the run is over and the exit code says whether it met the 50 ms target.
  auto* meter = new StallMeter(5, &window);
  auto* whole = new StallMeter(5, &window);
  const bool measuring = cli.isSet(measureStall);
  const QString startConfig = measuring ? cli.value(measureStall) : cli.value(run);
  if (!startConfig.isEmpty()) {
    if (!window.openExperiment(startConfig)) {
      std::fprintf(stderr, "adala-workbench: cannot open %s\n", qPrintable(startConfig));
      return 2;
    }
    if (!stageList.isEmpty()) window.launcher()->setSelectedStages(stageList);
    if (!window.launcher()->problem().ok()) {
      std::fprintf(stderr, "adala-workbench: %s: %s\n",
                   qPrintable(window.launcher()->problem().field),
                   qPrintable(window.launcher()->problem().reason));
      return 2;
    }
    window.showTab(MainWindow::PlotTab);
    QTimer::singleShot(0, &window, [&window] { window.startRun(); });
  } else if (!stageList.isEmpty()) {
    window.launcher()->setSelectedStages(stageList);
  }
  if (measuring) {
    QObject::connect(&controller, &EngineController::jobStarted, whole,
                     [whole] { whole->start(); });
    QObject::connect(&controller, &EngineController::stageChanged, meter,
                     [meter](const widgets::StageUpdate& u) {
                       if (widgets::stageIndex(u.stage) != 2)
                         return;  // the stall meter watches Stage 2
                       if (u.kind == widgets::StageUpdate::Kind::Started)
                         meter->start();
                       else
                         meter->stop();
                     });
    QObject::connect(
        &controller, &EngineController::jobFinished, &window,
        [&, meter, whole](const widgets::JobState& s) {
          meter->stop();
          whole->stop();
          std::printf("run %lld: %s\n", static_cast<long long>(s.runId), qPrintable(s.status));
          if (meter->ticks() == 0) {
            std::printf("GUI-thread stall: no Stage 2 (feature_alignment) ran; select stage 2\n");
            QApplication::exit(2);
            return;
          }
          std::printf("GUI-thread stall during Stage 2: %s\n", qPrintable(meter->report()));
          std::printf("GUI-thread stall over the whole run: %s\n", qPrintable(whole->report()));
          for (const auto* m : {meter, whole})
            std::printf("  slowest event %s: %.1f ms in %s\n",
                        m == meter ? "during Stage 2" : "over the whole run", m->slowestEventMs(),
                        qPrintable(m->slowestEvent()));
          const bool pass = meter->maxGapMs() < 50.0;
          std::printf("target < 50 ms: %s\n", pass ? "met" : "MISSED");
          std::fflush(stdout);
          QApplication::exit(pass ? 0 : 1);
        });
  }

  if (cli.isSet(openRun) && !window.openRun(cli.value(openRun).toLongLong()))
    std::fprintf(stderr, "adala-workbench: --open-run: %s\n", qPrintable(window.statusMessage()));
  if (cli.isSet(compare)) {
    QList<qint64> ids;
    for (const auto& part : cli.value(compare).split(QLatin1Char(','), Qt::SkipEmptyParts))
      ids << part.toLongLong();
    window.compareRuns(ids);
  }
  auto* inspector = window.inspector();
  if (cli.isSet(colourScale)) {
    using adala::widgets::ScaleMode;
    const QString v = cli.value(colourScale);
    if (v == QLatin1String("shared")) {
      inspector->setScaleMode(ScaleMode::Shared);
    } else if (v == QLatin1String("per-pane")) {
      inspector->setScaleMode(ScaleMode::PerPane);
    } else if (v == QLatin1String("log")) {
      inspector->setScaleMode(ScaleMode::Log);
    } else if (const QString error = inspector->setFixedRange(v); !error.isEmpty()) {
      std::fprintf(stderr, "adala-workbench: --scale %s: shared, per-pane, log or min..max (%s)\n",
                   qPrintable(v), qPrintable(error));
      return 2;
    }
  }
  const QString view = cli.value(inspectorView);
  if (!view.isEmpty() && view != QLatin1String("maps") && view != QLatin1String("rollout") &&
      view != QLatin1String("grid")) {
    std::fprintf(stderr, "adala-workbench: --inspector-view %s: maps, rollout or grid\n",
                 qPrintable(view));
    return 2;
  }
  if (cli.isSet(inspect) || cli.isSet(image) || cli.isSet(item) || cli.isSet(dataset)) {
    if (cli.isSet(inputSize)) inspector->setInputSize(cli.value(inputSize).toInt());
    if (cli.isSet(inspectPrecision)) {
      const QString p = cli.value(inspectPrecision);
      if (p != QLatin1String("fp32") && p != QLatin1String("bf16")) {
        std::fprintf(stderr, "adala-workbench: --precision %s: fp32 or bf16 (CPU autocast)\n",
                     qPrintable(p));
        return 2;
      }
      inspector->setPrecision(p);
    }
    if (cli.isSet(dataset)) inspector->setDataset(QFileInfo(cli.value(dataset)).absoluteFilePath());
    if (cli.isSet(image))
      inspector->setImageFile(QFileInfo(cli.value(image)).absoluteFilePath());
    else if (cli.isSet(item))
      inspector->setDatasetItem(cli.value(item).toInt());
    if (cli.isSet(inspect)) {
      const QString path = QFileInfo(cli.value(inspect)).absoluteFilePath();
      inspector->addCheckpoint(
          QFileInfo(path).dir().dirName() + QStringLiteral(" · ") + QFileInfo(path).fileName(),
          path, true);
    }
    window.showTab(MainWindow::InspectorTab);
    // Block, head and query apply once the probe is ready (the first time only).
    auto applied = std::make_shared<bool>(false);
    QObject::connect(&controller, &EngineController::probeReady, inspector, [=, &cli] {
      if (*applied) return;
      *applied = true;
      if (cli.isSet(block)) inspector->setBlock(cli.value(block).toInt());
      if (cli.isSet(head)) inspector->setHead(cli.value(head).toInt());
      if (cli.isSet(query)) {
        const auto rc = cli.value(query).split(QLatin1Char(','));
        if (rc.size() == 2) inspector->setQueryPatch(rc[0].toInt(), rc[1].toInt());
      }
      if (view == QLatin1String("rollout")) inspector->setRollout(true);
      if (view == QLatin1String("grid")) inspector->showBlockHeadGrid();
      inspector->setFocus();
      if (cli.isSet(exportFigure)) {
        // The figure of the maps asked for: after the rows (and the rollout) have arrived.
        const QString out = QFileInfo(cli.value(exportFigure)).absoluteFilePath();
        auto write = [inspector, out](bool rollout) {
          return [inspector, out, rollout, done = std::make_shared<bool>(false)] {
            if (*done || inspector->rolloutShown() != rollout) return;
            if (rollout && inspector->rolloutSoftmax().isEmpty()) return;
            *done = true;
            const QString error = inspector->exportFigure(out);
            std::fprintf(
                stderr, "adala-workbench: %s\n",
                qPrintable(error.isEmpty() ? QStringLiteral("figure written to ") + out : error));
          };
        };
        if (view == QLatin1String("rollout"))
          QObject::connect(inspector, &adala::widgets::AttentionInspector::overviewUpdated,
                           inspector, write(true));
        else
          QObject::connect(inspector, &adala::widgets::AttentionInspector::mapsUpdated, inspector,
                           write(false));
      }
    });
  }
  if (cli.isSet(openSegmentation)) {
    if (!window.openSegmentation(QFileInfo(cli.value(openSegmentation)).absoluteFilePath()))
      std::fprintf(stderr, "adala-workbench: %s\n", qPrintable(window.statusMessage()));
    if (cli.isSet(segmentationImage))
      window.segmentationViewer()->setPosition(cli.value(segmentationImage).toInt() - 1);
  }
  if (cli.isSet(scalingCsv) &&
      !window.openBenchmarkCsv(QFileInfo(cli.value(scalingCsv)).absoluteFilePath()))
    std::fprintf(stderr, "adala-workbench: cannot plot %s (see the Scaling tab)\n",
                 qPrintable(cli.value(scalingCsv)));
  if (cli.isSet(tab) && cli.value(tab) == QLatin1String("features")) {
    window.showFeatures();  // --dataset-index picks the Features tab's image too
    if (cli.isSet(item)) window.featureView()->indexBox()->setValue(cli.value(item).toInt());
  } else if (cli.isSet(tab)) {
    const QString name = cli.value(tab);
    window.showTab(name == QLatin1String("summary")     ? MainWindow::SummaryTab
                   : name == QLatin1String("inspector") ? MainWindow::InspectorTab
                   : name == QLatin1String("health")    ? MainWindow::HealthTab
                   : name == QLatin1String("scaling")   ? MainWindow::ScalingTab
                                                        : MainWindow::PlotTab);
  }

  if (::socketpair(AF_UNIX, SOCK_STREAM, 0, g_signalFd) == 0) {
    auto* notifier = new QSocketNotifier(g_signalFd[1], QSocketNotifier::Read, &window);
    QObject::connect(notifier, &QSocketNotifier::activated, &window, [&window] {
      char byte = 0;
      [[maybe_unused]] const auto n = ::read(g_signalFd[1], &byte, 1);
      std::fprintf(
          stderr,
          "adala-workbench: stopping (signal); a running job is checkpointed and left resumable\n");
      window.setQuitConfirmation([] { return true; });
      window.close();
    });
    std::signal(SIGINT, onTerminationSignal);
    std::signal(SIGTERM, onTerminationSignal);
  }

  if (cli.isSet(quitAfter) || cli.isSet(quitWhenDone))
    window.setQuitConfirmation([] { return true; });
  if (cli.isSet(quitAfter))
    QTimer::singleShot(static_cast<int>(cli.value(quitAfter).toDouble() * 1000), &window,
                       [&window] { window.close(); });
  if (cli.isSet(quitWhenDone))
    QObject::connect(&controller, &EngineController::idle, &window, [&window] {
      QTimer::singleShot(500, &window, [&window] { window.close(); });
    });

  return app.exec();
}
