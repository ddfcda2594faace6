#pragma once
// The options `predict` and `embed` share: input size, batching, decoding, device.
#include <string>

#include "app/cli/arg_parser.h"
#include "engine/infer/predict.h"

namespace adala::cli {

inline void add_inference_options(CLI::App& app, InferOptions& options, std::string& device) {
  app.add_option("--res", options.resolution, "input size (default: the checkpoint's)")
      ->check(positive_number());
  app.add_option("--batch-size", options.batch_size, "images per forward pass")
      ->check(positive_number());
  app.add_option("--decode-threads", options.decode_threads, "image decoding threads")
      ->check(non_negative_number());
  app.add_option("--device", device, "auto, cpu or cuda");
  app.add_option("--precision", options.precision,
                 "fp32, or bf16 / fp16 autocast (linear attention stays fp32; fp16 needs CUDA)")
      ->check(CLI::IsMember({"fp32", "bf16", "fp16"}));
}

}  // namespace adala::cli
