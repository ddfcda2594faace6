#include "engine/report/report_document.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>

#include "engine/analysis/rate_range.h"
#include "engine/report/report_i18n.h"
#include "engine/report/report_text.h"
#include "engine/report/sweep_columns.h"
#include "engine/train/stage_catalog.h"

namespace adala::report {

namespace {

// The stage table's titles, marked for lupdate in the report's context (stage_title
// translates the table's text; tests/report checks that these are the table's titles).
[[maybe_unused]] constexpr const char* kStageTitleMarks[] = {
    ADALA_REPORT_TRANSLATE_NOOP("AdalaReport", "Stage 0 · teacher pretraining"),
    ADALA_REPORT_TRANSLATE_NOOP("AdalaReport", "Stage 1 · attention alignment"),
    ADALA_REPORT_TRANSLATE_NOOP("AdalaReport", "Stage 2 · feature alignment"),
    ADALA_REPORT_TRANSLATE_NOOP("AdalaReport", "Stage 3 · fine-tuning"),
};

bool finite(double v) { return std::isfinite(v); }

// Whether a logarithmic y axis reads better than a linear one: the positive values span at
// least 30x (about one and a half decades). The chart is drawn with the axis decided here and
// its caption says so, so the words and the picture agree.
bool spans_decades(const std::vector<ChartSeries>& series) {
  double lo = INFINITY, hi = 0;
  for (const auto& ser : series)
    for (double v : ser.y)
      if (std::isfinite(v) && v > 0) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
  return hi > 0 && lo > 0 && hi / lo >= 30;
}

std::string slug(const std::string& text) {
  std::string s;
  for (char c : to_lower_ascii(text)) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (keep)
      s += c;
    else if (s.empty() || s.back() != '-')
      s += '-';
  }
  while (!s.empty() && s.front() == '-') s.erase(s.begin());
  while (!s.empty() && s.back() == '-') s.pop_back();
  return s.substr(0, 40);
}

std::string section_part(const std::string& key, int part) {  // QString::section('/', part, part)
  const size_t slash = key.find('/');
  if (part == 0) return key.substr(0, slash);
  return slash == std::string::npos ? std::string() : key.substr(slash + 1);
}

bool is_fraction_key(const std::string& key) {
  const std::string name = to_lower_ascii(section_part(key, 1));
  return contains(name, "top1") || contains(name, "top5") || contains(name, "acc") ||
         contains(name, "miou") || contains(name, "iou");
}

// Evaluation keys in a reading order: by stage, then the known keys first.
int eval_order(const std::string& key) {
  if (key == kTeacherTop1) return 0;
  if (key == kStage2StudentTop1) return 1;
  if (key == kStudentTop1) return 2;
  const int stage = stage_index(section_part(key, 0));
  return 10 + (stage < 0 ? 9 : stage);
}

ChartSeries to_series(const std::string& name, const Curve& curve, size_t color) {
  ChartSeries s;
  s.name = name;
  s.color = palette_color(color);
  for (const auto& p : curve) {
    s.x.push_back(p.step);
    s.y.push_back(p.value);
  }
  return s;
}

// QSize::scaled(box, Qt::KeepAspectRatio).
Size scaled_into(Size size, Size box) {
  if (size.width == 0 || size.height == 0) return box;
  const int64_t rw = int64_t(box.height) * size.width / size.height;
  if (rw <= box.width) return {int(rw), box.height};
  return {box.width, int(int64_t(box.width) * size.height / size.width)};
}

template <typename T>
void erase_at(std::vector<T>& v, size_t i) {
  v.erase(v.begin() + std::ptrdiff_t(i));
}

// Columns of a table that hold something in at least one row are kept.
void drop_empty_columns(ReportTable& table, const std::vector<size_t>& optional_columns) {
  std::vector<size_t> drop;
  for (size_t c : optional_columns) {
    bool any = false;
    for (const auto& row : table.rows) any = any || (c < row.size() && !row[c].empty());
    if (!any) drop.push_back(c);
  }
  std::sort(drop.begin(), drop.end(), std::greater<size_t>());
  for (size_t c : drop) {
    if (c < table.header.size()) erase_at(table.header, c);
    if (c < table.numeric.size()) table.numeric.erase(table.numeric.begin() + std::ptrdiff_t(c));
    if (c < table.widths.size()) erase_at(table.widths, c);
    for (auto& row : table.rows)
      if (c < row.size()) erase_at(row, c);
  }
}

// lupdate reads "std::string f()" in a class as a function of namespace std: members say Text.
using Text = std::string;

std::string id_label(int64_t id) { return "#" + std::to_string(id); }

class DocumentBuilder {
  ADALA_REPORT_TR_FUNCTIONS(AdalaReport)

 public:
  DocumentBuilder(const ReportModel& model, const DocumentOptions& options)
      : m_(model), o_(options), loc_(options.locale) {}

  ReportDocument build() {
    doc_.language = loc_.name;
    doc_.title = o_.title.empty() ? default_title() : o_.title;
    doc_.meta.push_back(arg(tr("Generated %1"), {format_datetime(loc_, m_.generated.utc_msecs)}));
    if (!o_.generator.empty()) doc_.meta.push_back(arg(tr("by %1"), {o_.generator}));
    doc_.meta.push_back(arg(tr("Run database: %1"), {m_.db_path}));
    doc_.warnings = m_.warnings;

    summary();
    overview();
    configuration();
    stages();
    block_mse();
    numerical_health();
    accuracy();
    ablation();
    methods();
    plans();
    figures("attention", tr("Attention maps"), &ReportRun::attention_figures);
    segmentation();
    scaling();
    artifacts();
    return std::move(doc_);
  }

 private:
  const ReportModel& m_;
  const DocumentOptions& o_;
  const ReportLocale& loc_;
  ReportDocument doc_;

