#include "engine/core/feature_map_kind.h"

#include <stdexcept>

namespace adala {

const char* to_string(FeatureMapKind kind) {
  switch (kind) {
    case FeatureMapKind::Elu1:
      return "elu1";
    case FeatureMapKind::Relu:
      return "relu";
    case FeatureMapKind::Hedgehog:
      return "hedgehog";
  }
  return "elu1";
}

const std::vector<std::string>& feature_map_names() {
  static const std::vector<std::string> names = {"elu1", "relu", "hedgehog"};
  return names;
}

FeatureMapKind feature_map_kind_from_string(const std::string& name) {
  for (auto kind : {FeatureMapKind::Elu1, FeatureMapKind::Relu, FeatureMapKind::Hedgehog})
    if (name == to_string(kind)) return kind;
  std::string allowed;
  for (const auto& n : feature_map_names()) allowed += (allowed.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown feature map \"" + name + "\" (allowed: " + allowed + ")");
}

}  // namespace adala
