#include "engine/model/linear_eps_scope.h"

#include "engine/model/attention.h"

namespace adala {

std::vector<std::shared_ptr<LinearAttentionImpl>> linear_attention_modules(
    const torch::nn::Module& root) {
  std::vector<std::shared_ptr<LinearAttentionImpl>> out;
  for (const auto& m : root.modules(/*include_self=*/false))
    if (auto la = std::dynamic_pointer_cast<LinearAttentionImpl>(m)) out.push_back(la);
  return out;
}

LinearEpsScope::LinearEpsScope(const torch::nn::Module& root, double eps)
    : modules_(linear_attention_modules(root)) {
  for (auto& m : modules_) {
    saved_.push_back(m->eps());
    if (eps > 0) m->set_eps(eps);
  }
}

LinearEpsScope::LinearEpsScope(const torch::nn::Module& root, Precision precision)
    : modules_(linear_attention_modules(root)) {
  for (auto& m : modules_) {
    saved_.push_back(m->eps());
    m->set_eps(default_linear_eps(precision, m->eps()));
  }
}

LinearEpsScope::~LinearEpsScope() {
  for (size_t i = 0; i < modules_.size(); ++i) modules_[i]->set_eps(saved_[i]);
}

}  // namespace adala