  Text default_title() const {
    if (m_.runs.size() == 1) return arg(tr("ViT-AdaLA run report: %1"), {m_.runs.front().name});
    std::vector<std::string> names;
    for (const auto& r : m_.runs) names.push_back(r.label());
    return arg(tr("ViT-AdaLA comparison: %1"), {join(names, ", ")});
  }

  ReportSection& add_section(const std::string& id, const std::string& title) {
    ReportSection s;
    s.id = id;
    s.title = title;
    doc_.sections.push_back(s);
    return doc_.sections.back();
  }

  static void add_block(ReportSection& s, ReportBlock::Kind kind, const std::string& text,
                        const std::vector<std::string>& items = {}) {
    ReportBlock b;
    b.kind = kind;
    b.text = text;
    b.items = items;
    s.blocks.push_back(b);
  }
  static void paragraph(ReportSection& s, const std::string& text) {
    add_block(s, ReportBlock::Kind::Paragraph, text);
  }
  static void subheading(ReportSection& s, const std::string& text) {
    add_block(s, ReportBlock::Kind::Subheading, text);
  }
  static void notice(ReportSection& s, const std::string& text,
                     const std::vector<std::string>& items = {}) {
    add_block(s, ReportBlock::Kind::Notice, text, items);
  }
  static void table(ReportSection& s, const ReportTable& t) {
    ReportBlock b;
    b.kind = ReportBlock::Kind::Table;
    b.table = t;
    s.blocks.push_back(b);
  }
  ReportFigure& add_figure(ReportSection& s, const std::string& caption, const std::string& name) {
    ReportFigure f;
    f.number = int(doc_.figures.size()) + 1;
    f.name = "figure-" + zero_padded(f.number, 2) + "-" + slug(name);
    f.caption = caption;
    ReportBlock b;
    b.kind = ReportBlock::Kind::Figure;
    b.figure = int(doc_.figures.size());
    doc_.figures.push_back(f);
    s.blocks.push_back(b);
    return doc_.figures.back();
  }
  void chart_figure(ReportSection& s, ChartSpec chart, const std::string& caption,
                    const std::string& name) {
    ReportFigure& f = add_figure(s, caption, name);
    f.display = chart.style.size;
    f.chart = std::move(chart);
  }
  void line_figure(ReportSection& s, std::vector<LineChart> panels, int columns,
                   const ChartStyle& style, const std::string& caption, const std::string& name) {
    ChartSpec chart;
    chart.kind = ChartSpec::Kind::Lines;
    std::vector<std::string> log_titles;
    for (auto& panel : panels) {
      panel.log_y = panel.log_y && spans_decades(panel.series);
      if (panel.log_y) log_titles.push_back(panel.title);
    }
    std::string text = caption;
    if (log_titles.size() == panels.size())
      text += " " + (panels.size() == 1 ? tr("The y axis is logarithmic.")
                                        : tr("The y axes are logarithmic."));
    else if (!log_titles.empty())
      text += " " + arg(tr("Logarithmic y axis: %1."), {join(log_titles, ", ")});
    chart.panels = std::move(panels);
    chart.columns = std::max(1, std::min(columns, int(chart.panels.size())));
    chart.style = style;
    chart_figure(s, std::move(chart), text, name);
  }
  void bar_figure(ReportSection& s, BarChart bars, const ChartStyle& style,
                  const std::string& caption, const std::string& name) {
    ChartSpec chart;
    chart.kind = ChartSpec::Kind::Bars;
    const std::string text =
        bars.log_y ? caption + " " + tr("The y axis is logarithmic.") : caption;
    chart.bars = std::move(bars);
    chart.style = style;
    chart_figure(s, std::move(chart), text, name);
  }
  void image_figure(ReportSection& s, const ImageArtifact& image, const std::string& caption,
                    const std::string& name) {
    if (!image.readable()) return;
    ReportFigure& f = add_figure(s, caption, name);
    f.image_path = image.artifact.path;
    f.image_size = image.size;
    // Pictures from files: at most the chart width and ~0.9 of its height x 1.6, ratio kept.
    const Size box{o_.chart.size.width, int(o_.chart.size.height * 1.6)};
    Size display = scaled_into(image.size, box);
    if (display.width > image.size.width && image.size.width >= 200) display = image.size;
    f.display = display;
  }

  Text num(double v, int significant = 4) const {
    return finite(v) ? format_number(loc_, v, significant) : std::string();
  }
  Text pct(double v) const { return finite(v) ? format_percent(loc_, v) : std::string(); }
  Text integer(int64_t v) const { return to_integer(loc_, v); }
  Text when(const Timestamp& t) const {
    return t.valid ? format_datetime(loc_, t.utc_msecs) : std::string();
  }
  Text points(double v) const {
    if (!finite(v)) return {};
    const std::string sign = v > 0 ? "+" : (v < 0 ? "−" : "");
    return arg(tr("%1 pt"), {sign + to_fixed(loc_, std::abs(v), 2)});
  }

  static Text status_text(const std::string& status) {
    if (status == "done") return tr("done");
    if (status == "running") return tr("running");
    if (status == "interrupted") return tr("interrupted");
    if (status == "failed") return tr("failed");
    if (status == "queued") return tr("queued");
    return status;
  }

  // A table whose first column labels the rows and which has one value column per run (one,
  // "Value", for a single run).
  ReportTable per_run_table(const Text& first) const {
    ReportTable t;
    t.header.push_back(first);
    if (m_.comparison())
      for (const auto& r : m_.runs) t.header.push_back(r.label());
    else
      t.header.push_back(tr("Value"));
    t.numeric = std::vector<bool>(t.header.size(), true);
    t.numeric[0] = false;
    return t;
  }

