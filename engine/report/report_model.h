#pragma once
// The report model: everything a run report shows, read from the run database (read-only)
// and from the run's artifact files, as plain values. No rendering, no wording: the
// document builder (report_document.h) turns this into sections, tables and figures.
//
// One model describes one run or a comparison of several runs (in the order given).
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "engine/plan/plan_record.h"
#include "engine/report/report_charts.h"
#include "engine/report/segmentation_summary_reader.h"
#include "engine/train/stage_catalog.h"

namespace adala::store {
class RunStore;
}

namespace adala::report {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The evaluations the report's headline reads ("stage/key", as RunStore::evaluations gives
// them, from the stage table): the teacher's top-1, the student's after Stage 3 and after
// Stage 2 (teacher's head).
inline const std::string kTeacherTop1 = teacher_top1_key();
inline const std::string kStudentTop1 = student_top1_keys().at(0);
inline const std::string kStage2StudentTop1 = student_top1_keys().at(1);
// The method name (tag "method:teacher") of a method comparison's shared teacher.
inline constexpr const char* kTeacherMethod = "teacher";

// The engine's stage names in stage order 0..3 (from the stage table).
const std::vector<std::string>& stage_names();

struct CurvePoint {
  double step = 0, value = 0;
};
using Curve = std::vector<CurvePoint>;

// A time read from the database; `valid` false when not recorded.
struct Timestamp {
  bool valid = false;
  int64_t utc_msecs = 0;
};

// A stage's numerical health (the training loop's health.* metrics, engine/train/training_loop.h):
// the worst value over all logged steps and blocks, with the block where it was seen.
struct HealthSummary {
  bool any = false;
  double min_normaliser = kNaN;
  int min_normaliser_block = -1;
  double max_low_share = kNaN;  // share of normalisers below the stage's threshold
  int max_low_share_block = -1;
  double attention_nonfinite = 0, activation_nonfinite = 0, grad_nonfinite = 0;  // summed
  double max_abs_activation = kNaN;
  int max_abs_block = -1;
};

struct StageSummary {
  std::string stage;  // engine name, e.g. "attention_alignment"
  int index = -1;
  std::string status;
  int64_t total_steps = 0, last_step = -1;
  Timestamp started, ended;
  double seconds = kNaN;          // ended - started (pauses and idle gaps included)
  double compute_seconds = kNaN;  // the time it trained; NaN for runs recorded before v5
  double first_loss = kNaN, final_loss = kNaN, best_loss = kNaN;
  double final_lr = kNaN;
  double final_train_acc = kNaN;  // classification stages only
  double mean_images_per_second = kNaN;
  Curve loss;                      // the whole loss curve
  std::map<int, Curve> block_mse;  // block -> per-block MSE curve (Stages 1 and 2)
  HealthSummary health;
};

struct ArtifactRef {
  int64_t run = 0;
  std::string kind, path, sha256;
  int64_t bytes = 0;
  bool exists = false;
};

// A figure file saved by the GUI (attention inspector, segmentation viewer).
struct ImageArtifact {
  ArtifactRef artifact;
  std::string caption;  // from the file name
  Size size;            // pixels; empty when missing or unreadable
  std::string problem;  // why there is no image ("" when there is one)
  bool readable() const { return !size.empty(); }
};

// A small CSV file read as text cells (first row: header).
struct CsvTable {
  std::string path;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  int column(const std::string& name) const;
};

struct ScalingData {
  ArtifactRef artifact;
  CsvTable table;  // columns of scaling_csv_columns() (engine/bench/scaling_csv.h)
  std::string problem;
};

// The results of `adala segment`: its summary.json (a "segmentation_summary" artifact).
struct SegmentationData {
  ArtifactRef artifact;
  SegmentationSummary summary;  // empty when there is a problem
  std::string problem;          // "missing", or why the file could not be read ("" when read)
};

// The student's inference cost against the teacher's at one input resolution.
struct CostPoint {
  int64_t resolution = 0;                       // square input side, pixels
  double student_ms = kNaN, teacher_ms = kNaN;  // per image
  double student_mb = kNaN, teacher_mb = kNaN;  // peak memory, MB (1e6 bytes)
};

// What the run came to, as a report opens with it: the teacher's and the student's top-1 and
// the gap (read as the workbench's Summary tab reads them, engine/store/run_overview.h), what
// was adapted, and the inference cost where the run has it recorded.
struct Headline {
  double teacher_top1 = kNaN, student_top1 = kNaN;
  double gap_points = kNaN;  // (student - teacher) * 100
  std::string student_key;   // the evaluation the student's top-1 is ("" when none)
  std::string method, feature_map, preset, dataset;  // "" where the run does not say
  // Where the costs come from: the run's own `adala compare-methods` measurements against
  // its comparison's teacher, else its scaling table (linear against softmax attention).
  enum class CostSource { None, Comparison, Scaling };
  CostSource cost_source = CostSource::None;
  std::vector<CostPoint> costs;  // by resolution
};

struct ReportRun {
  int64_t id = 0;
  std::string name, status, device, torch_version, project_version, notes;
  Timestamp created, started, ended;
  double seconds = kNaN;
  std::vector<std::string> tags;
  std::string config_json;
  std::map<std::string, std::string> config;  // flattened: "stages.teacher.lr" -> "0.001"
  std::vector<StageSummary> stages;           // by stage index
  std::map<std::string, double> evaluations;  // "teacher/top1" -> 0.85
  std::vector<ArtifactRef> artifacts;
  std::vector<ImageArtifact> attention_figures, segmentation_figures;
  std::vector<ScalingData> scaling;
  std::vector<SegmentationData> segmentation;
  Headline headline;

