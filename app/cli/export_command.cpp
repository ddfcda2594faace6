// `adala export WEIGHTS -o student.safetensors`: the model as it runs, for deployment.
#include <fmt/format.h>

#include <iostream>

#include "app/cli/arg_parser.h"
#include "app/cli/commands.h"
#include "app/cli/inference_options.h"
#include "engine/infer/export_model.h"

namespace adala::cli {

int export_command(const Args& args) {
  CLI::App app{
      "A clean model file for deployment: each block keeps only the attention it runs, under "
      "timm's names, with the model config, attention modes and data settings in the metadata "
      "(adala predict loads it with no flags).",
      "adala export"};
  prepare_command_app(app);
  std::string weights, out, classes_file;
  CheckpointOptions checkpoint;
  app.add_option("WEIGHTS", weights, "a .safetensors checkpoint (e.g. a run's student)")
      ->required();
  app.add_option("-o,--output", out, "the .safetensors file to write")->required();
  app.add_option("--classes", classes_file,
                 "class names to record, one per line, in the model's output order");
  add_checkpoint_options(app, checkpoint);
  if (!parse_command_line(app, args)) return 0;
  if (out == weights) throw UsageError("-o: the output would overwrite WEIGHTS");
  const std::vector<std::string> classes =
      classes_file.empty() ? std::vector<std::string>{} : read_class_names(classes_file);
  const ExportSummary s = export_model(weights, out, checkpoint.load_options(), classes);
  const std::string windows =
      s.window_blocks > 0 ? fmt::format(" ({} of them window+linear)", s.window_blocks) : "";
  std::cout << fmt::format(
      "{}: {} tensors, {} parameters; {} linear-attention{} and {} softmax blocks; {} unused "
      "tensors dropped\n",
      out, s.tensors, s.parameters, s.linear_blocks, windows, s.softmax_blocks, s.dropped_tensors);
  if (!s.preprocessing_note.empty()) std::cerr << "note: " << s.preprocessing_note << "\n";
  if (s.linear_blocks == 0)
    std::cerr << "warning: every block runs softmax attention (not an adapted student)\n";
  return 0;
}

}  // namespace adala::cli
