#include "engine/bench/scaling_bench.h"

#include <fmt/printf.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <stdexcept>

#include <ATen/Parallel.h>
#include <c10/core/InferenceMode.h>
#include <torch/nn/functional/loss.h>
#include <torch/optim/adamw.h>

#include "engine/bench/timed_runs_record.h"
#include "engine/bench/attention_bench.h"
#include "engine/measure/child_process.h"
#include "engine/measure/flop_model.h"
#include "engine/measure/op_counter.h"
#include "engine/measure/peak_memory.h"
#include "engine/kernels/fused_adamw.h"
#include "engine/json/json.h"
#include "engine/runtime/precision.h"
#include "engine/model/vision_transformer.h"

namespace adala {

const std::vector<std::string>& scaling_mode_names() {
  static const std::vector<std::string> names{"softmax", "softmax-chunked", "linear",
                                              "window-linear", "plan"};
  return names;
}

namespace {

// The attention of every block in a mode; "plan": the options' plan.
AttentionPlan plan_of(const ScalingOptions& o, const ViTConfig& c, const std::string& mode) {
  if (mode == "softmax" || mode == "softmax-chunked")
    return uniform_attention_plan(c.depth, AttentionMode::Softmax, o.window);
  if (mode == "linear") return uniform_attention_plan(c.depth, AttentionMode::Linear, o.window);
  if (mode == "window-linear")
    return uniform_attention_plan(c.depth, AttentionMode::WindowLinear, o.window);
  if (mode == "plan") {
    if (int64_t(o.plan.modes.size()) != c.depth)
      throw std::invalid_argument("the plan has " + std::to_string(o.plan.modes.size()) +
                                  " modes, " + o.preset + " has " + std::to_string(c.depth) +
                                  " blocks");
    return o.plan;
  }
  throw std::invalid_argument("unknown mode \"" + mode +
                              "\" (expected softmax, softmax-chunked, linear, window-linear or "
                              "plan)");
}

ViTConfig config_at(const std::string& preset, int64_t resolution) {
  ViTConfig c = vit_preset(preset);
  c.img_size = resolution;  // native position embeddings at this size (no interpolation)
  c.num_classes = 0;
  c.validate();
  return c;
}

VisionTransformer build_model(const ScalingOptions& o, const ViTConfig& c, const std::string& mode,
                              int64_t chunk) {
  torch::manual_seed(1234);
  VisionTransformer model(c);
  model->to(o.device);
  model->set_attention_plan(plan_of(o, c, mode));
  model->set_softmax_chunk(mode == "softmax-chunked" ? chunk : 0);
  return model;
}

// Libraries initialise on first use (OpenBLAS's ~32 MB GEMM buffers, oneDNN's convolution
// primitives, autograd's engine): one pass on a 2 x 2-patch image first, so the measured peak
// is the point's own memory. The training variant leaves no gradients behind.
void warm_up_libraries(VisionTransformer& model, const ViTConfig& c, const ScalingOptions& o,
                       bool backward) {
  auto tiny = torch::randn({1, c.in_chans, 2 * c.patch_size, 2 * c.patch_size},
                           torch::TensorOptions().device(o.device));
  auto y = model->forward_features(tiny);
  if (backward) {
    y.sum().backward();
    model->zero_grad(/*set_to_none=*/true);
  }
}

Json measure_inference(const ScalingOptions& o, const ViTConfig& c, const std::string& mode,
                       int64_t chunk) {
  c10::InferenceMode inference;
  // One autocast scope for the whole point, as an inference loop holds one: the weights'
  // lower-precision copies are made in the warm-up (and stay in the baseline).
  const AutocastScope autocast(o.device, precision_from_string(o.precision));
  auto model = build_model(o, c, mode, chunk);
  model->eval();
  auto images = torch::randn({o.batch, c.in_chans, c.img_size, c.img_size},
                             torch::TensorOptions().device(o.device));
  warm_up_libraries(model, c, o, false);
  synchronize_device(o.device);
  Json r = Json::object();
  {
    PeakMemoryProbe probe(o.device);  // baseline: weights and input in place, libraries initialised
    torch::Tensor out;
    auto forward = [&] {
      out = torch::Tensor();  // the previous output never adds to the next run's peak
      out = model->forward_features(images);
    };
    MeasuredOps ops;
    std::function<void()> counted;
    if (o.count_ops) counted = [&] { ops = count_ops(forward); };
    auto times = time_runs_ms(forward, o.warmup, o.repeats, o.device, o.point_budget_s, counted);
    out = torch::Tensor();
    record_timed_runs(r, times, probe.result());
    if (o.count_ops) r["macs"] = ops.macs / double(o.batch);
  }
  return r;
}

Json measure_train_step(const ScalingOptions& o, const ViTConfig& c, const std::string& mode,
                        int64_t chunk) {
  auto model = build_model(o, c, mode, chunk);
  model->train();
  auto images = torch::randn({o.batch, c.in_chans, c.img_size, c.img_size},
                             torch::TensorOptions().device(o.device));
  const int64_t tokens = c.num_tokens(c.img_size, c.img_size);
  auto target =
      torch::randn({o.batch, tokens, c.embed_dim}, torch::TensorOptions().device(o.device));
  warm_up_libraries(model, c, o, true);
  synchronize_device(o.device);
  Json r = Json::object();
  {
    PeakMemoryProbe probe(o.device);  // baseline: weights, input and target in place
    // Adam moments are created on the first step, inside the measured stretch.
    FusedAdamW opt(model->parameters(), torch::optim::AdamWOptions(1e-4).weight_decay(0.05));
    const Precision precision = precision_from_string(o.precision);
    auto step = [&] {
      opt.zero_grad();
      torch::Tensor loss;
      {
        const AutocastScope autocast(o.device, precision);  // forward only, as training does
        loss = torch::nn::functional::mse_loss(model->forward_features(images), target);
      }
      loss.to(torch::kFloat).backward();
      opt.step();
    };
    auto times = time_runs_ms(step, o.warmup, o.repeats, o.device, o.point_budget_s);
    opt.zero_grad();
    record_timed_runs(r, times, probe.result());
  }
  return r;
}

Json run_point(const ScalingOptions& o, const std::function<Json()>& fn) {
  if (o.isolate && o.device.is_cpu()) {
    auto outcome = run_in_child([&] { return fn().dump(); }, o.timeout_s);
    if (!outcome.ok) throw std::runtime_error(outcome.error);
    return parse_json_strict(outcome.payload);
  }
  return fn();
}

std::string skip_note(int64_t estimate, int64_t available) {
  return "skipped: needs ~" + format_bytes(double(estimate)) + " (" +
         format_bytes(double(available)) + " available)";
}

}  // namespace

int64_t vit_memory_estimate(const ViTConfig& c, const std::string& mode, int64_t resolution,
                            int64_t batch, int64_t chunk, bool train) {
  const double f = 4.0, b = double(batch);
  const double n = double(c.num_tokens(resolution, resolution)), dm = double(c.embed_dim);
  const double h = double(c.num_heads), d = double(c.head_dim()), depth = double(c.depth);
  const double params = depth * (16.0 * dm * dm) + n * dm;
  const double activations = 16.0 * n * dm * b * f;  // one block's live tensors
  double attention = 0, saved_attention = 0;
  if (mode == "softmax") {
    attention = 2.0 * h * n * n * b * f;
    saved_attention = h * n * n * b * f;  // the probabilities, kept for backward
  } else if (mode == "softmax-chunked") {
    attention = 2.0 * h * double(std::min<int64_t>(chunk, int64_t(n))) * n * b * f;
    saved_attention = h * n * n * b * f;  // every chunk's probabilities, kept for backward
  } else {
    attention = 6.0 * h * n * (d + 1) * b * f;
    // Training runs linear_attention_autograd: it keeps its output (the projection's input).
    saved_attention = h * n * d * b * f;
  }
  if (!train) return static_cast<int64_t>(activations + attention);
  const double saved = depth * (18.0 * n * dm * b * f + saved_attention);
  return static_cast<int64_t>(3.0 * params * f + saved + activations + attention);
}

size_t scaling_steps_per_resolution(const ScalingOptions& o) {
  const size_t kinds = (o.train_only ? 0 : 1) + (o.train_step || o.train_only ? 1 : 0);
  return o.modes.size() * size_t(std::max(o.rounds, 1)) * kinds;
}

namespace {

ScalingPoint analytic_point(const ScalingOptions& o, const ViTConfig& c, const std::string& mode,
                            int64_t res) {
  ScalingPoint p;
  p.preset = o.preset;
  p.mode = mode;
  p.resolution = res;
  p.batch = o.batch;
  p.tokens = c.num_tokens(res, res);
  p.chunk = mode == "softmax-chunked"
                ? (o.softmax_chunk > 0 ? o.softmax_chunk
                                       : auto_softmax_chunk(o.batch * c.num_heads, p.tokens))
                : 0;
  const auto flops = model_flops(c, plan_of(o, c, mode), res, res);
  p.model_macs = flops.total();
  p.attention_only_macs = flops.attention_only();
  // A plan's peak is its costliest block's: softmax where it has one; window+linear's windows
  // add O(N k^2) scores per head to linear attention's, left out of the estimate.
  const AttentionPlan plan = plan_of(o, c, mode);
  const bool any_softmax =
      std::count(plan.modes.begin(), plan.modes.end(), AttentionMode::Softmax) > 0;
  const std::string kind = mode == "plan"            ? (any_softmax ? "softmax" : "linear")
                           : mode == "window-linear" ? "linear"
                                                     : mode;
  p.estimate_bytes = vit_memory_estimate(c, kind, res, o.batch, p.chunk, false);
  p.train_estimate_bytes = vit_memory_estimate(c, kind, res, o.batch, p.chunk, true);
  return p;
}

// Weights and input, in place before a point's measured stretch.
double resident_bytes(const ScalingOptions& o, const ViTConfig& c, int64_t res) {
  const double weights = 4.0 * double(c.depth) * 16.0 * double(c.embed_dim) * double(c.embed_dim);
  return weights + 4.0 * double(o.batch) * double(c.in_chans * res * res);
}

// The skip note where the point would not fit in memory, else empty.
std::string memory_check(const ScalingOptions& o, int64_t estimate, double resident) {
  const int64_t available = o.available_bytes >= 0 ? o.available_bytes : available_memory_bytes();
  if (!o.device.is_cpu() || available <= 0 ||
      o.memory_margin * (double(estimate) + resident) <= double(available))
    return "";
  return skip_note(int64_t(double(estimate) + resident), available);
}

// Per-round results of one point (inference or training step), reduced to medians once all
// rounds are in.
struct RoundResults {
  std::vector<double> ms, rss, alloc;
  double min_ms = 0, max_ms = 0;  // over every timed run of every round
  int runs = 0;

