#pragma once
// `adala embed`: the final normed features of images (after the model's last LayerNorm), the
// input to any downstream head, written as safetensors.
#include <ATen/core/Tensor.h>

#include <string>
#include <vector>

#include "engine/infer/predict.h"

namespace adala {

// cls: the class token (B, D); patch: the patch tokens (B, P, D); all: every token (B, N, D),
// prefix (class, registers) first.
enum class TokenSelection { Cls, Patch, All };

const char* to_string(TokenSelection tokens);
// Throws std::invalid_argument listing the allowed values.
TokenSelection token_selection_from_string(const std::string& name);

struct Embeddings {
  at::Tensor features;  // float32, CPU, one row per image in input order
  at::Tensor labels;    // int64 class-folder labels when every input is class folders with the
                        // same classes; undefined otherwise
  std::vector<std::string> class_names;  // of `labels`
  std::vector<std::string> paths;
  TokenSelection tokens = TokenSelection::Cls;
  int64_t resolution = 0;
};

// Throws std::runtime_error for `cls` on a model without a class token, and for any unusable
// image (naming the file).
Embeddings embed_images(InferenceModel& model, const std::vector<ImageInput>& inputs,
                        TokenSelection tokens, const InferOptions& options);

// "features" (+ "labels"), with metadata adala.embed.{weights, tokens, resolution, paths,
// label_names}.
void write_embeddings(const std::string& path, const Embeddings& embeddings,
                      const std::string& weights);

}  // namespace adala