  static Text eval_label(const std::string& key) {
    if (key == kTeacherTop1) return tr("Teacher (softmax attention), top-1");
    if (key == kStage2StudentTop1) return tr("Student after Stage 2 (teacher's head), top-1");
    if (key == kStudentTop1) return tr("Student (linear attention), top-1");
    const std::string stage = section_part(key, 0), name = section_part(key, 1);
    const std::string where = stage_index(stage) >= 0 ? stage_title(stage) : stage;
    if (to_lower_ascii(name) == "miou") return arg(tr("%1, mIoU"), {where});
    return where + " · " + name;
  }
  static Text eval_short_label(const std::string& key) {
    if (key == kTeacherTop1) return tr("Teacher");
    if (key == kStage2StudentTop1) return tr("Student (Stage 2)");
    if (key == kStudentTop1) return tr("Student");
    return section_part(key, 1);
  }
  Text eval_value(const std::string& key, double v) const {
    return is_fraction_key(key) ? pct(v) : num(v);
  }

  // Several line charts in a grid: two columns, each row 0.75 of the chart height.
  ChartStyle grid_style(size_t panels) const {
    ChartStyle style = o_.chart;
    const size_t columns = panels == 1 ? 1 : 2;
    const size_t rows = (panels + columns - 1) / columns;
    style.size.height =
        rows == 1 ? o_.chart.size.height : int(o_.chart.size.height * 0.75 * double(rows));
    return style;
  }

  // --- the summary: the report's abstract -------------------------------------------------

  // "#1 fm-tiny: vit_tiny on fashion-mnist, softmax attention replaced by ..."
  Text adapted_text(const ReportRun& r) const {
    const Headline& h = r.headline;
    const Text model = h.preset.empty() ? tr("the model") : h.preset;
    const Text subject = h.dataset.empty() ? model : arg(tr("%1 on %2"), {model, h.dataset});
    std::vector<std::string> indices;
    bool adapted = false;
    for (const auto& st : r.stages) {
      indices.push_back(st.index >= 0 ? std::to_string(st.index) : st.stage);
      adapted = adapted || st.index > 0;
    }
    const Text stages = indices.empty() ? tr("none") : join(indices, ", ");
    if (!adapted)
      return arg(tr("%1: %2, the teacher (softmax attention) only; stages run: %3."),
                 {r.label(), subject, stages});
    if (h.method.empty())
      return arg(tr("%1: %2, softmax attention replaced by linear attention; stages run: %3."),
                 {r.label(), subject, stages});
    return arg(tr("%1: %2, softmax attention replaced by linear attention with the method %3 "
                  "(feature map %4); stages run: %5."),
               {r.label(), subject, h.method, h.feature_map, stages});
  }

  // "Student 83.37% vs teacher 85.12%, gap −1.75 pt."
  Text headline_text(const Headline& h) const {
    const bool teacher = finite(h.teacher_top1), student = finite(h.student_top1);
    if (teacher && student)
      return arg(h.student_key == kStudentTop1
                     ? tr("Student %1 vs teacher %2, gap %3.")
                     : tr("Student after Stage 2 (teacher's head) %1 vs teacher %2, gap %3."),
                 {pct(h.student_top1), pct(h.teacher_top1), points(h.gap_points)});
    if (teacher)
      return arg(tr("Teacher %1; the student was not evaluated."), {pct(h.teacher_top1)});
    if (student)
      return arg(tr("Student %1; the teacher was not evaluated."), {pct(h.student_top1)});
    return tr("No accuracy was recorded.");
  }

  // "0.95× (10.9 / 11.5 ms)": the student's cost over the teacher's, then both.
  Text cost_ratio(double student, double teacher, bool memory) const {
    if (!finite(student) || !finite(teacher) || teacher <= 0) return {};
    const std::vector<std::string> values = {to_fixed(loc_, student / teacher, 2), num(student, 3),
                                             num(teacher, 3)};
    return arg(memory ? tr("%1× (%2 / %3 MB)") : tr("%1× (%2 / %3 ms)"), values);
  }

  void summary() {
    ReportSection& s = doc_.summary;
    s.id = "summary";
    s.title = tr("Summary");
    if (m_.runs.empty()) return;
    if (m_.comparison()) {
      std::vector<std::string> items;
      for (const auto& r : m_.runs)
        items.push_back(adapted_text(r) + " " + headline_text(r.headline));
      add_block(s, ReportBlock::Kind::Bullets, {}, items);
    } else {
      paragraph(s, adapted_text(m_.runs.front()));
      paragraph(s, headline_text(m_.runs.front().headline));
    }

    ReportTable t = per_run_table(tr("Result"));
    auto add_row = [&](const Text& label, const std::function<Text(const Headline&)>& value) {
      Row row{label};
      bool any = false;
      for (const auto& r : m_.runs) {
        row.push_back(value(r.headline));
        any = any || !row.back().empty();
      }
      if (any) t.rows.push_back(row);
    };
    add_row(eval_label(kTeacherTop1), [this](const Headline& h) { return pct(h.teacher_top1); });
    for (const std::string& key : student_top1_keys())
      add_row(eval_label(key), [this, key](const Headline& h) {
        return h.student_key == key ? pct(h.student_top1) : Text();
      });
    add_row(tr("Gap to the teacher (student − teacher)"),
            [this](const Headline& h) { return points(h.gap_points); });
    std::set<int64_t> resolutions;
    std::set<Headline::CostSource> sources;
    for (const auto& r : m_.runs)
      for (const auto& c : r.headline.costs) {
        resolutions.insert(c.resolution);
        sources.insert(r.headline.cost_source);
      }
    auto cost_at = [](const Headline& h, int64_t res) -> const CostPoint* {
      for (const auto& c : h.costs)
        if (c.resolution == res) return &c;
      return nullptr;
    };
    for (int64_t res : resolutions) {
      const std::string side = std::to_string(res);
      add_row(arg(tr("ms / image at %1², student / teacher"), {side}), [&](const Headline& h) {
        const CostPoint* c = cost_at(h, res);
        return c ? cost_ratio(c->student_ms, c->teacher_ms, false) : Text();
      });
      add_row(arg(tr("Peak memory at %1², student / teacher"), {side}), [&](const Headline& h) {
        const CostPoint* c = cost_at(h, res);
        return c ? cost_ratio(c->student_mb, c->teacher_mb, true) : Text();
      });
    }
    if (t.rows.empty()) return;
    table(s, t);
    if (sources.count(Headline::CostSource::Comparison))
      paragraph(s, tr("Inference cost at batch 1, measured by adala compare-methods for the "
                      "student and the comparison's teacher."));
    if (sources.count(Headline::CostSource::Scaling))
      paragraph(s, tr("Inference cost from the run's scaling table: the model with linear "
                      "attention (student) against softmax attention (teacher)."));
  }

