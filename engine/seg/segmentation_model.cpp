#include "engine/seg/segmentation_model.h"

#include <stdexcept>

#include <torch/nn/functional/loss.h>

#include "engine/model/block_checkpoint.h"
#include "engine/seg/semantic_inference.h"
#include "engine/train/stages.h"

namespace adala {

const char* to_string(SegmentationHeadKind kind) {
  return kind == SegmentationHeadKind::Linear ? "linear" : "mask2former";
}

SegmentationHeadKind segmentation_head_from_string(const std::string& name) {
  if (name == "linear") return SegmentationHeadKind::Linear;
  if (name == "mask2former") return SegmentationHeadKind::Mask2Former;
  throw std::invalid_argument("unknown segmentation head \"" + name +
                              "\" (allowed: linear, mask2former)");
}

torch::Tensor to_backbone_input(const torch::Tensor& rgb, int64_t in_chans) {
  if (rgb.dim() != 4 || rgb.size(1) != 3)
    throw std::invalid_argument("to_backbone_input: expected (B, 3, H, W)");
  if (in_chans == 3) return rgb;
  if (in_chans != 1)
    throw std::invalid_argument("to_backbone_input: backbones take 1 or 3 channels");
  auto w = torch::tensor({0.299f, 0.587f, 0.114f}, rgb.options()).view({1, 3, 1, 1});
  return (rgb * w).sum(1, true);
}

std::vector<torch::Tensor> backbone_patch_features(VisionTransformer& vit,
                                                   const torch::Tensor& images,
                                                   const std::vector<int64_t>& blocks,
                                                   bool checkpoint) {
  const int64_t depth = vit->depth(), prefix = vit->config().num_prefix_tokens();
  int64_t last = 0;
  for (int64_t b : blocks) {
    if (b < 1 || b > depth)
      throw std::invalid_argument("feature block " + std::to_string(b) + " outside 1.." +
                                  std::to_string(depth));
    last = std::max(last, b);
  }
  // Run only as deep as needed.
  std::vector<torch::Tensor> outputs(size_t(last + 1));
  auto x = vit->prepare_tokens(images);
  for (int64_t i = 0; i < last; ++i) {
    Block block = vit->block(i);
    x = checkpoint ? checkpointed_block_forward(block, x) : block->forward(x);
    outputs[size_t(i + 1)] = x;
  }
  std::vector<torch::Tensor> out;
  for (int64_t b : blocks) {
    auto t = vit->norm->forward(outputs[size_t(b)]);
    out.push_back(t.narrow(1, prefix, t.size(1) - prefix));
  }
  return out;
}

SegmentationModelImpl::SegmentationModelImpl(VisionTransformer vit, SegmentationModelOptions o)
    : options_(std::move(o)) {
  if (options_.blocks.empty()) options_.blocks = {vit->depth()};
  backbone = register_module("backbone", vit);
  const int64_t d = backbone->config().embed_dim, levels = int64_t(options_.blocks.size());
  if (options_.head == SegmentationHeadKind::Linear) {
    linear = register_module("linear", LinearSegmentationHead(d * levels, options_.num_classes,
                                                              options_.linear_upsample));
  } else {
    const auto& m = options_.mask2former;
    Mask2FormerOptions mo;
    mo.embed_dim = d;
    mo.num_levels = levels;
    mo.num_classes = options_.num_classes;
    mo.num_queries = m.num_queries;
    mo.hidden_dim = m.hidden_dim;
    mo.num_heads = m.num_heads;
    mo.num_layers = m.num_layers;
    mo.ffn_dim = m.ffn_dim;
    mo.mask_dim = m.hidden_dim;
    mo.upsample = m.upsample;
    mask2former = register_module("mask2former", Mask2FormerHead(mo));
  }
}

std::vector<torch::Tensor> SegmentationModelImpl::features(const torch::Tensor& rgb) {
  return backbone_patch_features(backbone, to_backbone_input(rgb, backbone->config().in_chans),
                                 options_.blocks, checkpoint_blocks_);
}

torch::Tensor SegmentationModelImpl::loss(const std::vector<torch::Tensor>& feats,
                                          const torch::Tensor& masks, uint64_t seed,
                                          std::map<std::string, double>* extra) {
  const int64_t h = masks.size(1), w = masks.size(2), p = patch_size();
  if (h % p != 0 || w % p != 0)
    throw std::invalid_argument("image size is not a multiple of the patch size");
  const int64_t gh = h / p, gw = w / p;
  namespace F = torch::nn::functional;
  if (linear) {
    auto logits = linear->forward(torch::cat(feats, 2), gh, gw, h, w);
    auto target = masks.to(torch::kLong);
    auto l = F::cross_entropy(logits, target,
                              F::CrossEntropyFuncOptions().ignore_index(options_.ignore_index));
    if (extra) {
      torch::NoGradGuard g;
      auto valid = target.ne(options_.ignore_index);
      auto right = logits.argmax(1).eq(target).logical_and(valid).sum().item<double>();
      (*extra)["pixel_acc"] = right / std::max(1.0, valid.sum().item<double>());
    }
    return l;
  }
  const auto& m = options_.mask2former;
  MaskLossOptions lo;
  lo.class_weight = m.class_weight;
  lo.mask_weight = m.mask_weight;
  lo.dice_weight = m.dice_weight;
  lo.no_object_weight = m.no_object_weight;
  lo.num_points = m.num_points;
  auto out = mask2former->forward(feats, gh, gw);
  auto value = mask_classification_loss(
      out, segment_targets(masks, options_.num_classes, options_.ignore_index), lo, seed);
  if (extra) {
    (*extra)["ce"] = value.ce;
    (*extra)["bce"] = value.bce;
    (*extra)["dice"] = value.dice;
  }
  return value.total;
}

torch::Tensor SegmentationModelImpl::scores(const std::vector<torch::Tensor>& feats, int64_t h,
                                            int64_t w) {
  const int64_t gh = h / patch_size(), gw = w / patch_size();
  if (linear) return linear->forward(torch::cat(feats, 2), gh, gw, h, w);
  auto out = mask2former->forward(feats, gh, gw);
  return semantic_scores(out.class_logits.back(), out.mask_logits.back(), h, w);
}

torch::Tensor SegmentationModelImpl::predict(const torch::Tensor& rgb) {
  torch::NoGradGuard no_grad;
  return scores(features(rgb), rgb.size(2), rgb.size(3)).argmax(1);
}

std::vector<torch::Tensor> SegmentationModelImpl::head_parameters() {
  return linear ? linear->parameters() : mask2former->parameters();
}

std::vector<torch::Tensor> SegmentationModelImpl::trainable(bool with_backbone) {
  std::vector<torch::Tensor> params;
  if (with_backbone) params = trainable_parameters(backbone, false);
  auto head = head_parameters();
  params.insert(params.end(), head.begin(), head.end());
  return params;
}

}  // namespace adala
