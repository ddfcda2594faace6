// `adala runs export`: a run's metrics (a benchmark run: its points) as CSV, or the whole run
// as JSON.
#include <cmath>
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "app/cli/arg_parser.h"
#include "app/cli/runs_common.h"
#include "app/cli/table_cells.h"
#include "engine/json/json.h"

namespace adala::cli::runs {

namespace {

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

// The text as JSON, or (not JSON) as one string.
Json json_or_text(const std::string& text) {
  try {
    return parse_json_strict(text);
  } catch (const JsonError&) {
    return Json(text);
  }
}

Json run_info_json(const RunInfo& run) {
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
  return info;
}

Json stages_json(RunStore& store, int64_t run) {
  Json stages = Json::array();
  for (const auto& stage : store.stages(run)) {
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
  return stages;
}

Json metrics_json(RunStore& store, int64_t run) {
  Json metrics = Json::array();
  for (const MetricRow& metric : store.metrics(run)) {
    Json row = Json::object();
    row["stage"] = Json(metric.stage);
    row["step"] = Json(metric.step);
    row["key"] = Json(metric.key);
    row["block"] = metric.block >= 0 ? Json(metric.block) : Json();
    row["value"] = Json(metric.value);  // NaN is written as null
    metrics.push_back(row);
  }
  return metrics;
}

Json artifacts_json(RunStore& store, int64_t run) {
  Json artifacts = Json::array();
  for (const auto& artifact : store.artifacts(run)) {
    Json row = Json::object();
    row["kind"] = Json(artifact.kind);
    row["path"] = Json(artifact.path);
    row["sha256"] = Json(artifact.sha256);
    row["bytes"] = Json(artifact.bytes);
    artifacts.push_back(row);
  }
  return artifacts;
}

Json benchmark_point_json(const store::BenchmarkPoint& p) {
  const auto number = [](double v) { return std::isnan(v) ? Json() : Json(v); };
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
  row["extra"] = json_or_text(p.extra_json);
  return row;
}

Json run_as_json(RunStore& store, const RunInfo& run) {
  Json doc = Json::object();
  doc["run"] = run_info_json(run);
  doc["config"] = json_or_text(run.config_json);
  doc["stages"] = stages_json(store, run.id);
  doc["metrics"] = metrics_json(store, run.id);
  Json evaluations = Json::object();
  for (const auto& [key, value] : store.evaluations(run.id)) evaluations[key] = Json(value);
  doc["evaluations"] = evaluations;
  doc["artifacts"] = artifacts_json(store, run.id);
  if (run.kind == "benchmark") {
    Json points = Json::array();
    for (const auto& p : store.benchmark_points(run.id)) points.push_back(benchmark_point_json(p));
    doc["benchmark_points"] = points;
  }
  return doc;
}

}  // namespace

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

}  // namespace adala::cli::runs
