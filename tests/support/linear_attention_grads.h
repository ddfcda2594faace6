#pragma once
// How the linear-attention kernel suites compare a kernel with the batched formula
// (linear_attention) under autograd: its output and the gradients of sum(out * w) with respect
// to q, k and v, each by its relative error; which nodes its autograd graph has; a module
// trained through another kernel than the default fused one.
#include <torch/torch.h>

#include <QString>

#include <algorithm>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "engine/kernels/attention_ops.h"
#include "engine/kernels/linear_training_kernel.h"
#include "engine/model/attention.h"
#include "tests/support/relative_error.h"

namespace adala_test {

struct KernelGrads {
  torch::Tensor out, dq, dk, dv;
};

using AttentionKernel =
    std::function<torch::Tensor(const torch::Tensor&, const torch::Tensor&, const torch::Tensor&)>;

// The kernel's output and the gradients of sum(out * w) with respect to q, k and v.
inline KernelGrads run_with_grads(const AttentionKernel& kernel, const torch::Tensor& q,
                                  const torch::Tensor& k, const torch::Tensor& v,
                                  const torch::Tensor& w) {
  auto qg = q.detach().requires_grad_(), kg = k.detach().requires_grad_(),
       vg = v.detach().requires_grad_();
  auto out = kernel(qg, kg, vg);
  auto grads = torch::autograd::grad({(out * w).sum()}, {qg, kg, vg});
  return {out.detach(), grads[0], grads[1], grads[2]};
}

// The worst relative error of the output and the three gradients; `detail` names each.
inline double worst_error(const KernelGrads& a, const KernelGrads& ref, QString* detail) {
  const double errs[4] = {rel_error(a.out, ref.out), rel_error(a.dq, ref.dq),
                          rel_error(a.dk, ref.dk), rel_error(a.dv, ref.dv)};
  *detail = QString("out %1 dq %2 dk %3 dv %4").arg(errs[0]).arg(errs[1]).arg(errs[2]).arg(errs[3]);
  return *std::max_element(errs, errs + 4);
}

// The reference: linear_attention, the batched formula, with its own autograd.
inline AttentionKernel batched_formula(double eps) {
  return [=](const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v) {
    return adala::linear_attention(q, k, v, eps);
  };
}

// Every node of t's autograd graph, by name ("BmmBackward0", ...).
inline std::vector<std::string> graph_nodes(const torch::Tensor& t) {
  std::vector<std::string> names;
  std::vector<torch::autograd::Node*> todo{t.grad_fn().get()};
  std::set<torch::autograd::Node*> seen;
  while (!todo.empty()) {
    auto* node = todo.back();
    todo.pop_back();
    if (!node || !seen.insert(node).second) continue;
    names.push_back(node->name());
    for (const auto& edge : node->next_edges()) todo.push_back(edge.function.get());
  }
  return names;
}

inline bool has_node(const std::vector<std::string>& nodes, const std::string& part) {
  return std::any_of(nodes.begin(), nodes.end(),
                     [&](const std::string& n) { return n.find(part) != std::string::npos; });
}

// One LinearAttention module's output on one input and its qkv weight's gradient of the
// output's sum, under the fused training kernel and then under `kernel` (by its
// --linear-kernel name); the fused kernel is selected again afterwards.
struct FusedAndOther {
  torch::Tensor fused_out, fused_grad, out, grad;
};

inline FusedAndOther train_fused_and(const std::string& kernel) {
  adala::LinearAttention attn(32, 4, true, 1e-6);
  auto x = torch::randn({2, 17, 32});
  FusedAndOther r;
  r.fused_out = attn->forward(x);
  r.fused_grad = torch::autograd::grad({r.fused_out.sum()}, {attn->qkv->weight})[0];
  adala::set_linear_training_kernel(adala::parse_linear_training_kernel(kernel));
  r.out = attn->forward(x);
  r.grad = torch::autograd::grad({r.out.sum()}, {attn->qkv->weight})[0];
  adala::set_linear_training_kernel(adala::LinearTrainingKernel::Fused);
  return r;
}

}  // namespace adala_test
