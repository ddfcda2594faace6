#pragma once
// How a softmax ViT becomes a linear-attention ViT ("method" in the experiment config):
//   adala     ViT-AdaLA: Stage 1 attention alignment (per-block output MSE), Stage 2 feature
//             alignment, Stage 3 fine-tuning of the whole student. The default.
//   lolcats   LoLCATs: the Hedgehog feature map; Stage 1 trains the linear attention (feature
//             map included) by per-block output MSE; Stage 3 trains LoRA factors on every
//             linear-attention q/k/v and output projection, and the head, the rest frozen.
//   hedgehog  Hedgehog: the Hedgehog feature map trained alone in Stage 1 by the cross-entropy
//             between softmax and linear attention weights on sampled query rows
//             (attention_weight_loss.h); then Stage 3 as adala's.
//   naive     the naive swap: the teacher's weights in linear attention, Stage 3 only.
// Plain C++ (no torch), so the CLI and the report can include it.
#include <string>
#include <vector>

namespace adala {

enum class LinearisationMethod { Adala, Lolcats, Hedgehog, Naive };

// "adala", "lolcats", "hedgehog", "naive"
const char* to_string(LinearisationMethod method);
// Throws std::invalid_argument naming the bad value and the allowed ones.
LinearisationMethod linearisation_method_from_string(const std::string& name);
// Every name, the default ("adala") first.
const std::vector<std::string>& linearisation_method_names();
// Whether the method has that stage (0..3): naive has 0 and 3, lolcats and hedgehog 0, 1, 3.
bool method_uses_stage(LinearisationMethod method, int stage);
// The feature map the method needs ("hedgehog" for lolcats and hedgehog), or "" for any.
std::string method_feature_map(LinearisationMethod method);

}  // namespace adala
