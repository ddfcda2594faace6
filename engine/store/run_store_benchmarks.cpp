// Benchmark runs: the points of `adala bench scaling|attention|peer` in benchmark_points.
#include "engine/store/run_store_impl.h"

namespace adala::store {

namespace {

// Columns in the order both the insert and the select use.
constexpr const char* kPointColumns =
    "benchmark, preset, mode, resolution, tokens, batch, gflops, gflops_attention_only,"
    " gflops_measured, peak_mb, peak_alloc_mb, ms_per_img, imgs_per_s, ran, note, extra_json";

}  // namespace

void RunStore::add_benchmark_points(int64_t run, const std::vector<BenchmarkPoint>& points) {
  impl_->require_writable("add benchmark points");
  sqlite::Transaction transaction(*impl_->db);
  impl_->write_pending();
  auto& kind = impl_->db->cached("SELECT kind FROM runs WHERE id = ?1");
  kind.bind(1, run);
  const bool found = kind.step();
  const std::string run_kind = found ? kind.text_at(0) : "";
  kind.reset();
  if (!found) {
    throw StoreError(StoreErrorKind::InvalidArgument,
                     "run database " + impl_->path + " has no run " + std::to_string(run));
  }
  if (run_kind != "benchmark") {
    throw StoreError(StoreErrorKind::InvalidArgument,
                     "run " + std::to_string(run) + " is a " + run_kind +
                         " run, not a benchmark run: it cannot hold benchmark points");
  }
  auto& next =
      impl_->db->cached("SELECT ifnull(max(idx), -1) + 1 FROM benchmark_points WHERE run_id = ?1");
  next.bind(1, run);
  next.step();
  int64_t index = next.int64_at(0);
  next.reset();

  auto& insert = impl_->db->cached(
      std::string("INSERT INTO benchmark_points (run_id, idx, ") + kPointColumns +
      ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)");
  for (const BenchmarkPoint& p : points) {
    insert.bind(1, run).bind(2, index++);
    insert.bind(3, p.benchmark).bind(4, p.preset).bind(5, p.mode);
    insert.bind(6, p.resolution).bind(7, p.tokens).bind(8, p.batch);
    insert.bind(9, p.gflops).bind(10, p.gflops_attention_only).bind(11, p.gflops_measured);
    insert.bind(12, p.peak_mb).bind(13, p.peak_alloc_mb);
    insert.bind(14, p.ms_per_img).bind(15, p.imgs_per_s);
    insert.bind(16, p.ran ? 1 : 0).bind(17, p.note);
    insert.bind(18, p.extra_json.empty() ? std::string("{}") : p.extra_json);
    insert.run();
  }
  transaction.commit();
}

std::vector<BenchmarkPoint> RunStore::benchmark_points(int64_t run) {
  auto& query = impl_->db->cached(std::string("SELECT ") + kPointColumns +
                                  " FROM benchmark_points WHERE run_id = ?1 ORDER BY idx");
  query.bind(1, run);
  std::vector<BenchmarkPoint> points;
  while (query.step()) {
    BenchmarkPoint p;
    p.benchmark = query.text_at(0);
    p.preset = query.text_at(1);
    p.mode = query.text_at(2);
    p.resolution = query.int64_at(3);
    p.tokens = query.int64_at(4);
    p.batch = query.int64_at(5);
    p.gflops = query.double_at(6);
    p.gflops_attention_only = query.double_at(7);
    p.gflops_measured = query.double_at(8);
    p.peak_mb = query.double_at(9);
    p.peak_alloc_mb = query.double_at(10);
    p.ms_per_img = query.double_at(11);
    p.imgs_per_s = query.double_at(12);
    p.ran = query.int64_at(13) != 0;
    p.note = query.text_at(14);
    p.extra_json = query.text_at(15);
    points.push_back(std::move(p));
  }
  query.reset();
  return points;
}

}  // namespace adala::store
