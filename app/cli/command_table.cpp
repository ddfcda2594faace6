#include "app/cli/command_table.h"

#include "app/cli/common_options.h"

namespace adala::cli {

const std::map<std::string, Command>& command_table() {
  static const std::map<std::string, Command> table = {
      {"info", {info_command, "LibTorch/CUDA/threads and Qt/OpenCV/SQLite versions"}},
      {"inspect-weights",
       {inspect_weights_command, "FILE.safetensors: tensors, dtypes, shapes, matching preset"}},
      {"bench",
       {bench_command,
        "attention|scaling|flops|peer|loader: benchmarks of the engine on this machine"}},
      {"run",
       {run_command, "CONFIG.json [--stages 0,1,2,3] [--resume RUN]: the ViT-AdaLA pipeline"}},
      {"ablate",
       {ablate_command,
        "CONFIG.json: teacher / naive swap / Stage 1+3 / Stage 2+3 / Stage 1+2+3 / QKV-only "
        "Stage 2 table"}},
      {"compare-methods",
       {compare_methods_command,
        "CONFIG.json [--methods NAME,...]: linearisation methods from one teacher, one table "
        "(compare-methods --help lists them)"}},
      {"plan",
       {plan_command,
        "CONFIG|RUN --res R [--target-gap PT | --target-ms MS] [--train]: which blocks to keep "
        "softmax, from per-block sensitivity and cost"}},
#ifdef ADALA_HAVE_IMAGE_FILES
      {"data",
       {data_command,
        "export-fashion-mnist OUT: Fashion-MNIST as PNG class folders + path<TAB>label list"}},
#endif
#ifdef ADALA_HAVE_INFER
      {"predict",
       {predict_command,
        "WEIGHTS IMAGE|FOLDER... [--top 5] [--res R] [--classes FILE] [--csv OUT]: class scores, "
        "top-1 on class folders"}},
      {"embed",
       {embed_command,
        "WEIGHTS IMAGE|FOLDER... -o FILE [--tokens cls|patch|all]: final normed features"}},
      {"export",
       {export_command, "WEIGHTS -o FILE: the linear-attention model as it runs, for deployment"}},
      {"features",
       {features_command,
        "RUN (--image-index I | --image FILE) --out DIR: teacher vs student patch features as PCA "
        "colour maps + per-patch cosine"}},
      {"resolution-sweep",
       {resolution_sweep_command,
        "RUN [--scales 1,2,4] [--limit N]: teacher and student top-1 at 1x/2x/4x the training "
        "resolution"}},
#endif
#ifdef ADALA_HAVE_SEG
      {"segment",
       {segment_command,
        "CONFIG.json [--teacher T] [--student S] [--head linear|mask2former|both]: teacher vs "
        "student mIoU"}},
#endif
      {"runs",
       {runs_command,
        "list|show|compare|export|delete|tag|note|rename|check|bench: the run database"}},
      {"frontier",
       {frontier_command,
        "[--planner FOLDER] [--res R] [--cost ms|peak] [--csv FILE]: trained attention plans, "
        "the accuracy-cost frontier marked"}},
      {"report",
       {report_command, "RUN [RUN...] --format html|pdf|md -o FILE: run report / comparison"}},
  };
  return table;
}

// The commands as CLI11 sub-commands (never parsed), so that CLI11 formats the overview.
std::string overview() {
  CLI::App app{
      "adala - AdaLA Workbench command line: adapt a softmax ViT into a linear-attention ViT",
      "adala"};
  CommonOptions unused;
  declare_common_options(app, unused);
  app.get_formatter()->column_width(20);
  app.get_formatter()->label("SUBCOMMAND", "COMMAND");
  for (const auto& [name, command] : command_table())
    app.add_subcommand(name, command.summary)->group("Commands");
  app.footer(
      "adala COMMAND --help lists a command's options. Most commands also take --device "
      "auto|cpu|cuda and --db FILE.");
  return app.help();
}

}  // namespace adala::cli
