// `adala runs`: the run database from the command line — list, show, compare, export,
// delete, tag, note, rename, check and bench. Writes to std::cout / reads std::cin (tests swap
// them).
#include <iostream>
#include <string>

#include "app/cli/arg_parser.h"
#include "app/cli/commands.h"
#include "app/cli/runs_common.h"

namespace adala::cli {
namespace {

const char* const kSubcommands =
    "list, show, compare, export, delete, tag, note, rename, check, bench";

// The sub-commands and their options, each bound to o.
void declare_runs_options(CLI::App& app, runs::RunsOptions& o) {
  app.require_subcommand(1);
  const auto add_db = [&](CLI::App& sub) {
    sub.add_option("--db", o.db,
                   "the run database (default: " + store::RunStore::default_path() + ")");
  };
  add_db(app);
  const auto run_argument = [&](CLI::App& sub) {
    sub.add_option("RUN", o.run, "a run id or a unique run name")->required();
  };
  CLI::App* list = app.add_subcommand("list", "runs, newest first");
  list->add_option("--tag", o.tag, "only runs with this tag");
  list->add_option("--kind", o.kind, "only training or only benchmark runs")
      ->check(CLI::IsMember({"training", "benchmark"}));
  CLI::App* show = app.add_subcommand(
      "show",
      "one run: stages, evaluations, final metrics, artifacts; a benchmark run: its points");
  run_argument(*show);
  CLI::App* compare =
      app.add_subcommand("compare", "final metrics, evaluations and config differences");
  compare->add_option("RUN", o.runs, "two or more run ids or names")->required()->expected(2, -1);
  compare->add_flag("--blocks", o.blocks, "every block's metrics instead of their mean");
  CLI::App* exported = app.add_subcommand(
      "export", "metrics (a benchmark run: its points) as CSV, or the whole run as JSON");
  run_argument(*exported);
  exported->add_option("--format", o.format, "csv or json")->check(CLI::IsMember({"csv", "json"}));
  exported->add_option("-o,--output", o.output, "write to FILE instead of stdout");
  CLI::App* remove = app.add_subcommand("delete", "the run and its artifact files (asks first)");
  run_argument(*remove);
  remove->add_flag("-y,--yes", o.yes, "do not ask");
  CLI::App* tag = app.add_subcommand("tag", "add (or remove) a tag");
  run_argument(*tag);
  tag->add_option("TAG", o.text, "the tag")->required();
  tag->add_flag("--remove", o.remove, "remove the tag instead");
  CLI::App* note = app.add_subcommand("note", "set the run's notes");
  run_argument(*note);
  note->add_option("TEXT", o.text, "the notes")->required();
  CLI::App* rename =
      app.add_subcommand("rename", "give the run another name (its folder keeps its own)");
  run_argument(*rename);
  rename->add_option("NAME", o.text, "the new name")->required();
  app.add_subcommand("check", "PRAGMA integrity_check of the whole file");
  CLI::App* bench = app.add_subcommand("bench", "metric writes/s with the pipeline's batching");
  bench->add_option("--metrics", o.metrics, "metrics to write")->check(positive_number());
  bench->add_option("--batch", o.batch, "metrics per flush")->check(positive_number());
  bench->add_option("--step-ms", o.step_ms, "also the overhead on a training step this long")
      ->check(positive_number());
  for (CLI::App* sub : app.get_subcommands({})) add_db(*sub);
}

}  // namespace

int runs_command(const Args& args) {
  std::ostream& out = std::cout;
  CLI::App app{
      "The run database. RUN is a run id or a unique run name. --db defaults to "
      "$XDG_DATA_HOME/adala/runs.sqlite (~/.local/share/adala/runs.sqlite).",
      "adala runs"};
  prepare_command_app(app);
  runs::RunsOptions o;
  declare_runs_options(app, o);
  if (args.empty()) {
    out << app.help();
    return 2;
  }
  if (args[0].rfind("-", 0) != 0 && !has_subcommand(app, args[0]))
    throw UsageError("unknown runs command \"" + args[0] + "\" (" + kSubcommands + ")");
  if (!parse_command_line(app, args)) return 0;
  const std::string command = chosen_subcommand(app)->get_name();
  if (command == "list") return runs::list_runs(o, out);
  if (command == "show") return runs::show_run(o, out);
  if (command == "compare") return runs::compare_runs(o, out);
  if (command == "export") return runs::export_run(o, out);
  if (command == "delete") return runs::delete_run(o, out);
  if (command == "tag") return runs::tag_run(o, out);
  if (command == "note") return runs::note_run(o, out);
  if (command == "rename") return runs::rename_run(o, out);
  if (command == "check") return runs::check_database(o, out);
  return runs::bench_store(o, out);
}

}  // namespace adala::cli
