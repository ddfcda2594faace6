#include "engine/store/run_store.h"
#include "engine/train/stage_catalog.h"

#include "app/gui/workbench_options.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <array>
#include <cstring>

namespace adala::gui {

namespace {

// One option of the command line; its help is translated in context "main" (lupdate reads it
// here through QT_TRANSLATE_NOOP).
struct OptionSpec {
  const char* name;
  const char* help;
  const char* valueName;  // nullptr: a flag
};

// In the order --help lists them.
constexpr std::array<OptionSpec, 26> kOptions{{
    {"db", QT_TRANSLATE_NOOP("main", "Run database (default: %1)."), "file"},
    {"run", QT_TRANSLATE_NOOP("main", "Open this experiment and start it."), "config"},
    {"stages", QT_TRANSLATE_NOOP("main", "Stages to run, e.g. 0,1,2,3."), "list"},
    {"open-run", QT_TRANSLATE_NOOP("main", "Show this recorded run."), "id"},
    {"compare", QT_TRANSLATE_NOOP("main", "Overlay these recorded runs."), "id,id,..."},
    {"inspect", QT_TRANSLATE_NOOP("main", "Inspect the attention of this checkpoint."),
     "checkpoint"},
    {"image", QT_TRANSLATE_NOOP("main", "Image file for the inspector."), "file"},
    {"dataset-index", QT_TRANSLATE_NOOP("main", "Dataset item for the inspector."), "n"},
    {"dataset",
     QT_TRANSLATE_NOOP("main",
                       "The inspector's dataset: class folders, an image folder or list, "
                       "or a run's config.json (default: Fashion-MNIST's test split)."),
     "path"},
    {"precision", QT_TRANSLATE_NOOP("main", "Inspector forward pass: fp32 or bf16."), "precision"},
    {"input-size",
     QT_TRANSLATE_NOOP(
         "main", "Inspector input: 0 = the model's size, -1 = the image's, or a square side."),
     "pixels"},
    {"block", QT_TRANSLATE_NOOP("main", "Inspector block."), "b"},
    {"head", QT_TRANSLATE_NOOP("main", "Inspector head."), "h"},
    {"query-patch", QT_TRANSLATE_NOOP("main", "Inspector query patch."), "row,col"},
    {"tab",
     QT_TRANSLATE_NOOP(
         "main",
         "Central tab to show: summary, plot, health, inspector, scaling, features or plans."),
     "name"},
    {"scaling-csv",
     QT_TRANSLATE_NOOP("main", "Plot this CSV of adala bench scaling --csv in the Scaling tab."),
     "file"},
    {"theme", QT_TRANSLATE_NOOP("main", "system, light or dark."), "name"},
    {"threads", QT_TRANSLATE_NOOP("main", "LibTorch threads (default: all cores)."), "n"},
    {"quit-after",
     QT_TRANSLATE_NOOP("main",
                       "Close after this many seconds (a running job is cancelled and left "
                       "resumable)."),
     "seconds"},
    {"quit-when-done", QT_TRANSLATE_NOOP("main", "Close once the started run is over."), nullptr},
    {"measure-stall",
     QT_TRANSLATE_NOOP("main",
                       "Benchmark: run this experiment and print the longest GUI-thread stall "
                       "during Stage 2."),
     "config"},
    {"scale",
     QT_TRANSLATE_NOOP("main",
                       "Inspector colour scale: shared, per-pane, log, or a range min..max."),
     "scale"},
    {"inspector-view",
     QT_TRANSLATE_NOOP("main",
                       "Inspector view: maps (one block and head), rollout, or grid (blocks × "
                       "heads)."),
     "view"},
    {"export-figure",
     QT_TRANSLATE_NOOP("main",
                       "Write the inspector's figure (PNG or PDF) once its maps are drawn."),
     "file"},
    {"open-segmentation",
     QT_TRANSLATE_NOOP("main",
                       "Show these segmentation results (a results folder, a folder of them, or "
                       "a run folder)."),
     "folder"},
    {"segmentation-image",
     QT_TRANSLATE_NOOP("main", "Image the segmentation viewer shows first (1 = the first)."), "n"},
}};

constexpr std::pair<const char*, WorkbenchTab> kTabs[] = {
    {"summary", WorkbenchTab::Summary}, {"plot", WorkbenchTab::Plot},
    {"health", WorkbenchTab::Health},   {"inspector", WorkbenchTab::Inspector},
    {"scaling", WorkbenchTab::Scaling}, {"features", WorkbenchTab::Features},
    {"plans", WorkbenchTab::Plans}};

constexpr std::pair<const char*, InspectorView> kViews[] = {{"maps", InspectorView::Maps},
                                                            {"rollout", InspectorView::Rollout},
                                                            {"grid", InspectorView::Grid}};

constexpr std::pair<const char*, widgets::ScaleMode> kScales[] = {
    {"shared", widgets::ScaleMode::Shared},
    {"per-pane", widgets::ScaleMode::PerPane},
    {"log", widgets::ScaleMode::Log}};

template <typename T, size_t N>
std::optional<T> lookUp(const std::pair<const char*, T> (&table)[N], const QString& name) {
  for (const auto& [text, value] : table)
    if (name == QLatin1String(text)) return value;
  return std::nullopt;
}

QString absolute(const QString& path) { return QFileInfo(path).absoluteFilePath(); }

// "0,1,2" -> {0, 1, 2}; nullopt unless every part is a stage index and there is one.
std::optional<QList<int>> parseStages(const QString& text) {
  QList<int> stages;
  for (const auto& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
    bool good = false;
    const int s = part.trimmed().toInt(&good);
    if (!good || !is_stage_index(s)) return std::nullopt;
    stages << s;
  }
  if (stages.isEmpty()) return std::nullopt;
  return stages;
}

}  // namespace

QString defaultDatabase() { return QString::fromStdString(store::RunStore::default_path()); }

void useOffscreenPlatformForHelp(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    for (const char* flag : {"-h", "--help", "--help-all", "-v", "--version", "-?"})
      if (std::strcmp(argv[i], flag) == 0 && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
}

WorkbenchCommandLine::WorkbenchCommandLine() {
  parser_.setApplicationDescription(QCoreApplication::translate(
      "main",
      "AdaLA Workbench: adapt a softmax ViT into a linear-attention ViT and inspect every step."));
  parser_.addHelpOption();
  parser_.addVersionOption();
  parser_.addPositionalArgument(QStringLiteral("experiment"),
                                QCoreApplication::translate("main", "Experiment file to open."),
                                QStringLiteral("[experiment.json]"));
  for (const OptionSpec& spec : kOptions) {
    const QString name = QString::fromLatin1(spec.name);
    QString help = QCoreApplication::translate("main", spec.help);
    QString defaultValue;
    if (name == QLatin1String("db")) {
      help = help.arg(defaultDatabase());
      defaultValue = defaultDatabase();
    } else if (name == QLatin1String("threads")) {
      defaultValue = QStringLiteral("0");
    }
    parser_.addOption(
        spec.valueName
            ? QCommandLineOption(name, help, QString::fromLatin1(spec.valueName), defaultValue)
            : QCommandLineOption(name, help));
  }
}

void WorkbenchCommandLine::process(const QCoreApplication& app) { parser_.process(app); }

bool WorkbenchCommandLine::parse(const QStringList& arguments) { return parser_.parse(arguments); }

QString WorkbenchCommandLine::value(const char* name) const {
  return parser_.value(QString::fromLatin1(name));
}

bool WorkbenchCommandLine::isSet(const char* name) const {
  return parser_.isSet(QString::fromLatin1(name));
}

std::optional<WorkbenchOptions> WorkbenchCommandLine::options(QString* error) const {
  auto fail = [error](const QString& why) -> std::optional<WorkbenchOptions> {
    if (error) *error = why;
    return std::nullopt;
  };
  WorkbenchOptions o;
  o.database = absolute(value("db"));
  if (!parser_.positionalArguments().isEmpty())
    o.experiment = parser_.positionalArguments().first();
  o.measureStall = isSet("measure-stall");
  o.startConfig = o.measureStall ? value("measure-stall") : value("run");
  if (isSet("stages")) {
    const auto stages = parseStages(value("stages"));
    if (!stages)
      return fail(QStringLiteral("--stages: expected numbers %1, e.g. 0,1,2,3")
                      .arg(QString::fromStdString(stage_index_range())));
    o.stages = *stages;
  }

  if (isSet("open-run")) o.openRun = value("open-run").toLongLong();
  if (isSet("compare")) {
    o.compare.emplace();
    for (const auto& part : value("compare").split(QLatin1Char(','), Qt::SkipEmptyParts))
      *o.compare << part.toLongLong();
  }
  if (isSet("scaling-csv")) o.scalingCsv = absolute(value("scaling-csv"));
  if (isSet("open-segmentation")) o.openSegmentation = absolute(value("open-segmentation"));
  if (isSet("segmentation-image")) o.segmentationImage = value("segmentation-image").toInt();
  if (isSet("tab")) o.tab = lookUp(kTabs, value("tab")).value_or(WorkbenchTab::Plot);

  if (isSet("scale")) {
    const QString scale = value("scale");
    o.scale = lookUp(kScales, scale);
    if (!o.scale) {
      double lo = 0.0, hi = 0.0;
      QString why;
      if (!widgets::parseFixedRange(scale, &lo, &hi, &why))
        return fail(
            QStringLiteral("--scale %1: shared, per-pane, log or min..max (%2)").arg(scale, why));
      o.scale = widgets::ScaleMode::Fixed;
      o.fixedRange = scale;
    }
  }
  if (const QString view = value("inspector-view"); !view.isEmpty()) {
    o.inspectorView = lookUp(kViews, view);
    if (!o.inspectorView)
      return fail(QStringLiteral("--inspector-view %1: maps, rollout or grid").arg(view));
  }
  o.inspect = isSet("inspect") || isSet("image") || isSet("dataset-index") || isSet("dataset");
  if (isSet("inspect")) o.checkpoint = absolute(value("inspect"));
  if (isSet("image")) o.image = absolute(value("image"));
  if (isSet("dataset")) o.dataset = absolute(value("dataset"));
  if (isSet("dataset-index")) o.datasetIndex = value("dataset-index").toInt();
  if (isSet("input-size")) o.inputSize = value("input-size").toInt();
  if (o.inspect && isSet("precision")) {
    o.precision = value("precision");
    if (o.precision != QLatin1String("fp32") && o.precision != QLatin1String("bf16"))
      return fail(QStringLiteral("--precision %1: fp32 or bf16 (CPU autocast)").arg(o.precision));
  }
  if (isSet("block")) o.block = value("block").toInt();
  if (isSet("head")) o.head = value("head").toInt();
  if (isSet("query-patch")) {
    const auto rc = value("query-patch").split(QLatin1Char(','));
    if (rc.size() == 2) o.queryPatch = std::pair(rc[0].toInt(), rc[1].toInt());
  }
  if (isSet("export-figure")) o.exportFigure = absolute(value("export-figure"));

  if (isSet("theme")) o.theme = value("theme");
  o.threads = value("threads").toInt();
  if (isSet("quit-after")) o.quitAfterSeconds = value("quit-after").toDouble();
  o.quitWhenDone = isSet("quit-when-done");
  return o;
}

}  // namespace adala::gui
