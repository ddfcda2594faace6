#include "app/cli/arg_parser.h"

#include <cmath>
#include <cstdlib>
#include <iostream>

namespace adala::cli {

void prepare_command_app(CLI::App& app) {
  app.option_defaults()->always_capture_default();
  app.get_formatter()->column_width(36);
  app.footer("Also on any command line: --threads N (intra-op threads; default: all cores).\n");
}

namespace {

CLI::Validator number_check(bool zero_allowed) {
  return CLI::Validator(
      [zero_allowed](std::string& input) -> std::string {
        char* end = nullptr;
        const double value = std::strtod(input.c_str(), &end);
        if (input.empty() || *end != '\0' || !std::isfinite(value))
          return "\"" + input + "\" is not a number";
        if (zero_allowed ? value < 0 : value <= 0)
          return input + (zero_allowed ? " is below 0" : " is not above 0");
        return "";
      },
      zero_allowed ? "NUMBER>=0" : "NUMBER>0");
}

// "adala runs list": the command and the sub-commands given.
std::string command_path(const CLI::App& app) {
  std::string path = app.get_name();
  for (const CLI::App* sub = chosen_subcommand(app); sub; sub = chosen_subcommand(*sub))
    path += " " + sub->get_name();
  return path;
}
}  // namespace

bool parse_command_line(CLI::App& app, const std::vector<std::string>& args) {
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 pops from the back
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return false;
  } catch (const CLI::CallForAllHelp&) {
    std::cout << app.help("", CLI::AppFormatMode::All);
    return false;
  } catch (const CLI::ExtrasError&) {
    // CLI11 lists them backwards; remaining() has them in the order given.
    std::string extras;
    for (const auto& arg : app.remaining(true)) extras += " " + arg;
    throw UsageError("not expected here:" + extras + " (see " + command_path(app) + " --help)");
  } catch (const CLI::ParseError& e) {
    throw UsageError(std::string(e.what()) + " (see " + command_path(app) + " --help)");
  }
  return true;
}

CLI::Validator positive_number() { return number_check(false); }
CLI::Validator non_negative_number() { return number_check(true); }

CLI::App* chosen_subcommand(const CLI::App& app) {
  const auto chosen = app.get_subcommands();
  return chosen.empty() ? nullptr : chosen.front();
}

bool has_subcommand(const CLI::App& app, const std::string& name) {
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    if (sub->check_name(name)) return true;
  return false;
}

std::vector<std::string> split_list(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::string cur;
  for (char c : text) {
    if (c == sep) {
      if (!cur.empty()) parts.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) parts.push_back(cur);
  return parts;
}

}  // namespace adala::cli
