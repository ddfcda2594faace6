// The "attention" block: the student's attention plan (engine/model/attention_plan.h), one mode
// per block or the softmax blocks with one mode for the others, and the window's k.
#include <algorithm>

#include "engine/train/config/config_reader.h"

namespace adala {

namespace {

// A mode the config may give a linearised block: "linear" or "window+linear".
AttentionMode linearised_mode(const std::string& field, const std::string& name) {
  const AttentionMode mode = attention_mode_from_string(name);  // the reader checked the name
  if (mode == AttentionMode::Softmax)
    throw ConfigError(field,
                      "\"softmax\" is not a linearised attention (list the blocks that stay "
                      "softmax in attention.softmax_blocks, or give attention.blocks)");
  return mode;
}

}  // namespace

AttentionPlan read_attention_plan(ConfigReader r, const ViTConfig& model,
                                  LinearisationMethod method, const std::string& device) {
  const int64_t depth = model.depth;
  AttentionPlan plan;
  plan.window = r.integer("window", kDefaultAttentionWindow, 1, 4095);
  if (const std::string problem = attention_window_problem(plan.window); !problem.empty())
    throw ConfigError(r.field("window"), problem);
  const bool listed = r.has("blocks");
  if (listed && (r.has("softmax_blocks") || r.has("mode")))
    throw ConfigError(r.field(r.has("mode") ? "mode" : "softmax_blocks"),
                      "attention.blocks names every block's attention already; give either "
                      "attention.blocks or attention.softmax_blocks (with attention.mode)");
  const bool explicit_mode = r.has("mode");
  const std::string method_default = method_attention_mode(method);
  const AttentionMode others =
      linearised_mode(r.field("mode"), r.string("mode", method_default, attention_mode_names()));
  const std::vector<int64_t> softmax_blocks =
      r.integers("softmax_blocks", {}, 0, std::max<int64_t>(depth - 1, 0));
  const std::vector<std::string> names = r.strings("blocks", {});
  r.finish();
  if (listed) {
    if (int64_t(names.size()) != depth)
      throw ConfigError(r.field("blocks"), std::to_string(names.size()) +
                                               " entries for a model of " + std::to_string(depth) +
                                               " blocks (model.depth): give one per block");
    for (size_t i = 0; i < names.size(); ++i) {
      const std::string field = r.field("blocks") + "[" + std::to_string(i) + "]";
      const auto& allowed = attention_mode_names();
      if (std::find(allowed.begin(), allowed.end(), names[i]) == allowed.end())
        throw ConfigError(field, "unknown attention \"" + names[i] +
                                     "\" (allowed: softmax, linear, window+linear)");
      plan.modes.push_back(attention_mode_from_string(names[i]));
    }
  } else {
    plan.modes.assign(size_t(depth), others);
    for (size_t i = 0; i < softmax_blocks.size(); ++i) {
      const int64_t b = softmax_blocks[i];
      if (std::find(softmax_blocks.begin(), softmax_blocks.begin() + long(i), b) !=
          softmax_blocks.begin() + long(i))
        throw ConfigError(r.field("softmax_blocks") + "[" + std::to_string(i) + "]",
                          "block " + std::to_string(b) + " is listed twice");
      plan.modes[size_t(b)] = AttentionMode::Softmax;
    }
  }
  if (std::count(plan.modes.begin(), plan.modes.end(), AttentionMode::Softmax) == depth)
    throw ConfigError(r.field(listed ? "blocks" : "softmax_blocks"),
                      "every block is softmax: nothing to linearise (a student needs a linear or "
                      "window+linear block)");
  if (plan.uses_window()) {
    const std::string where = listed ? r.field("blocks") : r.field("mode");
    if (model.feature_map == "performer")
      throw ConfigError(where,
                        "window+linear attention needs a feature map without performer's "
                        "per-query stabiliser (elu1, relu or hedgehog; model.feature_map is "
                        "\"performer\")");
    if (device.rfind("cuda", 0) == 0)
      throw ConfigError(
          where,
          "window+linear attention runs on the CPU only (its kernel, "
          "engine/kernels/window_linear_attention.h); device is \"" +
              device + "\"" +
              (explicit_mode || listed ? std::string()
                                       : std::string(" (method ") + to_string(method) +
                                             "'s default; \"attention\": {\"mode\": "
                                             "\"linear\"} runs linear attention)"));
  }
  return plan;
}

}  // namespace adala
