#pragma once
// Which attention a block runs: the softmax path; the linear path phi(Q)(phi(K)^T V) with the
// model's feature map; or the linear path with a k x k softmax window on the patch grid
// (window_linear_attention.h). A student's plan gives one per block (attention_plan.h).
// Header-only, so that torch-free layers (the plan record, engine/plan/plan_record.h, and the
// frontier view that reads it) name modes from the same table.
#include <array>
#include <stdexcept>
#include <string>
#include <vector>

namespace adala {

enum class AttentionMode { Softmax, Linear, WindowLinear };

struct AttentionModeInfo {
  AttentionMode mode;
  const char* name;  // in configs, metadata and tables
  char letter;       // in a compact per-block strip: "SLLW"
};

inline constexpr std::array<AttentionModeInfo, 3> kAttentionModes{{
    {AttentionMode::Softmax, "softmax", 'S'},
    {AttentionMode::Linear, "linear", 'L'},
    {AttentionMode::WindowLinear, "window+linear", 'W'},
}};
static_assert(kAttentionModes[0].mode == AttentionMode::Softmax &&
                  kAttentionModes[1].mode == AttentionMode::Linear &&
                  kAttentionModes[2].mode == AttentionMode::WindowLinear,
              "kAttentionModes is indexed by the enum's value");

inline const AttentionModeInfo& attention_mode_info(AttentionMode mode) {
  return kAttentionModes.at(static_cast<size_t>(mode));
}

// "softmax", "linear", "window+linear"
inline const char* to_string(AttentionMode mode) { return attention_mode_info(mode).name; }

// Every mode's name, in the enum's order.
inline const std::vector<std::string>& attention_mode_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& m : kAttentionModes) out.emplace_back(m.name);
    return out;
  }();
  return names;
}

inline AttentionMode attention_mode_from_string(const std::string& name) {
  for (const auto& m : kAttentionModes)
    if (name == m.name) return m.mode;
  throw std::invalid_argument("unknown attention mode \"" + name +
                              "\" (expected \"softmax\", \"linear\" or \"window+linear\")");
}

}  // namespace adala
