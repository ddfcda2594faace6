// The trained attention plans of `adala plan`: their table and the frontier of top-1 against
// latency and peak memory.
#include "engine/report/report_document_parts.h"
#include "engine/report/report_text.h"

namespace adala::report::detail {

// The trained attention plans: one row per plan at the largest resolution where each has
// a cost (cheapest first, the frontier marked), and top-1 against ms / image and against peak
// memory with the frontier drawn as steps.
void DocumentBuilder::plans() {
  const PlanSummary& summary = m_.plans;
  if (summary.empty()) return;
  ReportSection& s = add_section("plans", tr("Attention plans"));
  const int64_t res = summary.resolutions.empty() ? 0 : summary.resolutions.back();
  const std::string session = summary.planner.empty()
                                  ? tr("every planning session of the database")
                                  : arg(tr("the planning session \"%1\""), {summary.planner});
  paragraph(s, arg(tr("%1 trained attention plans of %2: which blocks keep softmax attention "
                      "(S), run window + linear attention (W) or linear attention (L), block 0 "
                      "first."),
                   {std::to_string(summary.points.size()), session}));
  if (res > 0)
    paragraph(s, arg(tr("Inference cost at %1 px, batch 1; the frontier (✓) holds the plans no "
                        "other plan beats on both top-1 and ms / image."),
                     {std::to_string(res)}));
  else
    notice(s, tr("The plans share no resolution at which each has a cost: no frontier."));
  plans_table(s, summary, res);
  if (res <= 0) return;
  plans_frontier(s, summary.points, res);
}

// One row per plan, cheapest first; a Session column when the plans come from several.
void DocumentBuilder::plans_table(ReportSection& s, const PlanSummary& summary, int64_t res) {
  const std::vector<PlanPoint>& pts = summary.points;
  const bool sessions = summary.planner.empty() && plan_planners(pts).size() > 1;
  ReportTable t;
  t.header = {tr("Plan"),       tr("Blocks"),           tr("Top-1"), tr("Gap to teacher"),
              tr("ms / image"), tr("Peak memory (MB)"), tr("Run"),   tr("Frontier")};
  t.numeric = {false, false, true, true, true, true, false, false};
  if (sessions) {
    t.header.insert(t.header.begin() + 1, tr("Session"));
    t.numeric.insert(t.numeric.begin() + 1, false);
  }
  const std::vector<PlanRow> rows = plan_rows(pts, res, FrontierCost::MsPerImage);
  for (const auto& row : rows) {
    const PlanPoint& p = pts[row.index];
    const PlanCost* c = p.cost_at(res);
    Row cells = {p.name,
                 plan_strip(p.modes),
                 pct(p.top1),
                 points(row.gap_points),
                 c ? num(cost_value(*c, FrontierCost::MsPerImage), 3) : Text(),
                 c ? num(cost_value(*c, FrontierCost::PeakBytes) / 1e6, 3) : Text(),
                 id_label(p.run),
                 row.on_frontier ? Text("✓") : Text()};
    if (sessions) cells.insert(cells.begin() + 1, p.planner);
    t.rows.push_back(cells);
  }
  table(s, t);
}

// Top-1 of every plan against one cost at `res`, with the frontier as steps; no series when
// no plan has both.
LineChart DocumentBuilder::plan_cost_panel(const std::vector<PlanPoint>& pts, int64_t res,
                                           FrontierCost axis) const {
  const bool ms = axis == FrontierCost::MsPerImage;
  LineChart c;
  c.title = ms ? tr("Top-1 against latency") : tr("Top-1 against peak memory");
  c.x_label =
      arg(ms ? tr("ms / image at %1 px") : tr("peak memory (MB) at %1 px"), {std::to_string(res)});
  c.y_label = tr("top-1 (%)");
  const double divisor = ms ? 1.0 : 1e6;  // peak memory in MB
  ChartSeries all;
  all.name = tr("plans");
  all.color = mode_color(kLinearMode);
  all.style = ChartSeries::Style::Points;
  for (const auto& p : pts) {
    const PlanCost* cost = p.cost_at(res);
    const double x = cost ? cost_value(*cost, axis) / divisor : kNaN;
    if (!finite(x) || !finite(p.top1)) continue;
    all.x.push_back(x);
    all.y.push_back(100.0 * p.top1);
    all.labels.push_back(p.name);
  }
  ChartSeries frontier;
  frontier.name = tr("frontier");
  frontier.color = mode_color(kSoftmaxMode);
  frontier.style = ChartSeries::Style::Steps;
  for (size_t i : pareto_frontier(pts, res, axis)) {
    frontier.x.push_back(cost_value(*pts[i].cost_at(res), axis) / divisor);
    frontier.y.push_back(100.0 * pts[i].top1);
  }
  if (!all.x.empty()) c.series = {frontier, all};
  return c;
}

void DocumentBuilder::plans_frontier(ReportSection& s, const std::vector<PlanPoint>& pts,
                                     int64_t res) {
  std::vector<LineChart> panels;
  for (FrontierCost axis : {FrontierCost::MsPerImage, FrontierCost::PeakBytes}) {
    LineChart c = plan_cost_panel(pts, res, axis);
    if (!c.series.empty()) panels.push_back(c);
  }
  if (panels.empty()) return;
  ChartStyle style = o_.chart;
  if (panels.size() > 1) style.size.height = int(o_.chart.size.height * 0.9);
  line_figure(s, std::move(panels), 2, style,
              tr("Top-1 of each trained plan against its inference cost; the line steps "
                 "through the frontier."),
              "plan-frontier");
}

}  // namespace adala::report::detail
