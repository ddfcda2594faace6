#include "engine/bench/attention_bench.h"

#include <fmt/printf.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <stdexcept>

#include <ATen/Parallel.h>
#include <ATen/ThreadLocalState.h>
#include <c10/core/InferenceMode.h>
#include <torch/csrc/autograd/autograd.h>

#include "engine/measure/child_process.h"
#include "engine/measure/flop_model.h"
#include "engine/kernels/linear_attention_autograd.h"
#include "engine/kernels/linear_attention_blocked.h"
#include "engine/measure/peak_memory.h"
#include "engine/kernels/attention_ops.h"
#include "engine/json/json.h"
#include "engine/runtime/device.h"

namespace adala {

const std::vector<std::string>& attention_kernel_names() {
  static const std::vector<std::string> names{"softmax",        "softmax-chunked", "linear",
                                              "linear-blocked", "linear-fused",    "window-linear"};
  return names;
}

const std::vector<std::string>& attention_train_kernel_names() {
  static const std::vector<std::string> names{"softmax", "linear", "linear-fused"};
  return names;
}

bool is_attention_kernel(const std::string& name) {
  const auto& n = attention_kernel_names();
  return std::find(n.begin(), n.end(), name) != n.end();
}

WindowLinearAttentionOptions window_bench_layout(int64_t n, int64_t window) {
  auto square_root = [](int64_t x) {
    auto r = static_cast<int64_t>(std::sqrt(double(x)));
    while (r * r > x) --r;
    while ((r + 1) * (r + 1) <= x) ++r;
    return r;
  };
  WindowLinearAttentionOptions o;
  o.window = window;
  const int64_t root = square_root(n), root_1 = square_root(std::max<int64_t>(n - 1, 0));
  o.prefix_tokens = root * root != n && n > 1 && root_1 * root_1 == n - 1 ? 1 : 0;
  const int64_t patches = n - o.prefix_tokens;
  o.grid_height = std::max<int64_t>(1, square_root(patches));
  while (patches % o.grid_height != 0) --o.grid_height;
  o.grid_width = patches / o.grid_height;
  return o;
}

std::string attention_point_label(const AttentionBenchPoint& p) {
  return p.kernel == "window-linear" ? p.kernel + " k=" + std::to_string(p.window) : p.kernel;
}

int64_t auto_softmax_chunk(int64_t batch_heads, int64_t n, int64_t budget_bytes) {
  const double per_row = 4.0 * double(batch_heads) * double(std::max<int64_t>(n, 1));
  int64_t rows = static_cast<int64_t>(double(budget_bytes) / per_row);
  rows = std::max<int64_t>(32, rows / 32 * 32);
  return std::min(rows, std::max<int64_t>(n, 1));
}

int64_t attention_kernel_memory_estimate(const std::string& kernel, int64_t bh, int64_t n,
                                         int64_t d, int64_t chunk, bool train) {
  const double f = 4.0, b = double(bh), nn = double(n), dd = double(d);
  const double buffers = 4.0 * 1024 * (dd + 2) * f * double(at::get_num_threads());
  double bytes = 0;
  if (train) {
    // Saved probabilities and, in the backward, their gradient and the scores' gradient.
    if (kernel == "softmax")
      bytes = 3 * b * nn * nn * f + 4 * b * nn * dd * f;
    else if (kernel == "softmax-chunked")
      bytes = b * nn * nn * f + 4 * b * double(std::min(chunk, n)) * nn * f + 4 * b * nn * dd * f;
    else if (kernel == "linear")
      bytes = 12 * b * nn * (dd + 1) * f;
    else if (kernel == "window-linear")  // phi, its saved values and about ten N x d gradients
      bytes = 14 * b * nn * (dd + 1) * f;
    else  // the output, its gradient and the three input gradients
      bytes = 5 * b * nn * dd * f + 2 * buffers;
    return static_cast<int64_t>(bytes);
  }
  if (kernel == "softmax")
    bytes = 2 * b * nn * nn * f + 2 * b * nn * dd * f;
  else if (kernel == "softmax-chunked")
    bytes = 2 * b * double(std::min(chunk, n)) * nn * f + 2 * b * nn * dd * f;
  else if (kernel == "linear")
    bytes = 6 * b * nn * (dd + 1) * f;
  else if (kernel == "window-linear")  // phi(Q), phi(K), phi(Q_patches) S and the output
    bytes = 4 * b * nn * (dd + 1) * f;
  else
    bytes = b * nn * dd * f + buffers;
  return static_cast<int64_t>(bytes);
}

at::Tensor run_attention_kernel(const std::string& kernel, const at::Tensor& q, const at::Tensor& k,
                                const at::Tensor& v, int64_t chunk, double eps, int64_t window) {
  const double scale = 1.0 / std::sqrt(double(q.size(-1)));
  if (kernel == "softmax") return softmax_attention(q, k, v, scale);
  if (kernel == "softmax-chunked") return softmax_attention_chunked(q, k, v, scale, chunk);
  if (kernel == "linear") return linear_attention(q, k, v, eps);
  if (kernel == "linear-blocked") return linear_attention_blocked(q, k, v, eps);
  if (kernel == "linear-fused") return linear_attention_autograd(q, k, v, eps);
  if (kernel == "window-linear")
    return window_linear_attention(q, k, elu_plus_one(q), elu_plus_one(k), v,
                                   window_bench_layout(q.size(2), window));
  throw std::invalid_argument("unknown attention kernel \"" + kernel +
                              "\" (expected softmax, softmax-chunked, linear, linear-blocked, "
                              "linear-fused or window-linear)");
}

double attention_point_macs(const std::string& kernel, int64_t bh, int64_t n, int64_t head_dim,
                            bool train, int64_t window) {
  if (kernel == "window-linear")
    return (train ? 3.0 : 1.0) * double(bh) *
           window_linear_attention_macs(window_bench_layout(n, window), head_dim, head_dim,
                                        head_dim);
  const auto mode =
      kernel.rfind("softmax", 0) == 0 ? AttentionMode::Softmax : AttentionMode::Linear;
  return (train ? 3.0 : 1.0) * attention_kernel_macs(mode, bh, n, head_dim);
}

namespace {

// Runs on the measuring side (a child process, or in-process off CPU).
// The forward alone, or with train the forward and the backward to q, k and v for the output
// gradient g. What it returns is released before the next run, so it never adds to its peak.
std::vector<at::Tensor> run_point_once(const std::string& kernel, const at::Tensor& q,
                                       const at::Tensor& k, const at::Tensor& v, int64_t chunk,
                                       int64_t window, const at::Tensor& g) {
  auto out = run_attention_kernel(kernel, q, k, v, chunk, 1e-6, window);
  if (!g.defined()) return {out};
  return torch::autograd::grad({out}, {q, k, v}, {g});
}

Json measure_point(const AttentionBenchOptions& o, const std::string& kernel, int64_t n,
                   int64_t chunk, int64_t window) {
  c10::optional<c10::InferenceMode> inference;
  if (!o.train) inference.emplace();
  at::manual_seed(1234);
  auto opts = at::TensorOptions().dtype(at::kFloat).device(o.device);
  auto input = [&](int64_t rows) {
    return at::randn({o.batch, o.heads, rows, o.head_dim}, opts).requires_grad_(o.train);
  };
  auto q = input(n), k = input(n), v = input(n);
  auto g = o.train ? at::randn({o.batch, o.heads, n, o.head_dim}, opts) : at::Tensor();
  {
    // Libraries initialise on first use (OpenBLAS's ~32 MB GEMM buffers, oneDNN): done here
    // on a tiny input so that the peak below is this point's own memory.
    auto t = input(kernel == "window-linear" ? 9 : 8);  // window-linear: 3 x 3 patches
    run_point_once(kernel, t, t, t, 8, window, o.train ? at::randn_like(t) : at::Tensor());
  }
  synchronize_device(o.device);
  Json r = Json::object();
  {
    PeakMemoryProbe probe(o.device);  // baseline: inputs in place, libraries initialised
    std::vector<at::Tensor> results;
    int warmup_runs = 0;
    auto times = time_runs_ms(
        [&] {
          results.clear();
          results = run_point_once(kernel, q, k, v, chunk, window, g);
        },
        o.warmup, o.repeats, o.device, o.point_budget_s, nullptr, &warmup_runs, o.min_warmup_ms);
    results.clear();
    const auto mem = probe.result();
    r["median_ms"] = median(times);
    r["runs"] = int64_t(times.size());
    r["warmup_runs"] = int64_t(warmup_runs);
    r["min_ms"] = *std::min_element(times.begin(), times.end());
    r["rss"] = mem.rss_bytes;
    r["alloc"] = mem.allocator_bytes;
  }
  return r;
}

// The points per N: each kernel in turn, window-linear once per window size.
struct KernelRun {
  std::string kernel;
  int64_t window = 0;
};

std::vector<KernelRun> kernel_runs(const AttentionBenchOptions& o) {
  std::vector<KernelRun> runs;
  for (const auto& kernel : o.kernels) {
    if (kernel != "window-linear") {
      runs.push_back({kernel, 0});
      continue;
    }
    if (o.windows.empty()) throw std::invalid_argument("window-linear needs a window size");
    for (int64_t w : o.windows) {
      if (w < 1 || w % 2 == 0)
        throw std::invalid_argument("window-linear's window must be odd and >= 1, not " +
                                    std::to_string(w));
      runs.push_back({kernel, w});
    }
  }
  return runs;
}

}  // namespace

std::vector<AttentionBenchPoint> run_attention_bench(const AttentionBenchOptions& o,
                                                     const ProgressFn& progress) {
  for (const auto& kname : o.kernels) {
    if (!is_attention_kernel(kname))
      run_attention_kernel(kname, {}, {}, {}, 0);  // throws, naming it
    if (o.train && kname == "linear-blocked")
      throw std::invalid_argument(
          "linear-blocked has no backward (it is the inference kernel): train times linear-fused");
  }
  if (o.repeats < 1) throw std::invalid_argument("repeats must be >= 1");
  const auto runs = kernel_runs(o);
  std::vector<AttentionBenchPoint> points;
  const size_t total = o.tokens.size() * runs.size();
  const bool isolate = o.isolate && o.device.is_cpu();
  RateProbes probes(o.rate_probe ? o.rate_probe : default_rate_probe(o.device, isolate));
  for (int64_t n : o.tokens) {
    for (const auto& run : runs) {
      const std::string& kernel = run.kernel;
      const int64_t window = run.window;
      AttentionBenchPoint p;
      p.tokens = n;
      p.kernel = kernel;
      p.window = window;
      if (progress)
        progress(points.size(), total, "N=" + std::to_string(n) + " " + attention_point_label(p));
      const int64_t bh = o.batch * o.heads;
      p.chunk =
          kernel == "softmax-chunked" ? (o.chunk > 0 ? o.chunk : auto_softmax_chunk(bh, n)) : 0;
      p.macs = attention_point_macs(kernel, bh, n, o.head_dim, o.train, window);
      p.estimate_bytes =
          attention_kernel_memory_estimate(kernel, bh, n, o.head_dim, p.chunk, o.train);
      const int64_t inputs = (o.train ? 4 : 3) * bh * n * o.head_dim * 4;
      const int64_t available =
          o.available_bytes >= 0 ? o.available_bytes : available_memory_bytes();
      if (o.device.is_cpu() && available > 0 &&
          o.memory_margin * double(p.estimate_bytes + inputs) > double(available)) {
        p.note = "skipped: needs ~" + format_bytes(double(p.estimate_bytes + inputs)) + " (" +
                 format_bytes(double(available)) + " available)";
        points.push_back(p);
        continue;
      }
      try {
        Json r;
        probes.before();
        try {
          if (isolate) {
            auto outcome = run_in_child(
                [&] { return measure_point(o, kernel, n, p.chunk, p.window).dump(); }, o.timeout_s);
            if (!outcome.ok) throw std::runtime_error(outcome.error);
            r = parse_json_strict(outcome.payload);
          } else {
            r = measure_point(o, kernel, n, p.chunk, p.window);
          }
        } catch (...) {
          probes.after(p.rates);
          throw;
        }
        probes.after(p.rates);
        p.ran = true;
        p.median_ms = r.at("median_ms").get<double>();
        p.min_ms = r.at("min_ms").get<double>();
        p.timed_runs = r.at("runs").get<int>();
        p.warmup_runs = r.at("warmup_runs").get<int>();
        p.peak_rss_bytes = r.at("rss").get<int64_t>();
        p.peak_alloc_bytes = r.at("alloc").get<int64_t>();
      } catch (const std::exception& e) {
        p.note = std::string("failed: ") + e.what();
      }
      points.push_back(p);
    }
  }
  if (progress) progress(total, total, "");
  return points;
}

namespace {

// "linear-fused vs the batched formula (linear): N=197 8.1x, ..." where both ran; empty if none.
std::string format_fused_speedups(const std::vector<AttentionBenchPoint>& points) {
  std::map<int64_t, double> batched_ms, fused_ms;
  for (const auto& p : points) {
    if (!p.ran) continue;
    if (p.kernel == "linear") batched_ms[p.tokens] = p.median_ms;
    if (p.kernel == "linear-fused") fused_ms[p.tokens] = p.median_ms;
  }
  std::string list;
  for (const auto& [n, ms] : fused_ms) {
    auto it = batched_ms.find(n);
    if (it == batched_ms.end() || ms <= 0) continue;
    list += fmt::sprintf("%s N=%lld %.1fx", list.empty() ? "" : ",", (long long)n, it->second / ms);
  }
  return list.empty() ? ""
                      : "linear-fused vs the batched formula (linear), times faster:" + list + "\n";
}

// What window-linear's rows timed, and the token layout per N; empty without such rows.
std::string format_window_layouts(const std::vector<AttentionBenchPoint>& points) {
  std::string layouts;
  int64_t last_n = -1;
  for (const auto& p : points) {
    if (p.kernel != "window-linear" || p.tokens == last_n) continue;
    last_n = p.tokens;
    const auto o = window_bench_layout(p.tokens, 1);
    layouts += fmt::sprintf("%s N=%lld: %s%lldx%lld", layouts.empty() ? "" : ",",
                            (long long)p.tokens, o.prefix_tokens > 0 ? "cls + " : "",
                            (long long)o.grid_height, (long long)o.grid_width);
  }
  return layouts.empty() ? ""
                         : "window-linear k: softmax weights over the k x k patch window (and any "
                           "class token), ELU+1\nlinear weights over the other tokens, one "
                           "normaliser (window_linear_attention.h); tokens:" +
                               layouts + "\n";
}

}  // namespace

std::string format_attention_table(const std::vector<AttentionBenchPoint>& points,
                                   const AttentionBenchOptions& o) {
  std::string out;
  std::string line = fmt::sprintf(
      "attention kernels%s: (B=%lld, heads=%lld, N, d=%lld) float32, %s, %d threads, median "
      "of up to %d after %d warm-up\n(more, up to %d, until one no longer page-faults, and for "
      "at least %.0f ms: 'warm' = warm-up runs); GFLOP/s at 2 FLOPs per MAC%s;\npeak memory "
      "measured above "
      "the inputs in a fresh process per point (RSS high-water mark / LibTorch allocator "
      "peak)\n",
      o.train ? ", forward + backward (gradients of q, k and v)" : "", (long long)o.batch,
      (long long)o.heads, (long long)o.head_dim, o.device.str().c_str(), at::get_num_threads(),
      o.repeats, o.warmup, kMaxSettlingRuns, o.min_warmup_ms,
      o.train ? ", 3 MACs per forward MAC" : "");
  out += line;
  out += "conditions at the end: " + machine_conditions() + "\n";
  RateRange rates;
  for (const auto& p : points) rates.merge(p.rates);
  out += run_rate_lines(rates, o.device);
  out += "\n";
  line = fmt::sprintf("%7s  %-18s %6s %11s %4s %4s %9s %11s %11s %9s %9s %12s\n", "N", "kernel",
                      "chunk", "ms", "runs", "warm", "GFLOP/s", "peak RSS", "alloc peak", "x time",
                      "x memory", "matmul GF/s");
  out += line;
  std::map<int64_t, const AttentionBenchPoint*> softmax, chunked;
  for (const auto& p : points) {
    if (!p.ran) continue;
    if (p.kernel == "softmax") softmax[p.tokens] = &p;
    if (p.kernel == "softmax-chunked") chunked[p.tokens] = &p;
  }
  int64_t last_n = -1;
  for (const auto& p : points) {
    if (last_n >= 0 && p.tokens != last_n) out += "\n";
    last_n = p.tokens;
    const std::string chunk = p.chunk > 0 ? std::to_string(p.chunk) : "-";
    if (!p.ran) {
      line = fmt::sprintf("%7lld  %-18s %6s  %s\n", (long long)p.tokens,
                          attention_point_label(p).c_str(), chunk.c_str(), p.note.c_str());
      out += line;
      continue;
    }
    const AttentionBenchPoint* ref = nullptr;
    const char* ref_mark = "";
    if (auto it = softmax.find(p.tokens); it != softmax.end()) {
      ref = it->second;
    } else if (auto jt = chunked.find(p.tokens); jt != chunked.end()) {
      ref = jt->second;
      ref_mark = "c";  // relative to softmax-chunked: plain softmax did not run
    }
    std::string tr = "-", mr = "-";
    if (ref && ref != &p) {
      tr = fmt::sprintf("%.3f%s", p.median_ms / ref->median_ms, ref_mark);
      if (ref->peak_rss_bytes > 0 && p.peak_rss_bytes >= 0)
        mr = fmt::sprintf("%.3f%s", double(p.peak_rss_bytes) / double(ref->peak_rss_bytes),
                          ref_mark);
    }
    line = fmt::sprintf(
        "%7lld  %-18s %6s %11.2f %4d %4d %9.1f %11s %11s %9s %9s %12s\n", (long long)p.tokens,
        attention_point_label(p).c_str(), chunk.c_str(), p.median_ms, p.timed_runs, p.warmup_runs,
        p.gflops(), format_bytes(double(p.peak_rss_bytes)).c_str(),
        format_bytes(double(p.peak_alloc_bytes)).c_str(), tr, mr, rate_range_cell(p.rates));
    out += line;
  }
  out +=
      "\nx time / x memory: relative to plain softmax at the same N (suffix c: to "
      "softmax-chunked,\n"
      "where plain softmax was skipped); memory ratios use the RSS peaks.\nmatmul GF/s: the "
      "reference matmul's rate read before and after the point ('!': it moved by more than " +
      fmt::sprintf("%.0f", 100.0 * kUnsteadyRateMove) + " %).\n";
  out += format_fused_speedups(points);
  out += format_window_layouts(points);
  if (rates.unsteady()) out += unsteady_rate_text(rates) + "\n";
  return out;
}

GemmRate measure_gemm_rate(int64_t n, int repeats) {
  c10::InferenceMode inference;
  GemmRate r;
  r.n = n;
  r.threads = at::get_num_threads();
  const double flops = 2.0 * double(n) * double(n) * double(n);
  auto a = at::randn({n, n}), b = at::randn({n, n});
  auto c = at::empty({n, n});
  auto t1 = time_runs_ms([&] { at::mm_out(c, a, b); }, 1, repeats, c10::Device(c10::kCPU));
  r.library_gflops = flops / (median(t1) * 1e6);
  const int t = std::max(1, r.threads);
  std::vector<at::Tensor> as, bs, cs;
  for (int i = 0; i < t; ++i) {
    as.push_back(at::randn({n, n}));
    bs.push_back(at::randn({n, n}));
    cs.push_back(at::empty({n, n}));
  }
  // OpenMP workers do not inherit the caller's inference mode: each takes it over.
  const at::ThreadLocalState caller_state;
  const SingleThreadedBlas one_blas_thread_per_worker;
  auto t2 = time_runs_ms(
      [&] {
        at::parallel_for(0, t, 1, [&](int64_t begin, int64_t end) {
          at::ThreadLocalStateGuard state_guard(caller_state);
          for (int64_t i = begin; i < end; ++i)
            at::mm_out(cs[size_t(i)], as[size_t(i)], bs[size_t(i)]);
        });
      },
      1, repeats, c10::Device(c10::kCPU));
  r.all_threads_gflops = double(t) * flops / (median(t2) * 1e6);
  return r;
}

}  // namespace adala
