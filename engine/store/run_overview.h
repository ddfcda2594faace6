#pragma once
// What a run came to, in one plain struct for the workbench's Summary tab and compare table
// (and anything else headless): per-stage times and final values, teacher and student top-1
// and the gap, method, device, config, tags and notes. Read through RunStore's own queries
// (find_run, stages, final_metrics, evaluations): a handful of small indexed reads, never the
// whole metric history. No Qt here.
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "engine/store/run_types.h"

namespace adala::store {

class RunStore;

struct StageOverview {
  static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
  std::string stage;  // teacher | attention_alignment | feature_alignment | fine_tuning
  int index = 0;
  std::string status;
  int64_t total_steps = 0, last_step = -1;
  std::string started_at, ended_at;
  double wall_seconds = kNone;  // ended_at - started_at; NaN while running or never ended
  // Time spent training (StageInfo::compute_seconds) and the rest of the wall time, when the
  // stage stood still (paused, or between a cancel and the resume): NaN where the database
  // does not record them (stages before schema v5, or never ended).
  double compute_seconds = kNone, idle_seconds = kNone;
  // The last logged value of the stage's loss, learning rate and training accuracy (NaN: none).
  int64_t final_step = -1;
  double final_loss = kNone, final_lr = kNone, final_train_acc = kNone;
};

struct RunOverview {
  static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
  RunInfo run;
  std::vector<StageOverview> stages;  // by stage index
  double wall_seconds = kNone;        // the run's started_at .. ended_at
  // teacher/top1, and the student's: fine_tuning/top1, else (no Stage 3) the Stage-2 student
  // with the teacher's head (feature_alignment/top1_teacher_head). NaN: not evaluated.
  double teacher_top1 = kNone, student_top1 = kNone;
  std::string student_top1_key;  // "stage/key" the student value came from ("" if none)
  double gap_points = kNone;     // 100 * (student - teacher); NaN unless both exist
  std::map<std::string, double> evaluations;  // every "stage/key" -> value
  std::string method, feature_map, preset;    // from the config ("" when it does not say)
  // The config names no feature map: feature_map is the one the run used by default (the
  // method's, else ViTConfig's "elu1", engine/model/vit_config.h).
  bool feature_map_default = false;
  // The config names no method: method is ExperimentConfig's default, "adala".
  bool method_default = false;
  // The config flattened to dotted paths (stages.fine_tuning.lr -> "0.0003"), sorted by path.
  std::vector<std::pair<std::string, std::string>> config;
};

// Throws std::invalid_argument for a run the database does not have; StoreError as the store.
RunOverview load_run_overview(RunStore& store, int64_t run);

// A JSON document as (dotted path, compact value) pairs sorted by path: objects are walked
// ("a.b.c"), arrays of scalars read on one line ("[224,448]"), arrays of objects get indices
// ("a[0].b"), numbers print as the shortest text that reads back the same. Text that is not a
// JSON object gives one pair ("", text).
std::vector<std::pair<std::string, std::string>> flatten_config(const std::string& json);

// One config path across several runs: its value in each ("" where a run lacks it).
struct ConfigDiffRow {
  std::string path;
  std::vector<std::string> values;  // one per run, in the order given
  std::vector<bool> present;        // whether each run has the path
  bool differs = false;             // not the same value (or presence) in every run
};
// Every path of any run, sorted; only the differing ones unless all_paths. Paths that only
// name the run (name, output.runs_dir) are included: they differ, and the user may want them.
std::vector<ConfigDiffRow> config_diff(const std::vector<RunOverview>& runs,
                                       bool all_paths = false);

// A run database time ("2024-05-01T12:00:00.000Z"; also without milliseconds or zone, read as
// UTC) -> milliseconds since the epoch; false for "" or malformed text. The report's times too.
bool parse_store_timestamp(const std::string& text, int64_t* utc_msecs);

}  // namespace adala::store
