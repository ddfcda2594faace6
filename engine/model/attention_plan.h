#pragma once
// Which attention each block of a student runs : its plan.
//   softmax        the teacher's softmax attention, kept as it is (its qkv/proj);
//   linear         phi(Q)(phi(K)^T V) with the model's feature map (the "linear" branch);
//   window+linear  softmax on a k x k window of the patch grid and linear attention on the
//                  other keys under one normaliser (window_linear_attention.h: LoLCATS in 2D),
//                  through the linear branch's q/k/v, its feature map and a learned positive
//                  mixing gamma per head.
// A weights file records its model's plan in its metadata:
//   "adala.attention_modes"   one mode per block, comma-separated: "softmax,linear,window+linear"
//   "adala.attention_window"  the k of the window+linear blocks; present when one has a window
// Files without "adala.attention_modes" load as before (every block softmax); files written
// before window+linear existed hold "softmax" and "linear" entries only.
// Plain C++ (no torch): the experiment reader and the run database can include it.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/model/vit_config.h"

namespace adala {

inline constexpr int64_t kDefaultAttentionWindow = 3;
inline constexpr const char* kAttentionModesKey = "adala.attention_modes";
inline constexpr const char* kAttentionWindowKey = "adala.attention_window";

struct AttentionPlan {
  std::vector<AttentionMode> modes;          // one per block
  int64_t window = kDefaultAttentionWindow;  // the k of the window+linear blocks: odd, >= 1

  bool uses_window() const;
  // Blocks whose mode is not softmax: the ones Stage 1 aligns.
  std::vector<bool> linearised() const;
};

bool operator==(const AttentionPlan& a, const AttentionPlan& b);
inline bool operator!=(const AttentionPlan& a, const AttentionPlan& b) { return !(a == b); }

// `depth` blocks of `mode`.
AttentionPlan uniform_attention_plan(int64_t depth, AttentionMode mode,
                                     int64_t window = kDefaultAttentionWindow);

// "" for an odd window >= 1, else why it is not one.
std::string attention_window_problem(int64_t window);

// "softmax,linear,window+linear"
std::string attention_modes_text(const std::vector<AttentionMode>& modes);
// "3 blocks: softmax, linear, window+linear (k = 3)": for logs.
std::string describe_attention_plan(const AttentionPlan& plan);

// The metadata entries of a plan: the modes, and the window when a block uses one.
std::map<std::string, std::string> attention_plan_metadata(const AttentionPlan& plan);

// The plan a file's metadata records; nullopt without "adala.attention_modes". Throws
// std::runtime_error starting with `source` and naming the key for an unknown mode, a count of
// modes other than `depth`, or a missing or bad window.
std::optional<AttentionPlan> attention_plan_from_metadata(
    const std::map<std::string, std::string>& metadata, int64_t depth, const std::string& source);

}  // namespace adala