  const StageSummary* stage(const std::string& name) const;
  bool has_block_mse() const;
  bool has_health() const;
  std::string label() const;  // "#3 fashion-mnist-tiny"
};

// One line of the ablation table: (a) teacher .. (d) Stage 1+2+3.
struct AblationRow {
  std::string variant;  // "a", "b", "c", "d" (from the run's "variant:<key>" tag)
  int64_t run = 0;
  double top1 = kNaN;
  double gap_points = kNaN;  // (top1 - teacher top1) * 100
};

struct Ablation {
  std::string folder;                // the "ablation:<folder>" tag
  std::string directory;             // where ablate wrote ablation.md/csv ("" if unknown)
  std::vector<AblationRow> rows;     // by variant
  Curve stage2_only, stage1_then_2;  // Stage-2 loss of (c) and (d)
};

// One line of a `compare-methods` table: the shared teacher or one linearisation method.
struct MethodRow {
  std::string method;  // "teacher" or the method's name (from the run's "method:<name>" tag)
  int64_t run = 0;
  double top1 = kNaN;
  double gap_points = kNaN;  // (top1 - teacher top1) * 100
  // Inference cost by input side (px): "comparison/ms_per_img@R", "comparison/peak_bytes@R".
  std::map<int64_t, double> ms_per_img, peak_bytes;
};

struct MethodComparison {
  std::string folder;           // the "comparison:<folder>" tag
  std::vector<MethodRow> rows;  // teacher first, then the methods in the order they ran
  std::vector<int64_t> resolutions;
};

// The trained attention plans (`adala plan`, engine/plan/plan_record.h) the database holds:
// those of the reported run's planning session when a reported run is one of them, else all.
struct PlanSummary {
  std::string planner;               // the session ("" = every session)
  std::vector<PlanPoint> points;     // oldest run first
  std::vector<int64_t> resolutions;  // where every point has a cost (common_resolutions)
  bool empty() const { return points.empty(); }
};

struct ConfigRow {
  std::string key;
  std::vector<std::string> values;  // one per run; "" = not set in that run
  bool differs = false;
};

struct ReportModel {
  std::string db_path;
  Timestamp generated;
  std::vector<ReportRun> runs;
  std::vector<ConfigRow> config;  // every key (see ConfigRow::differs)
  std::vector<Ablation> ablations;
  std::vector<MethodComparison> method_comparisons;
  PlanSummary plans;
  std::vector<std::string> warnings;  // missing / unreadable artifacts, in order found

  bool comparison() const { return runs.size() > 1; }
};

// Reads an image file's size in pixels; false (and *error) when it cannot be read. The
// default reads PNG headers; the application passes one that decodes every format Qt reads.
using ImageProbe = std::function<bool(const std::string& path, Size* size, std::string* error)>;
bool probe_png(const std::string& path, Size* size, std::string* error);

// Reads the runs (ids, in the order given) from the store. Throws store::StoreError for
// database errors and std::invalid_argument for an unknown run. Problems with artifact
// files (missing, unreadable) do not throw: they land in warnings (and in the
// ImageArtifact / ScalingData problem fields).
ReportModel load_report_model(store::RunStore& store, const std::vector<int64_t>& runs,
                              const ImageProbe& probe = {});

// Helpers shared with the writers and the tests.
std::map<std::string, std::string> flatten_json(const std::string& json);
Timestamp parse_store_time(const std::string& iso);  // UTC ISO-8601
// RFC 4180 through engine/bench/scaling_csv's reader; a short row is padded with empty
// fields. read_csv reports a malformed file in *error and returns an empty table; parse_csv
// throws ScalingCsvError.
CsvTable read_csv(const std::string& path, std::string* error);
CsvTable parse_csv(const std::string& text);

}  // namespace adala::report
