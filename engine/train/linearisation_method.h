#pragma once
// How a softmax ViT becomes a linear-attention ViT ("method" in the experiment config):
//   adala      ViT-AdaLA: Stage 1 attention alignment (per-block output MSE), Stage 2 feature
//              alignment, Stage 3 fine-tuning of the whole student. The default.
//   lolcats    LoLCATs: every block window+linear attention (a k x k softmax window, k = 3 by
//              default, and linear attention outside it, mixed by a learned gamma per head:
//              window_linear_attention.h) with the Hedgehog feature map; Stage 1 trains it
//              (feature map and gamma included) by per-block output MSE; Stage 3 trains LoRA
//              factors on every linear-attention q/k/v and output projection, and the head, the
//              rest frozen.
//   hedgehog   Hedgehog: the Hedgehog feature map trained alone in Stage 1 by the cross-entropy
//              between softmax and linear attention weights on sampled query rows
//              (attention_weight_loss.h); then Stage 3 as adala's.
//   performer  ViT-AdaLA's three stages with Performer's random-feature map (FAVOR+, an
//              unbiased estimate of the softmax kernel, performer_feature_map.h): nothing in
//              the map is learned, Stage 1 trains q/k/v and the output projection to it.
//   naive      the naive swap: the teacher's weights in linear attention, Stage 3 only.
// Plain C++ (no torch), so the CLI and the report can include it; the table below is
// header-only so that readers without engine/train (the run database) can use it too.
#include <string>
#include <vector>

#include "engine/train/stage_catalog.h"

namespace adala {

enum class LinearisationMethod { Adala, Lolcats, Hedgehog, Performer, Naive };

struct LinearisationMethodInfo {
  LinearisationMethod method;
  const char* name;
  // The feature map the method needs (a feature_map_kind.h name), or "" for the config's.
  const char* feature_map;
  bool stages[kStageCount];  // which stages of the stage table it runs
  const char* summary;       // one line, for help texts
  // The attention of the blocks it linearises when the config gives no plan ("attention":
  // engine/model/attention_plan.h): "linear" or "window+linear".
  const char* attention = "linear";
};

// Every method, the default first.
inline constexpr LinearisationMethodInfo kLinearisationMethods[] = {
    {LinearisationMethod::Adala, "adala", "", {true, true, true, true}, "Stages 1-2-3"},
    {LinearisationMethod::Lolcats,
     "lolcats",
     "hedgehog",
     {true, true, false, true},
     "window+linear attention with the Hedgehog feature map by per-block output MSE, then LoRA "
     "on q/k/v/proj in Stage 3",
     "window+linear"},
    {LinearisationMethod::Hedgehog,
     "hedgehog",
     "hedgehog",
     {true, true, false, true},
     "feature map by attention-weight cross-entropy, then Stage 3"},
    {LinearisationMethod::Performer,
     "performer",
     "performer",
     {true, true, true, true},
     "Stages 1-2-3 with Performer's random-feature (FAVOR+) map"},
    {LinearisationMethod::Naive, "naive", "", {true, false, false, true}, "swap, Stage 3 only"},
};

// The entry of that name; nullptr when there is none.
inline const LinearisationMethodInfo* find_linearisation_method(const std::string& name) {
  for (const auto& m : kLinearisationMethods)
    if (name == m.name) return &m;
  return nullptr;
}

// "adala", "lolcats", "hedgehog", "performer", "naive"
const char* to_string(LinearisationMethod method);
// Throws std::invalid_argument naming the bad value and the allowed ones.
LinearisationMethod linearisation_method_from_string(const std::string& name);
// Every name, the default ("adala") first.
const std::vector<std::string>& linearisation_method_names();
// Whether the method has that stage (an index of the stage table): naive has 0 and 3, lolcats and
// hedgehog 0, 1, 3.
bool method_uses_stage(LinearisationMethod method, int stage);
// The feature map the method needs ("hedgehog" for lolcats and hedgehog, "performer" for
// performer), or "" for any.
std::string method_feature_map(LinearisationMethod method);
// The attention of its linearised blocks by default: "linear" or "window+linear".
std::string method_attention_mode(LinearisationMethod method);

}  // namespace adala
