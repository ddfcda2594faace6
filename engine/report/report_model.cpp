#include "engine/report/report_model.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "engine/bench/scaling_csv.h"
#include "engine/report/report_i18n.h"
#include "engine/json/json_paths.h"
#include "engine/report/report_text.h"
#include "engine/store/run_overview.h"
#include "engine/store/run_store.h"
#include "engine/train/stage_catalog.h"

namespace adala::report {

namespace {

using Json = nlohmann::json;

bool is_file(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec);
}

ArtifactRef to_ref(const store::ArtifactInfo& a) {
  ArtifactRef r;
  r.run = a.run_id;
  r.kind = a.kind;
  r.path = a.path;
  r.sha256 = a.sha256;
  r.bytes = a.bytes;
  r.exists = is_file(r.path);
  return r;
}

double seconds_between(const Timestamp& a, const Timestamp& b) {
  if (!a.valid || !b.valid) return kNaN;
  return double(b.utc_msecs - a.utc_msecs) / 1000.0;
}

std::string caption_from_path(const std::string& path) {
  std::string base = complete_base_name(path);
  std::replace(base.begin(), base.end(), '_', ' ');
  return base;
}

// "variant:d" -> "d"; "variant:a-teacher" -> "a".
std::string variant_of(const std::vector<std::string>& tags) {
  for (const auto& t : tags)
    if (starts_with(t, "variant:")) return t.substr(8, 1);
  return {};
}

std::string ablation_folder_of(const std::vector<std::string>& tags) {
  for (const auto& t : tags)
    if (starts_with(t, "ablation:")) return t.substr(9);
  return {};
}

// The student's cost against the teacher's by resolution, from a scaling table: its linear
// attention rows against its softmax ones (the same model).
std::vector<CostPoint> scaling_costs(const CsvTable& table) {
  std::map<int64_t, CostPoint> by_resolution;
  std::set<int64_t> student, teacher;
  for (const auto& cells : table.rows) {
    std::vector<std::pair<std::string, std::string>> fields;
    for (size_t c = 0; c < table.header.size() && c < cells.size(); ++c)
      fields.emplace_back(table.header[c], cells[c]);
    ScalingCsvRow row;
    try {
      row = scaling_csv_row_from_fields(fields, table.path);
    } catch (const ScalingCsvError&) {  // a row the table cannot hold: no cost from it
      continue;
    }
    const bool linear = row.mode == kLinearMode;
    if (!linear && row.mode != kSoftmaxMode) continue;
    CostPoint& point = by_resolution[row.resolution];
    point.resolution = row.resolution;
    (linear ? point.student_ms : point.teacher_ms) = row.ms_per_img;
    (linear ? point.student_mb : point.teacher_mb) = row.peak_rss_mb;
    (linear ? student : teacher).insert(row.resolution);
  }
  std::vector<CostPoint> out;
  for (const auto& [resolution, point] : by_resolution)
    if (student.count(resolution) && teacher.count(resolution)) out.push_back(point);
  return out;
}

void read_headline(store::RunStore& store, ReportRun& run) {
  const store::RunOverview overview = store::load_run_overview(store, run.id);
  Headline& h = run.headline;
  h.teacher_top1 = overview.teacher_top1;
  h.student_top1 = overview.student_top1;
  h.gap_points = overview.gap_points;
  h.student_key = overview.student_top1_key;
  h.method = overview.method;
  h.feature_map = overview.feature_map;
  h.preset = overview.preset;
  const auto dataset = run.config.find("data.dataset");
  if (dataset != run.config.end()) h.dataset = dataset->second;
  for (const auto& data : run.scaling) {
    if (!data.problem.empty() || !h.costs.empty()) continue;
    h.costs = scaling_costs(data.table);
    if (!h.costs.empty()) h.cost_source = Headline::CostSource::Scaling;
  }
}

// The run's own compare-methods measurements against its comparison's teacher, where it is
// one of the methods of a comparison.
void comparison_costs(const MethodComparison& comparison, ReportRun& run) {
  const MethodRow *student = nullptr, *teacher = nullptr;
  for (const auto& row : comparison.rows) {
    if (row.method == kTeacherMethod)
      teacher = &row;
    else if (row.run == run.id)
      student = &row;
  }
  if (!student || !teacher) return;
  auto at = [](const std::map<int64_t, double>& values, int64_t resolution, double scale) {
    const auto it = values.find(resolution);
    return it == values.end() || it->second < 0 ? kNaN : it->second * scale;
  };
  std::vector<CostPoint> costs;
  for (int64_t res : comparison.resolutions) {
    CostPoint p;
    p.resolution = res;
    p.student_ms = at(student->ms_per_img, res, 1.0);
    p.teacher_ms = at(teacher->ms_per_img, res, 1.0);
    p.student_mb = at(student->peak_bytes, res, 1e-6);
    p.teacher_mb = at(teacher->peak_bytes, res, 1e-6);
    costs.push_back(p);
  }
  if (costs.empty()) return;
  run.headline.costs = costs;
  run.headline.cost_source = Headline::CostSource::Comparison;
}

int64_t now_msecs() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

}  // namespace

