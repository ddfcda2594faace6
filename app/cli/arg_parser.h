#pragma once
// The command line of `adala` and its sub-commands, on CLI11: each command declares its
// options on a CLI::App (typed values, generated --help) and parses with parse_command_line.
// An unknown option, a value of the wrong type or out of range is a UsageError (exit code 2).
#include <CLI/CLI.hpp>

#include <stdexcept>
#include <string>
#include <vector>

namespace adala::cli {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Sets up a command's parser (construct it as CLI::App{description, "adala NAME"}): -h/--help,
// defaults shown in the help, and a footer naming the options `adala` itself takes anywhere on
// the line. Sub-commands added later inherit the settings.
void prepare_command_app(CLI::App& app);

// Parses args (without the command's name). Returns false when --help was asked for: the
// help of the (sub-)command given has been printed on std::cout. Throws UsageError with
// CLI11's message, e.g. "--threads: Value abc could not be converted", plus where to look.
bool parse_command_line(CLI::App& app, const std::vector<std::string>& args);

// The sub-command of app that was given (nullptr when none).
CLI::App* chosen_subcommand(const CLI::App& app);
// Checks for option values: a number > 0, or >= 0, with a message that names the value
// (CLI11 2.1's PositiveNumber and NonNegativeNumber print the whole double range).
CLI::Validator positive_number();
CLI::Validator non_negative_number();

// Whether name is one of app's sub-commands.
bool has_subcommand(const CLI::App& app, const std::string& name);

// Splits "a,b,c" into its parts (empty parts dropped).
std::vector<std::string> split_list(const std::string& text, char sep = ',');

}  // namespace adala::cli
