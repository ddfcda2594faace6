#include "engine/model/attention_plan.h"

#include <stdexcept>

namespace adala {

bool AttentionPlan::uses_window() const {
  for (auto m : modes)
    if (m == AttentionMode::WindowLinear) return true;
  return false;
}

std::vector<bool> AttentionPlan::linearised() const {
  std::vector<bool> out;
  for (auto m : modes) out.push_back(m != AttentionMode::Softmax);
  return out;
}

bool operator==(const AttentionPlan& a, const AttentionPlan& b) {
  return a.modes == b.modes && a.window == b.window;
}

AttentionPlan uniform_attention_plan(int64_t depth, AttentionMode mode, int64_t window) {
  AttentionPlan plan;
  plan.modes.assign(static_cast<size_t>(std::max<int64_t>(depth, 0)), mode);
  plan.window = window;
  return plan;
}

std::string attention_window_problem(int64_t window) {
  if (window < 1) return "must be >= 1, got " + std::to_string(window);
  if (window % 2 == 0)
    return "must be odd (a k x k window centred on its query), got " + std::to_string(window);
  return "";
}

std::string attention_modes_text(const std::vector<AttentionMode>& modes) {
  std::string out;
  for (size_t i = 0; i < modes.size(); ++i)
    out += (i ? "," : "") + std::string(to_string(modes[i]));
  return out;
}

std::string describe_attention_plan(const AttentionPlan& plan) {
  std::string out = std::to_string(plan.modes.size()) + " blocks:";
  for (size_t i = 0; i < plan.modes.size(); ++i)
    out += (i ? ", " : " ") + std::string(to_string(plan.modes[i]));
  if (plan.uses_window()) out += " (k = " + std::to_string(plan.window) + ")";
  return out;
}

std::map<std::string, std::string> attention_plan_metadata(const AttentionPlan& plan) {
  std::map<std::string, std::string> meta{{kAttentionModesKey, attention_modes_text(plan.modes)}};
  if (plan.uses_window()) meta[kAttentionWindowKey] = std::to_string(plan.window);
  return meta;
}

std::optional<AttentionPlan> attention_plan_from_metadata(
    const std::map<std::string, std::string>& metadata, int64_t depth, const std::string& source) {
  const auto it = metadata.find(kAttentionModesKey);
  if (it == metadata.end()) return std::nullopt;
  auto fail = [&](const char* key, const std::string& why) {
    return std::runtime_error(source + ": metadata \"" + key + "\" " + why);
  };
  AttentionPlan plan;
  std::string cur;
  for (char c : it->second + ",") {
    if (c != ',') {
      cur += c;
      continue;
    }
    if (cur.empty()) continue;
    try {
      plan.modes.push_back(attention_mode_from_string(cur));
    } catch (const std::invalid_argument& e) {
      throw fail(kAttentionModesKey,
                 std::string("block ") + std::to_string(plan.modes.size()) + ": " + e.what());
    }
    cur.clear();
  }
  if (static_cast<int64_t>(plan.modes.size()) != depth)
    throw fail(kAttentionModesKey, "lists " + std::to_string(plan.modes.size()) + " modes for " +
                                       std::to_string(depth) + " blocks");
  const auto w = metadata.find(kAttentionWindowKey);
  if (w == metadata.end()) {
    if (plan.uses_window())
      throw fail(kAttentionWindowKey, "is missing (a block runs window+linear attention)");
    return plan;
  }
  size_t used = 0;
  int64_t window = 0;
  try {
    window = std::stoll(w->second, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != w->second.size())
    throw fail(kAttentionWindowKey, "is not an integer: \"" + w->second + "\"");
  if (const std::string problem = attention_window_problem(window); !problem.empty())
    throw fail(kAttentionWindowKey, problem);
  plan.window = window;
  return plan;
}

}  // namespace adala
