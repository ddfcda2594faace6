#pragma once
// `adala bench scaling --progress jsonl`: the benchmark's progress as a machine-readable
// stream, which the workbench follows (app/gui/scaling_bench_process.cpp). One JSON object per
// line on stderr (stdout keeps the result table), each line flushed as it is written; these
// lines start with '{', the other stderr lines (warnings, the error message) never do.
//   {"event":"start","benchmark":"scaling","total":12,"preset":"vit_small",
//    "resolutions":[64,96],"modes":["softmax","linear"]}
//   {"event":"recorded","run_id":42}                   the benchmark run in the database
//   {"event":"progress","done":3,"total":12,"label":"64px linear"}   label "" at the end
//   {"event":"point","row":{"preset":"vit_small","resolution":"64","mode":"linear",...}}
//        one measured point, once all its rounds are in: the CSV's columns and field texts
//        (engine/bench/scaling_csv.h), so the reader checks them as it checks a file
//   {"event":"csv","path":"/abs/scaling.csv"}           --csv written
//   {"event":"done","points":4,"run_id":42}             run_id null when not recorded
//   {"event":"error","message":"..."}                   then the command exits non-zero
// `adala run --progress jsonl` (rank 0 alone; the other ranks are quiet) writes, on the same
// terms, the run and the engine's events (engine/train/events.h; a NaN number is null):
//   {"event":"run","name":"micro","run_dir":"/abs/runs/micro-...","processes":2}
//   {"event":"recorded","run_id":42}                   before the first engine event
//   {"event":"stage","stage":"attention_alignment","kind":"started","total_steps":6,"step":0,
//    "seconds":0.0,"message":""}                        kind started|finished|cancelled|failed
//   {"event":"step","stage":"attention_alignment","step":3,"total_steps":6,"epoch":0,
//    "loss":0.12,"lr":0.001,"per_block_mse":[...],"images_per_second":850.0,"eta_seconds":2.1,
//    "data_wait_share":0.05,"extra":{"wall_time":1.9},"per_block":{"health.x":[...]}}
//   {"event":"eval","stage":"teacher","key":"top1","value":0.71,"step":12}
//   {"event":"artifact","stage":"teacher","kind":"weights","path":"/abs/..."}
//   {"event":"log","level":"info|warning|error","message":"..."}
//   {"event":"finished","status":"done|interrupted","run_id":42}   run_id null: not recorded
//   {"event":"error","message":"..."}   by whichever process fails (a rank, or the launcher)
// app/cli/progress_stream.h reads these lines back.
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "engine/train/events.h"

namespace adala::cli {

class ProgressEvents {
 public:
  explicit ProgressEvents(std::FILE* out) : out_(out) {}

  void start(const std::string& benchmark, size_t total, const std::string& preset,
             const std::vector<int64_t>& resolutions, const std::vector<std::string>& modes);
  void recorded(int64_t run_id);
  void progress(size_t done, size_t total, const std::string& label);
  void point(const std::vector<std::pair<std::string, std::string>>& csv_fields);
  void csv(const std::string& path);
  void done(size_t points, int64_t run_id);  // run_id < 0: not recorded
  void error(const std::string& message);

  // adala run
  void run(const std::string& name, const std::string& run_dir, int processes);
  void engine_event(const Event& event);                     // step, stage, eval, artifact or log
  void finished(const std::string& status, int64_t run_id);  // run_id < 0: not recorded

 private:
  void write(const std::string& line);
  std::FILE* out_;
};

// The engine's events as JSON lines; before the first one, the recorded run's id, which
// `run_id` looks up (the run's row exists by then: the database hears of every event first).
class JsonlProgressSink : public EventSink {
 public:
  using RunIdLookup = int64_t (*)(const std::string& db_path, const std::string& run_dir);
  JsonlProgressSink(ProgressEvents& events, std::string db_path, std::string run_dir,
                    RunIdLookup run_id)
      : events_(events),
        db_path_(std::move(db_path)),
        run_dir_(std::move(run_dir)),
        lookup_(run_id) {}
  void on_event(const Event& event) override;
  int64_t run_id() const { return run_id_; }

 private:
  ProgressEvents& events_;
  std::string db_path_, run_dir_;
  RunIdLookup lookup_;
  bool looked_up_ = false;
  int64_t run_id_ = -1;
};

}  // namespace adala::cli
