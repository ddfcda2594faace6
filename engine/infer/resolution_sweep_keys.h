#pragma once
// How a resolution sweep is stored in the run database: evaluations of the run under the stage
// "resolution_sweep", keys "teacher_top1@56" / "student_top1@56" (top-1 as a fraction at that
// input side) and "images" (how many evaluation images each point used). Plain C++ (no torch,
// no Qt): the CLI, the engine and the workbench read and write the same keys.
#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace adala {

inline constexpr const char* kResolutionSweepStage = "resolution_sweep";

// role: "teacher" | "student".
inline std::string resolution_sweep_key(const std::string& role, int64_t resolution) {
  return role + "_top1@" + std::to_string(resolution);
}

struct StoredSweepPoint {
  double teacher_top1 = -1.0, student_top1 = -1.0;  // -1: not stored
};

// The points of a sweep among a run's evaluations ("stage/key" -> value, as
// RunStore::evaluations returns them), by resolution; `images` gets the image count (0: none).
inline std::map<int64_t, StoredSweepPoint> stored_resolution_sweep(
    const std::map<std::string, double>& evaluations, int64_t* images = nullptr) {
  std::map<int64_t, StoredSweepPoint> points;
  const std::string prefix = std::string(kResolutionSweepStage) + "/";
  if (images) *images = 0;
  for (const auto& [key, value] : evaluations) {
    if (key.rfind(prefix, 0) != 0) continue;
    const std::string name = key.substr(prefix.size());
    if (name == "images") {
      if (images) *images = static_cast<int64_t>(value);
      continue;
    }
    const size_t at = name.find("_top1@");
    if (at == std::string::npos) continue;
    const std::string role = name.substr(0, at), res = name.substr(at + 6);
    if (res.empty() || res.find_first_not_of("0123456789") != std::string::npos || res.size() > 9)
      continue;
    StoredSweepPoint& p = points[std::stoll(res)];
    if (role == "teacher")
      p.teacher_top1 = value;
    else if (role == "student")
      p.student_top1 = value;
  }
  return points;
}

}  // namespace adala
