#include "engine/train/gradient_health.h"

#include <ATen/ATen.h>

#include <set>

namespace adala {

int64_t block_of_parameter(const std::string& name) {
  const std::string prefix = "blocks.";
  if (name.rfind(prefix, 0) != 0) return -1;
  size_t i = prefix.size();
  int64_t block = 0;
  bool digits = false;
  while (i < name.size() && name[i] >= '0' && name[i] <= '9') {
    block = block * 10 + (name[i] - '0');
    ++i;
    digits = true;
  }
  return digits && i < name.size() && name[i] == '.' ? block : -1;
}

std::string block_label(int64_t block) {
  return block >= 0
             ? "block " + std::to_string(block)
             : std::string("outside the blocks (patch embedding, tokens, final norm or head)");
}

GradientHealth::GradientHealth(torch::nn::Module& named,
                               const std::vector<torch::Tensor>& trained) {
  std::set<const void*> wanted;
  for (const auto& p : trained) wanted.insert(p.unsafeGetTensorImpl());
  for (const auto& item : named.named_parameters())
    if (wanted.count(item.value().unsafeGetTensorImpl()))
      by_block_[block_of_parameter(item.key())].push_back(item.value());
}

std::map<int64_t, double> GradientHealth::nonfinite_counts() const {
  std::vector<int64_t> blocks;
  std::vector<at::Tensor> counts;
  for (const auto& [block, params] : by_block_) {
    at::Tensor total;
    for (const auto& p : params) {
      if (!p.grad().defined()) continue;
      auto c = at::logical_not(at::isfinite(p.grad())).sum();
      total = total.defined() ? total + c : c;
    }
    if (!total.defined()) continue;
    blocks.push_back(block);
    counts.push_back(total.to(at::kDouble));
  }
  std::map<int64_t, double> out;
  if (counts.empty()) return out;
  auto host = at::stack(counts).to(at::kCPU).contiguous();
  for (size_t i = 0; i < blocks.size(); ++i) out[blocks[i]] = host.data_ptr<double>()[i];
  return out;
}

}  // namespace adala
