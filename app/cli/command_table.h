#pragma once
// The commands `adala` lists: name, the function that runs it and its one-line summary, for the
// dispatch in main.cpp, the overview (`adala --help`) and the generated reference
// (`adala cli-reference`). Which commands exist depends on the build (OpenCV, segmentation).
#include <functional>
#include <map>
#include <string>

#include "app/cli/commands.h"

namespace adala::cli {

using CommandFunction = std::function<int(const Args&)>;

struct Command {
  CommandFunction run;
  const char* summary;
};

// By name, in the order `adala --help` lists them.
const std::map<std::string, Command>& command_table();

// `adala --help`: the commands and the options that any command line may carry.
std::string overview();

}  // namespace adala::cli