  // --- sections --------------------------------------------------------------------------

  void overview() {
    ReportSection& s = add_section("overview", tr("Overview"));
    if (!doc_.warnings.empty()) {
      notice(
          s,
          tr("%n problem(s) found while building this report (the report is otherwise complete):",
             "", int(doc_.warnings.size())),
          doc_.warnings);
    }
    struct Field {
      std::string label;
      std::function<std::string(const ReportRun&)> value;
    };
    const std::vector<Field> fields = {
        {tr("Run"), [](const ReportRun& r) { return id_label(r.id); }},
        {tr("Name"), [](const ReportRun& r) { return r.name; }},
        {tr("Status"), [](const ReportRun& r) { return status_text(r.status); }},
        {tr("Created"), [this](const ReportRun& r) { return when(r.created); }},
        {tr("Started"), [this](const ReportRun& r) { return when(r.started); }},
        {tr("Ended"), [this](const ReportRun& r) { return when(r.ended); }},
        {tr("Duration"),
         [this](const ReportRun& r) {
           return finite(r.seconds) ? format_duration(loc_, r.seconds) : std::string();
         }},
        {tr("Device"), [](const ReportRun& r) { return r.device; }},
        {tr("LibTorch"), [](const ReportRun& r) { return r.torch_version; }},
        {tr("Workbench version"), [](const ReportRun& r) { return r.project_version; }},
        {tr("Stages"),
         [](const ReportRun& r) {
           std::vector<std::string> names;
           for (const auto& st : r.stages)
             names.push_back(st.index >= 0 ? std::to_string(st.index) : st.stage);
           return join(names, ", ");
         }},
        {tr("Tags"), [](const ReportRun& r) { return join(r.tags, ", "); }},
        {tr("Notes"), [](const ReportRun& r) { return r.notes; }},
    };
    ReportTable t;
    if (m_.comparison()) {
      t.header.push_back(tr("Field"));
      for (const auto& r : m_.runs) t.header.push_back(r.label());
    } else {
      t.header = {tr("Field"), tr("Value")};
    }
    for (const auto& f : fields) {
      Row row{f.label};
      bool any = false;
      for (const auto& r : m_.runs) {
        row.push_back(f.value(r));
        any = any || !row.back().empty();
      }
      if (any) t.rows.push_back(row);
    }
    table(s, t);
  }

  void configuration() {
    if (m_.config.empty()) return;
    ReportSection& s = add_section("config", tr("Configuration"));
    if (!m_.comparison()) {
      ReportTable t;
      t.header = {tr("Setting"), tr("Value")};
      for (const auto& row : m_.config) t.rows.push_back({row.key, row.values.front()});
      table(s, t);
      return;
    }
    ReportTable diff, same;
    diff.header.push_back(tr("Setting"));
    for (const auto& r : m_.runs) diff.header.push_back(r.label());
    same.header = {tr("Setting"), tr("Value")};
    for (const auto& row : m_.config) {
      if (row.differs) {
        Row cells{row.key};
        for (const auto& v : row.values) cells.push_back(v.empty() ? tr("(not set)") : v);
        diff.rows.push_back(cells);
      } else {
        same.rows.push_back({row.key, row.values.front()});
      }
    }
    if (diff.rows.empty()) {
      paragraph(s, tr("The runs share the same configuration."));
    } else {
      paragraph(s, tr("%n setting(s) differ between the runs:", "", int(diff.rows.size())));
      table(s, diff);
    }
    if (!same.rows.empty()) {
      subheading(s, tr("Shared settings"));
      table(s, same);
    }
  }

  void stages() {
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
      line_figure(s, std::move(panels), columns, style,
                  m_.comparison() ? tr("Training loss per stage, all runs.")
                                  : tr("Training loss per stage."),
                  "loss");
    }
  }

  void block_mse() {
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
      const std::string what =
          stage == stage_name(1) ? tr("attention MSE") : tr("hidden-state MSE");
      subheading(s, stage_title(stage));
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
      // Final value of every block, runs side by side.
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
          const double v =
              it != per_block.end() && !it->second.empty() ? it->second.back().value : NAN;
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
  }

