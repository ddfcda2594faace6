// `adala`: the headless face of the workbench. Everything the GUI does, this does too.
#include <fmt/format.h>

#include <exception>
#include <functional>
#include <iostream>
#include <algorithm>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "app/cli/arg_parser.h"
#include "app/cli/commands.h"
#include "engine/kernels/linear_training_kernel.h"
#include "engine/runtime/device.h"
#include "engine/kernels/memory_reuse.h"

namespace {

struct Command {
  std::function<int(const adala::cli::Args&)> run;
  const char* summary;
};

const std::map<std::string, Command>& command_table() {
  using namespace adala::cli;
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
       {runs_command, "list|show|compare|export|delete|tag|note|check|bench: the run database"}},
      {"frontier",
       {frontier_command,
        "[--planner FOLDER] [--res R] [--cost ms|peak] [--csv FILE]: trained attention plans, "
        "the accuracy-cost frontier marked"}},
      {"report",
       {report_command, "RUN [RUN...] --format html|pdf|md -o FILE: run report / comparison"}},
  };
  return table;
}

// `adala`'s own options, taken from anywhere on the line; the rest goes to the command.
struct CommonOptions {
  int threads = 0;  // 0 (not given): all cores
  bool force_threads = false;
  std::string linear_kernel = "fused";
};

// More threads than this per core only slow a run down (and a typo like 99999 would take
// minutes to start): refused unless --force-threads.
constexpr int kMaxThreadsPerCore = 4;

int core_count() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

void declare_common_options(CLI::App& app, CommonOptions& options) {
  app.add_option("--threads", options.threads, "intra-op threads (default: all cores)")
      ->check(adala::cli::positive_number());
  app.add_flag("--force-threads", options.force_threads,
               "allow --threads above " + std::to_string(kMaxThreadsPerCore) + " x the cores");
  app.add_option("--linear-kernel", options.linear_kernel,
                 "linear attention in training: fused (the fused autograd kernel on CPU, the "
                 "padded form elsewhere), batched (the formula under autograd, as before it; for "
                 "comparisons) or padded (few large LibTorch operations, CUDA's path)")
      ->check(CLI::IsMember(adala::linear_training_kernel_names()));
}

void check_common_options(const CommonOptions& options) {
  const int limit = kMaxThreadsPerCore * core_count();
  if (options.threads > limit && !options.force_threads)
    throw adala::cli::UsageError("--threads " + std::to_string(options.threads) + " is more than " +
                                 std::to_string(kMaxThreadsPerCore) + " x the " +
                                 std::to_string(core_count()) + " cores (at most " +
                                 std::to_string(limit) + "; --force-threads allows it)");
}

// The generated overview: the commands as CLI11 sub-commands (never parsed) and the options
// that any command line may carry.
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

bool is_help(const std::string& arg) { return arg == "--help" || arg == "-h" || arg == "help"; }

}  // namespace

int main(int argc, char** argv) {
  adala::reexec_with_passive_thread_waits(argv);
  adala::keep_freed_memory_for_reuse();
  // --threads N anywhere on the line; everything else, in order, is the command and its own.
  CommonOptions options;
  std::vector<std::string> line;
  try {
    CLI::App common{"", "adala"};
    common.set_help_flag();
    common.allow_extras();
    declare_common_options(common, options);
    adala::cli::parse_command_line(common, {argv + 1, argv + argc});
    check_common_options(options);
    line = common.remaining();
  } catch (const adala::cli::UsageError& e) {
    std::cerr << fmt::format("adala: {}\n", e.what());
    return 2;
  }
  if (line.empty() || is_help(line[0])) {
    std::cout << overview();
    return line.empty() ? 2 : 0;
  }
  const std::string name = line[0];
  if (name == "bench") adala::share_one_malloc_arena();  // no other thread has run yet
  auto it = command_table().find(name);
  if (it == command_table().end()) {
    std::cerr << fmt::format("adala: unknown command \"{}\" (see adala --help)\n", name);
    return 2;
  }
  try {
    adala::configure_threads(options.threads);
    adala::set_linear_training_kernel(adala::parse_linear_training_kernel(options.linear_kernel));
    return it->second.run({line.begin() + 1, line.end()});
  } catch (const adala::cli::UsageError& e) {
    std::cerr << fmt::format("adala {}: {}\n", name, e.what());
    return 2;
  } catch (const std::exception& e) {
    std::cerr << fmt::format("adala {}: error: {}\n", name, e.what());
    return 1;
  }
}
