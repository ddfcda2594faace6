#include "app/cli/benchmark_record.h"

#include <cstdio>

#include "engine/store/run_store.h"

namespace adala::cli {

namespace {

double mb(int64_t bytes) { return bytes < 0 ? store::BenchmarkPoint::kNone : double(bytes) / 1e6; }

// The reference matmul's rate around the point (rate_range.h; absent in runs recorded before
// the probe), as the CSV's columns name it.
void add_rates(Json& extra, const RateRange& rates) {
  if (rates.empty()) return;
  extra["matmul_gflops_min"] = Json(rates.lo);
  extra["matmul_gflops_max"] = Json(rates.hi);
  extra["unsteady"] = Json(rates.unsteady());
}

store::BenchmarkPoint point_of(const ScalingPoint& p) {
  store::BenchmarkPoint b;
  b.benchmark = "scaling";
  b.preset = p.preset;
  b.mode = p.mode;
  b.resolution = p.resolution;
  b.tokens = p.tokens;
  b.batch = p.batch;
  b.gflops = p.model_macs * 1e-9;
  b.gflops_attention_only = p.attention_only_macs * 1e-9;
  if (p.measured_macs >= 0) b.gflops_measured = p.measured_macs * 1e-9;
  b.ran = p.ran;
  b.note = p.note;
  if (p.ran) {
    b.peak_mb = mb(p.peak_rss_bytes);
    b.peak_alloc_mb = mb(p.peak_alloc_bytes);
    b.ms_per_img = p.ms_per_img;
    b.imgs_per_s = p.imgs_per_s;
  }
  Json extra = Json::object();
  extra["chunk"] = Json(p.chunk);
  extra["timed_runs"] = Json(p.timed_runs);
  extra["rounds"] = Json(p.rounds);
  extra["estimate_mb"] = Json(double(p.estimate_bytes) / 1e6);
  if (p.ran) {  // the spread (absent in runs recorded before it was): scaling_csv.h
    extra["ms_per_img_min"] = Json(p.ms_min);
    extra["ms_per_img_max"] = Json(p.ms_max);
    if (p.peak_rss_min_bytes >= 0) extra["peak_mb_min"] = Json(mb(p.peak_rss_min_bytes));
    if (p.peak_rss_max_bytes >= 0) extra["peak_mb_max"] = Json(mb(p.peak_rss_max_bytes));
  }
  if (p.load_1m >= 0) extra["load_1m"] = Json(p.load_1m);
  add_rates(extra, p.rates);
  if (p.train_ran || !p.train_note.empty()) {
    extra["train_ran"] = Json(p.train_ran);
    extra["train_note"] = Json(p.train_note);
    if (p.train_ran) {
      extra["train_ms"] = Json(p.train_ms);
      extra["train_ms_min"] = Json(p.train_ms_min);
      extra["train_ms_max"] = Json(p.train_ms_max);
      extra["train_timed_runs"] = Json(p.train_timed_runs);
      extra["train_rounds"] = Json(p.train_rounds);
      extra["train_peak_mb"] = Json(mb(p.train_peak_rss_bytes));
      extra["train_peak_alloc_mb"] = Json(mb(p.train_peak_alloc_bytes));
    }
  }
  b.extra_json = extra.dump();
  return b;
}

store::BenchmarkPoint point_of(const AttentionBenchPoint& p, const AttentionBenchOptions& o) {
  store::BenchmarkPoint b;
  b.benchmark = "attention";
  b.mode = p.kernel;
  b.tokens = p.tokens;
  b.batch = o.batch;
  b.gflops = p.macs * 1e-9;
  b.ran = p.ran;
  b.note = p.note;
  if (p.ran) {
    b.peak_mb = mb(p.peak_rss_bytes);
    b.peak_alloc_mb = mb(p.peak_alloc_bytes);
    b.ms_per_img = p.median_ms;
  }
  Json extra = Json::object();
  extra["heads"] = Json(o.heads);
  extra["head_dim"] = Json(o.head_dim);
  extra["chunk"] = Json(p.chunk);
  extra["timed_runs"] = Json(p.timed_runs);
  if (p.ran) {
    extra["min_ms"] = Json(p.min_ms);
    extra["gflop_per_s"] = Json(p.gflops());  // 2 FLOPs per multiply-add
  }
  add_rates(extra, p.rates);
  b.extra_json = extra.dump();
  return b;
}

store::BenchmarkPoint point_of(const Stage2BenchPoint& p, const Stage2BenchOptions& o) {
  store::BenchmarkPoint b;
  b.benchmark = "stage2";
  b.preset = o.preset;
  b.mode = p.mode;
  b.resolution = o.resolution;
  b.batch = o.batch;
  b.ran = p.ran;
  b.note = p.note;
  Json extra = Json::object();
  extra["precision"] = Json(o.precision);
  if (p.ran) {
    b.peak_mb = mb(p.peak_rss_bytes);
    b.peak_alloc_mb = mb(p.peak_alloc_bytes);
    b.ms_per_img = p.step_ms / double(o.batch);
    b.imgs_per_s = p.imgs_per_s;
    extra["step_ms"] = Json(p.step_ms);
    extra["step_ms_min"] = Json(p.step_ms_min);
    extra["step_ms_max"] = Json(p.step_ms_max);
    extra["timed_runs"] = Json(p.timed_runs);
    extra["rounds"] = Json(p.rounds);
  }
  add_rates(extra, p.rates);
  b.extra_json = extra.dump();
  return b;
}

store::BenchmarkPoint peer_point(const std::string& side, const std::string& mode, double ms,
                                 double min_ms, const PeerOptions& o) {
  store::BenchmarkPoint b;
  b.benchmark = "peer";
  b.preset = o.preset;
  b.mode = side + " " + mode;
  b.resolution = o.resolution;
  b.batch = o.batch;
  b.ms_per_img = ms / double(o.batch);
  b.imgs_per_s = ms > 0 ? 1000.0 * double(o.batch) / ms : store::BenchmarkPoint::kNone;
  Json extra = Json::object();
  extra["median_ms"] = Json(ms);
  extra["min_ms"] = Json(min_ms);
  b.extra_json = extra.dump();
  return b;
}

RunRecord benchmark_run_record(const std::string& name, const Json& config,
                               const std::string& device) {
  RunRecord record;
  record.name = name;
  record.config_json = config.dump();
  record.device = device;
  record.kind = "benchmark";
  return record;
}

}  // namespace

BenchmarkRecord::BenchmarkRecord(const std::string& db_option, const std::string& name,
                                 const Json& config, const std::string& device)
    : session_(db_option, benchmark_run_record(name, config, device)) {
  if (!session_.recording()) return;
  std::fprintf(stderr, "benchmark run %lld recorded in %s\n", (long long)run_id(),
               session_.database_path().c_str());
  std::fflush(stderr);
}

BenchmarkRecord::~BenchmarkRecord() = default;  // the session marks an unfinished run failed

void BenchmarkRecord::add(const std::vector<ScalingPoint>& points) {
  if (!recording()) return;
  std::vector<store::BenchmarkPoint> rows;
  for (const auto& p : points) rows.push_back(point_of(p));
  session_.store()->add_benchmark_points(run_id(), rows);
}

void BenchmarkRecord::add(const std::vector<AttentionBenchPoint>& points,
                          const AttentionBenchOptions& options) {
  if (!recording()) return;
  std::vector<store::BenchmarkPoint> rows;
  for (const auto& p : points) rows.push_back(point_of(p, options));
  session_.store()->add_benchmark_points(run_id(), rows);
}

void BenchmarkRecord::add(const std::vector<Stage2BenchPoint>& points,
                          const Stage2BenchOptions& options) {
  if (!recording()) return;
  std::vector<store::BenchmarkPoint> rows;
  for (const auto& p : points) rows.push_back(point_of(p, options));
  session_.store()->add_benchmark_points(run_id(), rows);
}

void BenchmarkRecord::add(const PeerReport& r, const PeerOptions& o) {
  if (!recording()) return;
  store::RunStore& db = *session_.store();
  db.add_benchmark_points(
      run_id(), {peer_point("engine", "softmax", r.engine_softmax_ms, r.engine_softmax_min_ms, o),
                 peer_point("peer", "softmax", r.peer_softmax_ms, r.peer_softmax_min_ms, o),
                 peer_point("engine", "linear", r.engine_linear_ms, r.engine_linear_min_ms, o),
                 peer_point("peer", "linear", r.peer_linear_ms, r.peer_linear_min_ms, o),
                 peer_point("engine", "train-step", r.engine_train_ms, r.engine_train_min_ms, o),
                 peer_point("peer", "train-step", r.peer_train_ms, r.peer_train_min_ms, o)});
  const std::pair<const char*, double> differences[] = {
      {"softmax_features_rel", r.softmax_features_rel},
      {"linear_features_rel", r.linear_features_rel},
      {"loss_rel", r.loss_rel},
      {"grads_rel", r.grads_rel},
      {"updates_rel", r.updates_rel},
      {"updates_rel_large_grads", r.updates_rel_large_grads},
      {"post_step_features_rel", r.post_step_features_rel}};
  for (const auto& [key, value] : differences) {
    if (value >= 0) db.add_evaluation(run_id(), "peer", key, value);  // -1: not compared
  }
  db.add_evaluation(run_id(), "peer", "agrees", r.agrees ? 1.0 : 0.0);
}

void BenchmarkRecord::add_artifact(const std::string& kind, const std::string& path) {
  session_.add_artifact(kind, path);
}

void BenchmarkRecord::finish() { session_.finish(store::RunStatus::Done); }

}  // namespace adala::cli
