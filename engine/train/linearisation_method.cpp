#include "engine/train/linearisation_method.h"

#include <stdexcept>

namespace adala {

const char* to_string(LinearisationMethod method) {
  switch (method) {
    case LinearisationMethod::Adala:
      return "adala";
    case LinearisationMethod::Lolcats:
      return "lolcats";
    case LinearisationMethod::Hedgehog:
      return "hedgehog";
    case LinearisationMethod::Naive:
      return "naive";
  }
  return "?";
}

const std::vector<std::string>& linearisation_method_names() {
  static const std::vector<std::string> names = {"adala", "lolcats", "hedgehog", "naive"};
  return names;
}

LinearisationMethod linearisation_method_from_string(const std::string& name) {
  for (auto m : {LinearisationMethod::Adala, LinearisationMethod::Lolcats,
                 LinearisationMethod::Hedgehog, LinearisationMethod::Naive})
    if (name == to_string(m)) return m;
  std::string allowed;
  for (const auto& n : linearisation_method_names()) allowed += (allowed.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown method \"" + name + "\" (allowed: " + allowed + ")");
}

bool method_uses_stage(LinearisationMethod method, int stage) {
  switch (method) {
    case LinearisationMethod::Adala:
      return stage >= 0 && stage <= 3;
    case LinearisationMethod::Lolcats:
    case LinearisationMethod::Hedgehog:
      return stage == 0 || stage == 1 || stage == 3;
    case LinearisationMethod::Naive:
      return stage == 0 || stage == 3;
  }
  return false;
}

std::string method_feature_map(LinearisationMethod method) {
  return method == LinearisationMethod::Lolcats || method == LinearisationMethod::Hedgehog
             ? "hedgehog"
             : "";
}

}  // namespace adala
