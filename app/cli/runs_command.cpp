// `adala runs`: the run database from the command line — list, show, compare, export,
// delete, tag, note, rename, check and bench. Writes to std::cout / reads std::cin (tests swap
// them).
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "app/cli/arg_parser.h"
#include "app/cli/commands.h"
#include "app/cli/table_cells.h"
#include "engine/json/json.h"
#include "engine/store/run_store.h"
#include "engine/store/store_benchmark.h"

namespace adala::cli {
namespace {

namespace fs = std::filesystem;
using store::MetricRow;
using store::OpenMode;
using store::RunInfo;
using store::RunStore;
using store::StoreError;
using store::StoreErrorKind;

// --- formatting ---------------------------------------------------------------------------

std::string format_number(double value) {
  if (std::isnan(value)) return "nan";
  return fmt::format("{:.6g}", value);
}

// "2024-05-01T12:00:00.123Z" -> "2024-05-01 12:00:00"
std::string short_time(const std::string& iso) {
  if (iso.size() < 19) return iso.empty() ? "-" : iso;
  std::string shown = iso.substr(0, 19);
  shown[10] = ' ';
  return shown;
}

std::optional<std::time_t> parse_utc(const std::string& iso) {
  std::tm parts{};
  if (iso.size() < 19 ||
      std::sscanf(iso.c_str(), "%d-%d-%dT%d:%d:%d", &parts.tm_year, &parts.tm_mon, &parts.tm_mday,
                  &parts.tm_hour, &parts.tm_min, &parts.tm_sec) != 6) {
    return std::nullopt;
  }
  parts.tm_year -= 1900;
  parts.tm_mon -= 1;
  return timegm(&parts);
}

std::string format_seconds(long seconds) {
  if (seconds >= 3600) return fmt::format("{}h{:02}m", seconds / 3600, seconds / 60 % 60);
  if (seconds >= 60) return fmt::format("{}m{:02}s", seconds / 60, seconds % 60);
  return fmt::format("{}s", seconds);
}

std::string duration_of(const RunInfo& run) {
  const auto start = parse_utc(run.started_at);
  if (!start) return "-";
  const auto end = run.ended_at.empty() ? std::optional<std::time_t>(std::time(nullptr))
                                        : parse_utc(run.ended_at);
  if (!end) return "-";
  return format_seconds(static_cast<long>(std::max<std::time_t>(0, *end - *start)));
}

// Left-aligned columns, two spaces apart; the first row is the header.
void print_table(std::ostream& out, const std::vector<std::vector<std::string>>& rows,
                 const std::string& indent = "") {
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()), 0);
    for (size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  for (const auto& row : rows) {
    std::string line = indent;
    for (size_t c = 0; c < row.size(); ++c) {
      line += row[c];
      if (c + 1 < row.size()) line += std::string(widths[c] - row[c].size() + 2, ' ');
    }
    out << line << "\n";
  }
}

std::string series_name(const MetricRow& metric) {
  return metric.stage + "/" + metric.key +
         (metric.block >= 0 ? "[" + std::to_string(metric.block) + "]" : "");
}

// Final value of every series; per-block series folded into their mean unless all_blocks.
std::map<std::string, double> final_values(RunStore& store, int64_t run, bool all_blocks) {
  std::map<std::string, double> values;
  std::map<std::string, std::pair<double, int>> block_sums;
  for (const MetricRow& metric : store.final_metrics(run)) {
    if (metric.block < 0 || all_blocks) {
      values[series_name(metric)] = metric.value;
    } else {
      auto& [sum, count] = block_sums[metric.stage + "/" + metric.key + "[mean]"];
      sum += metric.value;
      ++count;
    }
  }
  for (const auto& [name, sum_count] : block_sums) {
    values[name] = sum_count.first / sum_count.second;
  }
  return values;
}

// The shortest text that reads back as the same double (0.0003, not 0.00029999999999999997).
std::string shortest_number(double value) {
  std::string text;
  for (int precision = 1; precision <= 17; ++precision) {
    text = fmt::format("{:.{}g}", value, precision);
    // The shortest text that reads back as the same double, bit for bit.
    if (std::equal_to<double>()(std::strtod(text.c_str(), nullptr), value)) break;
  }
  return text;
}

// {"a":{"b":1}} -> {"a.b": "1"}; arrays stay whole (their JSON text).
void flatten(const Json& value, const std::string& prefix,
             std::map<std::string, std::string>& out) {
  if (value.is_object() && value.size() > 0) {
    for (const auto& [key, child] : value.items()) {
      flatten(child, prefix.empty() ? key : prefix + "." + key, out);
    }
    return;
  }
  std::string text;
  if (value.is_string()) {
    text = value.get<std::string>();
  } else if (value.is_number_float()) {
    text = shortest_number(value.get<double>());
  } else {
    text = value.dump();
  }
  out[prefix.empty() ? "(config)" : prefix] = text;
}

std::map<std::string, std::string> flat_config(const RunInfo& run) {
  std::map<std::string, std::string> flat;
  try {
    flatten(parse_json_strict(run.config_json), "", flat);
  } catch (const JsonError&) {
    flat["(config)"] = run.config_json;  // not JSON: compare as one opaque value
  }
  return flat;
}

// --- opening the database -----------------------------------------------------------------

// What `adala runs SUB-COMMAND ...` was given.
struct RunsOptions {
  std::string db;                 // empty: RunStore::default_path()
  std::string run;                // the RUN of show, export, delete, tag, note and rename
  std::vector<std::string> runs;  // compare's RUNs
  std::string text;               // tag's TAG, note's TEXT, rename's NAME
  std::string tag, kind, format = "csv", output;
  bool blocks = false, yes = false, remove = false;
  int64_t metrics = 300000;
  int batch = 15;
  double step_ms = 0;  // bench: 0 when not given
};

std::string database_path(const RunsOptions& o) {
  return o.db.empty() ? RunStore::default_path() : o.db;
}

void require_existing(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    throw StoreError(StoreErrorKind::NotFound, "no run database at " + path +
                                                   " (runs are recorded by `adala run`; "
                                                   "choose another file with --db)");
  }
}