const std::vector<std::string>& stage_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& s : kStages) out.emplace_back(s.name);
    return out;
  }();
  return names;
}

int CsvTable::column(const std::string& name) const {
  const auto it = std::find(header.begin(), header.end(), name);
  return it == header.end() ? -1 : int(it - header.begin());
}

const StageSummary* ReportRun::stage(const std::string& name) const {
  for (const auto& s : stages)
    if (s.stage == name) return &s;
  return nullptr;
}

bool ReportRun::has_health() const {
  for (const auto& s : stages)
    if (s.health.any) return true;
  return false;
}

namespace {
// Folds one health.* metric row into the stage's summary.
void add_health(HealthSummary& h, const std::string& key, int block, double v) {
  if (!std::isfinite(v)) return;
  h.any = true;
  auto keep_max = [&](double& slot, int& where) {
    if (!std::isfinite(slot) || v > slot) slot = v, where = block;
  };
  if (key == "health.min_normaliser") {
    if (v >= 0 && (!std::isfinite(h.min_normaliser) || v < h.min_normaliser))
      h.min_normaliser = v, h.min_normaliser_block = block;
  } else if (key == "health.low_normaliser_share") {
    if (v >= 0) keep_max(h.max_low_share, h.max_low_share_block);
  } else if (key == "health.max_abs_activation") {
    keep_max(h.max_abs_activation, h.max_abs_block);
  } else if (key == "health.attention_nonfinite") {
    h.attention_nonfinite += v;
  } else if (key == "health.activation_nonfinite") {
    h.activation_nonfinite += v;
  } else if (key == "health.grad_nonfinite") {
    h.grad_nonfinite += v;
  }
}
}  // namespace

bool ReportRun::has_block_mse() const {
  for (const auto& s : stages)
    if (!s.block_mse.empty()) return true;
  return false;
}

std::string ReportRun::label() const { return "#" + std::to_string(id) + " " + name; }

std::map<std::string, std::string> flatten_json(const std::string& json) {
  std::map<std::string, std::string> out;
  const Json doc = Json::parse(json, nullptr, false);
  if (doc.is_discarded() || !(doc.is_object() || doc.is_array())) {
    const std::string text = trimmed(json);
    if (!text.empty()) out.emplace("(config)", text);
    return out;
  }
  return flatten_json_paths(doc, doc.is_object() ? std::string() : std::string("(config)"));
}

Timestamp parse_store_time(const std::string& iso) {
  Timestamp t;
  t.valid = store::parse_store_timestamp(iso, &t.utc_msecs);
  return t;
}

namespace {

CsvTable csv_table(const std::vector<CsvRecord>& records) {
  CsvTable table;
  if (records.empty()) return table;
  table.header = records.front().fields;
  for (size_t r = 1; r < records.size(); ++r) {
    auto row = records[r].fields;
    while (row.size() < table.header.size()) row.emplace_back();
    table.rows.push_back(std::move(row));
  }
  return table;
}

}  // namespace

CsvTable parse_csv(const std::string& text) {
  std::istringstream in(text);
  return csv_table(adala::parse_csv(in, "(text)"));
}

CsvTable read_csv(const std::string& path, std::string* error) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    if (error) *error = std::strerror(errno);
    return {};
  }
  CsvTable table;
  try {
    table = csv_table(adala::parse_csv(file, path));
  } catch (const ScalingCsvError& e) {
    if (error) *error = e.what();
    return {};
  }
  table.path = path;
  if (table.header.empty() && error) *error = "empty file";
  return table;
}

