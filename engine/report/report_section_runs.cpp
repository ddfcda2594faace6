// What was run: the Overview (one column per run), the Configuration (settings that differ
// first) and the Files the runs recorded.
#include <functional>

#include "engine/report/report_document_parts.h"
#include "engine/report/report_text.h"

namespace adala::report::detail {

void DocumentBuilder::overview() {
  ReportSection& s = add_section("overview", tr("Overview"));
  if (!doc_.warnings.empty()) {
    notice(s,
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

void DocumentBuilder::configuration() {
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

Text DocumentBuilder::kind_text(const std::string& kind) {
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

void DocumentBuilder::artifacts() {
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

}  // namespace adala::report::detail
