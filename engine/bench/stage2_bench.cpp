#include "engine/bench/stage2_bench.h"

#include <fmt/printf.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include <ATen/Parallel.h>

#include "engine/bench/timed_runs_record.h"
#include "engine/measure/child_process.h"
#include "engine/measure/peak_memory.h"
#include "engine/kernels/fused_adamw.h"
#include "engine/json/json.h"
#include "engine/runtime/precision.h"
#include "engine/model/vision_transformer.h"
#include "engine/train/stages.h"

namespace adala {

const std::vector<std::string>& stage2_mode_names() {
  static const std::vector<std::string> names{"softmax", "linear", "plan"};
  return names;
}

namespace {

ViTConfig stage2_config(const Stage2BenchOptions& o) {
  ViTConfig c = vit_preset(o.preset);
  c.img_size = o.resolution;  // native position embeddings at this size
  c.num_classes = 0;
  c.validate();
  return c;
}

// The student's attention in every block for a mode; "plan": the options' plan.
AttentionPlan student_plan(const Stage2BenchOptions& o, const ViTConfig& c,
                           const std::string& mode) {
  if (mode == "softmax") return uniform_attention_plan(c.depth, AttentionMode::Softmax);
  if (mode == "linear") return uniform_attention_plan(c.depth, AttentionMode::Linear);
  if (mode == "plan") {
    if (int64_t(o.plan.modes.size()) != c.depth)
      throw std::invalid_argument("the plan has " + std::to_string(o.plan.modes.size()) +
                                  " modes, " + o.preset + " has " + std::to_string(c.depth) +
                                  " blocks");
    return o.plan;
  }
  throw std::invalid_argument("unknown student mode \"" + mode +
                              "\" (expected softmax, linear or plan)");
}

Json measure_step(const Stage2BenchOptions& o, const std::string& mode) {
  const ViTConfig c = stage2_config(o);
  torch::manual_seed(1234);
  VisionTransformer teacher(c), student(c);
  teacher->to(o.device);
  student->to(o.device);
  teacher->eval();
  teacher->set_attention_mode(AttentionMode::Softmax);
  for (auto& p : teacher->parameters()) p.set_requires_grad(false);
  student->set_attention_plan(student_plan(o, c, mode));
  student->train();
  const auto options = torch::TensorOptions().device(o.device);
  auto images = torch::randn({o.batch, c.in_chans, o.resolution, o.resolution}, options);
  const Precision precision = precision_from_string(o.precision);
  {
    // Libraries initialise on a tiny image first, so that the peak below is the step's own.
    auto tiny = torch::randn({1, c.in_chans, 2 * c.patch_size, 2 * c.patch_size}, options);
    student->forward_features(tiny).sum().backward();
    student->zero_grad(/*set_to_none=*/true);
  }
  synchronize_device(o.device);
  Json r = Json::object();
  {
    PeakMemoryProbe probe(o.device);  // baseline: both models and the batch in place
    FusedAdamW opt(student->parameters(), torch::optim::AdamWOptions(1e-4).weight_decay(0.0));
    auto step = [&] {
      opt.zero_grad();
      StepOutput out;
      {
        const AutocastScope autocast(o.device, precision);  // the forward passes only
        out = FeatureAlignmentStage::loss(teacher, student, images);
      }
      out.loss.to(torch::kFloat).backward();
      opt.step();
    };
    const auto times = time_runs_ms(step, o.warmup, o.repeats, o.device, o.point_budget_s);
    opt.zero_grad();
    record_timed_runs(r, times, probe.result());
  }
  return r;
}

Json run_measurement(const Stage2BenchOptions& o, const std::string& mode) {
  if (o.isolate && o.device.is_cpu()) {
    auto outcome = run_in_child([&] { return measure_step(o, mode).dump(); }, o.timeout_s);
    if (!outcome.ok) throw std::runtime_error(outcome.error);
    return parse_json_strict(outcome.payload);
  }
  return measure_step(o, mode);
}

}  // namespace

std::vector<Stage2BenchPoint> run_stage2_bench(const Stage2BenchOptions& o,
                                               const ProgressFn& progress) {
  if (o.modes.empty()) throw std::invalid_argument("no student mode given");
  if (o.repeats < 1) throw std::invalid_argument("repeats must be >= 1");
  if (o.rounds < 1) throw std::invalid_argument("rounds must be >= 1");
  if (o.batch < 1) throw std::invalid_argument("batch must be >= 1");
  // Throws for an unknown preset, a resolution the patches do not tile, an unknown mode or a
  // plan that does not fit the preset.
  const ViTConfig config = stage2_config(o);
  for (const auto& m : o.modes) student_plan(o, config, m);
  check_precision_supported(precision_from_string(o.precision), o.device);
  RateProbes probes(o.rate_probe ? o.rate_probe : default_rate_probe(o.device, o.isolate));
  std::vector<Stage2BenchPoint> points(o.modes.size());
  struct Rounds {
    std::vector<double> ms, rss, alloc;
    double min_ms = 0, max_ms = 0;
    int runs = 0;
  };
  std::vector<Rounds> results(o.modes.size());
  for (size_t i = 0; i < o.modes.size(); ++i) points[i].mode = o.modes[i];
  const size_t total = o.modes.size() * size_t(o.rounds);
  size_t done = 0;
  const auto started = std::chrono::steady_clock::now();
  int rounds = o.rounds;
  for (int round = 0; round < rounds; ++round) {
    for (size_t i : round_order(points.size(), round)) {
      Stage2BenchPoint& p = points[i];
      if (progress)
        progress(done, total,
                 p.mode + " student" + (o.rounds > 1 ? " round " + std::to_string(round + 1) : ""));
      ++done;
      if (!p.note.empty()) continue;  // failed in an earlier round
      try {
        probes.before();
        Json r;
        try {
          r = run_measurement(o, p.mode);
        } catch (...) {
          probes.after(p.rates);
          throw;
        }
        probes.after(p.rates);
        Rounds& into = results[i];
        const double lo = r.at("min_ms").get<double>(), hi = r.at("max_ms").get<double>();
        into.min_ms = into.ms.empty() ? lo : std::min(into.min_ms, lo);
        into.max_ms = into.ms.empty() ? hi : std::max(into.max_ms, hi);
        into.ms.push_back(r.at("median_ms").get<double>());
        into.runs += r.at("runs").get<int>();
        into.rss.push_back(double(r.at("rss").get<int64_t>()));
        into.alloc.push_back(double(r.at("alloc").get<int64_t>()));
      } catch (const std::exception& e) {
        p.note = std::string("failed: ") + e.what();
      }
    }
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (round == 0 && elapsed > o.round_budget_s) {
      done += points.size() * size_t(rounds - 1);
      rounds = 1;
    }
  }
  for (size_t i = 0; i < points.size(); ++i) {
    Stage2BenchPoint& p = points[i];
    const Rounds& r = results[i];
    if (!p.note.empty() || r.ms.empty()) continue;
    p.ran = true;
    p.rounds = static_cast<int>(r.ms.size());
    p.step_ms = median(r.ms);
    p.step_ms_min = r.min_ms;
    p.step_ms_max = r.max_ms;
    p.imgs_per_s = 1000.0 * double(o.batch) / p.step_ms;
    p.timed_runs = r.runs;
    p.peak_rss_bytes = static_cast<int64_t>(median(r.rss));
    p.peak_alloc_bytes = static_cast<int64_t>(median(r.alloc));
  }
  if (progress) progress(total, total, "");
  return points;
}

std::string format_stage2_table(const std::vector<Stage2BenchPoint>& points,
                                const Stage2BenchOptions& o) {
  const ViTConfig c = stage2_config(o);
  std::string out = fmt::sprintf(
      "stage 2 step: %s at %lld^2 (%lld tokens), batch %lld, %s, %s, %d threads: the frozen "
      "softmax teacher's forward, the student's\nforward, feature MSE, backward and AdamW; per "
      "mode the median over up to %d interleaved rounds ('rnd', a fresh process per\nmode and "
      "round on CPU) of the median of up to %d timed steps after %d warm-up\n",
      o.preset.c_str(), (long long)o.resolution,
      (long long)c.num_tokens(o.resolution, o.resolution), (long long)o.batch,
      o.device.str().c_str(),
      o.precision == "fp32" ? "fp32"
                            : (o.precision + " autocast (linear attention in fp32)").c_str(),
      at::get_num_threads(), o.rounds, o.repeats, o.warmup);
  if (std::find(o.modes.begin(), o.modes.end(), "plan") != o.modes.end())
    out += "plan: " + describe_attention_plan(o.plan) + "\n";
  out += "conditions at the end: " + machine_conditions() + "\n";
  RateRange rates;
  for (const auto& p : points) rates.merge(p.rates);
  out += run_rate_lines(rates, o.device);
  out += fmt::sprintf("\n%-8s %10s %17s %3s %4s %9s %9s %9s %11s %12s\n", "student", "ms/step",
                      "min-max ms/step", "rnd", "runs", "img/s", "peak MB", "alloc MB", "x softmax",
                      "matmul GF/s");
  const Stage2BenchPoint* softmax = nullptr;
  for (const auto& p : points)
    if (p.ran && p.mode == "softmax") softmax = &p;
  for (const auto& p : points) {
    if (!p.ran) {
      out += fmt::sprintf("%-8s  %s\n", p.mode.c_str(), p.note.c_str());
      continue;
    }
    const auto mb = [](int64_t bytes) {
      return bytes < 0 ? std::string("-") : fmt::sprintf("%.1f", double(bytes) / 1e6);
    };
    const std::string ratio =
        softmax && softmax != &p ? fmt::sprintf("%.3f", p.imgs_per_s / softmax->imgs_per_s) : "-";
    out += fmt::sprintf("%-8s %10.1f %17s %3d %4d %9.2f %9s %9s %11s %12s\n", p.mode.c_str(),
                        p.step_ms, fmt::sprintf("%.1f-%.1f", p.step_ms_min, p.step_ms_max),
                        p.rounds, p.timed_runs, p.imgs_per_s, mb(p.peak_rss_bytes).c_str(),
                        mb(p.peak_alloc_bytes).c_str(), ratio, rate_range_cell(p.rates));
  }
  out +=
      "\nx softmax: img/s relative to the softmax student's (above 1: faster). matmul GF/s: the "
      "reference matmul's lowest and highest rate\nread around the mode's runs ('!': it moved "
      "by more than " +
      fmt::sprintf("%.0f", 100.0 * kUnsteadyRateMove) + " %).\n";
  if (rates.unsteady()) out += unsteady_rate_text(rates) + "\n";
  return out;
}

}  // namespace adala