bool probe_png(const std::string& path, Size* size, std::string* error) {
  std::ifstream file(path, std::ios::binary);
  unsigned char head[24] = {};
  if (!file || !file.read(reinterpret_cast<char*>(head), sizeof head)) {
    if (error) *error = "cannot read the file";
    return false;
  }
  static const unsigned char kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (std::memcmp(head, kSignature, 8) != 0 || std::memcmp(head + 12, "IHDR", 4) != 0) {
    if (error) *error = "not a PNG file";
    return false;
  }
  auto be32 = [&](int at) {
    return int(uint32_t(head[at]) << 24 | uint32_t(head[at + 1]) << 16 |
               uint32_t(head[at + 2]) << 8 | head[at + 3]);
  };
  size->width = be32(16);
  size->height = be32(20);
  if (size->empty()) {
    if (error) *error = "empty image";
    return false;
  }
  return true;
}

namespace {

ReportRun run_from_info(const store::RunInfo& info) {
  ReportRun run;
  run.id = info.id;
  run.name = info.name;
  run.status = info.status;
  run.device = info.device;
  run.torch_version = info.torch_version;
  run.project_version = info.project_version;
  run.notes = info.notes;
  run.created = parse_store_time(info.created_at);
  run.started = parse_store_time(info.started_at);
  run.ended = parse_store_time(info.ended_at);
  run.seconds = seconds_between(run.started, run.ended);
  run.tags = info.tags;
  run.config_json = info.config_json;
  run.config = flatten_json(run.config_json);
  return run;
}

StageSummary stage_summary_of(const store::StageInfo& s) {
  StageSummary summary;
  summary.stage = s.stage;
  summary.index = s.index;
  summary.status = s.status;
  summary.total_steps = s.total_steps;
  summary.last_step = s.last_step;
  summary.started = parse_store_time(s.started_at);
  summary.ended = parse_store_time(s.ended_at);
  summary.seconds = seconds_between(summary.started, summary.ended);
  summary.compute_seconds = s.compute_seconds;
  return summary;
}

// What the metric rows fold into besides each stage's own summary: the images-per-second
// sums and the steps of the latest train_acc / lr seen, per stage.
struct MetricFold {
  std::map<std::string, std::pair<double, int>> ips;  // stage -> (sum, count)
  std::map<std::string, int64_t> acc_step, lr_step;
};

void fold_metric(const store::MetricRow& m, StageSummary& s, MetricFold& fold) {
  if (m.key == "loss" && m.block < 0) {
    s.loss.push_back({double(m.step), m.value});
  } else if (m.key == "block_mse" && m.block >= 0) {
    s.block_mse[m.block].push_back({double(m.step), m.value});
  } else if (m.key.rfind("health.", 0) == 0 && m.block >= 0) {
    add_health(s.health, m.key, m.block, m.value);
  } else if (m.key == "images_per_second" && std::isfinite(m.value) && m.value > 0) {
    fold.ips[m.stage].first += m.value;
    fold.ips[m.stage].second += 1;
  } else if (m.key == "train_acc") {
    if (m.step >= fold.acc_step[m.stage]) {
      fold.acc_step[m.stage] = m.step;
      s.final_train_acc = m.value;
    }
  } else if (m.key == "lr") {
    if (m.step >= fold.lr_step[m.stage]) {
      fold.lr_step[m.stage] = m.step;
      s.final_lr = m.value;
    }
  }
}

// The loss figures, the mean images per second and the last step from the folded curves.
void finish_stage_summary(StageSummary& s, const MetricFold& fold) {
  if (!s.loss.empty()) {
    s.first_loss = s.loss.front().value;
    s.final_loss = s.loss.back().value;
    for (const auto& p : s.loss)
      if (std::isfinite(p.value) && !(p.value >= s.best_loss)) s.best_loss = p.value;
  }
  const auto it = fold.ips.find(s.stage);
  if (it != fold.ips.end() && it->second.second > 0)
    s.mean_images_per_second = it->second.first / it->second.second;
  if (s.last_step < 0 && !s.loss.empty()) s.last_step = int64_t(s.loss.back().step);
}

// Stages and their curves, by stage index.
void read_stages(store::RunStore& store, ReportRun& run) {
  std::map<std::string, size_t> stage_slot;
  for (const auto& s : store.stages(run.id)) {
    stage_slot[s.stage] = run.stages.size();
    run.stages.push_back(stage_summary_of(s));
  }
  MetricFold fold;
  for (const auto& m : store.metrics(run.id)) {
    auto slot = stage_slot.find(m.stage);
    if (slot == stage_slot.end()) {
      // Metrics of a stage without a stage row (should not happen): give it one.
      StageSummary summary;
      summary.stage = m.stage;
      summary.index = stage_index(summary.stage);
      slot = stage_slot.emplace(m.stage, run.stages.size()).first;
      run.stages.push_back(summary);
    }
    fold_metric(m, run.stages[slot->second], fold);
  }
  for (auto& s : run.stages) finish_stage_summary(s, fold);
  std::stable_sort(run.stages.begin(), run.stages.end(),
                   [](const StageSummary& a, const StageSummary& b) {
                     const int ia = a.index < 0 ? 99 : a.index, ib = b.index < 0 ? 99 : b.index;
                     return ia < ib;
                   });
}

using Warn = std::function<void(const std::string&)>;

void warn_unreadable(const Warn& warn, const ReportRun& run, const ArtifactRef& ref,
                     const std::string& problem) {
  warn(arg(AdalaReport::tr("run %1: %2 artifact unreadable: %3 (%4)"),
           {std::to_string(run.id), ref.kind, ref.path, problem}));
}

ImageArtifact read_image(const ArtifactRef& ref, const ReportRun& run, const ImageProbe& read_size,
                         const Warn& warn) {
  ImageArtifact image;
  image.artifact = ref;
  image.caption = caption_from_path(ref.path);
  if (!ref.exists) {
    image.problem = "missing";
  } else if (!read_size(ref.path, &image.size, &image.problem)) {
    image.size = {};
    if (image.problem.empty()) image.problem = "unreadable";
    warn_unreadable(warn, run, ref, image.problem);
  }
  return image;
}

ScalingData read_scaling(const ArtifactRef& ref, const ReportRun& run, const Warn& warn) {
  ScalingData data;
  data.artifact = ref;
  if (!ref.exists) {
    data.problem = "missing";
    return data;
  }
  std::string error;
  data.table = read_csv(ref.path, &error);
  if (data.table.header.empty()) {
    data.problem = error.empty() ? "no header" : error;
    warn_unreadable(warn, run, ref, data.problem);
  }
  return data;
}

SegmentationData read_segmentation(const ArtifactRef& ref, const ReportRun& run, const Warn& warn) {
  SegmentationData data;
  data.artifact = ref;
  if (!ref.exists) {
    data.problem = "missing";
    return data;
  }
  data.summary = read_segmentation_summary(ref.path, &data.problem);
  if (!data.problem.empty()) warn_unreadable(warn, run, ref, data.problem);
  return data;
}

// Artifacts: every file is checked; figures and tables are read.
void read_artifacts(store::RunStore& store, ReportRun& run, const ImageProbe& read_size,
                    const Warn& warn) {
  for (const auto& a : store.artifacts(run.id)) {
    ArtifactRef ref = to_ref(a);
    run.artifacts.push_back(ref);
    if (!ref.exists)
      warn(arg(AdalaReport::tr("run %1: %2 artifact missing: %3"),
               {std::to_string(run.id), ref.kind, ref.path}));
    if (ref.kind == "attention_figure")
      run.attention_figures.push_back(read_image(ref, run, read_size, warn));
    else if (ref.kind == "segmentation_figure")
      run.segmentation_figures.push_back(read_image(ref, run, read_size, warn));
    else if (ref.kind == "scaling_csv")
      run.scaling.push_back(read_scaling(ref, run, warn));
    else if (ref.kind == "segmentation_summary")
      run.segmentation.push_back(read_segmentation(ref, run, warn));
  }
}

ReportRun read_run(store::RunStore& store, int64_t id, const ImageProbe& read_size,
                   const Warn& warn) {
  const auto info = store.find_run(id);
  if (!info) throw std::invalid_argument("no run " + std::to_string(id) + " in " + store.path());
  ReportRun run = run_from_info(*info);
  read_stages(store, run);
  run.evaluations = store.evaluations(id);
  read_artifacts(store, run, read_size, warn);
  read_headline(store, run);
  return run;
}

// The union of keys, in key order; `differs` when the runs disagree.
std::vector<ConfigRow> config_rows(const std::vector<ReportRun>& runs) {
  std::set<std::string> keys;
  for (const auto& run : runs)
    for (const auto& [key, value] : run.config) keys.insert(key);
  std::vector<ConfigRow> rows;
  for (const auto& key : keys) {
    ConfigRow row;
    row.key = key;
    for (const auto& run : runs) {
      const auto it = run.config.find(key);
      row.values.push_back(it == run.config.end() ? std::string() : it->second);
    }
    for (const auto& v : row.values) row.differs = row.differs || v != row.values.front();
    rows.push_back(row);
  }
  return rows;
}

bool has_tag(const std::vector<std::string>& tags, const std::string& tag) {
  return std::find(tags.begin(), tags.end(), tag) != tags.end();
}

// The folders of the "ablation:<folder>" groups the reported runs belong to, in run order.
std::vector<std::string> ablation_folders(const std::vector<ReportRun>& runs) {
  std::vector<std::string> folders;
  for (const auto& run : runs) {
    const std::string folder = ablation_folder_of(run.tags);
    const bool tagged = has_tag(run.tags, "ablation");
    if (!folder.empty() && tagged &&
        std::find(folders.begin(), folders.end(), folder) == folders.end())
      folders.push_back(folder);
  }
  return folders;
}

double evaluation_of(store::RunStore& store, int64_t run, const std::string& key) {
  const auto evals = store.evaluations(run);
  const auto it = evals.find(key);
  return it == evals.end() ? kNaN : it->second;
}

// <ablation dir>/<variant>/config.json: the folder `adala ablate` wrote its tables to.
std::string ablation_directory(store::RunStore& store, int64_t run) {
  std::string directory;
  for (const auto& a : store.artifacts(run)) {
    if (a.kind != "config") continue;
    const std::string dir = absolute_dir(absolute_dir(a.path));
    if (is_file(dir + "/ablation.csv") || is_file(dir + "/ablation.md")) directory = dir;
  }
  return directory;
}

// One group with all of its variants from the database (the newest run of each variant).
Ablation read_ablation(store::RunStore& store, const std::vector<store::RunInfo>& all,
                       const std::string& folder) {
  Ablation ablation;
  ablation.folder = folder;
  const std::string tag = "ablation:" + folder;
  std::map<std::string, const store::RunInfo*> by_variant;
  for (const auto& r : all) {
    if (!has_tag(r.tags, tag)) continue;
    const std::string v = variant_of(r.tags);
    if (!v.empty() && !by_variant.count(v)) by_variant[v] = &r;
  }
  const double teacher =
      by_variant.count("a") ? evaluation_of(store, by_variant["a"]->id, kTeacherTop1) : kNaN;
  for (const auto& [variant, info] : by_variant) {
    AblationRow row;
    row.variant = variant;
    row.run = info->id;
    row.top1 = evaluation_of(store, info->id, variant == "a" ? kTeacherTop1 : kStudentTop1);
    row.gap_points = variant == "a" ? 0.0 : 100.0 * (row.top1 - teacher);
    ablation.rows.push_back(row);
    if (variant == "c" || variant == "d") {
      Curve curve;
      for (const auto& m : store.metrics(info->id, stage_name(2), "loss"))
        curve.push_back({double(m.step), m.value});
      (variant == "c" ? ablation.stage2_only : ablation.stage1_then_2) = curve;
    }
    if (ablation.directory.empty()) ablation.directory = ablation_directory(store, info->id);
  }
  return ablation;
}

// Every "ablation:<folder>" group a reported run belongs to.
std::vector<Ablation> read_ablations(store::RunStore& store, const std::vector<ReportRun>& runs) {
  std::vector<Ablation> ablations;
  const std::vector<std::string> folders = ablation_folders(runs);
  if (folders.empty()) return ablations;
  const auto all = store.list_runs();  // newest first
  for (const auto& folder : folders) {
    Ablation ablation = read_ablation(store, all, folder);
    if (!ablation.rows.empty()) ablations.push_back(ablation);
  }
  return ablations;
}

// The folders of the "comparison:<folder>" groups the reported runs belong to, in run order.
std::vector<std::string> comparison_folders(const std::vector<ReportRun>& runs) {
  std::vector<std::string> folders;
  for (const auto& run : runs) {
    const bool tagged = has_tag(run.tags, "comparison");
    for (const auto& t : run.tags)
      if (tagged && starts_with(t, "comparison:") &&
          std::find(folders.begin(), folders.end(), t.substr(11)) == folders.end())
        folders.push_back(t.substr(11));
  }
  return folders;
}

// A method's top-1 and its "comparison/ms_per_img@R" / "comparison/peak_bytes@R" costs; the
// resolutions seen are added to `resolutions`.
MethodRow method_row(store::RunStore& store, const std::string& method, int64_t run,
                     std::set<int64_t>& resolutions) {
  MethodRow row;
  row.method = method;
  row.run = run;
  for (const auto& [key, value] : store.evaluations(run)) {
    if (key == (method == kTeacherMethod ? kTeacherTop1 : kStudentTop1)) row.top1 = value;
    for (auto [prefix, target] : {std::pair{"comparison/ms_per_img@", &row.ms_per_img},
                                  std::pair{"comparison/peak_bytes@", &row.peak_bytes}}) {
      const std::string p(prefix);
      if (!starts_with(key, p)) continue;
      try {
        const int64_t res = std::stoll(key.substr(p.size()));
        (*target)[res] = value;
        resolutions.insert(res);
      } catch (const std::exception&) {  // not a resolution: not ours
      }
    }
  }
  return row;
}

// One comparison with all of its methods (the newest run of each): the teacher first, then
// the methods in the order they ran.
MethodComparison read_comparison(store::RunStore& store, const std::vector<store::RunInfo>& all,
                                 const std::string& folder) {
  MethodComparison comparison;
  comparison.folder = folder;
  std::map<std::string, const store::RunInfo*> by_method;
  for (const auto& r : all) {
    if (!has_tag(r.tags, "comparison:" + folder)) continue;
    for (const auto& t : r.tags)
      if (starts_with(t, "method:") && !by_method.count(t.substr(7))) by_method[t.substr(7)] = &r;
  }
  std::set<int64_t> resolutions;
  for (const auto& [method, info] : by_method)
    comparison.rows.push_back(method_row(store, method, info->id, resolutions));
  std::sort(comparison.rows.begin(), comparison.rows.end(),
            [](const MethodRow& a, const MethodRow& b) {
              if ((a.method == kTeacherMethod) != (b.method == kTeacherMethod))
                return a.method == kTeacherMethod;
              return a.run < b.run;
            });
  double teacher = kNaN;
  for (const auto& row : comparison.rows)
    if (row.method == kTeacherMethod) teacher = row.top1;
  for (auto& row : comparison.rows)
    row.gap_points = row.method == kTeacherMethod ? 0.0 : 100.0 * (row.top1 - teacher);
  comparison.resolutions.assign(resolutions.begin(), resolutions.end());
  return comparison;
}

// Every "comparison:<folder>" group of `adala compare-methods` a reported run belongs to;
// each run that is one of a comparison's methods takes its costs from it.
void read_method_comparisons(store::RunStore& store, ReportModel& model) {
  const std::vector<std::string> folders = comparison_folders(model.runs);
  if (folders.empty()) return;
  const auto all = store.list_runs();  // newest first
  for (const auto& folder : folders) {
    MethodComparison comparison = read_comparison(store, all, folder);
    if (comparison.rows.empty()) continue;
    for (auto& run : model.runs) comparison_costs(comparison, run);
    model.method_comparisons.push_back(comparison);
  }
}

// Attention plans: the reported run's planning session when it is one of the points.
PlanSummary read_plans(store::RunStore& store, const std::vector<ReportRun>& runs) {
  PlanSummary summary;
  std::vector<PlanPoint> plans = read_plan_points(store);
  for (const auto& run : runs) {
    const auto it = std::find_if(plans.begin(), plans.end(),
                                 [&](const PlanPoint& p) { return p.run == run.id; });
    if (it != plans.end() && !it->planner.empty()) {
      summary.planner = it->planner;
      break;
    }
  }
  if (!summary.planner.empty()) {
    const std::string planner = summary.planner;
    plans.erase(std::remove_if(plans.begin(), plans.end(),
                               [&](const PlanPoint& p) { return p.planner != planner; }),
                plans.end());
  }
  summary.resolutions = common_resolutions(plans);
  summary.points = std::move(plans);
  return summary;
}

}  // namespace

ReportModel load_report_model(store::RunStore& store, const std::vector<int64_t>& run_ids,
                              const ImageProbe& probe) {
  ReportModel model;
  model.db_path = store.path();
  model.generated = Timestamp{true, now_msecs()};
  const Warn warn = [&](const std::string& message) { model.warnings.push_back(message); };
  const ImageProbe read_size = probe ? probe : ImageProbe(probe_png);
  for (int64_t id : run_ids) model.runs.push_back(read_run(store, id, read_size, warn));
  model.config = config_rows(model.runs);
  model.ablations = read_ablations(store, model.runs);
  read_method_comparisons(store, model);
  model.plans = read_plans(store, model.runs);
  return model;
}

}  // namespace adala::report
