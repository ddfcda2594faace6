#pragma once
// The command line of `adala-workbench`: each option (its name, value and help, in the order
// --help lists them) and what the line asks for, read into WorkbenchOptions. Reading only:
// app/gui/workbench_startup.h applies the options to the window, app/gui/workbench_test_hooks.h
// the benchmark's and the scripts' hooks.
#include <QCommandLineParser>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>
#include <utility>

#include "widgets/common/colour_scale.h"

class QCoreApplication;

namespace adala::gui {

// The central tab --tab names (Features is shown its own way: MainWindow::showFeatures).
enum class WorkbenchTab { Summary, Plot, Health, Inspector, Scaling, Features, Plans };
// What the attention inspector shows first (--inspector-view).
enum class InspectorView { Maps, Rollout, Grid };

struct WorkbenchOptions {
  QString database;    // the run database, absolute (--db, else the workspace's)
  QString experiment;  // the positional argument: opened in the launcher
  // --run (or --measure-stall): opened and started once the window shows.
  QString startConfig;
  bool measureStall = false;  // --measure-stall: the GUI-thread stall benchmark
  QList<int> stages;          // --stages, 0..3; empty: the document's own selection

  std::optional<qint64> openRun;         // --open-run
  std::optional<QList<qint64>> compare;  // --compare
  QString scalingCsv;                    // --scaling-csv, absolute
  QString openSegmentation;              // --open-segmentation, absolute
  std::optional<int> segmentationImage;  // --segmentation-image, 1 = the first
  std::optional<WorkbenchTab> tab;       // --tab (an unknown name: the plot tab)

  // The attention inspector. `inspect` is set by any of --inspect, --image, --dataset-index or
  // --dataset; the inspector's other options apply only then, except --scale.
  bool inspect = false;
  QString checkpoint, image, dataset;  // absolute
  std::optional<int> datasetIndex;     // also the Features tab's image with --tab features
  std::optional<int> inputSize;
  QString precision;  // "", fp32 or bf16
  std::optional<int> block, head;
  std::optional<std::pair<int, int>> queryPatch;  // row, col
  std::optional<widgets::ScaleMode> scale;        // --scale (Fixed: fixedRange holds min..max)
  QString fixedRange;
  std::optional<InspectorView> inspectorView;
  QString exportFigure;  // absolute

  std::optional<QString> theme;            // --theme; none: the one saved in the settings
  int threads = 0;                         // --threads; 0 = all cores
  std::optional<double> quitAfterSeconds;  // --quit-after
  bool quitWhenDone = false;               // --quit-when-done
};

class WorkbenchCommandLine {
 public:
  // Declares every option with its help in the interface language: construct it once the
  // application and its translator exist.
  WorkbenchCommandLine();

  // As the workbench reads its own line: --help and --version print and exit, and so does an
  // unknown option (with QCommandLineParser's message).
  void process(const QCoreApplication& app);
  // Parses `arguments` (the program first); false, with the reason in error(), for an unknown
  // option or a missing value.
  bool parse(const QStringList& arguments);
  QString error() const { return parser_.errorText(); }
  QString helpText() const { return parser_.helpText(); }

  // What the parsed line asks for; nullopt, with the reason (e.g. "--stages: expected numbers
  // 0..3, e.g. 0,1,2,3") in *error, for a value the workbench cannot use.
  std::optional<WorkbenchOptions> options(QString* error) const;

 private:
  QString value(const char* name) const;
  bool isSet(const char* name) const;

  QCommandLineParser parser_;
};

// The run database when --db is not given (the workspace's, ~/.local/share/adala/runs.sqlite).
QString defaultDatabase();

// --help and --version print and exit: they need no display (an ssh session, a CI log), so
// for them the Qt platform is offscreen unless QT_QPA_PLATFORM says otherwise. Call before the
// QApplication exists.
void useOffscreenPlatformForHelp(int argc, char** argv);

}  // namespace adala::gui