  void add(const Json& r) {
    const double lo = r.at("min_ms").get<double>(), hi = r.at("max_ms").get<double>();
    min_ms = ms.empty() ? lo : std::min(min_ms, lo);
    max_ms = ms.empty() ? hi : std::max(max_ms, hi);
    ms.push_back(r.at("median_ms").get<double>());
    runs += r.at("runs").get<int>();
    rss.push_back(double(r.at("rss").get<int64_t>()));
    alloc.push_back(double(r.at("alloc").get<int64_t>()));
  }
};

void reduce_rounds(ScalingPoint& p, const RoundResults& r, int64_t batch) {
  p.ran = true;
  p.rounds = static_cast<int>(r.ms.size());
  p.ms_per_img = median(r.ms) / double(batch);
  p.ms_min = r.min_ms / double(batch);
  p.ms_max = r.max_ms / double(batch);
  p.imgs_per_s = 1000.0 / p.ms_per_img;
  p.timed_runs = r.runs;
  p.peak_rss_bytes = static_cast<int64_t>(median(r.rss));
  p.peak_alloc_bytes = static_cast<int64_t>(median(r.alloc));
  p.peak_rss_min_bytes = static_cast<int64_t>(*std::min_element(r.rss.begin(), r.rss.end()));
  p.peak_rss_max_bytes = static_cast<int64_t>(*std::max_element(r.rss.begin(), r.rss.end()));
}

void reduce_train_rounds(ScalingPoint& p, const RoundResults& r) {
  p.train_ran = true;
  p.train_rounds = static_cast<int>(r.ms.size());
  p.train_ms = median(r.ms);
  p.train_ms_min = r.min_ms;
  p.train_ms_max = r.max_ms;
  p.train_timed_runs = r.runs;
  p.train_peak_rss_bytes = static_cast<int64_t>(median(r.rss));
  p.train_peak_alloc_bytes = static_cast<int64_t>(median(r.alloc));
}

void note_load(ScalingPoint& p) { p.load_1m = std::max(p.load_1m, load_average()); }

// One kind of measurement (inference or the training step) of a resolution's points in
// interleaved rounds (round_order: softmax, linear, linear, softmax, ...), each in a fresh
// child per mode and round, a rate reading before and after each. A point whose note (`note`:
// the inference or the training note) is set is skipped; a failure sets it. Rounds after the
// first run only where the first took at most round_budget_s: at large resolutions a single
// run per mode takes minutes, and there the modes differ by far more than the machine's noise.
using MeasureFn = std::function<Json(const ScalingPoint&, int round)>;
std::vector<RoundResults> run_in_rounds(const ScalingOptions& o, std::vector<ScalingPoint>& at_res,
                                        std::string ScalingPoint::*note, const std::string& what,
                                        RateProbes& probes, size_t& done, size_t total,
                                        const ProgressFn& progress, const MeasureFn& measure) {
  std::vector<RoundResults> results(at_res.size());
  const auto started = std::chrono::steady_clock::now();
  int rounds = o.rounds;
  for (int round = 0; round < rounds; ++round) {
    for (size_t i : round_order(at_res.size(), round)) {
      ScalingPoint& p = at_res[i];
      if (progress)
        progress(done, total,
                 std::to_string(p.resolution) + "px " + p.mode + what +
                     (o.rounds > 1 ? " round " + std::to_string(round + 1) : ""));
      ++done;
      if (!(p.*note).empty()) continue;  // skipped for memory, or failed in an earlier round
      try {
        note_load(p);
        probes.before();
        Json r;
        try {
          r = run_point(o, [&] { return measure(p, round); });
        } catch (...) {
          probes.after(p.rates);
          throw;
        }
        probes.after(p.rates);
        results[i].add(r);
        if (r.contains("macs")) p.measured_macs = r.at("macs").get<double>();
      } catch (const std::exception& e) {
        p.*note = std::string("failed: ") + e.what();
      }
    }
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (round == 0 && elapsed > o.round_budget_s) {
      done += at_res.size() * size_t(rounds - 1);
      rounds = 1;
    }
  }
  return results;
}

}  // namespace

std::vector<ScalingPoint> run_scaling_bench(const ScalingOptions& o, const ProgressFn& progress) {
  if (o.repeats < 1) throw std::invalid_argument("repeats must be >= 1");
  if (o.rounds < 1) throw std::invalid_argument("rounds must be >= 1");
  if (o.batch < 1) throw std::invalid_argument("batch must be >= 1");
  // Throws, naming the known presets, an unknown mode, or a plan that does not fit the preset.
  const ViTConfig preset = vit_preset(o.preset);
  for (const auto& m : o.modes) plan_of(o, preset, m);
  const bool train = o.train_step || o.train_only;
  const size_t per_resolution = scaling_steps_per_resolution(o);
  const size_t total = o.resolutions.size() * per_resolution;
  RateProbes probes(o.rate_probe ? o.rate_probe : default_rate_probe(o.device, o.isolate));
  std::vector<ScalingPoint> points;
  for (size_t ri = 0; ri < o.resolutions.size(); ++ri) {
    const int64_t res = o.resolutions[ri];
    const ViTConfig c = config_at(o.preset, res);
    const double resident = resident_bytes(o, c, res);
    size_t done = ri * per_resolution;
    std::vector<ScalingPoint> at_res;
    for (const auto& mode : o.modes) {
      at_res.push_back(analytic_point(o, c, mode, res));
      at_res.back().note = o.train_only ? "not measured (training step only)"
                                        : memory_check(o, at_res.back().estimate_bytes, resident);
    }
    if (!o.train_only) {
      const auto results = run_in_rounds(o, at_res, &ScalingPoint::note, "", probes, done, total,
                                         progress, [&](const ScalingPoint& p, int round) {
                                           ScalingOptions once = o;
                                           once.count_ops = o.count_ops && round == 0;
                                           return measure_inference(once, c, p.mode, p.chunk);
                                         });
      for (size_t i = 0; i < at_res.size(); ++i)
        if (at_res[i].note.empty() && !results[i].ms.empty())
          reduce_rounds(at_res[i], results[i], o.batch);
    }
    if (train) {
      for (auto& p : at_res) p.train_note = memory_check(o, p.train_estimate_bytes, resident);
      const auto results = run_in_rounds(
          o, at_res, &ScalingPoint::train_note, " train step", probes, done, total, progress,
          [&](const ScalingPoint& p, int) { return measure_train_step(o, c, p.mode, p.chunk); });
      for (size_t i = 0; i < at_res.size(); ++i)
        if (at_res[i].train_note.empty() && !results[i].ms.empty())
          reduce_train_rounds(at_res[i], results[i]);
    }
    points.insert(points.end(), at_res.begin(), at_res.end());
  }
  if (progress) progress(total, total, "");
  return points;
}

RateRange scaling_rate_range(const std::vector<ScalingPoint>& points) {
  RateRange all;
  for (const auto& p : points) all.merge(p.rates);
  return all;
}

namespace {

std::string mb(int64_t bytes) {
  if (bytes < 0) return "-";
  std::string buf = fmt::sprintf("%.1f", double(bytes) / 1e6);
  return buf;
}

// Plain softmax at the same resolution, else softmax-chunked (marked "c").
const ScalingPoint* reference_of(const std::vector<ScalingPoint>& points, const ScalingPoint& p,
                                 bool train, const char** mark) {
  const ScalingPoint* chunked = nullptr;
  for (const auto& q : points) {
    if (q.resolution != p.resolution || !(train ? q.train_ran : q.ran)) continue;
    if (q.mode == "softmax") {
      *mark = "";
      return &q;
    }
    if (q.mode == "softmax-chunked") chunked = &q;
  }
  *mark = "c";
  return chunked;
}

// "x time" and "x mem" of a point against the reference of its resolution; "-" without one.
struct RatioCells {
  std::string time = "-", memory = "-";
};

RatioCells ratio_cells(const std::vector<ScalingPoint>& points, const ScalingPoint& p, bool train) {
  RatioCells cells;
  const char* mark = "";
  const ScalingPoint* ref = reference_of(points, p, train, &mark);
  if (!ref || ref == &p) return cells;
  if (train) {
    cells.time = fmt::sprintf("%.3f%s", p.train_ms / ref->train_ms, mark);
    if (ref->train_peak_rss_bytes > 0)
      cells.memory = fmt::sprintf(
          "%.3f%s", double(p.train_peak_rss_bytes) / double(ref->train_peak_rss_bytes), mark);
  } else {
    cells.time = fmt::sprintf("%.3f%s", p.ms_per_img / ref->ms_per_img, mark);
    if (ref->peak_rss_bytes > 0 && p.peak_rss_bytes >= 0)
      cells.memory =
          fmt::sprintf("%.3f%s", double(p.peak_rss_bytes) / double(ref->peak_rss_bytes), mark);
  }
  return cells;
}

// What was run and how it was timed, the machine's conditions and the reference matmul's rates.
std::string scaling_table_heading(const ScalingOptions& o, const RateRange& rates) {
  const ViTConfig c = vit_preset(o.preset);
  std::string out = fmt::sprintf(
      "scaling: %s (D=%lld, depth %lld, heads %lld, patch %lld), batch %lld, %s, %s, %d threads, "
      "per point the median over up to %d rounds ('rnd'; the modes of a resolution run "
      "interleaved, a fresh\nprocess per mode and round, further rounds only where one takes "
      "under %.0f s) of the median of up to %d timed runs\nafter %d warm-up (more until one "
      "no longer page-faults) ('runs': in all; "
      "fewer where %.0f s would not do)\n"
      "GMACs: 1 multiply-add = 1 FLOP (the paper's convention); 'model' = whole forward, "
      "'attn' = attention sub-layers + patch embed\n(the paper's GFLOPs), 'measured' = counted "
      "from the matmul/conv operators that ran, '2F/MAC' = whole model at 2 FLOPs per MAC.\n"
      "peak MB: RSS high-water mark above weights+input in a fresh process per point; alloc = "
      "LibTorch allocator peak.\n",
      o.preset.c_str(), (long long)c.embed_dim, (long long)c.depth, (long long)c.num_heads,
      (long long)c.patch_size, (long long)o.batch, o.device.str().c_str(),
      o.precision == "fp32" ? "fp32"
                            : (o.precision + " autocast (linear attention in fp32)").c_str(),
      at::get_num_threads(), o.rounds, o.round_budget_s, o.repeats, o.warmup, o.point_budget_s);
  out += "conditions at the end: " + machine_conditions() + "\n";
  out += run_rate_lines(rates, o.device);
  out += "\n";
  return out;
}

std::string inference_row(const std::vector<ScalingPoint>& points, const ScalingPoint& p) {
  const std::string chunk = p.chunk > 0 ? std::to_string(p.chunk) : "-";
  std::string measured = "-";
  if (p.measured_macs >= 0) measured = fmt::sprintf("%.2f", p.measured_macs * 1e-9);
  std::string out =
      fmt::sprintf("%5lld %6lld  %-15s %5s %9.2f %9.2f %9s %9.2f ", (long long)p.resolution,
                   (long long)p.tokens, p.mode.c_str(), chunk.c_str(), p.model_macs * 1e-9,
                   p.attention_only_macs * 1e-9, measured, 2e-9 * p.model_macs);
  if (!p.ran) return out + " " + p.note + "\n";
  const RatioCells ratios = ratio_cells(points, p, false);
  const std::string spread = fmt::sprintf("%.1f-%.1f", p.ms_min, p.ms_max);
  const std::string load = p.load_1m >= 0 ? fmt::sprintf("%.1f", p.load_1m) : "-";
  out += fmt::sprintf("%9s %9s %10.1f %17s %3d %4d %8.3f %7s %7s %5s %12s\n",
                      mb(p.peak_rss_bytes).c_str(), mb(p.peak_alloc_bytes).c_str(), p.ms_per_img,
                      spread, p.rounds, p.timed_runs, p.imgs_per_s, ratios.time, ratios.memory,
                      load, rate_range_cell(p.rates));
  return out;
}

// One line a point, a blank line between resolutions.
std::string inference_table(const std::vector<ScalingPoint>& points) {
  std::string out = fmt::sprintf(
      "%5s %6s  %-15s %5s %9s %9s %9s %9s %9s %9s %10s %17s %3s %4s %8s %7s %7s %5s %12s\n", "res",
      "tokens", "mode", "chunk", "model", "attn", "measured", "2F/MAC", "peak MB", "alloc MB",
      "ms/img", "min-max ms/img", "rnd", "runs", "imgs/s", "x time", "x mem", "load",
      "matmul GF/s");
  int64_t last = -1;
  for (const auto& p : points) {
    if (last >= 0 && p.resolution != last) out += "\n";
    last = p.resolution;
    out += inference_row(points, p);
  }
  return out;
}

std::string training_row(const std::vector<ScalingPoint>& points, const ScalingPoint& p,
                         int64_t batch) {
  if (!p.train_ran)
    return fmt::sprintf("%5lld %6lld  %-15s  %s\n", (long long)p.resolution, (long long)p.tokens,
                        p.mode.c_str(), p.train_note.c_str());
  const RatioCells ratios = ratio_cells(points, p, true);
  return fmt::sprintf("%5lld %6lld  %-15s %10.1f %17s %3d %4d %8.2f %9s %9s %7s %7s %12s\n",
                      (long long)p.resolution, (long long)p.tokens, p.mode.c_str(), p.train_ms,
                      fmt::sprintf("%.1f-%.1f", p.train_ms_min, p.train_ms_max), p.train_rounds,
                      p.train_timed_runs, 1000.0 * double(batch) / p.train_ms,
                      mb(p.train_peak_rss_bytes).c_str(), mb(p.train_peak_alloc_bytes).c_str(),
                      ratios.time, ratios.memory, rate_range_cell(p.rates));
}

// The training step's table, after the inference table unless that was left out.
std::string training_table(const std::vector<ScalingPoint>& points, const ScalingOptions& o) {
  std::string out = std::string(o.train_only ? "" : "\n") +
                    "one training step (forward, MSE to a fixed target, backward, AdamW), batch " +
                    std::to_string(o.batch) + ", per point the median over up to " +
                    std::to_string(o.rounds) + " rounds ('rnd', the modes interleaved as above)\n";
  out += fmt::sprintf("%5s %6s  %-15s %10s %17s %3s %4s %8s %9s %9s %7s %7s %12s\n", "res",
                      "tokens", "mode", "ms/step", "min-max ms/step", "rnd", "runs", "imgs/s",
                      "peak MB", "alloc MB", "x time", "x mem", "matmul GF/s");
  int64_t last = -1;
  for (const auto& p : points) {
    if (last >= 0 && p.resolution != last) out += "\n";
    last = p.resolution;
    out += training_row(points, p, o.batch);
  }
  return out;
}

}  // namespace

std::string format_scaling_table(const std::vector<ScalingPoint>& points, const ScalingOptions& o) {
  const RateRange rates = scaling_rate_range(points);
  std::string out = scaling_table_heading(o, rates);
  if (!o.train_only) out += inference_table(points);
  bool any_train = false;
  for (const auto& p : points) any_train = any_train || p.train_ran || !p.train_note.empty();
  if (any_train) out += training_table(points, o);
  out +=
      "\nx time / x mem: relative to plain softmax at the same resolution (suffix c: to "
      "softmax-chunked, where plain softmax was skipped).\nmin-max: the fastest and slowest "
      "single timed run over all rounds; load: the highest 1-minute load average read before "
      "the point's runs;\nmatmul GF/s: the reference matmul's lowest and highest rate read "
      "around the point's runs ('!': it moved by more than " +
      fmt::sprintf("%.0f", 100.0 * kUnsteadyRateMove) + " %).\n";
  if (rates.unsteady()) out += unsteady_rate_text(rates) + "\n";
  return out;
}

ScalingCsvRow scaling_csv_row(const ScalingPoint& p) {
  const auto megabytes = [](int64_t bytes) {
    return bytes < 0 ? ScalingCsvRow::kNone : double(bytes) / 1e6;
  };
  ScalingCsvRow row;
  row.preset = p.preset;
  row.resolution = p.resolution;
  row.tokens = p.tokens;
  row.mode = p.mode;
  row.chunk = p.chunk;
  row.batch = p.batch;
  row.gmacs_model = p.model_macs * 1e-9;
  row.gmacs_attention_only = p.attention_only_macs * 1e-9;
  row.gmacs_measured = p.measured_macs >= 0 ? p.measured_macs * 1e-9 : ScalingCsvRow::kNone;
  row.gflops_model_2x = 2e-9 * p.model_macs;
  row.ran = p.ran;
  row.note = p.note;
  if (p.ran) {
    row.ms_per_img = p.ms_per_img;
    row.ms_per_img_min = p.ms_min;
    row.ms_per_img_max = p.ms_max;
    row.timed_runs = p.timed_runs;
    row.imgs_per_s = p.imgs_per_s;
    row.peak_rss_mb = megabytes(p.peak_rss_bytes);
    row.peak_alloc_mb = megabytes(p.peak_alloc_bytes);
    row.peak_rss_mb_min = megabytes(p.peak_rss_min_bytes);
    row.peak_rss_mb_max = megabytes(p.peak_rss_max_bytes);
  }
  row.train_ran = p.train_ran;
  row.train_note = p.train_note;
  if (p.train_ran) {
    row.train_ms = p.train_ms;
    row.train_ms_min = p.train_ms_min;
    row.train_ms_max = p.train_ms_max;
    row.train_timed_runs = p.train_timed_runs;
    row.train_rounds = p.train_rounds;
    row.train_peak_rss_mb = megabytes(p.train_peak_rss_bytes);
    row.train_peak_alloc_mb = megabytes(p.train_peak_alloc_bytes);
  }
  row.rounds = p.rounds;
  if (p.load_1m >= 0) row.load_1m = p.load_1m;
  if (!p.rates.empty()) {
    row.matmul_gflops_min = p.rates.lo;
    row.matmul_gflops_max = p.rates.hi;
  }
  row.unsteady = p.rates.unsteady();
  return row;
}

namespace {
std::vector<ScalingCsvRow> scaling_csv_rows(const std::vector<ScalingPoint>& points) {
  std::vector<ScalingCsvRow> rows;
  for (const auto& p : points) rows.push_back(scaling_csv_row(p));
  return rows;
}
}  // namespace

void write_scaling_csv(std::ostream& out, const std::vector<ScalingPoint>& points) {
  write_scaling_csv(out, scaling_csv_rows(points));
}

void write_scaling_csv(const std::string& path, const std::vector<ScalingPoint>& points) {
  save_scaling_csv(path, scaling_csv_rows(points));
}

}  // namespace adala
