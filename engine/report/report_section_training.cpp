// How the runs trained: the stages with their loss curves, the per-block alignment error of
// Stages 1 and 2, and the numerical health of linear attention.
#include <algorithm>
#include <cmath>

#include "engine/report/report_document_parts.h"
#include "engine/report/report_text.h"
#include "engine/train/stage_catalog.h"

namespace adala::report::detail {

void DocumentBuilder::stages() {
  bool any = false;
  for (const auto& r : m_.runs) any = any || !r.stages.empty();
  if (!any) return;
  ReportSection& s = add_section("stages", tr("Training stages"));
  for (const auto& r : m_.runs) {
    if (r.stages.empty()) continue;
    if (m_.comparison()) subheading(s, r.label());
    ReportTable t;
    // Training time leaves out pauses and the gap between a cancel and the resume; the wall
    // time (first start to last end) keeps them.
    t.header = {tr("Stage"),         tr("Status"),     tr("Steps"),
                tr("Training time"), tr("Wall time"),  tr("Final loss"),
                tr("Best loss"),     tr("Train acc."), tr("Images/s")};
    t.numeric = {false, false, true, true, true, true, true, true, true};
    t.widths = {28};  // the stage name on one line
    for (const auto& st : r.stages) {
      const std::string steps =
          st.total_steps > 0 ? arg(tr("%1 of %2"), {integer(std::max<int64_t>(st.last_step, 0)),
                                                    integer(st.total_steps)})
                             : (st.last_step >= 0 ? integer(st.last_step) : std::string());
      t.rows.push_back(
          {stage_title(st.stage), status_text(st.status), steps,
           finite(st.compute_seconds) ? format_duration(loc_, st.compute_seconds) : std::string(),
           finite(st.seconds) ? format_duration(loc_, st.seconds) : std::string(),
           num(st.final_loss), num(st.best_loss), pct(st.final_train_acc),
           finite(st.mean_images_per_second) ? to_fixed(loc_, st.mean_images_per_second, 1)
                                             : std::string()});
    }
    drop_empty_columns(t, {3, 4, 5, 6, 7, 8});
    table(s, t);
  }
  // Loss curves: one panel per stage, one curve per run.
  std::vector<LineChart> panels;
  for (const std::string& stage : stage_names()) {
    LineChart c;
    c.title = stage_title(stage);
    c.x_label = tr("step");
    c.y_label = tr("loss");
    for (const auto& r : m_.runs)
      if (const auto* st = r.stage(stage); st && !st->loss.empty())
        c.series.push_back(to_series(r.label(), st->loss, c.series.size()));
    if (c.series.empty()) continue;
    double lo = INFINITY, hi = 0;
    for (const auto& ser : c.series)
      for (double v : ser.y)
        if (finite(v) && v > 0) {
          lo = std::min(lo, v);
          hi = std::max(hi, v);
        }
    c.log_y = hi > 0 && lo > 0 && hi / lo > 20;
    panels.push_back(c);
  }
  if (!panels.empty()) {
    const ChartStyle style = grid_style(panels.size());
    const int columns = panels.size() == 1 ? 1 : 2;
    line_figure(
        s, std::move(panels), columns, style,
        m_.comparison() ? tr("Training loss per stage, all runs.") : tr("Training loss per stage."),
        "loss");
  }
}

void DocumentBuilder::block_mse() {
  bool any = false;
  for (const auto& r : m_.runs) any = any || r.has_block_mse();
  if (!any) return;
  ReportSection& s = add_section("block-mse", tr("Per-block alignment error"));
  paragraph(s,
            tr("Stage 1 compares each block's linear attention output with the teacher's softmax "
               "attention; Stage 2 compares each block's hidden states with the teacher's. "
               "Lower is better."));
  for (const std::string stage : {stage_name(1), stage_name(2)}) {
    std::vector<const ReportRun*> with;
    for (const auto& r : m_.runs)
      if (const auto* st = r.stage(stage); st && !st->block_mse.empty()) with.push_back(&r);
    if (with.empty()) continue;
    const std::string what = stage == stage_name(1) ? tr("attention MSE") : tr("hidden-state MSE");
    subheading(s, stage_title(stage));
    block_mse_curves(s, stage, with, what);
    block_mse_final(s, stage, with, what);
  }
}

// Each run's per-block curves over the steps of the stage.
void DocumentBuilder::block_mse_curves(ReportSection& s, const std::string& stage,
                                       const std::vector<const ReportRun*>& with,
                                       const std::string& what) {
  for (const ReportRun* r : with) {
    const StageSummary* st = r->stage(stage);
    LineChart c;
    c.title = m_.comparison() ? r->label() + " — " + what : what;
    c.x_label = tr("step");
    c.y_label = what;
    c.log_y = true;
    for (const auto& [block, curve] : st->block_mse)
      c.series.push_back(
          to_series(arg(tr("block %1"), {std::to_string(block)}), curve, c.series.size()));
    line_figure(s, {c}, 1, o_.chart,
                arg(tr("%1 per block over the steps of %2 (run %3)."),
                    {what, stage_title(stage), r->label()}),
                "block-mse-" + stage + "-run" + std::to_string(r->id));
  }
}

// Final value of every block, runs side by side: a bar chart, then the table.
void DocumentBuilder::block_mse_final(ReportSection& s, const std::string& stage,
                                      const std::vector<const ReportRun*>& with,
                                      const std::string& what) {
  BarChart bars;
  bars.title = arg(tr("Final %1 per block"), {what});
  bars.x_label = tr("block");
  bars.y_label = what;
  int blocks = 0;
  for (const ReportRun* r : with)
    blocks = std::max(blocks, r->stage(stage)->block_mse.rbegin()->first + 1);
  for (int b = 0; b < blocks; ++b) bars.categories.push_back(std::to_string(b));
  double lo = INFINITY, hi = 0;
  ReportTable t;
  t.header.push_back(tr("Block"));
  for (const ReportRun* r : with)
    t.header.push_back(m_.comparison() ? r->label() : arg(tr("Final %1"), {what}));
  t.numeric = std::vector<bool>(t.header.size(), true);
  std::vector<Row> rows(size_t(std::max(blocks, 0)));
  for (int b = 0; b < blocks; ++b) rows[size_t(b)].push_back(std::to_string(b));
  for (const ReportRun* r : with) {
    ChartSeries g;
    g.name = r->label();
    g.color = palette_color(bars.groups.size());
    const auto& per_block = r->stage(stage)->block_mse;
    for (int b = 0; b < blocks; ++b) {
      const auto it = per_block.find(b);
      const double v = it != per_block.end() && !it->second.empty() ? it->second.back().value : NAN;
      g.y.push_back(v);
      rows[size_t(b)].push_back(num(v));
      if (finite(v) && v > 0) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
    }
    bars.groups.push_back(g);
  }
  bars.log_y = hi > 0 && lo > 0 && hi / lo > 50;
  ChartStyle style = o_.chart;
  style.size.height = int(o_.chart.size.height * 0.8);
  bar_figure(s, std::move(bars), style,
             arg(tr("Final %1 of every block (%2)."), {what, stage_title(stage)}),
             "final-block-mse-" + stage);
  t.rows = rows;
  table(s, t);
}

// One row per stage with health metrics: precision, smallest normaliser, largest share below
// the threshold, non-finite counts, largest |activation| (each with its block), skipped steps.
void DocumentBuilder::numerical_health() {
  bool any = false;
  for (const auto& r : m_.runs) any = any || r.has_health();
  if (!any) return;
  ReportSection& s = add_section("numerical-health", tr("Numerical health"));
  paragraph(s, tr("Linear attention divides by the normaliser phi(q) · Σ phi(k) + eps; in bf16 or "
                  "fp16 it is where NaNs start. Worst values over every logged step, with the "
                  "block where they occurred."));
  ReportTable t;
  if (m_.comparison()) t.header.push_back(tr("Run"));
  for (const Text& h :
       {tr("Stage"), tr("Precision"), tr("Smallest normaliser"), tr("Share below threshold"),
        tr("Non-finite (attention / block / gradient)"), tr("Largest |activation|"),
        tr("Skipped steps")})
    t.header.push_back(h);
  t.numeric = std::vector<bool>(t.header.size(), true);
  t.numeric[0] = false;
  if (m_.comparison()) t.numeric[1] = false;
  auto at_block = [&](const Text& value, int block) {
    return value.empty() || block < 0 ? value
                                      : arg(tr("%1 (block %2)"), {value, std::to_string(block)});
  };
  for (const auto& r : m_.runs)
    for (const auto& st : r.stages) {
      if (!st.health.any) continue;
      const HealthSummary& h = st.health;
      Row row;
      if (m_.comparison()) row.push_back(r.label());
      row.push_back(stage_title(st.stage));
      const auto p = r.config.find("stages." + st.stage + ".precision");
      row.push_back(p == r.config.end() ? std::string("fp32") : p->second);
      row.push_back(at_block(num(h.min_normaliser), h.min_normaliser_block));
      row.push_back(at_block(pct(h.max_low_share), h.max_low_share_block));
      row.push_back(integer(int64_t(h.attention_nonfinite)) + " / " +
                    integer(int64_t(h.activation_nonfinite)) + " / " +
                    integer(int64_t(h.grad_nonfinite)));
      row.push_back(at_block(num(h.max_abs_activation), h.max_abs_block));
      const auto skipped = r.evaluations.find(st.stage + "/skipped_steps");
      row.push_back(skipped == r.evaluations.end() ? std::string()
                                                   : integer(int64_t(skipped->second)));
      t.rows.push_back(row);
    }
  table(s, t);
}

}  // namespace adala::report::detail
