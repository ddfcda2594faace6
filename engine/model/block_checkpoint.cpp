#include "engine/model/block_checkpoint.h"

#include <cstdint>

#include <torch/autograd.h>

namespace adala {

namespace {

struct CheckpointedBlock : public torch::autograd::Function<CheckpointedBlock> {
  // params: the block's parameters that require grad, so that autograd routes their
  // gradients through this node.
  static torch::Tensor forward(torch::autograd::AutogradContext* ctx, torch::Tensor x,
                               at::TensorList params, BlockImpl* block) {
    (void)params;
    ctx->saved_data["block"] = reinterpret_cast<int64_t>(block);
    ctx->save_for_backward({x});
    torch::NoGradGuard no_grad;
    return block->forward(x);
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grad_out) {
    auto* block = reinterpret_cast<BlockImpl*>(ctx->saved_data["block"].toInt());
    const torch::Tensor x = ctx->get_saved_variables()[0].detach().requires_grad_(true);
    std::vector<torch::Tensor> inputs{x};
    for (auto& p : block->parameters())
      if (p.requires_grad()) inputs.push_back(p);
    torch::Tensor y;
    {
      torch::AutoGradMode grad(true);
      y = block->forward(x);
    }
    auto grads = torch::autograd::grad({y}, inputs, {grad_out[0]}, /*retain_graph=*/false,
                                       /*create_graph=*/false, /*allow_unused=*/true);
    grads.push_back(torch::Tensor());  // the block pointer
    return grads;
  }
};

}  // namespace

torch::Tensor checkpointed_block_forward(Block& block, const torch::Tensor& x) {
  if (!torch::GradMode::is_enabled()) return block->forward(x);
  std::vector<torch::Tensor> params;
  for (auto& p : block->parameters())
    if (p.requires_grad()) params.push_back(p);
  if (params.empty() && !x.requires_grad()) return block->forward(x);
  return CheckpointedBlock::apply(x, at::TensorList(params), block.get());
}

}  // namespace adala
