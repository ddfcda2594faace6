// The helpers `adala runs`' sub-commands share: opening the database, cells and tables.
#include "app/cli/runs_common.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <functional>
#include <iostream>
#include <optional>

#include <fmt/format.h>

#include "app/cli/arg_parser.h"

namespace adala::cli::runs {

namespace fs = std::filesystem;

namespace {

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

std::string series_name(const MetricRow& metric) {
  return metric.stage + "/" + metric.key +
         (metric.block >= 0 ? "[" + std::to_string(metric.block) + "]" : "");
}

void require_existing(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    throw StoreError(StoreErrorKind::NotFound, "no run database at " + path +
                                                   " (runs are recorded by `adala run`; "
                                                   "choose another file with --db)");
  }
}

}  // namespace

std::string format_number(double value) {
  if (std::isnan(value)) return "nan";
  return fmt::format("{:.6g}", value);
}

std::string short_time(const std::string& iso) {
  if (iso.size() < 19) return iso.empty() ? "-" : iso;
  std::string shown = iso.substr(0, 19);
  shown[10] = ' ';
  return shown;
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

void print_table(std::ostream& out, const std::vector<std::vector<std::string>>& rows,
                 const std::string& indent) {
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

std::string shortest_number(double value) {
  std::string text;
  for (int precision = 1; precision <= 17; ++precision) {
    text = fmt::format("{:.{}g}", value, precision);
    // The shortest text that reads back as the same double, bit for bit.
    if (std::equal_to<double>()(std::strtod(text.c_str(), nullptr), value)) break;
  }
  return text;
}

std::string database_path(const RunsOptions& o) {
  return o.db.empty() ? RunStore::default_path() : o.db;
}

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

}  // namespace adala::cli::runs