// Readers open read-only (safe next to a training writer); a file from an older schema is
// upgraded once through a read-write open.
RunStore open_for_reading(const std::string& path) {
  require_existing(path);
  try {
    return RunStore(path, OpenMode::ReadOnly);
  } catch (const StoreError& e) {
    if (e.kind() != StoreErrorKind::OlderSchema) throw;
  }
  std::cerr << "adala runs: upgrading the schema of " << path << "\n";
  { RunStore upgrade(path); }
  return RunStore(path, OpenMode::ReadOnly);
}

RunStore open_for_writing(const std::string& path) {
  require_existing(path);
  return RunStore(path);
}

RunInfo resolve_run(RunStore& store, const std::string& id_or_name) {
  auto run = store.find_run(id_or_name);
  if (!run) throw UsageError("no run \"" + id_or_name + "\" in " + store.path());
  return *run;
}

// --- sub-commands -------------------------------------------------------------------------

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

int show_run(const RunsOptions& o, std::ostream& out) {
  RunStore store = open_for_reading(database_path(o));
  const RunInfo run = resolve_run(store, o.run);
  out << "run " << run.id << "  " << run.name << "  [" << run.status << "]"
      << (run.kind == "benchmark" ? "  benchmark" : "") << "\n";
  out << "  device " << (run.device.empty() ? "-" : run.device) << ", LibTorch "
      << (run.torch_version.empty() ? "-" : run.torch_version) << ", AdaLA "
      << (run.project_version.empty() ? "-" : run.project_version) << "\n";
  out << "  created " << short_time(run.created_at) << ", started " << short_time(run.started_at)
      << ", ended " << short_time(run.ended_at) << " (" << duration_of(run) << ")\n";
  if (!run.tags.empty()) out << "  tags: " << join(run.tags, ", ") << "\n";
  if (!run.notes.empty()) out << "  notes: " << run.notes << "\n";

  const auto stages = store.stages(run.id);
  if (!stages.empty()) {
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

int compare_runs(const RunsOptions& o, std::ostream& out) {
  if (o.runs.size() < 2) throw UsageError("compare needs at least two RUNs");
  RunStore store = open_for_reading(database_path(o));
  std::vector<RunInfo> runs;
  for (const auto& id_or_name : o.runs) runs.push_back(resolve_run(store, id_or_name));

  std::vector<std::string> header = {""};
  for (const auto& run : runs) header.push_back("run " + std::to_string(run.id) + " " + run.name);
  const auto add_section = [&](const std::string& title,
                               const std::vector<std::map<std::string, std::string>>& per_run,
                               bool differences_only) {
    std::set<std::string> keys;
    for (const auto& values : per_run) {
      for (const auto& [key, value] : values) keys.insert(key);
    }
    std::vector<std::vector<std::string>> rows = {header};
    for (const auto& key : keys) {
      std::vector<std::string> row = {key};
      for (const auto& values : per_run) {
        auto it = values.find(key);
        row.push_back(it == values.end() ? "-" : it->second);
      }
      const bool all_same = std::all_of(row.begin() + 2, row.end(),
                                        [&](const std::string& cell) { return cell == row[1]; });
      if (!differences_only || !all_same) rows.push_back(row);
    }
    out << title << ":\n";
    if (rows.size() == 1) {
      out << "  (none)\n";
    } else {
      print_table(out, rows, "  ");
    }
  };

  std::vector<std::map<std::string, std::string>> summary, metrics, evaluations, configs;
  for (const auto& run : runs) {
    summary.push_back(
        {{"status", run.status}, {"device", run.device}, {"duration", duration_of(run)}});
    std::map<std::string, std::string> finals;
    for (const auto& [name, value] : final_values(store, run.id, o.blocks)) {
      finals[name] = format_number(value);
    }
    metrics.push_back(finals);
    std::map<std::string, std::string> evals;
    for (const auto& [key, value] : store.evaluations(run.id)) evals[key] = format_number(value);
    evaluations.push_back(evals);
    configs.push_back(flat_config(run));
  }
  add_section("runs", summary, false);
  out << "\n";
  add_section("final metrics (value at the last step)", metrics, false);
  out << "\n";
  add_section("evaluations", evaluations, false);
  out << "\n";
  add_section("config differences", configs, true);
  return 0;
}

std::string csv_number(double value) { return std::isnan(value) ? "" : shortest_number(value); }

void write_points_csv(RunStore& store, const RunInfo& run, std::ostream& out) {
  out << "run_id,benchmark,preset,resolution,tokens,mode,batch,gflops,gflops_attention_only,"
         "gflops_measured,peak_mb,peak_alloc_mb,ms_per_img,imgs_per_s,ran,note\n";
  for (const auto& p : store.benchmark_points(run.id)) {
    out << run.id << "," << csv_field(p.benchmark) << "," << csv_field(p.preset) << ","
        << p.resolution << "," << p.tokens << "," << csv_field(p.mode) << "," << p.batch << ","
        << csv_number(p.gflops) << "," << csv_number(p.gflops_attention_only) << ","
        << csv_number(p.gflops_measured) << "," << csv_number(p.peak_mb) << ","
        << csv_number(p.peak_alloc_mb) << "," << csv_number(p.ms_per_img) << ","
        << csv_number(p.imgs_per_s) << "," << (p.ran ? 1 : 0) << "," << csv_field(p.note) << "\n";
  }
}

void write_csv(RunStore& store, const RunInfo& run, std::ostream& out) {
  if (run.kind == "benchmark") {
    write_points_csv(store, run, out);
    return;
  }
  out << "run_id,stage,step,key,block,value\n";
  for (const MetricRow& metric : store.metrics(run.id)) {
    out << run.id << "," << metric.stage << "," << metric.step << "," << metric.key << ","
        << (metric.block >= 0 ? std::to_string(metric.block) : "") << ","
        << (std::isnan(metric.value) ? "nan" : fmt::format("{:.17g}", metric.value)) << "\n";
  }
}

Json run_as_json(RunStore& store, const RunInfo& run) {
  Json doc = Json::object();
  Json info = Json::object();
  info["id"] = Json(run.id);
  info["name"] = Json(run.name);
  info["status"] = Json(run.status);
  info["device"] = Json(run.device);
  info["torch_version"] = Json(run.torch_version);
  info["project_version"] = Json(run.project_version);
  info["created_at"] = Json(run.created_at);
  info["started_at"] = run.started_at.empty() ? Json() : Json(run.started_at);
  info["ended_at"] = run.ended_at.empty() ? Json() : Json(run.ended_at);
  Json tags = Json::array();
  for (const auto& tag : run.tags) tags.push_back(Json(tag));
  info["tags"] = tags;
  info["notes"] = Json(run.notes);
  info["kind"] = Json(run.kind);
  doc["run"] = info;
  try {
    doc["config"] = parse_json_strict(run.config_json);
  } catch (const JsonError&) {
    doc["config"] = Json(run.config_json);
  }
  Json stages = Json::array();
  for (const auto& stage : store.stages(run.id)) {
    Json row = Json::object();
    row["stage"] = Json(stage.stage);
    row["index"] = Json(stage.index);
    row["status"] = Json(stage.status);
    row["total_steps"] = Json(stage.total_steps);
    row["last_step"] = Json(stage.last_step);
    row["started_at"] = Json(stage.started_at);
    row["ended_at"] = stage.ended_at.empty() ? Json() : Json(stage.ended_at);
    stages.push_back(row);
  }
  doc["stages"] = stages;
  Json metrics = Json::array();
  for (const MetricRow& metric : store.metrics(run.id)) {
    Json row = Json::object();
    row["stage"] = Json(metric.stage);
    row["step"] = Json(metric.step);
    row["key"] = Json(metric.key);
    row["block"] = metric.block >= 0 ? Json(metric.block) : Json();
    row["value"] = Json(metric.value);  // NaN is written as null
    metrics.push_back(row);
  }
  doc["metrics"] = metrics;
  Json evaluations = Json::object();
  for (const auto& [key, value] : store.evaluations(run.id)) evaluations[key] = Json(value);
  doc["evaluations"] = evaluations;
  Json artifacts = Json::array();
  for (const auto& artifact : store.artifacts(run.id)) {
    Json row = Json::object();
    row["kind"] = Json(artifact.kind);
    row["path"] = Json(artifact.path);
    row["sha256"] = Json(artifact.sha256);
    row["bytes"] = Json(artifact.bytes);
    artifacts.push_back(row);
  }
  doc["artifacts"] = artifacts;
  if (run.kind == "benchmark") {
    const auto number = [](double v) { return std::isnan(v) ? Json() : Json(v); };
    Json points = Json::array();
    for (const auto& p : store.benchmark_points(run.id)) {
      Json row = Json::object();
      row["benchmark"] = Json(p.benchmark);
      row["preset"] = Json(p.preset);
      row["resolution"] = Json(p.resolution);
      row["tokens"] = Json(p.tokens);
      row["mode"] = Json(p.mode);
      row["batch"] = Json(p.batch);
      row["gflops"] = number(p.gflops);
      row["gflops_attention_only"] = number(p.gflops_attention_only);
      row["gflops_measured"] = number(p.gflops_measured);
      row["peak_mb"] = number(p.peak_mb);
      row["peak_alloc_mb"] = number(p.peak_alloc_mb);
      row["ms_per_img"] = number(p.ms_per_img);
      row["imgs_per_s"] = number(p.imgs_per_s);
      row["ran"] = Json(p.ran);
      row["note"] = Json(p.note);
      try {
        row["extra"] = parse_json_strict(p.extra_json);
      } catch (const JsonError&) {
        row["extra"] = Json(p.extra_json);
      }
      points.push_back(row);
    }
    doc["benchmark_points"] = points;
  }
  return doc;
}

int export_run(const RunsOptions& o, std::ostream& out) {
  const std::string& format = o.format;
  if (format != "csv" && format != "json") throw UsageError("--format must be csv or json");
  RunStore store = open_for_reading(database_path(o));
  const RunInfo run = resolve_run(store, o.run);

  std::ofstream file;
  const std::string& output = o.output;
  if (!output.empty()) {
    file.open(output, std::ios::binary | std::ios::trunc);
    if (!file) throw std::runtime_error("cannot write " + output);
  }
  std::ostream& sink = output.empty() ? out : file;
  if (format == "csv") {
    write_csv(store, run, sink);
  } else {
    sink << run_as_json(store, run).dump(2) << "\n";
  }
  sink.flush();
  if (!sink)
    throw std::runtime_error("writing " + (output.empty() ? "stdout" : output) + " failed");
  if (!output.empty()) std::cerr << "wrote run " << run.id << " to " << output << "\n";
  return 0;
}

bool confirmed(const std::string& question, std::ostream& out) {
  out << question << " [y/N] " << std::flush;
  std::string answer;
  if (!std::getline(std::cin, answer)) return false;
  std::transform(answer.begin(), answer.end(), answer.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return answer == "y" || answer == "yes";
}

int delete_run(const RunsOptions& o, std::ostream& out) {
  RunStore store = open_for_writing(database_path(o));
  const RunInfo run = resolve_run(store, o.run);
  const size_t artifact_count = store.artifacts(run.id).size();
  if (!o.yes && !confirmed("Delete run " + std::to_string(run.id) + " (" + run.name + ") and its " +
                               std::to_string(artifact_count) + " artifacts?",
                           out)) {
    out << "not deleted\n";
    return 1;
  }
  const auto removed = store.delete_run(run.id);
  out << "deleted run " << run.id << " (" << run.name << "); removed " << removed.size() << " of "
      << artifact_count << " artifact files";
  if (removed.size() < artifact_count) out << " (the others are missing or shared with other runs)";
  out << "\n";
  return 0;
}

int tag_run(const RunsOptions& o, std::ostream& out) {
  RunStore store = open_for_writing(database_path(o));
  const RunInfo run = resolve_run(store, o.run);
  const std::string& tag = o.text;
  if (o.remove) {
    store.remove_tag(run.id, tag);
  } else {
    store.add_tag(run.id, tag);
  }
  out << "run " << run.id << " tags: " << join(store.find_run(run.id)->tags, ", ") << "\n";
  return 0;
}

int note_run(const RunsOptions& o, std::ostream& out) {
  RunStore store = open_for_writing(database_path(o));
  const RunInfo run = resolve_run(store, o.run);
  store.set_notes(run.id, o.text);
  out << "run " << run.id << " notes set\n";
  return 0;
}

int rename_run(const RunsOptions& o, std::ostream& out) {
  RunStore store = open_for_writing(database_path(o));
  const RunInfo run = resolve_run(store, o.run);
  store.rename_run(run.id, o.text);
  out << "run " << run.id << " renamed from " << run.name << " to " << o.text << "\n";
  return 0;
}

int check_database(const RunsOptions& o, std::ostream& out) {
  RunStore store = open_for_reading(database_path(o));
  const std::string findings = store.integrity_check();
  out << store.path() << ": " << findings << "\n";
  return findings == "ok" ? 0 : 1;
}

int bench_store(const RunsOptions& o, std::ostream& out) {
  const int64_t metrics = o.metrics;
  const int64_t batch = o.batch;
  const bool own_file = o.db.empty();
  const std::string path = own_file
                               ? (fs::temp_directory_path() /
                                  ("adala-store-bench-" + std::to_string(getpid()) + ".sqlite"))
                                     .string()
                               : o.db;
  store::MetricWriteBenchmark result;
  try {
    result = store::run_metric_write_benchmark(path, metrics, static_cast<int>(batch));
  } catch (...) {
    if (own_file) {
      for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(path + suffix);
    }
    throw;
  }
  if (own_file) {
    for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(path + suffix);
  }
  out << fmt::format(
      "{} metrics in {} flushes of {}: {:.3f} s, {:.0f} metrics/s\n"
      "  add_metric {:.2f} us, flush (one commit of {}) {:.1f} us\n",
      result.metrics, result.flushes, result.batch, result.seconds, result.metrics_per_second,
      result.seconds_per_add * 1e6, result.batch, result.seconds_per_flush * 1e6);
  if (o.step_ms > 0) {
    out << fmt::format(
        "overhead on a {:.3f} ms step: {:.4f}% flushing every step, {:.4f}% with "
        "flush_if_due() every 250 ms\n",
        o.step_ms, 100.0 * result.overhead(o.step_ms / 1e3),
        100.0 * result.overhead(o.step_ms / 1e3, 0.25));
  }
  return 0;
}

const char* const kSubcommands =
    "list, show, compare, export, delete, tag, note, rename, check, bench";

// The sub-commands and their options, each bound to o.
void declare_runs_options(CLI::App& app, RunsOptions& o) {
  app.require_subcommand(1);
  const auto add_db = [&](CLI::App& sub) {
    sub.add_option("--db", o.db, "the run database (default: " + RunStore::default_path() + ")");
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
  RunsOptions o;
  declare_runs_options(app, o);
  if (args.empty()) {
    out << app.help();
    return 2;
  }
  if (args[0].rfind("-", 0) != 0 && !has_subcommand(app, args[0]))
    throw UsageError("unknown runs command \"" + args[0] + "\" (" + kSubcommands + ")");
  if (!parse_command_line(app, args)) return 0;
  const std::string command = chosen_subcommand(app)->get_name();
  if (command == "list") return list_runs(o, out);
  if (command == "show") return show_run(o, out);
  if (command == "compare") return compare_runs(o, out);
  if (command == "export") return export_run(o, out);
  if (command == "delete") return delete_run(o, out);
  if (command == "tag") return tag_run(o, out);
  if (command == "note") return note_run(o, out);
  if (command == "rename") return rename_run(o, out);
  if (command == "check") return check_database(o, out);
  return bench_store(o, out);
}

}  // namespace adala::cli
