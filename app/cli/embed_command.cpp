// `adala embed WEIGHTS IMAGE|FOLDER... -o features.safetensors`: the final normed features.
#include <fmt/format.h>

#include <iostream>

#include "app/cli/arg_parser.h"
#include "app/cli/commands.h"
#include "app/cli/inference_options.h"
#include "engine/runtime/device.h"
#include "engine/infer/embed.h"

namespace adala::cli {

int embed_command(const Args& args) {
  CLI::App app{
      "The final normed features of images (after the model's last LayerNorm), with the "
      "checkpoint's own evaluation transform, as safetensors: \"features\" (and \"labels\" "
      "when every input is a folder of the same class sub-folders).",
      "adala embed"};
  prepare_command_app(app);
  std::string weights, out, tokens = "cls", device = "auto";
  std::vector<std::string> inputs;
  InferOptions options;
  CheckpointOptions checkpoint;
  app.add_option("WEIGHTS", weights, "a .safetensors checkpoint")->required();
  app.add_option("IMAGES", inputs, "image files and folders")->required();
  app.add_option("-o,--output", out, "the .safetensors file to write")->required();
  app.add_option("--tokens", tokens,
                 "cls: class token (images x D); patch: patch tokens (images x P x D); all: every "
                 "token (images x N x D)")
      ->check(CLI::IsMember({"cls", "patch", "all"}));
  add_inference_options(app, options, device);
  add_checkpoint_options(app, checkpoint);
  if (!parse_command_line(app, args)) return 0;

  InferenceModel model =
      load_inference_model(weights, resolve_device(device), checkpoint.load_options());
  if (!model.preprocessing_note.empty()) std::cerr << "note: " << model.preprocessing_note << "\n";
  const std::vector<ImageInput> sets = open_image_inputs(inputs, model.data.in_chans);
  const Embeddings e = embed_images(model, sets, token_selection_from_string(tokens), options);
  write_embeddings(out, e, weights);
  std::string shape;
  for (int64_t d : e.features.sizes()) shape += (shape.empty() ? "" : " x ") + std::to_string(d);
  std::cout << fmt::format("{}: features {} ({} tokens, {}x{}){}\n", out, shape, tokens,
                           e.resolution, e.resolution, e.labels.defined() ? ", labels" : "");
  return 0;
}

}  // namespace adala::cli
