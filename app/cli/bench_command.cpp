// `adala bench attention|scaling|stage2|flops|peer|loader`: benchmarks of the engine on this
// machine.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <ATen/Parallel.h>

#include <fmt/format.h>

#include "app/cli/arg_parser.h"
#include "app/cli/bench_loader.h"
#include "app/cli/benchmark_record.h"
#include "app/cli/commands.h"
#include "app/cli/progress_events.h"
#include "engine/bench/attention_bench.h"
#include "engine/measure/flop_model.h"
#include "engine/bench/peer_comparison.h"
#include "engine/bench/scaling_bench.h"
#include "engine/bench/stage2_bench.h"
#include "engine/runtime/device.h"
#include "engine/runtime/precision.h"
#include "engine/model/vit_config.h"

namespace adala::cli {

namespace {

Json int_array(const std::vector<int64_t>& values) {
  Json a = Json::array();
  for (int64_t v : values) a.push_back(Json(v));
  return a;
}

Json string_array(const std::vector<std::string>& values) {
  Json a = Json::array();
  for (const auto& v : values) a.push_back(Json(v));
  return a;
}

// "224-1024" for the name of a recorded run.
std::string range_text(const std::vector<int64_t>& values) {
  if (values.empty()) return "";
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  return *lo == *hi ? std::to_string(*lo) : std::to_string(*lo) + "-" + std::to_string(*hi);
}

// A progress bar on stderr: redrawn in place on a terminal, one line per point otherwise.
ProgressFn progress_bar(const std::string& title) {
  const bool tty = ::isatty(STDERR_FILENO) != 0;
  return [title, tty](size_t done, size_t total, const std::string& label) {
    const int width = 28;
    const int filled = total ? static_cast<int>(width * done / total) : width;
    std::string bar(size_t(filled), '#');
    bar += std::string(size_t(width - filled), '.');
    if (tty) {
      std::fprintf(stderr, "\r%s [%s] %zu/%zu %-36s", title.c_str(), bar.c_str(), done, total,
                   label.c_str());
      if (done == total) std::fprintf(stderr, "\n");
    } else if (done < total) {
      std::fprintf(stderr, "%s [%s] %zu/%zu %s\n", title.c_str(), bar.c_str(), done, total,
                   label.c_str());
    } else {
      std::fprintf(stderr, "%s [%s] %zu/%zu done\n", title.c_str(), bar.c_str(), done, total);
    }
    std::fflush(stderr);
  };
}

// A comma-separated list of positive integers, e.g. --res 224,448,1024.
// "a,b,c": a list's default as it is typed.
template <typename T>
std::string comma_list(const std::vector<T>& values) {
  std::string text;
  for (const auto& v : values) text += (text.empty() ? "" : ",") + fmt::format("{}", v);
  return text;
}

// A comma-separated list of positive integers, e.g. --res 224,448,1024.
CLI::Option* add_int_list(CLI::App& app, const std::string& name, std::vector<int64_t>& values,
                          const std::string& help) {
  return app.add_option(name, values, help)
      ->delimiter(',')
      ->allow_extra_args(false)
      ->check(positive_number())
      ->default_str(comma_list(values));
}

CLI::Option* add_name_list(CLI::App& app, const std::string& name, std::vector<std::string>& values,
                           const std::vector<std::string>& known, const std::string& help) {
  return app.add_option(name, values, help)
      ->delimiter(',')
      ->allow_extra_args(false)
      ->check(CLI::IsMember(known))
      ->default_str(comma_list(values));
}

struct AttentionArgs {
  AttentionBenchOptions o;
  std::string device = "cpu", db;
  int64_t gemm_n = 2048;
  bool no_gemm = false, in_process = false;
  CLI::Option* kernels = nullptr;
  CLI::Option* windows = nullptr;
};

void declare_attention(CLI::App& app, AttentionArgs& a) {
  app.add_option("--heads", a.o.heads)->check(positive_number());
  app.add_option("--head-dim", a.o.head_dim)->check(positive_number());
  app.add_option("--batch", a.o.batch)->check(positive_number());
  add_int_list(app, "--tokens", a.o.tokens, "sequence lengths N");
  app.add_option("--repeats", a.o.repeats, "timed runs per point")->check(positive_number());
  app.add_option("--warmup", a.o.warmup)->check(non_negative_number());
  app.add_option("--min-warmup-ms", a.o.min_warmup_ms,
                 "warm-up goes on until it has lasted this long (default 200)")
      ->check(CLI::Range(0.0, 60000.0));
  a.kernels = add_name_list(
      app, "--kernels", a.o.kernels, attention_kernel_names(),
      "attention kernels (with --train: " + comma_list(attention_train_kernel_names()) + ")");
  a.windows = add_int_list(app, "--window", a.o.windows,
                           "window-linear's k x k patch windows, odd (given without --kernels "
                           "naming window-linear: adds window-linear to the kernels)");
  a.windows->check(CLI::Validator(
      [](std::string& text) -> std::string {
        try {
          return std::stoll(text) % 2 == 1 ? "" : "the window must be odd, not " + text;
        } catch (const std::exception&) {
          return "not a number: " + text;
        }
      },
      "ODD"));
  app.add_flag("--train", a.o.train,
               "time forward + backward (the gradients of q, k and v) instead of the forward");
  app.add_option("--chunk", a.o.chunk, "softmax-chunked query rows (0: automatic)")
      ->check(non_negative_number());
  app.add_option("--device", a.device, "cpu, cuda or auto");
  app.add_option("--memory-margin", a.o.memory_margin,
                 "a point runs where margin x its estimate fits the memory available")
      ->check(positive_number());
  app.add_option("--point-budget", a.o.point_budget_s,
                 "seconds: fewer timed repeats where one run takes long")
      ->check(positive_number());
  app.add_option("--gemm-n", a.gemm_n, "side of the matmul that measures the machine's rate")
      ->check(positive_number());
  app.add_flag("--no-gemm", a.no_gemm, "do not measure the matmul rate");
  app.add_flag("--in-process", a.in_process, "no child process per point");
  app.add_option("--db", a.db, "the run database, or none (not recorded)");
}

int bench_attention(AttentionArgs& a) {
  AttentionBenchOptions& o = a.o;
  o.device = resolve_device(a.device);
  o.isolate = !a.in_process;
  if (o.train && a.kernels->count() == 0) o.kernels = attention_train_kernel_names();
  if (a.windows->count() > 0 &&
      std::find(o.kernels.begin(), o.kernels.end(), "window-linear") == o.kernels.end())
    o.kernels.push_back("window-linear");
  std::fprintf(stderr, "%s", busy_machine_warning().c_str());
  Json config = Json::object();
  config["benchmark"] = Json("attention");
  config["heads"] = Json(o.heads);
  config["head_dim"] = Json(o.head_dim);
  config["batch"] = Json(o.batch);
  config["tokens"] = int_array(o.tokens);
  config["kernels"] = string_array(o.kernels);
  config["train"] = Json(o.train);
  if (std::find(o.kernels.begin(), o.kernels.end(), "window-linear") != o.kernels.end())
    config["windows"] = int_array(o.windows);
  config["repeats"] = Json(o.repeats);
  config["warmup"] = Json(o.warmup);
  config["min_warmup_ms"] = Json(o.min_warmup_ms);
  config["threads"] = Json(at::get_num_threads());
  config["conditions"] = Json(machine_conditions());
  BenchmarkRecord record(
      a.db,
      std::string("bench attention ") + (o.train ? "--train " : "") + "N=" + range_text(o.tokens),
      config, o.device.str());
  auto points = run_attention_bench(o, progress_bar("bench attention"));
  record.add(points, o);
  record.finish();
  std::printf("%s", format_attention_table(points, o).c_str());
  if (!a.no_gemm && o.device.is_cpu()) {
    // After the points: this runs in the parent, whose own thread pool starts only now.
    const auto g = measure_gemm_rate(a.gemm_n);
    std::printf(
        "\nmatmul rate here (float32 %lld^3, %d threads): one at::mm %.1f GFLOP/s; one at::mm per "
        "thread at once %.1f GFLOP/s\n",
        (long long)g.n, g.threads, g.library_gflops, g.all_threads_gflops);
    for (const auto& pt : points) {
      if (!pt.ran || pt.kernel.rfind("linear", 0) != 0 || pt.tokens != o.tokens.back()) continue;
      std::printf(
          "  %-15s N=%lld: %.1f GFLOP/s = %.0f%% of one at::mm, %.0f%% of the all-threads rate\n",
          pt.kernel.c_str(), (long long)pt.tokens, pt.gflops(),
          100.0 * pt.gflops() / g.library_gflops, 100.0 * pt.gflops() / g.all_threads_gflops);
    }
  }
  return 0;
}

// --plan / --softmax-blocks / --window of a whole-model benchmark (bench scaling, bench
// stage2): a hybrid student's attention per block, measured as the "plan" mode.
struct PlanArgs {
  std::vector<std::string> plan;        // --plan: one mode per block
  std::vector<int64_t> softmax_blocks;  // --softmax-blocks: those softmax, the others linear
  int64_t window = kDefaultAttentionWindow;
};

void declare_plan(CLI::App& app, PlanArgs& a) {
  add_name_list(app, "--plan", a.plan, attention_mode_names(),
                "the \"plan\" mode's attention per block, e.g. softmax,linear,window+linear,... "
                "(one per block of --preset; adds \"plan\" to --modes)");
  app.add_option("--softmax-blocks", a.softmax_blocks,
                 "the \"plan\" mode: these blocks softmax, the others linear, e.g. 0,5 (adds "
                 "\"plan\" to --modes)")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->check(non_negative_number());
  app.add_option("--window", a.window,
                 "k of the k x k window of window+linear attention (odd; default 3)");
}

// --plan / --softmax-blocks / --window as the plan of `preset` (no modes without either), as
// UsageErrors naming the option; adds "plan" to `modes` where a plan is given, and refuses
// "plan" in `modes` without one and window+linear attention (a plan's or the "window-linear"
// mode's) off the CPU.
AttentionPlan read_plan(const PlanArgs& a, const std::string& preset,
                        std::vector<std::string>& modes, const c10::Device& device) {
  if (const std::string problem = attention_window_problem(a.window); !problem.empty())
    throw UsageError("--window: " + problem);
  if (!a.plan.empty() && !a.softmax_blocks.empty())
    throw UsageError("--softmax-blocks: give either --plan or --softmax-blocks, not both");
  const int64_t depth = vit_preset(preset).depth;
  AttentionPlan plan;
  plan.window = a.window;
  if (!a.plan.empty()) {
    if (int64_t(a.plan.size()) != depth)
      throw UsageError("--plan: " + std::to_string(a.plan.size()) + " modes, " + preset + " has " +
                       std::to_string(depth) + " blocks");
    for (const auto& m : a.plan) plan.modes.push_back(attention_mode_from_string(m));
  } else if (!a.softmax_blocks.empty()) {
    plan = uniform_attention_plan(depth, AttentionMode::Linear, a.window);
    for (int64_t b : a.softmax_blocks) {
      if (b < 0 || b >= depth)
        throw UsageError("--softmax-blocks: block " + std::to_string(b) + " is not in 0.." +
                         std::to_string(depth - 1) + " (" + preset + ")");
      plan.modes[size_t(b)] = AttentionMode::Softmax;
    }
  }
  const bool planned = !plan.modes.empty();
  const bool listed = std::find(modes.begin(), modes.end(), "plan") != modes.end();
  if (listed && !planned) throw UsageError("--modes: \"plan\" needs --plan or --softmax-blocks");
  if (planned && !listed) modes.push_back("plan");
  const bool window =
      plan.uses_window() || std::find(modes.begin(), modes.end(), "window-linear") != modes.end();
  if (window && !device.is_cpu())
    throw UsageError("window+linear attention runs on the CPU only (--device " + device.str() +
                     ")");
  return plan;
}

struct ScalingArgs {
  ScalingOptions o;
  std::string device = "cpu", csv, db, progress = "bar";
  bool no_count = false, in_process = false;
  PlanArgs plan;
};

void declare_scaling(CLI::App& app, ScalingArgs& a) {
  app.add_option("--preset", a.o.preset, "vit_small, vit_base, vit_large, ...");
  add_int_list(app, "--res", a.o.resolutions, "input sides, pixels");
  add_name_list(app, "--modes", a.o.modes, scaling_mode_names(), "attention modes");
  declare_plan(app, a.plan);
  app.add_option("--batch", a.o.batch)->check(positive_number());
  app.add_option("--repeats", a.o.repeats, "timed runs per point")->check(positive_number());
  app.add_option("--warmup", a.o.warmup)->check(non_negative_number());
  app.add_option("--chunk", a.o.softmax_chunk, "softmax-chunked query rows (0: automatic)")
      ->check(non_negative_number());
  app.add_option("--device", a.device, "cpu, cuda or auto");
  app.add_option("--precision", a.o.precision,
                 "fp32, or bf16 / fp16 autocast (linear attention stays fp32; fp16 needs CUDA)")
      ->check(CLI::IsMember({"fp32", "bf16", "fp16"}));
  app.add_option("--csv", a.csv, "also write the points to this CSV file");
  app.add_flag("--train-step", a.o.train_step,
               "also time one training step per point (at --batch, in rounds like inference)");
  app.add_flag("--train-only", a.o.train_only, "time the training step alone (no inference)");
  app.add_flag("--no-count", a.no_count, "no measured MACs (operator count)");
  app.add_option("--memory-margin", a.o.memory_margin,
                 "a point runs where margin x its estimate fits the memory available")
      ->check(positive_number());
  app.add_flag("--in-process", a.in_process, "no child process per point");
  app.add_option("--point-budget", a.o.point_budget_s,
                 "seconds: fewer timed repeats where one run takes long")
      ->check(positive_number());
  app.add_option("--rounds", a.o.rounds,
                 "each resolution's modes run interleaved in rounds, each mode reporting its "
                 "median over rounds")
      ->check(positive_number());
  app.add_option("--round-budget", a.o.round_budget_s,
                 "seconds: rounds after the first only where one takes at most this long")
      ->check(positive_number());
  app.add_option("--db", a.db, "the run database, or none (not recorded)");
  app.add_option("--progress", a.progress,
                 "bar: a progress bar on stderr; jsonl: one JSON object per line on stderr "
                 "(events start, recorded, progress, csv, done, error)")
      ->check(CLI::IsMember({"bar", "jsonl"}));
}

// --precision and --preset of a whole-model benchmark, as UsageErrors naming the option; then
// the busy-machine warning.
void check_model_options(const std::string& precision, const std::string& preset,
                         const c10::Device& device) {
  try {
    check_precision_supported(precision_from_string(precision), device);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--precision: ") + e.what());
  }
  try {
    vit_preset(preset);
  } catch (const std::exception& e) {
    throw UsageError(std::string("--preset: ") + e.what());
  }
  std::fprintf(stderr, "%s", busy_machine_warning().c_str());
}

int run_bench_scaling(ScalingArgs& a, ProgressEvents* events) {
  ScalingOptions& o = a.o;
  o.device = resolve_device(a.device);
  o.count_ops = !a.no_count;
  o.isolate = !a.in_process;
  check_model_options(o.precision, o.preset, o.device);
  o.window = a.plan.window;
  o.plan = read_plan(a.plan, o.preset, o.modes, o.device);
  Json config = Json::object();
  config["benchmark"] = Json("scaling");
  config["preset"] = Json(o.preset);
  config["resolutions"] = int_array(o.resolutions);
  config["modes"] = string_array(o.modes);
  if (!o.plan.modes.empty()) {
    config["plan"] = Json(attention_modes_text(o.plan.modes));
    config["window"] = Json(o.window);
  }
  config["batch"] = Json(o.batch);
  config["repeats"] = Json(o.repeats);
  config["rounds"] = Json(o.rounds);
  config["warmup"] = Json(o.warmup);
  config["train_step"] = Json(o.train_step || o.train_only);
  config["train_only"] = Json(o.train_only);
  config["precision"] = Json(o.precision);
  config["threads"] = Json(at::get_num_threads());
  config["conditions"] = Json(machine_conditions());
  const size_t per_resolution = scaling_steps_per_resolution(o);
  const size_t total = per_resolution * o.resolutions.size();
  if (events) events->start("scaling", total, o.preset, o.resolutions, o.modes);
  BenchmarkRecord record(a.db, "bench scaling " + o.preset + " " + range_text(o.resolutions) + "px",
                         config, o.device.str());
  if (events && record.recording()) events->recorded(record.run_id());
  // One resolution at a time, each recorded when it is done: a run stopped halfway keeps
  // the resolutions it measured.
  const ProgressFn bar =
      events ? ProgressFn([events](size_t done, size_t all, const std::string& label) {
        events->progress(done, all, label);
      })
             : progress_bar("bench scaling");
  std::vector<ScalingPoint> points;
  for (size_t i = 0; i < o.resolutions.size(); ++i) {
    ScalingOptions one = o;
    one.resolutions = {o.resolutions[i]};
    const size_t offset = i * per_resolution;
    auto part = run_scaling_bench(one, [&](size_t done, size_t, const std::string& label) {
      if (!label.empty()) bar(offset + done, total, label);
    });
    record.add(part);
    if (events)
      for (const auto& p : part) events->point(scaling_csv_fields(scaling_csv_row(p)));
    points.insert(points.end(), part.begin(), part.end());
  }
  bar(total, total, "");
  std::printf("%s", format_scaling_table(points, o).c_str());
  if (!a.csv.empty()) {
    write_scaling_csv(a.csv, points);
    record.add_artifact("scaling_csv", a.csv);
    std::printf("wrote %s\n", a.csv.c_str());
    if (events) events->csv(a.csv);
  }
  record.finish();
  if (events) events->done(points.size(), record.recording() ? record.run_id() : -1);
  if (record.recording())
    std::printf("recorded as benchmark run %lld (adala runs show %lld)\n",
                (long long)record.run_id(), (long long)record.run_id());
  return 0;
}

int bench_scaling(ScalingArgs& a) {
  if (a.progress != "jsonl") return run_bench_scaling(a, nullptr);
  ProgressEvents events(stderr);
  try {
    return run_bench_scaling(a, &events);
  } catch (const std::exception& e) {
    events.error(e.what());
    throw;
  }
}

struct Stage2Args {
  Stage2BenchOptions o;
  std::string device = "cpu", db;
  bool in_process = false;
  PlanArgs plan;
};

void declare_stage2(CLI::App& app, Stage2Args& a) {
  app.add_option("--preset", a.o.preset, "vit_small, vit_base, vit_large, ...");
  app.add_option("--res", a.o.resolution, "input side, pixels")->check(positive_number());
  app.add_option("--batch", a.o.batch, "images per step")->check(positive_number());
  add_name_list(app, "--modes", a.o.modes, stage2_mode_names(), "the student's attention");
  declare_plan(app, a.plan);
  app.add_option("--precision", a.o.precision,
                 "fp32, or bf16 / fp16 autocast around the forward passes (fp16 needs CUDA)")
      ->check(CLI::IsMember({"fp32", "bf16", "fp16"}));
  app.add_option("--repeats", a.o.repeats, "timed steps per mode and round")
      ->check(positive_number());
  app.add_option("--warmup", a.o.warmup)->check(non_negative_number());
  app.add_option("--rounds", a.o.rounds, "interleaved rounds (softmax, linear, linear, ...)")
      ->check(positive_number());
  app.add_option("--round-budget", a.o.round_budget_s,
                 "seconds: rounds after the first only where one takes at most this long")
      ->check(positive_number());
  app.add_option("--point-budget", a.o.point_budget_s,
                 "seconds: fewer timed steps where one step takes long")
      ->check(positive_number());
  app.add_option("--device", a.device, "cpu, cuda or auto");
  app.add_flag("--in-process", a.in_process, "no child process per mode and round");
  app.add_option("--db", a.db, "the run database, or none (not recorded)");
}

int bench_stage2(Stage2Args& a) {
  Stage2BenchOptions& o = a.o;
  o.device = resolve_device(a.device);
  o.isolate = !a.in_process;
  check_model_options(o.precision, o.preset, o.device);
  o.plan = read_plan(a.plan, o.preset, o.modes, o.device);
  Json config = Json::object();
  config["benchmark"] = Json("stage2");
  config["preset"] = Json(o.preset);
  config["resolution"] = Json(o.resolution);
  config["batch"] = Json(o.batch);
  config["modes"] = string_array(o.modes);
  if (!o.plan.modes.empty()) {
    config["plan"] = Json(attention_modes_text(o.plan.modes));
    config["window"] = Json(o.plan.window);
  }
  config["precision"] = Json(o.precision);
  config["repeats"] = Json(o.repeats);
  config["rounds"] = Json(o.rounds);
  config["warmup"] = Json(o.warmup);
  config["threads"] = Json(at::get_num_threads());
  config["conditions"] = Json(machine_conditions());
  BenchmarkRecord record(a.db,
                         "bench stage2 " + o.preset + " " + std::to_string(o.resolution) +
                             "px batch " + std::to_string(o.batch),
                         config, o.device.str());
  const auto points = run_stage2_bench(o, progress_bar("bench stage2"));
  record.add(points, o);
  record.finish();
  std::printf("%s", format_stage2_table(points, o).c_str());
  bool all_ran = true;
  for (const auto& p : points) all_ran = all_ran && p.ran;
  return all_ran ? 0 : 1;
}

struct FlopsArgs {
  std::string preset = "vit_large";
  std::vector<int64_t> resolutions{1024};
};

void declare_flops(CLI::App& app, FlopsArgs& a) {
  app.add_option("--preset", a.preset, "the ViT preset");
  add_int_list(app, "--res", a.resolutions, "input sides, pixels");
}

int bench_flops(const FlopsArgs& a) {
  const ViTConfig c = vit_preset(a.preset);
  bool first = true;
  for (int64_t res : a.resolutions) {
    if (!first) std::printf("\n");
    first = false;
    std::printf("%s", format_flops_report(c, res, res).c_str());
  }
  return 0;
}

struct PeerArgs {
  PeerOptions o;
  std::string device = "cpu", db;
};

void declare_peer(CLI::App& app, PeerArgs& a) {
  a.o.repeats = 10;
  app.add_option("--preset", a.o.preset, "the ViT preset");
  app.add_option("--res", a.o.resolution, "input side, pixels")->check(positive_number());
  app.add_option("--batch", a.o.batch)->check(positive_number());
  app.add_option("--repeats", a.o.repeats, "timed runs per side")->check(positive_number());
  app.add_option("--python", a.o.python, "the Python with torch");
  app.add_option("--script", a.o.script, "the peer (default: scripts/peer_vit.py)");
  app.add_option("--work-dir", a.o.work_dir,
                 "where the exchanged files go (default: a fresh temporary folder)");
  app.add_flag("--keep", a.o.keep_files, "keep the exchanged files");
  app.add_option("--device", a.device,
                 "cpu, cuda or cuda:N: both sides run there (the peer's Python needs a torch "
                 "that sees the device)");
  app.add_option("--db", a.db, "the run database, or none (not recorded)");
}

int bench_peer(PeerArgs& a) {
  PeerOptions& o = a.o;
  const c10::Device device = resolve_device(a.device);
  o.device = device.str();
  if (o.script.empty()) o.script = find_peer_script();
  std::fprintf(stderr, "bench peer: running the engine, then %s %s ...\n", o.python.c_str(),
               o.script.c_str());
  std::fprintf(stderr, "%s", busy_machine_warning().c_str());
  Json config = Json::object();
  config["benchmark"] = Json("peer");
  config["preset"] = Json(o.preset);
  config["resolution"] = Json(o.resolution);
  config["batch"] = Json(o.batch);
  config["repeats"] = Json(o.repeats);
  config["python"] = Json(o.python);
  config["threads"] = Json(at::get_num_threads());
  config["device"] = Json(o.device);
  BenchmarkRecord record(a.db, "bench peer " + o.preset + " " + std::to_string(o.resolution) + "px",
                         config, o.device);
  const auto report = run_peer_comparison(o);
  record.add(report, o);
  record.finish();
  std::printf("%s", format_peer_report(report, o).c_str());
  return report.agrees ? 0 : 1;
}

}  // namespace

int bench_command(const Args& args) {
  CLI::App app{"Benchmarks of the engine on this machine.", "adala bench"};
  prepare_command_app(app);
  app.require_subcommand(1);
  AttentionArgs attention;
  ScalingArgs scaling;
  Stage2Args stage2;
  FlopsArgs flops;
  PeerArgs peer;
  LoaderBenchArgs loader;
  declare_attention(*app.add_subcommand("attention",
                                        "softmax vs softmax-chunked vs linear attention kernels: "
                                        "time, peak memory (a fresh child process per point), "
                                        "ratios to plain softmax and GFLOP/s against this "
                                        "machine's matmul rate; recorded as a benchmark run"),
                    attention);
  declare_scaling(*app.add_subcommand("scaling",
                                      "a whole ViT from 224^2 to 2048^2 per attention mode: "
                                      "analytic and measured GMACs, peak memory (a fresh child "
                                      "process per point), ms/img and imgs/s, ratios to plain "
                                      "softmax; recorded as a benchmark run after each "
                                      "resolution, which the workbench plots (Scaling tab)"),
                  scaling);
  declare_stage2(*app.add_subcommand("stage2",
                                     "Stage 2's training step (teacher forward, student forward "
                                     "and backward, AdamW) per student attention mode: ms per "
                                     "step and img/s, modes interleaved in rounds (a fresh child "
                                     "process each on CPU); recorded as a benchmark run"),
                 stage2);
  declare_flops(*app.add_subcommand("flops",
                                    "the analytic FLOP model: per-layer MACs, whole-model and "
                                    "attention-only totals, and the paper's ViT-L 1024^2 figures"),
                flops);
  declare_peer(*app.add_subcommand("peer",
                                   "this engine vs a plain PyTorch peer (scripts/peer_vit.py), "
                                   "same weights, input and threads: the outputs' relative "
                                   "difference and the time ratio, for inference and one Stage-2 "
                                   "step"),
               peer);
  declare_loader(*app.add_subcommand("loader",
                                     "the training loader on image files: images/s per number of "
                                     "decode threads (decode, RandomResizedCrop, flip, "
                                     "normalise); scripts/bench-loader.sh sets it beside "
                                     "torchvision's ImageFolder + DataLoader"),
                 loader);
  if (args.empty()) {
    std::cout << app.help();
    return 2;
  }
  if (args[0].rfind("-", 0) != 0 && !has_subcommand(app, args[0]))
    throw UsageError("unknown benchmark \"" + args[0] +
                     "\" (expected attention, scaling, stage2, flops, peer or loader)");
  if (!parse_command_line(app, args)) return 0;
  const std::string what = chosen_subcommand(app)->get_name();
  if (what == "attention") return bench_attention(attention);
  if (what == "scaling") return bench_scaling(scaling);
  if (what == "stage2") return bench_stage2(stage2);
  if (what == "flops") return bench_flops(flops);
  if (what == "loader") return bench_loader(loader);
  return bench_peer(peer);
}

}  // namespace adala::cli
