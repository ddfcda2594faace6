#include "engine/model/patch_recut.h"

#include <stdexcept>
#include <string>

#include <torch/autograd.h>

#include "engine/model/vit_config_json.h"

namespace adala {

VisionTransformer recut_patches(VisionTransformer& from, const ViTConfig& to) {
  const ViTConfig& old = from->config();
  ViTConfig same_cut = to;
  same_cut.img_size = old.img_size;
  same_cut.patch_size = old.patch_size;
  same_cut.name = old.name;
  if (vit_config_to_json(same_cut) != vit_config_to_json(old))
    throw std::invalid_argument(
        "re-cutting patches: the target model differs in more than img_size and patch_size");
  if (to.patch_size < old.patch_size || to.patch_size % old.patch_size != 0)
    throw std::invalid_argument("re-cutting patches: " + std::to_string(to.patch_size) +
                                " is not a multiple of the model's patch size " +
                                std::to_string(old.patch_size));
  if (to.img_size % to.patch_size != 0)
    throw std::invalid_argument("re-cutting patches: patch size " + std::to_string(to.patch_size) +
                                " does not divide img_size " + std::to_string(to.img_size));
  const int64_t r = to.patch_size / old.patch_size;
  VisionTransformer out(to);
  out->to(from->pos_embed.device());
  torch::NoGradGuard no_grad;
  auto source = from->named_parameters(true);
  for (auto& item : out->named_parameters(true)) {
    const std::string& name = item.key();
    at::Tensor value = source[name];
    if (name == "patch_embed.proj.weight") {
      value = value.repeat_interleave(r, 2).repeat_interleave(r, 3) / double(r * r);
    } else if (name == "pos_embed") {
      const int64_t prefix = old.no_embed_class ? 0 : old.num_prefix_tokens();
      value = interpolate_pos_embed(value, prefix, to.grid_size(), to.grid_size());
    }
    if (!value.sizes().equals(item.value().sizes()))
      throw std::invalid_argument("re-cutting patches: " + name + " does not fit");
    item.value().copy_(value);
  }
  auto source_buffers = from->named_buffers(true);
  for (auto& item : out->named_buffers(true)) item.value().copy_(source_buffers[item.key()]);
  for (int64_t i = 0; i < from->depth(); ++i) {
    out->block(i)->attn->set_window(from->block(i)->attn->window());
    out->block(i)->attn->set_mode(from->block(i)->attn->mode());
  }
  return out;
}

}  // namespace adala
