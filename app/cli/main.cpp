// `adala`: the headless face of the workbench. Everything the GUI does, this does too.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "app/cli/arg_parser.h"
#include "app/cli/commands.h"
#include "engine/core/device.h"

namespace {

struct Command {
  std::function<int(const adala::cli::Args&)> run;
  const char* summary;
};

const std::map<std::string, Command>& command_table() {
  using namespace adala::cli;
  static const std::map<std::string, Command> table = {
      {"info", {info_command, "LibTorch/CUDA/threads and Qt/OpenCV/SQLite versions"}},
      {"inspect-weights", {inspect_weights_command, "FILE.safetensors: tensors, dtypes, shapes, matching preset"}},
      {"bench", {bench_command, "attention: softmax vs linear attention time and memory"}},
      {"run", {run_command, "CONFIG.json [--stages 0,1,2,3] [--resume RUN]: the ViT-AdaLA pipeline"}},
      {"ablate", {ablate_command, "CONFIG.json: teacher / naive swap / Stage 2+3 / Stage 1+2+3 table"}},
#ifdef ADALA_HAVE_SEG
      {"segment", {segment_command, "CONFIG.json [--teacher T] [--student S] [--head linear|mask2former|both]: teacher vs student mIoU"}},
#endif
#ifdef ADALA_HAVE_STORE
      {"runs", {runs_command, "list|show|compare|export|delete|tag: the run database"}},
#endif
#ifdef ADALA_HAVE_REPORT
      {"report", {report_command, "RUN [RUN...] --format html|pdf|md -o FILE: run report / comparison"}},
#endif
  };
  return table;
}

void print_help() {
  std::printf(
      "adala - AdaLA Workbench command line: adapt a softmax ViT into a linear-attention ViT\n\n"
      "usage: adala COMMAND [ARGS...]      (adala COMMAND --help for its options)\n\ncommands:\n");
  for (const auto& [name, cmd] : command_table()) std::printf("  %-16s %s\n", name.c_str(), cmd.summary);
  std::printf("\ncommon options: --device auto|cpu|cuda   --threads N   --db FILE\n");
}

// --threads N anywhere on the line (default: all cores); removed before the command sees it.
int take_threads_option(std::vector<std::string>& args) {
  int threads = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--threads" && i + 1 < args.size()) {
      threads = std::atoi(args[i + 1].c_str());
      args.erase(args.begin() + static_cast<long>(i), args.begin() + static_cast<long>(i) + 2);
      break;
    }
    if (args[i].rfind("--threads=", 0) == 0) {
      threads = std::atoi(args[i].c_str() + 10);
      args.erase(args.begin() + static_cast<long>(i));
      break;
    }
  }
  return threads;
}

}  // namespace

int main(int argc, char** argv) {
  adala::reexec_with_passive_openmp_waits(argv);
  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h" ||
      std::string(argv[1]) == "help") {
    print_help();
    return argc < 2 ? 2 : 0;
  }
  const std::string name = argv[1];
  auto it = command_table().find(name);
  if (it == command_table().end()) {
    std::fprintf(stderr, "adala: unknown command \"%s\" (see adala --help)\n", name.c_str());
    return 2;
  }
  adala::cli::Args args(argv + 2, argv + argc);
  adala::configure_threads(take_threads_option(args));
  try {
    return it->second.run(args);
  } catch (const adala::cli::UsageError& e) {
    std::fprintf(stderr, "adala %s: %s\n", name.c_str(), e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "adala %s: error: %s\n", name.c_str(), e.what());
    return 1;
  }
}
