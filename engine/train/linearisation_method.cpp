#include "engine/train/linearisation_method.h"

#include <stdexcept>

namespace adala {

namespace {

const LinearisationMethodInfo& info(LinearisationMethod method) {
  for (const auto& m : kLinearisationMethods)
    if (m.method == method) return m;
  throw std::logic_error("LinearisationMethod missing from kLinearisationMethods");
}

}  // namespace

const char* to_string(LinearisationMethod method) { return info(method).name; }

const std::vector<std::string>& linearisation_method_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& m : kLinearisationMethods) out.emplace_back(m.name);
    return out;
  }();
  return names;
}

LinearisationMethod linearisation_method_from_string(const std::string& name) {
  if (const LinearisationMethodInfo* m = find_linearisation_method(name)) return m->method;
  std::string allowed;
  for (const auto& n : linearisation_method_names()) allowed += (allowed.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown method \"" + name + "\" (allowed: " + allowed + ")");
}

bool method_uses_stage(LinearisationMethod method, int stage) {
  return is_stage_index(stage) && info(method).stages[stage];
}

std::string method_feature_map(LinearisationMethod method) { return info(method).feature_map; }

std::string method_attention_mode(LinearisationMethod method) { return info(method).attention; }

}  // namespace adala
