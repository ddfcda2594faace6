#pragma once
// The options the commands that run a checkpoint share: input size, batching, decoding, device
// (predict, embed), and what the file cannot say (preprocessing overrides, the architecture),
// which predict, embed, export, features and inspect-weights all take.
#include <string>
#include <vector>

#include "app/cli/arg_parser.h"
#include "engine/infer/inference_model.h"
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

// The values as parsed; load_options() turns them into what the engine takes.
struct CheckpointOptions {
  std::string interpolation, crop_mode;
  double crop_pct = 0.0;  // 0: not given
  std::vector<double> mean, std;
  int64_t heads = 0;
  std::string model_config;

  InferenceLoadOptions load_options() const;
};

void add_checkpoint_options(CLI::App& app, CheckpointOptions& options);

}  // namespace adala::cli
