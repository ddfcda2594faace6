// `adala`: the headless face of the workbench. Everything the GUI does, this does too.
#include <fmt/format.h>

#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "app/cli/arg_parser.h"
#include "app/cli/cli_reference.h"
#include "app/cli/command_table.h"
#include "app/cli/common_options.h"
#include "engine/kernels/linear_training_kernel.h"
#include "engine/runtime/device.h"
#include "engine/kernels/memory_reuse.h"

namespace {

bool is_help(const std::string& arg) { return arg == "--help" || arg == "-h" || arg == "help"; }

// The command called name: one of the table's, or the reference generator, which `adala --help`
// does not list. Empty when there is none.
adala::cli::CommandFunction find_command(const std::string& name) {
  if (name == adala::cli::kCliReferenceCommand) return adala::cli::cli_reference_command;
  const auto& table = adala::cli::command_table();
  const auto it = table.find(name);
  return it == table.end() ? nullptr : it->second.run;
}

}  // namespace

int main(int argc, char** argv) {
  adala::reexec_with_passive_thread_waits(argv);
  adala::keep_freed_memory_for_reuse();
  // --threads N anywhere on the line; everything else, in order, is the command and its own.
  adala::cli::CommonOptions options;
  std::vector<std::string> line;
  try {
    CLI::App common{"", "adala"};
    common.set_help_flag();
    common.allow_extras();
    adala::cli::declare_common_options(common, options);
    adala::cli::parse_command_line(common, {argv + 1, argv + argc});
    adala::cli::check_common_options(options);
    line = common.remaining();
  } catch (const adala::cli::UsageError& e) {
    std::cerr << fmt::format("adala: {}\n", e.what());
    return 2;
  }
  if (line.empty() || is_help(line[0])) {
    std::cout << adala::cli::overview();
    return line.empty() ? 2 : 0;
  }
  const std::string name = line[0];
  if (name == "bench") adala::share_one_malloc_arena();  // no other thread has run yet
  const adala::cli::CommandFunction run = find_command(name);
  if (!run) {
    std::cerr << fmt::format("adala: unknown command \"{}\" (see adala --help)\n", name);
    return 2;
  }
  try {
    adala::configure_threads(options.threads);
    adala::set_linear_training_kernel(adala::parse_linear_training_kernel(options.linear_kernel));
    return run({line.begin() + 1, line.end()});
  } catch (const adala::cli::UsageError& e) {
    std::cerr << fmt::format("adala {}: {}\n", name, e.what());
    return 2;
  } catch (const std::exception& e) {
    std::cerr << fmt::format("adala {}: error: {}\n", name, e.what());
    return 1;
  }
}
