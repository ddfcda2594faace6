#pragma once
// The report model: everything a run report shows, read from the run database (read-only)
// and from the run's artifact files, as plain Qt values. No rendering, no wording: the
// document builder (report_document.h) turns this into sections, tables and figures.
//
// One model describes one run or a comparison of several runs (in the order given).
#include <QDateTime>
#include <QImage>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>
#include <QVector>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace adala::store {
class RunStore;
}

namespace adala::report {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The engine's stage names in stage order 0..3, and the index of one (-1: unknown).
const QStringList& stage_names();
int stage_index(const QString& stage);

struct CurvePoint {
  double step = 0, value = 0;
};
using Curve = QVector<CurvePoint>;

struct StageSummary {
  QString stage;  // engine name, e.g. "attention_alignment"
  int index = -1;
  QString status;
  qint64 total_steps = 0, last_step = -1;
  QDateTime started, ended;     // invalid when not recorded
  double seconds = kNaN;        // ended - started
  double first_loss = kNaN, final_loss = kNaN, best_loss = kNaN;
  double final_lr = kNaN;
  double final_train_acc = kNaN;  // classification stages only
  double mean_images_per_second = kNaN;
  Curve loss;                   // the whole loss curve
  QMap<int, Curve> block_mse;   // block -> per-block MSE curve (Stages 1 and 2)
};

struct ArtifactRef {
  qint64 run = 0;
  QString kind, path, sha256;
  qint64 bytes = 0;
  bool exists = false;
};

// A figure file saved by the GUI (attention inspector, segmentation viewer).
struct ImageArtifact {
  ArtifactRef artifact;
  QString caption;  // from the file name
  QImage image;     // null when missing or unreadable
  QString problem;  // why there is no image ("" when there is one)
};

// A small CSV file read as text cells (first row: header).
struct CsvTable {
  QString path;
  QStringList header;
  QVector<QStringList> rows;
  int column(const QString& name) const { return header.indexOf(name); }
};

struct ScalingData {
  ArtifactRef artifact;
  CsvTable table;  // columns of write_scaling_csv (engine/analysis/scaling_bench.h)
  QString problem;
};

struct ReportRun {
  qint64 id = 0;
  QString name, status, device, torch_version, project_version, notes;
  QDateTime created, started, ended;
  double seconds = kNaN;
  QStringList tags;
  QString config_json;
  QMap<QString, QString> config;  // flattened: "stages.teacher.lr" -> "0.001"
  QVector<StageSummary> stages;   // by stage index
  QMap<QString, double> evaluations;  // "teacher/top1" -> 0.85
  QVector<ArtifactRef> artifacts;
  QVector<ImageArtifact> attention_figures, segmentation_figures;
  QVector<ScalingData> scaling;

  const StageSummary* stage(const QString& name) const;
  bool has_block_mse() const;
  QString label() const;  // "#3 fashion-mnist-tiny"
};

// One line of the ablation table: (a) teacher .. (d) Stage 1+2+3.
struct AblationRow {
  QString variant;  // "a", "b", "c", "d" (from the run's "variant:<key>" tag)
  qint64 run = 0;
  double top1 = kNaN;
  double gap_points = kNaN;  // (top1 - teacher top1) * 100
};

struct Ablation {
  QString folder;  // the "ablation:<folder>" tag
  QString directory;  // where ablate wrote ablation.md/csv ("" if unknown)
  QVector<AblationRow> rows;  // by variant
  Curve stage2_only, stage1_then_2;  // Stage-2 loss of (c) and (d)
};

struct ConfigRow {
  QString key;
  QStringList values;  // one per run; "" = not set in that run
  bool differs = false;
};

struct ReportModel {
  QString db_path;
  QDateTime generated;
  QVector<ReportRun> runs;
  QVector<ConfigRow> config;  // every key (see ConfigRow::differs)
  QVector<Ablation> ablations;
  QStringList warnings;       // missing / unreadable artifacts, in order found

  bool comparison() const { return runs.size() > 1; }
};

// Reads the runs (ids, in the order given) from the store. Throws store::StoreError for
// database errors and std::invalid_argument for an unknown run. Problems with artifact
// files (missing, unreadable) do not throw: they land in warnings (and in the
// ImageArtifact / ScalingData problem fields).
ReportModel load_report_model(store::RunStore& store, const std::vector<int64_t>& runs);

// Helpers shared with the writers and the tests.
QMap<QString, QString> flatten_json(const QString& json);
QDateTime parse_store_time(const std::string& iso);  // UTC ISO-8601 -> QDateTime (UTC)
CsvTable read_csv(const QString& path, QString* error);
CsvTable parse_csv(const QString& text);

}  // namespace adala::report
