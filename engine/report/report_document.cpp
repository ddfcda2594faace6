#include "engine/report/report_document.h"

#include <algorithm>
#include <functional>

#include "engine/report/report_document_parts.h"
#include "engine/report/report_i18n.h"
#include "engine/report/report_text.h"
#include "engine/train/stage_catalog.h"

namespace adala::report {

namespace detail {

namespace {

// The stage table's titles, marked for lupdate in the report's context (stage_title
// translates the table's text; tests/report checks that these are the table's titles).
[[maybe_unused]] constexpr const char* kStageTitleMarks[] = {
    ADALA_REPORT_TRANSLATE_NOOP("AdalaReport", "Stage 0 · teacher pretraining"),
    ADALA_REPORT_TRANSLATE_NOOP("AdalaReport", "Stage 1 · attention alignment"),
    ADALA_REPORT_TRANSLATE_NOOP("AdalaReport", "Stage 2 · feature alignment"),
    ADALA_REPORT_TRANSLATE_NOOP("AdalaReport", "Stage 3 · fine-tuning"),
};

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

}  // namespace

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

DocumentBuilder::DocumentBuilder(const ReportModel& model, const DocumentOptions& options)
    : m_(model), o_(options), loc_(options.locale) {}

ReportDocument DocumentBuilder::build() {
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

Text DocumentBuilder::default_title() const {
  if (m_.runs.size() == 1) return arg(tr("ViT-AdaLA run report: %1"), {m_.runs.front().name});
  std::vector<std::string> names;
  for (const auto& r : m_.runs) names.push_back(r.label());
  return arg(tr("ViT-AdaLA comparison: %1"), {join(names, ", ")});
}

ReportSection& DocumentBuilder::add_section(const std::string& id, const std::string& title) {
  ReportSection s;
  s.id = id;
  s.title = title;
  doc_.sections.push_back(s);
  return doc_.sections.back();
}

void DocumentBuilder::add_block(ReportSection& s, ReportBlock::Kind kind, const std::string& text,
                                const std::vector<std::string>& items) {
  ReportBlock b;
  b.kind = kind;
  b.text = text;
  b.items = items;
  s.blocks.push_back(b);
}

void DocumentBuilder::paragraph(ReportSection& s, const std::string& text) {
  add_block(s, ReportBlock::Kind::Paragraph, text);
}

void DocumentBuilder::subheading(ReportSection& s, const std::string& text) {
  add_block(s, ReportBlock::Kind::Subheading, text);
}

void DocumentBuilder::notice(ReportSection& s, const std::string& text,
                             const std::vector<std::string>& items) {
  add_block(s, ReportBlock::Kind::Notice, text, items);
}

void DocumentBuilder::table(ReportSection& s, const ReportTable& t) {
  ReportBlock b;
  b.kind = ReportBlock::Kind::Table;
  b.table = t;
  s.blocks.push_back(b);
}

ReportFigure& DocumentBuilder::add_figure(ReportSection& s, const std::string& caption,
                                          const std::string& name) {
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

void DocumentBuilder::chart_figure(ReportSection& s, ChartSpec chart, const std::string& caption,
                                   const std::string& name) {
  ReportFigure& f = add_figure(s, caption, name);
  f.display = chart.style.size;
  f.chart = std::move(chart);
}

void DocumentBuilder::line_figure(ReportSection& s, std::vector<LineChart> panels, int columns,
                                  const ChartStyle& style, const std::string& caption,
                                  const std::string& name) {
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

void DocumentBuilder::bar_figure(ReportSection& s, BarChart bars, const ChartStyle& style,
                                 const std::string& caption, const std::string& name) {
  ChartSpec chart;
  chart.kind = ChartSpec::Kind::Bars;
  const std::string text = bars.log_y ? caption + " " + tr("The y axis is logarithmic.") : caption;
  chart.bars = std::move(bars);
  chart.style = style;
  chart_figure(s, std::move(chart), text, name);
}

void DocumentBuilder::image_figure(ReportSection& s, const ImageArtifact& image,
                                   const std::string& caption, const std::string& name) {
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

// Several line charts in a grid: two columns, each row 0.75 of the chart height.
ChartStyle DocumentBuilder::grid_style(size_t panels) const {
  ChartStyle style = o_.chart;
  const size_t columns = panels == 1 ? 1 : 2;
  const size_t rows = (panels + columns - 1) / columns;
  style.size.height =
      rows == 1 ? o_.chart.size.height : int(o_.chart.size.height * 0.75 * double(rows));
  return style;
}

void DocumentBuilder::figures(const std::string& id, const std::string& title,
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

void DocumentBuilder::run_figures(ReportSection& s, const ReportRun& r,
                                  const std::vector<ImageArtifact>& list, const std::string& id) {
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

}  // namespace detail

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
  return detail::DocumentBuilder(model, options).build();
}

}  // namespace adala::report
