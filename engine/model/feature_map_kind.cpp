#include "engine/model/feature_map_kind.h"

#include <stdexcept>

namespace adala {

namespace {

struct KindName {
  FeatureMapKind kind;
  const char* name;
};

// The one list of maps and their names, the default first.
constexpr KindName kKinds[] = {{FeatureMapKind::Elu1, "elu1"},
                               {FeatureMapKind::Relu, "relu"},
                               {FeatureMapKind::Hedgehog, "hedgehog"},
                               {FeatureMapKind::Performer, "performer"}};

}  // namespace

const char* to_string(FeatureMapKind kind) {
  for (const auto& k : kKinds)
    if (k.kind == kind) return k.name;
  return kKinds[0].name;
}

const std::vector<std::string>& feature_map_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& k : kKinds) out.emplace_back(k.name);
    return out;
  }();
  return names;
}

FeatureMapKind feature_map_kind_from_string(const std::string& name) {
  for (const auto& k : kKinds)
    if (name == k.name) return k.kind;
  std::string allowed;
  for (const auto& n : feature_map_names()) allowed += (allowed.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown feature map \"" + name + "\" (allowed: " + allowed + ")");
}

}  // namespace adala
