#pragma once
// Which feature map phi a linear-attention block uses in phi(Q) (phi(K)^T V):
//   elu1       ELU(x) + 1 (Katharopoulos et al., the ViT-AdaLA paper; the default). Runs the
//              fused and blocked kernels (linear_attention_autograd.h, linear_attention_blocked.h).
//   relu       max(x, 0) (EfficientViT).
//   hedgehog   softmax(W x) concatenated with softmax(-W x) over the feature dimension, W a
//              learned head_dim x head_dim matrix per head (and separate ones for queries and
//              keys), initialised to the identity (Hedgehog, LoLCATs). Feature dim 2 * head_dim.
//   performer  FAVOR+ positive random features, exp(W x' - |x'|^2 / 2) / sqrt(m), an unbiased
//              estimate of the softmax kernel (performer_feature_map.h); W is random, not
//              learned. Feature dim m (ViTConfig::performer_features).
// The maps other than elu1 run the generic kernel (linear_attention_features.h).
#include <string>
#include <vector>

namespace adala {

enum class FeatureMapKind { Elu1, Relu, Hedgehog, Performer };

// "elu1", "relu", "hedgehog", "performer"
const char* to_string(FeatureMapKind kind);
// Throws std::invalid_argument naming the allowed values for any other name.
FeatureMapKind feature_map_kind_from_string(const std::string& name);
// Every name, the default ("elu1") first.
const std::vector<std::string>& feature_map_names();

}  // namespace adala
