// `adala runs compare`: final metrics, evaluations and config differences of two or more runs.
#include <algorithm>
#include <map>
#include <set>

#include "app/cli/arg_parser.h"
#include "app/cli/runs_common.h"
#include "engine/json/json.h"

namespace adala::cli::runs {

namespace {

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

// One section of the comparison: a row per key, a column per run ("-" where a run has no
// value); with differences_only, only the keys whose values differ.
void print_section(std::ostream& out, const std::vector<std::string>& header,
                   const std::string& title,
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
}

}  // namespace

int compare_runs(const RunsOptions& o, std::ostream& out) {
  if (o.runs.size() < 2) throw UsageError("compare needs at least two RUNs");
  RunStore store = open_for_reading(database_path(o));
  std::vector<RunInfo> runs;
  for (const auto& id_or_name : o.runs) runs.push_back(resolve_run(store, id_or_name));

  std::vector<std::string> header = {""};
  for (const auto& run : runs) header.push_back("run " + std::to_string(run.id) + " " + run.name);

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
  print_section(out, header, "runs", summary, false);
  out << "\n";
  print_section(out, header, "final metrics (value at the last step)", metrics, false);
  out << "\n";
  print_section(out, header, "evaluations", evaluations, false);
  out << "\n";
  print_section(out, header, "config differences", configs, true);
  return 0;
}

}  // namespace adala::cli::runs
