// Resolution scaling: each run's scaling tables (engine/bench/scaling_csv.h) as tables and
// cost-against-resolution charts, with a notice when the machine's rate moved.
#include <cmath>
#include <map>

#include "engine/measure/rate_range.h"
#include "engine/report/report_document_parts.h"
#include "engine/report/report_text.h"

namespace adala::report::detail {

void DocumentBuilder::scaling() {
  bool any = false;
  for (const auto& r : m_.runs) any = any || !r.scaling.empty();
  if (!any) return;
  ReportSection& s = add_section("scaling", tr("Resolution scaling"));
  for (const auto& r : m_.runs) {
    for (const auto& data : r.scaling) {
      if (m_.comparison() || r.scaling.size() > 1)
        subheading(s, r.label() + " — " + file_name(data.artifact.path));
      if (!data.problem.empty()) {
        notice(s, arg(data.artifact.exists ? tr("Scaling table could not be read: %1")
                                           : tr("Scaling table is missing: %1"),
                      {data.artifact.path}));
        continue;
      }
      scaling_table(s, r, data.table);
    }
  }
}

// The reference matmul's rate over the benchmark (engine/measure/rate_range.h): a run whose
// rate moved by more than kUnsteadyRateMove is named under its table.
void DocumentBuilder::unsteady_rate_notice(ReportSection& s, const CsvTable& csv) {
  const int lo = csv.column("matmul_gflops_min"), hi = csv.column("matmul_gflops_max");
  if (lo < 0 || hi < 0) return;
  RateRange range;
  for (const auto& row : csv.rows) {
    double v = 0;
    for (int col : {lo, hi})
      if (size_t(col) < row.size() && parse_double(row[size_t(col)], &v)) range.add(v);
  }
  if (!range.unsteady()) return;
  notice(s, arg(tr("Unsteady machine: the reference matmul rate moved %1 % during this "
                   "benchmark (%2 to %3 GFLOP/s), more than the %4 % a trusted run allows. "
                   "Ratios between these rows are not to be trusted; measure again."),
                {format_number(loc_, 100.0 * range.moved(), 3), format_number(loc_, range.lo, 3),
                 format_number(loc_, range.hi, 3),
                 format_number(loc_, 100.0 * kUnsteadyRateMove, 2)}));
}

void DocumentBuilder::scaling_table(ReportSection& s, const ReportRun& r, const CsvTable& csv) {
  table(s, scaling_csv_table(csv));
  unsteady_rate_notice(s, csv);
  scaling_figure(s, r, csv);
}

// The table's known columns under translated titles (empty optional ones dropped), numbers in
// the locale; a table of another layout as it is.
ReportTable DocumentBuilder::scaling_csv_table(const CsvTable& csv) const {
  struct Column {
    const char* key;
    std::string title;
    bool numeric;
  };
  const std::vector<Column> wanted = {
      {"preset", tr("Model"), false},
      {"resolution", tr("Resolution"), true},
      {"tokens", tr("Tokens"), true},
      {"mode", tr("Attention"), false},
      {"batch", tr("Batch"), true},
      {"gmacs_model", tr("GMACs"), true},
      {"ms_per_img", tr("ms / image"), true},
      {"imgs_per_s", tr("Images/s"), true},
      {"peak_rss_mb", tr("Peak memory (MB)"), true},
      {"train_ms", tr("Training step (ms)"), true},
      {"note", tr("Note"), false},
  };
  ReportTable t;
  std::vector<size_t> source, optional;
  for (const auto& c : wanted) {
    const int i = csv.column(c.key);
    if (i < 0) continue;
    if (source.size() >= 3) optional.push_back(source.size());
    source.push_back(size_t(i));
    t.header.push_back(c.title);
    t.numeric.push_back(c.numeric);
  }
  if (source.empty()) {  // an unknown layout: show it as it is
    t.header = csv.header;
    t.numeric = std::vector<bool>(csv.header.size(), false);
    for (size_t i = 0; i < csv.header.size(); ++i) source.push_back(i);
  }
  for (const auto& row : csv.rows) {
    Row cells;
    for (size_t k = 0; k < source.size(); ++k) {
      std::string v = source[k] < row.size() ? row[source[k]] : std::string();
      double d = 0;
      if (t.numeric[k] && parse_double(v, &d))
        v = std::abs(d - std::round(d)) < 1e-9 && std::abs(d) < 1e12 ? integer(std::llround(d))
                                                                     : format_number(loc_, d, 4);
      cells.push_back(v);
    }
    t.rows.push_back(cells);
  }
  drop_empty_columns(t, optional);
  return t;
}

// Latency, peak memory, GMACs and throughput against the resolution, one series per
// attention mode; nothing without the resolution and mode columns.
void DocumentBuilder::scaling_figure(ReportSection& s, const ReportRun& r, const CsvTable& csv) {
  const int res = csv.column("resolution"), mode = csv.column("mode");
  if (res < 0 || mode < 0) return;
  auto cell = [](const Row& row, int i) {
    return i >= 0 && size_t(i) < row.size() ? row[size_t(i)] : std::string();
  };
  struct Metric {
    const char* key;
    std::string title;
    bool log;
  };
  const std::vector<Metric> metrics = {{"ms_per_img", tr("Latency (ms / image)"), true},
                                       {"peak_rss_mb", tr("Peak memory (MB)"), true},
                                       {"gmacs_model", tr("GMACs (whole model)"), true},
                                       {"imgs_per_s", tr("Throughput (images/s)"), true}};
  std::vector<LineChart> panels;
  for (const auto& m : metrics) {
    const int col = csv.column(m.key);
    if (col < 0) continue;
    LineChart c;
    c.title = m.title;
    c.x_label = tr("resolution (pixels)");
    c.y_label = m.title;
    c.log_y = m.log;
    std::map<std::string, ChartSeries> by_mode;
    for (const auto& row : csv.rows) {
      double x = 0, y = 0;
      if (!parse_double(cell(row, res), &x) || !parse_double(cell(row, col), &y)) continue;
      auto& ser = by_mode[cell(row, mode)];
      ser.name = cell(row, mode);
      ser.x.push_back(x);
      ser.y.push_back(y);
    }
    for (auto& [name, ser] : by_mode) {
      ser.color = mode_color(name);  // the workbench's colour for this mode
      c.series.push_back(ser);
    }
    if (!c.series.empty()) panels.push_back(c);
  }
  if (panels.empty()) return;
  const ChartStyle style = grid_style(panels.size());
  const int columns = panels.size() == 1 ? 1 : 2;
  line_figure(
      s, std::move(panels), columns, style,
      arg(tr("Cost of softmax and linear attention as the input resolution grows (run %1)."),
          {r.label()}),
      "scaling-run" + std::to_string(r.id));
}

}  // namespace adala::report::detail
