#include "engine/model/patch_embed.h"

#include <stdexcept>
#include <string>

namespace adala {

PatchEmbedImpl::PatchEmbedImpl(int64_t in_chans, int64_t embed_dim, int64_t patch_size)
    : patch_size_(patch_size) {
  proj = register_module(
      "proj",
      torch::nn::Conv2d(
          torch::nn::Conv2dOptions(in_chans, embed_dim, patch_size).stride(patch_size).bias(true)));
}

torch::Tensor PatchEmbedImpl::forward(const torch::Tensor& images) {
  if (images.dim() != 4)
    throw std::invalid_argument("PatchEmbed expects (B, C, H, W), got " +
                                std::to_string(images.dim()) + " dims");
  if (images.size(2) < patch_size_ || images.size(3) < patch_size_)
    throw std::invalid_argument("image smaller than one patch (" + std::to_string(patch_size_) +
                                " px)");
  return proj->forward(images).flatten(2).transpose(1, 2);
}

}  // namespace adala
