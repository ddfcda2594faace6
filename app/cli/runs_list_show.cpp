// `adala runs list` and `adala runs show`: the runs as one table, and one run in full.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "app/cli/arg_parser.h"
#include "app/cli/runs_common.h"
#include "app/cli/table_cells.h"
#include "engine/json/json.h"

namespace adala::cli::runs {

namespace {

// Stages the run was started with (its folder's stages.json), at least those recorded: a run
// killed in its first stage has recorded only that one.
size_t planned_stage_count(const RunInfo& run, size_t recorded) {
  std::ifstream in(run.folder + "/stages.json");   // written by run_pipeline
  if (run.folder.empty() || !in) return recorded;  // folder gone: what the database knows
  try {
    std::ostringstream text;
    text << in.rdbuf();
    const Json planned = parse_json_strict(text.str());
    return planned.is_array() ? std::max(recorded, planned.size()) : recorded;
  } catch (const std::exception&) {
    return recorded;
  }
}

// "3 points" / "1 point"
std::string point_count(size_t n) { return std::to_string(n) + (n == 1 ? " point" : " points"); }

// A measured value, or "-" where it was not measured (NaN).
std::string measured(double value, int decimals) {
  if (std::isnan(value)) return "-";
  return fmt::format("{:.{}f}", value, decimals);
}

void print_benchmark_points(const std::vector<store::BenchmarkPoint>& points, std::ostream& out) {
  out << "\nbenchmark points (" << points.size()
      << "; GFLOPs analytic, 1 multiply-add = 1 FLOP; attn = attention sub-layers + patch embed;"
         " peak MB above weights and input):\n";
  std::vector<std::vector<std::string>> rows = {{"BENCH", "PRESET", "RES", "TOKENS", "MODE",
                                                 "GFLOPS", "ATTN GFLOPS", "PEAK MB", "MS/IMG",
                                                 "IMGS/S", "NOTE"}};
  for (const auto& p : points) {
    rows.push_back({p.benchmark, p.preset.empty() ? "-" : p.preset,
                    p.resolution > 0 ? std::to_string(p.resolution) : "-",
                    p.tokens > 0 ? std::to_string(p.tokens) : "-", p.mode, measured(p.gflops, 2),
                    measured(p.gflops_attention_only, 2), measured(p.peak_mb, 1),
                    measured(p.ms_per_img, 2), measured(p.imgs_per_s, 3),
                    p.ran ? p.note : (p.note.empty() ? "not run" : p.note)});
  }
  print_table(out, rows, "  ");
}

void print_run_header(const RunInfo& run, std::ostream& out) {
  out << "run " << run.id << "  " << run.name << "  [" << run.status << "]"
      << (run.kind == "benchmark" ? "  benchmark" : "") << "\n";
  out << "  device " << (run.device.empty() ? "-" : run.device) << ", LibTorch "
      << (run.torch_version.empty() ? "-" : run.torch_version) << ", AdaLA "
      << (run.project_version.empty() ? "-" : run.project_version) << "\n";
  out << "  created " << short_time(run.created_at) << ", started " << short_time(run.started_at)
      << ", ended " << short_time(run.ended_at) << " (" << duration_of(run) << ")\n";
  if (!run.tags.empty()) out << "  tags: " << join(run.tags, ", ") << "\n";
  if (!run.notes.empty()) out << "  notes: " << run.notes << "\n";
}

void print_stages(const std::vector<store::StageInfo>& stages, std::ostream& out) {
  out << "\nstages:\n";
  std::vector<std::vector<std::string>> rows = {
      {"#", "STAGE", "STATUS", "STEPS", "TRAINED", "STARTED", "ENDED"}};
  for (const auto& stage : stages) {
    rows.push_back({std::to_string(stage.index), stage.stage, stage.status,
                    // Steps are 1-based (the number of optimiser steps taken); -1 means none yet.
                    std::to_string(std::max<int64_t>(stage.last_step, 0)) + "/" +
                        std::to_string(stage.total_steps),
                    // Pauses and the gap between a cancel and the resume left out.
                    std::isfinite(stage.compute_seconds)
                        ? format_seconds(std::lround(stage.compute_seconds))
                        : "-",
                    short_time(stage.started_at), short_time(stage.ended_at)});
  }
  print_table(out, rows, "  ");
}

}  // namespace

int list_runs(const RunsOptions& o, std::ostream& out) {
  const std::string kind = o.kind;
  if (!kind.empty() && kind != "training" && kind != "benchmark")
    throw UsageError("--kind must be training or benchmark");
  RunStore store = open_for_reading(database_path(o));
  const std::string tag = o.tag;
  std::vector<std::vector<std::string>> rows = {
      {"ID", "NAME", "KIND", "STATUS", "STAGES", "STARTED", "DURATION", "DEVICE", "TAGS"}};
  for (const RunInfo& run : store.list_runs()) {
    if (!tag.empty() && std::find(run.tags.begin(), run.tags.end(), tag) == run.tags.end())
      continue;
    if (!kind.empty() && run.kind != kind) continue;
    std::string progress;
    if (run.kind == "benchmark") {
      progress = point_count(store.benchmark_points(run.id).size());
    } else {
      const auto stages = store.stages(run.id);
      const auto done = std::count_if(stages.begin(), stages.end(),
                                      [](const auto& stage) { return stage.status == "done"; });
      progress =
          std::to_string(done) + "/" + std::to_string(planned_stage_count(run, stages.size()));
    }
    rows.push_back({std::to_string(run.id), run.name, run.kind, run.status, progress,
                    short_time(run.started_at), duration_of(run),
                    run.device.empty() ? "-" : run.device, join(run.tags, ",")});
  }
  if (rows.size() == 1) {
    out << "no runs in " << store.path() << "\n";
    return 0;
  }
  print_table(out, rows);
  return 0;
}

int show_run(const RunsOptions& o, std::ostream& out) {
  RunStore store = open_for_reading(database_path(o));
  const RunInfo run = resolve_run(store, o.run);
  print_run_header(run, out);

  const auto stages = store.stages(run.id);
  if (!stages.empty()) print_stages(stages, out);
  const auto evaluations = store.evaluations(run.id);
  if (!evaluations.empty()) {
    out << "\nevaluations:\n";
    std::vector<std::vector<std::string>> rows = {{"KEY", "VALUE"}};
    for (const auto& [key, value] : evaluations) rows.push_back({key, format_number(value)});
    print_table(out, rows, "  ");
  }
  const auto finals = final_values(store, run.id, false);
  if (!finals.empty()) {
    out << "\nfinal metrics (" << store.metric_count(run.id) << " rows in all):\n";
    std::vector<std::vector<std::string>> rows = {{"SERIES", "VALUE"}};
    for (const auto& [name, value] : finals) rows.push_back({name, format_number(value)});
    print_table(out, rows, "  ");
  }
  const auto points = store.benchmark_points(run.id);
  if (!points.empty()) print_benchmark_points(points, out);
  const auto artifacts = store.artifacts(run.id);
  if (!artifacts.empty()) {
    out << "\nartifacts:\n";
    std::vector<std::vector<std::string>> rows = {{"KIND", "BYTES", "SHA256", "PATH"}};
    for (const auto& artifact : artifacts) {
      rows.push_back({artifact.kind, std::to_string(artifact.bytes), artifact.sha256.substr(0, 12),
                      artifact.path});
    }
    print_table(out, rows, "  ");
  }
  out << "\nconfig:\n";
  try {
    out << parse_json_strict(run.config_json).dump(2) << "\n";
  } catch (const JsonError&) {
    out << run.config_json << "\n";
  }
  return 0;
}

}  // namespace adala::cli::runs
