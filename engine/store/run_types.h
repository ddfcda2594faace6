#pragma once
// Plain rows of the run database, as RunStore returns them. Times are UTC ISO-8601
// ("2024-05-01T12:00:00.000Z"); "" means not set.
#include <cstdint>
#include <string>
#include <vector>

namespace adala::store {

struct RunInfo {
  int64_t id = 0;
  std::string name, config_json;
  std::string status;  // queued | running | interrupted | failed | done
  std::string device, torch_version, project_version;
  std::string started_at, ended_at;
  std::vector<std::string> tags;  // sorted
  std::string notes;
  std::string created_at;
};

struct StageInfo {
  int64_t run_id = 0;
  std::string stage;
  int index = 0;
  std::string status;                       // running | interrupted | failed | done
  int64_t total_steps = 0, last_step = -1;  // last_step: highest step with committed metrics
  std::string started_at, ended_at;
};

struct MetricRow {
  std::string stage;
  int64_t step = 0;
  std::string key;
  int block = -1;      // -1 = not per block (NULL in the database)
  double value = 0.0;  // NaN survives the round trip
};

struct ArtifactInfo {
  int64_t id = 0, run_id = 0;
  std::string kind, path, sha256;  // path is absolute
  int64_t bytes = 0;
  std::string created_at;
};

struct AttentionSnapshot {
  std::string stage;
  int64_t step = 0, image = 0;
  int block = 0, head = 0;
  int64_t query = 0;
  std::vector<float> softmax_row, linear_row;
};

}  // namespace adala::store
