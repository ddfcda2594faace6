// `adala frontier`: the trained attention plans of the run database (engine/plan/plan_record.h)
// as the workbench's Plans tab lists them: one Markdown table on std::cout, cheapest first,
// the accuracy-cost frontier marked; --csv writes the same rows to a file.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "app/cli/arg_parser.h"
#include "app/cli/commands.h"
#include "app/cli/table_cells.h"
#include "engine/plan/plan_record.h"
#include "engine/plan/plan_remeasure.h"
#include "engine/runtime/device.h"
#include "engine/store/run_store.h"

namespace adala::cli {
namespace {

struct FrontierOptions {
  std::string db;  // empty: RunStore::default_path()
  std::string planner;
  int64_t resolution = 0;  // 0: the largest at which every plan has a cost
  std::string cost = "ms";
  std::string csv;
  bool measure = false;  // measure every shown plan again, side by side, first
  std::string measure_res;
  std::string device;
  int repeats = 5, rounds = 3;
};

std::string resolution_list(const std::vector<int64_t>& resolutions) {
  std::vector<std::string> parts;
  for (int64_t r : resolutions) parts.push_back(std::to_string(r));
  return join(parts, ", ");
}

std::string number(double v, const char* format) {
  return std::isfinite(v) ? fmt::format(fmt::runtime(format), v) : std::string("-");
}

std::string gap_text(double points) {
  if (!std::isfinite(points)) return "-";
  return fmt::format("{:+.2f}", points);
}

std::string csv_number(double v) { return std::isfinite(v) ? fmt::format("{}", v) : ""; }

std::vector<int64_t> parse_resolution_list(const std::string& option, const std::string& text) {
  std::vector<int64_t> out;
  std::string item;
  std::stringstream ss(text);
  while (std::getline(ss, item, ',')) {
    int64_t v = 0;
    try {
      size_t used = 0;
      v = std::stoll(item, &used);
      if (used != item.size()) throw std::invalid_argument(item);
    } catch (const std::exception&) {
      throw UsageError(option + ": \"" + item + "\" is not a whole number of pixels");
    }
    if (v < 16 || v > 4096) throw UsageError(option + ": " + item + " is outside 16..4096");
    if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  }
  if (out.empty()) throw UsageError(option + ": no resolution given");
  std::sort(out.begin(), out.end());
  return out;
}

void declare_frontier(CLI::App& app, FrontierOptions& o) {
  app.add_option("--db", o.db,
                 "the run database (default: " + store::RunStore::default_path() + ")");
  app.add_option("--planner", o.planner,
                 "only the plans of this planning session (its folder; default: all)");
  app.add_option(
         "--res", o.resolution,
         "input side in pixels (default: the largest at which every plan has a cost, usually "
         "the plans' --res)")
      ->check(positive_number());
  app.add_option("--cost", o.cost, "the frontier's cost: ms (per image) or peak (memory)")
      ->check(CLI::IsMember({"ms", "peak"}));
  app.add_option("--csv", o.csv, "also write the rows to this CSV file");
  app.add_flag("--measure", o.measure,
               "first measure the plans' inference cost again on this machine, side by side "
               "(interleaved rounds), and record it");
  app.add_option("--measure-res", o.measure_res,
                 "with --measure: comma-separated input sides (default: those already recorded)");
  app.add_option("--device", o.device, "with --measure: auto, cpu or cuda");
  app.add_option("--repeats", o.repeats, "with --measure: timed forward passes per point (median)")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  app.add_option("--rounds", o.rounds, "with --measure: interleaved rounds (median of rounds)")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
}

// The plans of --planner (all when not given) in the database at path.
std::vector<PlanPoint> chosen_plan_points(store::RunStore& db, const std::string& path,
                                          const FrontierOptions& o) {
  const std::vector<PlanPoint> all = read_plan_points(db);
  if (all.empty())
    throw std::runtime_error("no trained attention plans in " + path +
                             " (record some with `adala plan CONFIG --res R --train`)");
  const std::vector<std::string> planners = plan_planners(all);
  if (!o.planner.empty() &&
      std::find(planners.begin(), planners.end(), o.planner) == planners.end())
    throw UsageError("--planner: no planning session \"" + o.planner + "\" in " + path +
                     (planners.empty() ? std::string(" (its plans name no session)")
                                       : " (sessions: " + join(planners, ", ") + ")"));
  return o.planner.empty() ? all : read_plan_points(db, o.planner);
}

// --measure: the plans' costs measured again, side by side, and recorded.
std::vector<PlanPoint> measured_again(store::RunStore& db, const std::vector<PlanPoint>& points,
                                      const FrontierOptions& o) {
  plan::InterleavedCostOptions m;
  m.resolutions = o.measure_res.empty() ? common_resolutions(points)
                                        : parse_resolution_list("--measure-res", o.measure_res);
  if (m.resolutions.empty())
    throw UsageError("--measure: the plans share no recorded resolution; give --measure-res");
  m.repeats = o.repeats;
  m.rounds = o.rounds;
  const c10::Device device = resolve_device(o.device.empty() ? "auto" : o.device);
  return plan::remeasure_plan_points(db, points, device, m, [](const std::string& line) {
    std::fprintf(stderr, "frontier: %s\n", line.c_str());
  });
}

// --res, or the largest resolution at which every plan has a cost.
int64_t table_resolution(const std::vector<PlanPoint>& points, const FrontierOptions& o) {
  const std::vector<int64_t> resolutions = common_resolutions(points);
  if (resolutions.empty())
    throw std::runtime_error(
        "the plans share no resolution at which each has a cost (measure them with `adala plan "
        "CONFIG --res R`)");
  const int64_t res = o.resolution > 0 ? o.resolution : resolutions.back();
  if (std::find(resolutions.begin(), resolutions.end(), res) == resolutions.end())
    throw UsageError("--res: not every plan has a cost at " + std::to_string(res) +
                     " px (resolutions with costs: " + resolution_list(resolutions) + ")");
  return res;
}

void print_frontier_table(std::ostream& out, const std::vector<PlanPoint>& points,
                          const std::vector<PlanRow>& rows, int64_t res, FrontierCost axis,
                          const std::string& planner) {
  const bool sessions = planner.empty() && plan_planners(points).size() > 1;
  out << fmt::format("Attention plans of {} at {} px: {} plans, frontier by {} (*)\n\n",
                     planner.empty() ? std::string("every session") : "session " + planner, res,
                     points.size(),
                     axis == FrontierCost::MsPerImage ? "ms / image" : "peak memory");
  out << "| plan |" << (sessions ? " session |" : "")
      << " blocks | top-1 (%) | gap to teacher (pt) | ms/img @" << res << " | peak MB @" << res
      << " | run | frontier |\n";
  out << "|---|" << (sessions ? "---|" : "") << "---|---:|---:|---:|---:|---:|:---:|\n";
  for (const auto& row : rows) {
    const PlanPoint& p = points[row.index];
    const PlanCost* c = p.cost_at(res);
    out << "| " << p.name << " | " << (sessions ? p.planner + " | " : "") << plan_strip(p.modes)
        << " | " << number(100.0 * p.top1, "{:.2f}") << " | " << gap_text(row.gap_points) << " | "
        << number(c ? cost_value(*c, FrontierCost::MsPerImage) : NAN, "{:.3g}") << " | "
        << number(c ? cost_value(*c, FrontierCost::PeakBytes) / 1e6 : NAN, "{:.2f}") << " | "
        << p.run << " | " << (row.on_frontier ? "*" : "") << " |\n";
  }
  std::vector<std::string> frontier;
  for (const auto& row : rows)
    if (row.on_frontier) frontier.push_back(points[row.index].name);
  out << "\nFrontier, cheapest first: " << join(frontier, " -> ") << "\n";
  out << "Blocks: S softmax, W window+linear, L linear (block 0 first).\n";
}

void write_frontier_csv(const std::string& path, const std::vector<PlanPoint>& points,
                        const std::vector<PlanRow>& rows, int64_t res) {
  std::ofstream csv(path);
  csv << "plan,session,blocks,top1,gap_points,resolution,ms_per_img,peak_bytes,run,frontier\n";
  for (const auto& row : rows) {
    const PlanPoint& p = points[row.index];
    const PlanCost* c = p.cost_at(res);
    csv << csv_field(p.name) << "," << csv_field(p.planner) << "," << plan_strip(p.modes) << ","
        << csv_number(p.top1) << "," << csv_number(row.gap_points) << "," << res << ","
        << csv_number(c ? cost_value(*c, FrontierCost::MsPerImage) : NAN) << ","
        << csv_number(c ? cost_value(*c, FrontierCost::PeakBytes) : NAN) << "," << p.run << ","
        << (row.on_frontier ? 1 : 0) << "\n";
  }
  if (!csv.good()) throw std::runtime_error("cannot write " + path);
}

}  // namespace

int frontier_command(const Args& args) {
  CLI::App app{
      "The trained attention plans of the run database (recorded by `adala plan CONFIG --res R "
      "--train`) as one Markdown table: top-1, gap to the session's teacher, ms / image and "
      "peak memory at one resolution, cheapest first; '*' marks the accuracy-cost frontier.",
      "adala frontier"};
  prepare_command_app(app);
  FrontierOptions o;
  declare_frontier(app, o);
  if (!parse_command_line(app, args)) return 0;
  if (!o.measure && (!o.measure_res.empty() || !o.device.empty()))
    throw UsageError("--measure-res and --device go with --measure");

  const std::string path = o.db.empty() ? store::RunStore::default_path() : o.db;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw std::runtime_error("no run database at " + path + " (choose another file with --db)");
  store::RunStore db(path, o.measure ? store::OpenMode::ReadWrite : store::OpenMode::ReadOnly);
  std::vector<PlanPoint> points = chosen_plan_points(db, path, o);
  if (o.measure) points = measured_again(db, points, o);
  const int64_t res = table_resolution(points, o);
  const FrontierCost axis = frontier_cost_from_string(o.cost);
  const std::vector<PlanRow> rows = plan_rows(points, res, axis);

  print_frontier_table(std::cout, points, rows, res, axis, o.planner);
  if (!o.csv.empty()) write_frontier_csv(o.csv, points, rows, res);
  return 0;
}

}  // namespace adala::cli
