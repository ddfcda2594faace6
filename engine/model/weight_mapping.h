#pragma once
// Checkpoint key names -> our (timm) names.
//
// Our model uses timm's names, plus the Stage-1 linear branch blocks.{i}.attn.linear.{qkv,proj}.*
// that softmax checkpoints do not have. Three foreign layouts are recognised:
//
//  format        checkpoint name                                   our name
//  ------------  ------------------------------------------------  ------------------------------
//  timm          (identity; timm's DINOv2 already has reg_token,   (same)
//                 cls_token with pos_embed[:,0] folded in, and
//                 pos_embed without a cls slot)
//  meta-dinov2   cls_token, pos_embed [1, 1+G*G, D]                cls_token, pos_embed (*)
//                register_tokens [1, R, D]                         reg_token
//                mask_token [1, D]                                 (dropped: masked-image training)
//                blocks.{chunk}.{i}.* (block_chunks > 0)           blocks.{i}.*
//                blocks.{i}.mlp.w12.* / mlp.w3.* (SwiGLU, ViT-g)   (unsupported: reported)
//                everything else (patch_embed.proj, norm1, attn.qkv, attn.proj, ls1.gamma, norm2,
//                mlp.fc1, mlp.fc2, ls2.gamma, norm)                (same)
//  hf-dinov2     embeddings.cls_token                              cls_token
//   (optional    embeddings.mask_token                             (dropped)
//    "dinov2."   embeddings.register_tokens                        reg_token
//    prefix)     embeddings.position_embeddings                    pos_embed (*)
//                embeddings.patch_embeddings.projection.{w,b}      patch_embed.proj.{w,b}
//                encoder.layer.{i}.norm1.* / norm2.*               blocks.{i}.norm1.* / norm2.*
//                encoder.layer.{i}.attention.attention.            blocks.{i}.attn.qkv.{w,b}
//                  {query,key,value}.{w,b}                           (rows concatenated [Q|K|V])
//                encoder.layer.{i}.attention.output.dense.*        blocks.{i}.attn.proj.*
//                encoder.layer.{i}.layer_scale1.lambda1            blocks.{i}.ls1.gamma
//                encoder.layer.{i}.layer_scale2.lambda1            blocks.{i}.ls2.gamma
//                encoder.layer.{i}.mlp.fc1.* / fc2.*               blocks.{i}.mlp.fc1.* / fc2.*
//                encoder.layer.{i}.mlp.weights_in/weights_out.*    (unsupported: SwiGLU)
//                layernorm.*                                       norm.*
//  adala         our own files: timm names + blocks.{i}.attn.linear.*
//
// A "module." prefix on every key (DistributedDataParallel) is stripped first.
// (*) Meta and HF position embeddings keep a cls slot. When the model has no_embed_class
// (the DINOv2 register variants), load_weights folds pos_embed[:,0] into cls_token and drops
// the slot, which is exactly what the reference forward does (cls + pos[0], registers added
// without position). The reverse (a timm file without the slot into a model with one, no
// registers) inserts a zero slot. See adjust_pos_embed_layout().
#include <ATen/ATen.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace adala {

enum class CheckpointFormat { Timm, Adala, MetaDinov2, HuggingFaceDinov2, Unknown };

// "timm", "adala", "meta-dinov2", "hf-dinov2", "unknown"
const char* to_string(CheckpointFormat format);
// One line for people: "Meta DINOv2 (blocks.{i}, register_tokens, mask_token)".
std::string describe(CheckpointFormat format);

CheckpointFormat detect_checkpoint_format(const std::vector<std::string>& names);

// A plan from checkpoint names to our names, independent of tensor values, so that the same
// plan serves loading (tensors) and inspection (shapes from the header only).
struct KeyMapping {
  struct Entry {
    std::string target;                // our name
    std::vector<std::string> sources;  // checkpoint names; several are concatenated on dim 0
  };
  CheckpointFormat format = CheckpointFormat::Unknown;
  std::vector<Entry> entries;            // includes identity entries for names not recognised
  std::vector<std::string> dropped;      // checkpoint names deliberately ignored (mask_token)
  std::vector<std::string> unsupported;  // checkpoint names we recognise but cannot represent
  std::vector<std::string> notes;        // human-readable explanations (SwiGLU, prefix, ...)
};

KeyMapping plan_key_mapping(const std::vector<std::string>& names);
KeyMapping plan_key_mapping(const std::vector<std::string>& names, CheckpointFormat format);

struct MappedTensors {
  std::map<std::string, at::Tensor> tensors;  // by our name
  std::map<std::string, std::string> origin;  // our name -> checkpoint name(s), "a + b + c"
  std::vector<std::string> notes;             // problems met while applying (e.g. q/k/v shapes)
};

// Applies a plan. Sources that cannot be concatenated (different shapes) stay under their own
// names (so they surface as unexpected) with a note.
MappedTensors apply_key_mapping(const KeyMapping& mapping,
                                const std::map<std::string, at::Tensor>& tensors);
// The same over shapes only.
std::map<std::string, std::vector<int64_t>> apply_key_mapping(
    const KeyMapping& mapping, const std::map<std::string, std::vector<int64_t>>& shapes);

// Reconciles position-embedding layouts between a mapped checkpoint and a model:
// checkpoint pos_embed [1, 1+P, D] with cls slot and a model expecting [1, P, D]
// (no_embed_class, class token): cls_token += pos_embed[:, :1], slot dropped;
// checkpoint [1, P, D] and a model expecting [1, 1+P, D] (class token, no registers):
// a zero slot is inserted. Returns a note describing what was done, or "" if nothing.
std::string adjust_pos_embed_layout(std::map<std::string, at::Tensor>& ours, int64_t model_pos_len,
                                    bool model_no_embed_class, bool model_class_token,
                                    int64_t model_num_registers);

}  // namespace adala