  // One row per stage with health metrics: precision, smallest normaliser, largest share below
  // the threshold, non-finite counts, largest |activation| (each with its block), skipped steps.
  void numerical_health() {
    bool any = false;
    for (const auto& r : m_.runs) any = any || r.has_health();
    if (!any) return;
    ReportSection& s = add_section("numerical-health", tr("Numerical health"));
    paragraph(s,
              tr("Linear attention divides by the normaliser phi(q) · Σ phi(k) + eps; in bf16 or "
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

  void accuracy() {
    std::set<std::string> keys;
    for (const auto& r : m_.runs)
      for (const auto& [key, value] : r.evaluations) keys.insert(key);
    if (keys.empty()) return;
    std::vector<std::string> ordered(keys.begin(), keys.end());
    std::stable_sort(
        ordered.begin(), ordered.end(),
        [](const std::string& a, const std::string& b) { return eval_order(a) < eval_order(b); });
    auto value_of = [](const ReportRun& r, const std::string& key) {
      const auto it = r.evaluations.find(key);
      return it == r.evaluations.end() ? NAN : it->second;
    };

    ReportSection& s = add_section("accuracy", tr("Teacher vs student"));
    ReportTable t = per_run_table(tr("Evaluation"));
    for (const auto& key : ordered) {
      Row row{eval_label(key)};
      for (const auto& r : m_.runs)
        row.push_back(r.evaluations.count(key) ? eval_value(key, value_of(r, key)) : std::string());
      t.rows.push_back(row);
    }
    // The gap the paper reports: student - teacher, in points.
    Row gap{tr("Gap to the teacher (student − teacher)")};
    bool any_gap = false;
    for (const auto& r : m_.runs) {
      gap.push_back(points(100.0 * (value_of(r, kStudentTop1) - value_of(r, kTeacherTop1))));
      any_gap = any_gap || !gap.back().empty();
    }
    if (any_gap) t.rows.push_back(gap);
    table(s, t);

    // The bars: the teacher and the student the headline compares where every run has both
    // (an intermediate value such as Stage 2's would stretch the axis over the gap), else
    // every accuracy and mIoU.
    bool pair = true;
    std::set<std::string> students;
    for (const auto& r : m_.runs) {
      pair = pair && finite(r.headline.teacher_top1) && finite(r.headline.student_top1);
      students.insert(r.headline.student_key);
    }
    std::vector<std::string> bar_keys;
    for (const auto& key : ordered)
      if (pair ? key == kTeacherTop1 || students.count(key) : is_fraction_key(key))
        bar_keys.push_back(key);
    bool any_iou = false, any_accuracy = false;
    for (const auto& key : bar_keys)
      (contains(to_lower_ascii(section_part(key, 1)), "iou") ? any_iou : any_accuracy) = true;
    BarChart bars;
    bars.title = any_iou && any_accuracy ? tr("Top-1 accuracy and mIoU")
                                         : (any_iou ? tr("mIoU") : tr("Top-1 accuracy"));
    bars.y_label = tr("%");
    bars.percent = true;
    for (const auto& key : bar_keys) bars.categories.push_back(eval_short_label(key));
    if (bars.categories.empty()) return;
    std::vector<double> values;
    for (const auto& r : m_.runs) {
      ChartSeries g;
      g.name = r.label();
      g.color = palette_color(bars.groups.size());
      for (const auto& key : bar_keys) g.y.push_back(value_of(r, key));
      values.insert(values.end(), g.y.begin(), g.y.end());
      bars.groups.push_back(g);
    }
    bars.y_range = bar_value_range(values);
    bars.y_range_set = true;
    if (pair) {
      std::vector<std::string> gaps;
      for (const auto& r : m_.runs)
        gaps.push_back(m_.comparison()
                           ? arg(tr("%1: gap %2"), {id_label(r.id), points(r.headline.gap_points)})
                           : arg(tr("gap %1"), {points(r.headline.gap_points)}));
      bars.note = join(gaps, " · ");
      if (!m_.comparison()) bars.reference = m_.runs.front().headline.teacher_top1;
    }
    std::string caption = tr("Test-set accuracy of the teacher and the student.");
    if (!bars.y_range.from_zero())
      caption += " " + arg(tr("The y axis starts at %1, not at 0."), {pct(bars.y_range.lower)});
    ChartStyle style = o_.chart;
    style.size.height = int(o_.chart.size.height * 0.8);
    bar_figure(s, std::move(bars), style, caption, "accuracy");
  }

  static Text variant_label(const std::string& v) {
    if (v == "a") return tr("(a) teacher (softmax)");
    if (v == "b") return tr("(b) naive swap (Stage 3 only)");
    if (v == "c") return tr("(c) Stage 2 + 3");
    if (v == "d") return tr("(d) Stage 1 + 2 + 3 (ViT-AdaLA)");
    if (v == "e") return tr("(e) Stage 1 + 3 (Stage 1 only)");
    if (v == "f") return tr("(f) Stage 1 + 2 + 3, only Q/K/V trained in Stage 2");
    return "(" + v + ")";
  }

  void methods() {
    if (m_.method_comparisons.empty()) return;
    ReportSection& s = add_section("methods", tr("Linearisation methods"));
    for (const auto& c : m_.method_comparisons) {
      if (m_.method_comparisons.size() > 1) subheading(s, c.folder);
      paragraph(s, arg(tr("The methods of the comparison \"%1\", adapted from one shared teacher "
                          "with the same data and budget; inference cost at batch 1."),
                       {c.folder}));
      ReportTable t;
      t.header = {tr("Method"), tr("Run"), tr("Top-1"), tr("Gap to teacher")};
      t.numeric = {false, false, true, true};
      for (int64_t res : c.resolutions) {
        const std::string at = " @ " + std::to_string(res) + "²";
        t.header.push_back(tr("ms / image") + at);
        t.header.push_back(tr("Peak memory (MB)") + at);
        t.numeric.push_back(true);
        t.numeric.push_back(true);
      }
      for (const auto& row : c.rows) {
        std::vector<Text> cells = {row.method == kTeacherMethod ? tr("Teacher") : Text(row.method),
                                   id_label(row.run), pct(row.top1), points(row.gap_points)};
        for (int64_t res : c.resolutions) {
          const auto ms = row.ms_per_img.find(res);
          const auto peak = row.peak_bytes.find(res);
          cells.push_back(ms == row.ms_per_img.end() ? Text() : num(ms->second, 3));
          cells.push_back(peak == row.peak_bytes.end() || peak->second < 0
                              ? Text()
                              : num(peak->second / 1e6, 3));
        }
        t.rows.push_back(cells);
      }
      table(s, t);
    }
  }

  // The trained attention plans: one row per plan at the largest resolution where each has
  // a cost (cheapest first, the frontier marked), and top-1 against ms / image and against peak
  // memory with the frontier drawn as steps.
  void plans() {
    const PlanSummary& summary = m_.plans;
    if (summary.empty()) return;
    ReportSection& s = add_section("plans", tr("Attention plans"));
    const std::vector<PlanPoint>& pts = summary.points;
    const int64_t res = summary.resolutions.empty() ? 0 : summary.resolutions.back();
    const std::string session = summary.planner.empty()
                                    ? tr("every planning session of the database")
                                    : arg(tr("the planning session \"%1\""), {summary.planner});
    paragraph(s, arg(tr("%1 trained attention plans of %2: which blocks keep softmax attention "
                        "(S), run window + linear attention (W) or linear attention (L), block 0 "
                        "first."),
                     {std::to_string(pts.size()), session}));
    if (res > 0)
      paragraph(s, arg(tr("Inference cost at %1 px, batch 1; the frontier (✓) holds the plans no "
                          "other plan beats on both top-1 and ms / image."),
                       {std::to_string(res)}));
    else
      notice(s, tr("The plans share no resolution at which each has a cost: no frontier."));
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
    if (res <= 0) return;
    std::vector<LineChart> panels;
    for (FrontierCost axis : {FrontierCost::MsPerImage, FrontierCost::PeakBytes}) {
      const bool ms = axis == FrontierCost::MsPerImage;
      LineChart c;
      c.title = ms ? tr("Top-1 against latency") : tr("Top-1 against peak memory");
      c.x_label = arg(ms ? tr("ms / image at %1 px") : tr("peak memory (MB) at %1 px"),
                      {std::to_string(res)});
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
      if (all.x.empty()) continue;
      c.series = {frontier, all};
      panels.push_back(c);
    }
    if (panels.empty()) return;
    ChartStyle style = o_.chart;
    if (panels.size() > 1) style.size.height = int(o_.chart.size.height * 0.9);
    line_figure(s, std::move(panels), 2, style,
                tr("Top-1 of each trained plan against its inference cost; the line steps "
                   "through the frontier."),
                "plan-frontier");
  }

  void ablation() {
    if (m_.ablations.empty()) return;
    ReportSection& s = add_section("ablation", tr("Ablation"));
    for (const auto& a : m_.ablations) {
      if (m_.ablations.size() > 1) subheading(s, a.folder);
      paragraph(s, arg(tr("The variants of the ablation \"%1\", trained on the same data with "
                          "the same budget."),
                       {a.folder}));
      ReportTable t;
      t.header = {tr("Variant"), tr("Run"), tr("Top-1"), tr("Gap to teacher")};
      t.numeric = {false, false, true, true};
      for (const auto& row : a.rows)
        t.rows.push_back(
            {variant_label(row.variant), id_label(row.run), pct(row.top1), points(row.gap_points)});
      table(s, t);
      if (!a.stage2_only.empty() && !a.stage1_then_2.empty()) {
        LineChart c;
        c.title = tr("Stage 2 feature MSE");
        c.x_label = tr("step");
        c.y_label = tr("loss");
        c.log_y = true;
        c.series.push_back(to_series(tr("(c) Stage 2 only"), a.stage2_only, 0));
        c.series.push_back(to_series(tr("(d) Stage 1 then 2"), a.stage1_then_2, 1));
        line_figure(s, {c}, 1, o_.chart,
                    tr("Stage 2 loss with and without Stage 1 attention alignment first."),
                    "ablation-stage2");
        // Same statistic as `adala ablate`: how often (d) lies below (c) after the first 10%.
        const size_t n = std::min(a.stage2_only.size(), a.stage1_then_2.size());
        int after = 0, below = 0;
        const double cut = a.stage2_only.back().step / 10.0;
        for (size_t i = 0; i < n; ++i) {
          if (a.stage2_only[i].step <= cut) continue;
          ++after;
          below += a.stage1_then_2[i].value < a.stage2_only[i].value;
        }
        if (after > 0)
          paragraph(
              s, arg(tr("(d) is below (c) at %1 of %2 logged points after the first 10% of steps."),
                     {std::to_string(below), std::to_string(after)}));
      }
      if (!a.directory.empty())
        paragraph(s, arg(tr("Tables written by adala ablate: %1"), {a.directory}));
    }
  }

  void figures(const std::string& id, const std::string& title,
               std::vector<ImageArtifact> ReportRun::*member) {
    bool any = false;
    for (const auto& r : m_.runs) any = any || !(r.*member).empty();
    if (!any) return;
    ReportSection& s = add_section(id, title);
    for (const auto& r : m_.runs) {
      const auto& list = r.*member;
      if (list.empty()) continue;
      if (m_.comparison()) subheading(s, r.label());
      run_figures(s, r, list, id);
    }
  }

  void run_figures(ReportSection& s, const ReportRun& r, const std::vector<ImageArtifact>& list,
                   const std::string& id) {
    for (const auto& f : list) {
      if (!f.readable()) {
        notice(s, arg(f.artifact.exists ? tr("Figure file could not be read: %1")
                                        : tr("Figure file is missing: %1"),
                      {f.artifact.path}));
        continue;
      }
      image_figure(s, f, f.caption, id + "-run" + std::to_string(r.id) + "-" + f.caption);
    }
  }

  // --- segmentation: `adala segment`'s summary.json, then the figures saved by the GUI -----

  // The results of each run's segmentation summaries (story, heads, resolution sweep against
  // the paper's row), then its segmentation figures.
  void segmentation() {
    bool any = false;
    for (const auto& r : m_.runs)
      any = any || !r.segmentation.empty() || !r.segmentation_figures.empty();
    if (!any) return;
    ReportSection& s = add_section("segmentation", tr("Segmentation"));
    for (const auto& r : m_.runs) {
      if (r.segmentation.empty() && r.segmentation_figures.empty()) continue;
      if (m_.comparison()) subheading(s, r.label());
      for (const auto& data : r.segmentation) {
        if (r.segmentation.size() > 1) subheading(s, data.artifact.path);
        if (!data.problem.empty()) {
          notice(s, data.artifact.exists
                        ? arg(tr("Segmentation summary could not be read: %1 (%2)"),
                              {data.artifact.path, data.problem})
                        : arg(tr("Segmentation summary is missing: %1"), {data.artifact.path}));
          continue;
        }
        segmentation_results(s, data.summary);
      }
      if (r.segmentation_figures.empty()) continue;
      if (!r.segmentation.empty()) subheading(s, tr("Figures"));
      run_figures(s, r, r.segmentation_figures, "segmentation");
    }
  }

  static Text head_label(const std::string& head) {
    if (head == "linear") return tr("linear");
    if (head == "mask2former") return tr("Mask2Former");
    return head;
  }
  // A fraction as percent points without the sign: 0.63 -> "63.00".
  Text score(double v) const { return finite(v) ? to_fixed(loc_, 100.0 * v, 2) : Text(); }
  // A difference of fractions in points, signed: -0.01 -> "−1.00".
  Text signed_points(double v) const {
    if (!finite(v)) return {};
    const double p = 100.0 * v;
    const Text sign = p >= 0.005 ? "+" : (p <= -0.005 ? "−" : "");
    return sign + to_fixed(loc_, std::abs(p), 2);
  }
  // A ratio (student / teacher): "1.95×".
  Text times(double ratio) const { return finite(ratio) ? to_fixed(loc_, ratio, 2) + "×" : Text(); }
  // A setting as written, without trailing zeros: 0.5 -> "0.5".
  Text compact(double v) const {
    Text t = to_fixed(loc_, v, 4);
    if (t.find(loc_.decimal) == std::string::npos) return t;
    while (!t.empty() && t.back() == '0') t.pop_back();
    if (t.size() >= loc_.decimal.size() &&
        t.compare(t.size() - loc_.decimal.size(), loc_.decimal.size(), loc_.decimal) == 0)
      t.erase(t.size() - loc_.decimal.size());
    return t;
  }
  static Text side(int64_t image_size) { return std::to_string(image_size) + "²"; }

  // "fashion-mnist-scenes at 112²: backbone fine-tuned (lr × 0.5 of the head's, layer decay
  // 0.75); heads linear, Mask2Former; 600 training scenes, 200 validation scenes; student:
  // Stages 1+2 on the training scenes."
  Text segmentation_story(const SegmentationSummary& sum) const {
    Text lead = sum.dataset.empty() ? sum.experiment : sum.dataset;
    if (sum.image_size > 0)
      lead = lead.empty() ? arg(tr("Trained at %1"), {side(sum.image_size)})
                          : arg(tr("%1 at %2"), {lead, side(sum.image_size)});
    std::vector<std::string> parts;
    if (sum.train_backbone && !*sum.train_backbone) parts.push_back(tr("backbone frozen"));
    if (sum.train_backbone && *sum.train_backbone) {
      std::vector<std::string> how;
      if (finite(sum.backbone_lr_scale))
        how.push_back(arg(tr("lr × %1 of the head's"), {compact(sum.backbone_lr_scale)}));
      if (finite(sum.layer_decay))
        how.push_back(arg(tr("layer decay %1"), {compact(sum.layer_decay)}));
      parts.push_back(how.empty() ? tr("backbone fine-tuned")
                                  : arg(tr("backbone fine-tuned (%1)"), {join(how, ", ")}));
    }
    std::vector<std::string> heads;
    for (const auto& h : sum.heads) heads.push_back(head_label(h.head));
    parts.push_back(arg(tr("heads: %1"), {join(heads, ", ")}));
    std::vector<std::string> scenes;
    if (sum.train_images >= 0)
      scenes.push_back(arg(tr("%1 training scenes"), {integer(sum.train_images)}));
    if (sum.val_images >= 0)
      scenes.push_back(arg(tr("%1 validation scenes"), {integer(sum.val_images)}));
    if (!scenes.empty()) parts.push_back(join(scenes, ", "));
    if (!sum.adaptation.empty()) parts.push_back(arg(tr("student: %1"), {sum.adaptation}));
    const Text rest = join(parts, "; ");
    return lead.empty() ? arg(tr("Segmentation: %1."), {rest}) : arg(tr("%1: %2."), {lead, rest});
  }

  void segmentation_results(ReportSection& s, const SegmentationSummary& sum) {
    paragraph(s, segmentation_story(sum));
    paragraph(s, tr("Each head is trained on the teacher's backbone (softmax attention) and on "
                    "the student's (linear attention) with the same initialisation and batches; "
                    "mIoU and pixel accuracy on the validation scenes."));
    ReportTable t;
    t.header = {tr("Head"),
                tr("Teacher mIoU (%)"),
                tr("Student mIoU (%)"),
                tr("Gap (pt)"),
                tr("Teacher pixel accuracy (%)"),
                tr("Student pixel accuracy (%)"),
                tr("Teacher training"),
                tr("Student training")};
    t.numeric = {false, true, true, true, true, true, true, true};
    auto duration = [this](double v) { return finite(v) ? format_duration(loc_, v) : Text(); };
    for (const auto& h : sum.heads)
      t.rows.push_back({head_label(h.head), score(h.teacher.miou), score(h.student.miou),
                        signed_points(h.gap()), score(h.teacher.pixel_accuracy),
                        score(h.student.pixel_accuracy), duration(h.teacher_train_seconds),
                        duration(h.student_train_seconds)});
    drop_empty_columns(t, {4, 5, 6, 7});
    table(s, t);
    if (!sum.sweep.empty()) segmentation_sweep(s, sum);
  }

  // A resolution's label and head, then the columns of engine/report/sweep_columns.h.
  Row sweep_row(const Text& resolution, const Text& head, const SegmentationScores& teacher,
                const SegmentationScores& student) const {
    const SweepPairValues values{teacher.miou,      student.miou,    teacher.img_per_s,
                                 student.img_per_s, teacher.peak_mb, student.peak_mb};
    Row row{resolution, head};
    for (const SweepColumn& column : sweep_columns()) {
      const double v = column.value(values);
      switch (column.format) {
        case SweepCellFormat::Percent:
          row.push_back(score(v));
          break;
        case SweepCellFormat::SignedPoints:
          row.push_back(signed_points(v));
          break;
        case SweepCellFormat::Amount:
          row.push_back(num(v));
          break;
        case SweepCellFormat::Ratio:
          row.push_back(times(v));
          break;
      }
    }
    return row;
  }

  // The resolution table: each resolution x head, then the paper's row with the same columns.
  void segmentation_sweep(ReportSection& s, const SegmentationSummary& sum) {
    subheading(s, tr("Resolution sweep"));
    paragraph(s, tr("The heads trained at the training resolution, evaluated at each resolution "
                    "on scenes whose garments keep their pixel size; images/s and peak memory "
                    "of one prediction at batch 1. × is student / teacher."));
    ReportTable t;
    t.header = {tr("Resolution"), tr("Head")};
    for (const SweepColumn& column : sweep_columns()) t.header.push_back(tr(column.header));
    t.numeric = std::vector<bool>(t.header.size(), true);
    t.numeric[0] = t.numeric[1] = false;
    std::vector<std::string> scenes;
    for (const auto& point : sum.sweep) {
      for (const auto& h : point.heads)
        t.rows.push_back(
            sweep_row(side(point.image_size), head_label(h.head), h.teacher, h.student));
      if (point.val_images < 0) continue;
      Text where = arg(tr("%1: %2 scenes"), {side(point.image_size), integer(point.val_images)});
      if (point.garments.size() == 2)
        where += " " + arg(tr("(%1–%2 garments each)"),
                           {integer(point.garments[0]), integer(point.garments[1])});
      scenes.push_back(where);
    }
    if (sum.paper) {
      const SegmentationPaperReference& p = *sum.paper;
      Text label = p.dataset.empty() ? tr("paper") : arg(tr("paper: %1"), {p.dataset});
      if (p.image_size > 0) label += " " + side(p.image_size);
      t.rows.push_back(sweep_row(label, Text(), p.teacher, p.student));
    }
    table(s, t);
    if (!scenes.empty())
      paragraph(s, arg(tr("Validation scenes per resolution: %1."), {join(scenes, "; ")}));
    if (sum.paper)
      paragraph(s, tr("The paper's row is its published result (ViT-AdaLA, its data, model and "
                      "GPU): compare its ratios with this run's, not its absolute values."));
  }

  void scaling() {
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

  // The reference matmul's rate over the benchmark (engine/analysis/rate_range.h): a run whose
  // rate moved by more than kUnsteadyRateMove is named under its table.
  void unsteady_rate_notice(ReportSection& s, const CsvTable& csv) {
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

  void scaling_table(ReportSection& s, const ReportRun& r, const CsvTable& csv) {
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
    table(s, t);
    unsteady_rate_notice(s, csv);

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

  static Text kind_text(const std::string& kind) {
    if (kind == "config") return tr("configuration");
    if (kind == "checkpoint") return tr("checkpoint");
    if (kind == "weights") return tr("weights");
    if (kind == "report") return tr("summary");
    if (kind == "attention_figure") return tr("attention figure");
    if (kind == "segmentation_figure") return tr("segmentation figure");
    if (kind == "scaling_csv") return tr("scaling table");
    if (kind == "segmentation_summary") return tr("segmentation summary");
    return kind;
  }

  void artifacts() {
    bool any = false;
    for (const auto& r : m_.runs) any = any || !r.artifacts.empty();
    if (!any) return;
    ReportSection& s = add_section("artifacts", tr("Files"));
    ReportTable t;
    if (m_.comparison()) t.header.push_back(tr("Run"));
    for (const auto& h : {tr("Kind"), tr("File"), tr("Size"), tr("Status")}) t.header.push_back(h);
    t.numeric = std::vector<bool>(t.header.size(), false);
    t.numeric[t.header.size() - 2] = true;
    for (const auto& r : m_.runs) {
      for (const auto& a : r.artifacts) {
        Row row;
        if (m_.comparison()) row.push_back(id_label(r.id));
        for (const auto& cell : {kind_text(a.kind), a.path, format_data_size(loc_, a.bytes),
                                 a.exists ? tr("present") : tr("MISSING")})
          row.push_back(cell);
        t.rows.push_back(row);
      }
    }
    table(s, t);
  }
};

}  // namespace

const ReportSection* ReportDocument::section(const std::string& id) const {
  for (const auto& s : sections)
    if (s.id == id) return &s;
  return nullptr;
}

std::vector<std::string> ReportDocument::section_ids() const {
  std::vector<std::string> ids;
  for (const auto& s : sections) ids.push_back(s.id);
  return ids;
}

const std::vector<std::string>& all_section_ids() {
  static const std::vector<std::string> ids = {"overview",  "config",       "stages",  "block-mse",
                                               "accuracy",  "ablation",     "methods", "plans",
                                               "attention", "segmentation", "scaling", "artifacts"};
  return ids;
}

std::string stage_title(const std::string& stage) {
  const StageSpec* spec = stage_by_name(stage);
  return spec ? translate("AdalaReport", spec->title) : stage;
}

ReportDocument build_report_document(const ReportModel& model, const DocumentOptions& options) {
  return DocumentBuilder(model, options).build();
}

}  // namespace adala::report
