#pragma once
// `adala cli-reference`: the Markdown command-line reference (docs/cli-reference.md), made from
// the commands' own --help so that it cannot drift from them; tests/cli/test_cli_reference.cpp
// fails when the checked-in file differs. `adala --help` does not list it: it documents the
// commands rather than being one.
#include <string>

#include "app/cli/commands.h"

namespace adala::cli {

inline constexpr char kCliReferenceCommand[] = "cli-reference";

// Title and notice, `adala --help`, then each command of command_table() in its order with its
// summary and --help, followed by its sub-commands' --help. The same on every machine: the run
// database's default path is shown as ~/.local/share/adala/runs.sqlite.
std::string cli_reference();

// Writes cli_reference() on stdout.
int cli_reference_command(const Args& args);

}  // namespace adala::cli
