#pragma once
// The life of a run, and the one place its statuses are spelled as the database stores them.
#include <optional>
#include <string_view>

namespace adala::store {

// queued -> running -> done | failed | interrupted (an interrupted run can run again).
// A stage ends with one of the last three, too.
enum class RunStatus { Queued, Running, Done, Failed, Interrupted };

constexpr const char* run_status_name(RunStatus status) {
  switch (status) {
    case RunStatus::Queued:
      return "queued";
    case RunStatus::Running:
      return "running";
    case RunStatus::Done:
      return "done";
    case RunStatus::Failed:
      return "failed";
    case RunStatus::Interrupted:
      return "interrupted";
  }
  return "?";
}

// The status of that spelling, or nullopt.
inline std::optional<RunStatus> parse_run_status(std::string_view name) {
  for (RunStatus s : {RunStatus::Queued, RunStatus::Running, RunStatus::Done, RunStatus::Failed,
                      RunStatus::Interrupted})
    if (name == run_status_name(s)) return s;
  return std::nullopt;
}

// done, failed and interrupted end a run (and a stage).
constexpr bool is_final(RunStatus status) {
  return status == RunStatus::Done || status == RunStatus::Failed ||
         status == RunStatus::Interrupted;
}

}  // namespace adala::store
