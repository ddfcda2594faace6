#pragma once
// A benchmark run in the run database (kind "benchmark"): `adala bench
// scaling|attention|stage2|peer`
// create it `running` before the first point, add points as they are measured and mark it
// `done` at the end; a record destroyed before finish() (an exception) marks the run `failed`,
// a killed process leaves it to be read as `interrupted`, with the points measured so far.
// --db "" = the workspace database, "none" = nothing recorded (every call does nothing).
#include <cstdint>
#include <string>
#include <vector>

#include "engine/bench/attention_bench.h"
#include "engine/bench/peer_comparison.h"
#include "engine/bench/scaling_bench.h"
#include "engine/bench/stage2_bench.h"
#include "engine/json/json.h"
#include "engine/run/run_session.h"

namespace adala::cli {

class BenchmarkRecord {
 public:
  // Prints "benchmark run ID recorded in PATH" on stderr for people (programs such as the GUI
  // read the id from the `--progress jsonl` stream's "recorded" event).
  BenchmarkRecord(const std::string& db_option, const std::string& name, const Json& config,
                  const std::string& device);
  ~BenchmarkRecord();
  BenchmarkRecord(const BenchmarkRecord&) = delete;
  BenchmarkRecord& operator=(const BenchmarkRecord&) = delete;

  bool recording() const { return session_.recording(); }
  int64_t run_id() const { return session_.run_id(); }

  void add(const std::vector<ScalingPoint>& points);
  void add(const std::vector<AttentionBenchPoint>& points, const AttentionBenchOptions& options);
  void add(const std::vector<Stage2BenchPoint>& points, const Stage2BenchOptions& options);
  void add(const PeerReport& report, const PeerOptions& options);
  // A file the benchmark wrote (e.g. kind "scaling_csv": `adala report` shows its table).
  void add_artifact(const std::string& kind, const std::string& path);
  void finish();  // status done

 private:
  RunSession session_;
};

}  // namespace adala::cli
