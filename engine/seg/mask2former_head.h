#pragma once
// A small Mask2Former head for a plain ViT: learnable queries refined by a transformer
// decoder whose layers run masked cross-attention over the patch features (one feature map
// per chosen ViT block; layer i attends to level i mod L, as Mask2Former cycles its scales),
// then self-attention, then an FFN (post-norm). After the query init and after every layer
// it predicts class logits (C + 1, the last one "no object") and a mask per query: the dot
// product of the query's mask embedding with per-pixel embeddings from a light pixel
// decoder. Each mask, thresholded at 0.5, restricts the next layer's cross-attention.
// With upsample u > 1 the pixel decoder's last convolution gives u x u sub-patch embeddings
// per token (pixel shuffle), so masks come out u x finer than the patch grid (Mask2Former's own
// pixel decoder reaches 1/4 of the image); the attention masks are their u x u averages.
#include <torch/nn/module.h>
#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/modules/conv.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/normalization.h>

#include <vector>

namespace adala {

struct Mask2FormerOptions {
  int64_t embed_dim = 64;  // backbone token width
  int64_t num_levels = 1;  // feature maps (ViT blocks) given to forward
  int64_t num_classes = 11;
  int64_t num_queries = 24;
  int64_t hidden_dim = 64;
  int64_t num_heads = 4;
  int64_t num_layers = 3;
  int64_t ffn_dim = 256;
  int64_t mask_dim = 64;
  int64_t upsample = 1;   // mask resolution: u x the patch grid
  void validate() const;  // throws std::invalid_argument naming the field
};

struct Mask2FormerOutput {
  // One entry per prediction round (query init, then each decoder layer); back() is final.
  std::vector<torch::Tensor> class_logits;  // (B, Q, C + 1)
  std::vector<torch::Tensor> mask_logits;   // (B, Q, gh u, gw u): u x the patch grid
};

// Multi-head attention with an optional boolean mask (true = may not attend).
class DecoderAttentionImpl : public torch::nn::Module {
 public:
  DecoderAttentionImpl(int64_t dim, int64_t num_heads);
  // query (B, L, D), key/value (B, S, D), blocked (B, L, S) bool or undefined.
  torch::Tensor forward(const torch::Tensor& query, const torch::Tensor& key,
                        const torch::Tensor& value, const torch::Tensor& blocked = {});

  torch::nn::Linear q_proj{nullptr}, k_proj{nullptr}, v_proj{nullptr}, out_proj{nullptr};

 private:
  int64_t num_heads_;
};
TORCH_MODULE(DecoderAttention);

class Mask2FormerDecoderLayerImpl : public torch::nn::Module {
 public:
  Mask2FormerDecoderLayerImpl(int64_t dim, int64_t num_heads, int64_t ffn_dim);
  torch::Tensor forward(torch::Tensor queries, const torch::Tensor& query_pos,
                        const torch::Tensor& memory, const torch::Tensor& memory_pos,
                        const torch::Tensor& blocked);

  DecoderAttention cross_attn{nullptr}, self_attn{nullptr};
  torch::nn::LayerNorm norm1{nullptr}, norm2{nullptr}, norm3{nullptr};
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};
TORCH_MODULE(Mask2FormerDecoderLayer);

class Mask2FormerHeadImpl : public torch::nn::Module {
 public:
  explicit Mask2FormerHeadImpl(Mask2FormerOptions options);
  // levels: num_levels tensors (B, gh * gw, embed_dim) of patch tokens.
  Mask2FormerOutput forward(const std::vector<torch::Tensor>& levels, int64_t grid_h,
                            int64_t grid_w);
  const Mask2FormerOptions& options() const { return options_; }

 private:
  struct Prediction {
    torch::Tensor class_logits, mask_logits, blocked;
  };
  Prediction predict(const torch::Tensor& queries, const torch::Tensor& mask_features);
  // (B, mask_dim, gh u, gw u) per-pixel embeddings from the levels laid out on the grid.
  torch::Tensor pixel_decoder(const std::vector<torch::Tensor>& grids);

  Mask2FormerOptions options_;
  torch::nn::ModuleList level_norms{nullptr}, input_proj{nullptr}, layers{nullptr};
  torch::Tensor level_embed, query_feat, query_embed;
  torch::nn::Conv2d pixel_in{nullptr}, pixel_out{nullptr};
  torch::nn::GroupNorm pixel_norm{nullptr};
  torch::nn::LayerNorm decoder_norm{nullptr};
  torch::nn::Linear class_embed{nullptr};
  torch::nn::Linear mask_fc1{nullptr}, mask_fc2{nullptr}, mask_fc3{nullptr};
};
TORCH_MODULE(Mask2FormerHead);

// DETR/Mask2Former 2-D sine position encoding (normalised coordinates): (h * w, dim).
torch::Tensor sine_position_encoding(int64_t h, int64_t w, int64_t dim);

}  // namespace adala
