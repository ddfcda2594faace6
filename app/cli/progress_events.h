#pragma once
// `adala bench scaling --progress jsonl`: the benchmark's progress as a machine-readable
// stream, which the workbench follows (app/gui/scaling_bench_process.cpp). One JSON object per
// line on stderr (stdout keeps the result table), each line flushed as it is written; these
// lines start with '{', the other stderr lines (warnings, the error message) never do.
//   {"event":"start","benchmark":"scaling","total":12,"preset":"vit_small",
//    "resolutions":[64,96],"modes":["softmax","linear"]}
//   {"event":"recorded","run_id":42}                   the benchmark run in the database
//   {"event":"progress","done":3,"total":12,"label":"64px linear"}   label "" at the end
//   {"event":"csv","path":"/abs/scaling.csv"}           --csv written
//   {"event":"done","points":4,"run_id":42}             run_id null when not recorded
//   {"event":"error","message":"..."}                   then the command exits non-zero
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace adala::cli {

class ProgressEvents {
 public:
  explicit ProgressEvents(std::FILE* out) : out_(out) {}

  void start(const std::string& benchmark, size_t total, const std::string& preset,
             const std::vector<int64_t>& resolutions, const std::vector<std::string>& modes);
  void recorded(int64_t run_id);
  void progress(size_t done, size_t total, const std::string& label);
  void csv(const std::string& path);
  void done(size_t points, int64_t run_id);  // run_id < 0: not recorded
  void error(const std::string& message);

 private:
  void write(const std::string& line);
  std::FILE* out_;
};

}  // namespace adala::cli
