// `adala bench attention|scaling|flops|peer`: benchmarks of the engine on this machine.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <ATen/Parallel.h>

#include "app/cli/arg_parser.h"
#include "app/cli/benchmark_record.h"
#include "app/cli/commands.h"
#include "engine/analysis/attention_bench.h"
#include "engine/analysis/flop_model.h"
#include "engine/analysis/peer_comparison.h"
#include "engine/analysis/scaling_bench.h"
#include "engine/core/device.h"
#include "engine/core/vit_config.h"

namespace adala::cli {

namespace {

std::vector<int64_t> int_list(const ArgParser& p, const std::string& name) {
  std::vector<int64_t> out;
  for (const auto& part : split_list(p.get(name))) {
    char* end = nullptr;
    const long long v = std::strtoll(part.c_str(), &end, 10);
    if (part.empty() || *end != '\0' || v <= 0)
      throw UsageError("option --" + name +
                       " expects positive integers separated by commas, got \"" + part + "\"");
    out.push_back(v);
  }
  if (out.empty()) throw UsageError("option --" + name + " is empty");
  return out;
}

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

int bench_attention(const Args& args) {
  ArgParser p;
  p.option("heads", "6")
      .option("head-dim", "64")
      .option("batch", "1")
      .option("tokens", "196,576,1024,2304,4096,9216,16384")
      .option("repeats", "3")
      .option("warmup", "1")
      .option("kernels", "softmax,softmax-chunked,linear,linear-blocked")
      .option("chunk", "0")
      .option("device", "cpu")
      .option("memory-margin", "1.5")
      .option("point-budget", "120")
      .option("gemm-n", "2048")
      .option("db", "")
      .flag("no-gemm")
      .flag("in-process")
      .flag("help");
  p.parse(args);
  if (p.flag_set("help")) {
    std::printf(
        "usage: adala bench attention [--heads 6] [--head-dim 64] [--batch 1]\n"
        "         [--tokens 196,576,1024,2304,4096,9216,16384] [--repeats 3] [--warmup 1]\n"
        "         [--kernels softmax,softmax-chunked,linear,linear-blocked] [--chunk ROWS]\n"
        "         [--device cpu|cuda|auto] [--memory-margin 1.5] [--point-budget 120]\n"
        "         [--gemm-n 2048] [--no-gemm] [--in-process] [--threads N] [--db FILE|none]\n"
        "  times each attention kernel on (batch, heads, N, d) float32 inputs and measures its\n"
        "  peak memory in a fresh child process per point; prints ratios to plain softmax and\n"
        "  the kernels' GFLOP/s against this machine's measured matmul rate. The points are\n"
        "  recorded as a benchmark run in the run database (--db none: not recorded).\n");
    return 0;
  }
  AttentionBenchOptions o;
  o.heads = p.get_int("heads");
  o.head_dim = p.get_int("head-dim");
  o.batch = p.get_int("batch");
  o.tokens = int_list(p, "tokens");
  o.repeats = static_cast<int>(p.get_int("repeats"));
  o.warmup = static_cast<int>(p.get_int("warmup"));
  o.kernels = split_list(p.get("kernels"));
  o.chunk = p.get_int("chunk");
  o.device = resolve_device(p.get("device"));
  o.memory_margin = p.get_double("memory-margin");
  o.point_budget_s = p.get_double("point-budget");
  o.isolate = !p.flag_set("in-process");
  for (const auto& k : o.kernels) {
    if (!is_attention_kernel(k)) throw UsageError("unknown kernel \"" + k + "\" in --kernels");
  }
  std::fprintf(stderr, "%s", busy_machine_warning().c_str());
  Json config = Json::object();
  config["benchmark"] = Json("attention");
  config["heads"] = Json(o.heads);
  config["head_dim"] = Json(o.head_dim);
  config["batch"] = Json(o.batch);
  config["tokens"] = int_array(o.tokens);
  config["kernels"] = string_array(o.kernels);
  config["repeats"] = Json(o.repeats);
  config["warmup"] = Json(o.warmup);
  config["threads"] = Json(at::get_num_threads());
  config["conditions"] = Json(machine_conditions());
  BenchmarkRecord record(p.get("db"), "bench attention N=" + range_text(o.tokens), config,
                         o.device.str());
  auto points = run_attention_bench(o, progress_bar("bench attention"));
  record.add(points, o);
  record.finish();
  std::printf("%s", format_attention_table(points, o).c_str());
  if (!p.flag_set("no-gemm") && o.device.is_cpu()) {
    // After the points: this runs in the parent, whose own thread pool starts only now.
    const auto g = measure_gemm_rate(p.get_int("gemm-n"));
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

int bench_scaling(const Args& args) {
  ArgParser p;
  p.option("preset", "vit_base")
      .option("res", "224,448,672,1024,2048")
      .option("modes", "softmax,softmax-chunked,linear")
      .option("batch", "1")
      .option("repeats", "3")
      .option("warmup", "1")
      .option("chunk", "0")
      .option("device", "cpu")
      .option("csv", "")
      .option("db", "")
      .option("memory-margin", "1.5")
      .option("point-budget", "120")
      .option("rounds", "3")
      .option("round-budget", "150")
      .flag("train-step")
      .flag("no-count")
      .flag("in-process")
      .flag("help");
  p.parse(args);
  if (p.flag_set("help")) {
    std::printf(
        "usage: adala bench scaling [--preset vit_small|vit_base|vit_large|...]\n"
        "         [--res 224,448,672,1024,2048] [--modes softmax,softmax-chunked,linear]\n"
        "         [--batch 1] [--repeats 3] [--warmup 1] [--chunk ROWS] [--device cpu|cuda|auto]\n"
        "         [--csv out.csv] [--train-step] [--no-count] [--memory-margin 1.5] "
        "[--in-process]\n"
        "         [--point-budget 120]  (seconds: fewer timed repeats where one run takes long)\n"
        "         [--rounds 3] [--round-budget 150]  (each resolution's modes run interleaved in\n"
        "         rounds, each mode reporting its median over rounds; rounds after the first\n"
        "         only where one takes at most --round-budget seconds)\n"
        "         [--db FILE|none]\n"
        "  per resolution and attention mode: analytic and measured GMACs, peak memory (fresh\n"
        "  child process per point), ms/img and imgs/s, ratios to plain softmax. The points are\n"
        "  recorded as a benchmark run in the run database after each resolution (--db none:\n"
        "  not recorded); the workbench plots them (Scaling tab).\n");
    return 0;
  }
  ScalingOptions o;
  o.preset = p.get("preset");
  o.resolutions = int_list(p, "res");
  o.modes = split_list(p.get("modes"));
  o.batch = p.get_int("batch");
  o.repeats = static_cast<int>(p.get_int("repeats"));
  o.warmup = static_cast<int>(p.get_int("warmup"));
  o.softmax_chunk = p.get_int("chunk");
  o.device = resolve_device(p.get("device"));
  o.memory_margin = p.get_double("memory-margin");
  o.train_step = p.flag_set("train-step");
  o.point_budget_s = p.get_double("point-budget");
  o.rounds = static_cast<int>(p.get_int("rounds"));
  if (o.rounds < 1) throw UsageError("--rounds must be >= 1");
  o.round_budget_s = p.get_double("round-budget");
  o.count_ops = !p.flag_set("no-count");
  o.isolate = !p.flag_set("in-process");
  for (const auto& m : o.modes) {
    const auto& known = scaling_mode_names();
    if (std::find(known.begin(), known.end(), m) == known.end())
      throw UsageError("unknown mode \"" + m +
                       "\" in --modes (expected softmax, softmax-chunked or linear)");
  }
  if (o.modes.empty()) throw UsageError("option --modes is empty");
  try {
    vit_preset(o.preset);
  } catch (const std::exception& e) {
    throw UsageError(std::string("--preset: ") + e.what());
  }
  std::fprintf(stderr, "%s", busy_machine_warning().c_str());
  Json config = Json::object();
  config["benchmark"] = Json("scaling");
  config["preset"] = Json(o.preset);
  config["resolutions"] = int_array(o.resolutions);
  config["modes"] = string_array(o.modes);
  config["batch"] = Json(o.batch);
  config["repeats"] = Json(o.repeats);
  config["rounds"] = Json(o.rounds);
  config["warmup"] = Json(o.warmup);
  config["train_step"] = Json(o.train_step);
  config["threads"] = Json(at::get_num_threads());
  config["conditions"] = Json(machine_conditions());
  BenchmarkRecord record(p.get("db"),
                         "bench scaling " + o.preset + " " + range_text(o.resolutions) + "px",
                         config, o.device.str());
  // One resolution at a time, each recorded when it is done: a run stopped halfway keeps
  // the resolutions it measured.
  const auto bar = progress_bar("bench scaling");
  const size_t per_resolution = scaling_steps_per_resolution(o);
  const size_t total = per_resolution * o.resolutions.size();
  std::vector<ScalingPoint> points;
  for (size_t i = 0; i < o.resolutions.size(); ++i) {
    ScalingOptions one = o;
    one.resolutions = {o.resolutions[i]};
    const size_t offset = i * per_resolution;
    auto part = run_scaling_bench(one, [&](size_t done, size_t, const std::string& label) {
      if (!label.empty()) bar(offset + done, total, label);
    });
    record.add(part);
    points.insert(points.end(), part.begin(), part.end());
  }
  bar(total, total, "");
  std::printf("%s", format_scaling_table(points, o).c_str());
  if (!p.get("csv").empty()) {
    write_scaling_csv(p.get("csv"), points);
    record.add_artifact("scaling_csv", p.get("csv"));
    std::printf("wrote %s\n", p.get("csv").c_str());
  }
  record.finish();
  if (record.recording())
    std::printf("recorded as benchmark run %lld (adala runs show %lld)\n",
                (long long)record.run_id(), (long long)record.run_id());
  return 0;
}

int bench_flops(const Args& args) {
  ArgParser p;
  p.option("preset", "vit_large").option("res", "1024").flag("help");
  p.parse(args);
  if (p.flag_set("help")) {
    std::printf(
        "usage: adala bench flops [--preset vit_large] [--res 1024[,...]]\n"
        "  the analytic FLOP model: per-layer MACs, whole-model and attention-only totals,\n"
        "  and the paper's ViT-L 1024^2 figures.\n");
    return 0;
  }
  const ViTConfig c = vit_preset(p.get("preset"));
  bool first = true;
  for (int64_t res : int_list(p, "res")) {
    if (!first) std::printf("\n");
    first = false;
    std::printf("%s", format_flops_report(c, res, res).c_str());
  }
  return 0;
}

int bench_peer(const Args& args) {
  ArgParser p;
  p.option("preset", "vit_small")
      .option("res", "224")
      .option("batch", "2")
      .option("repeats", "10")
      .option("python", "/usr/bin/python3")
      .option("script", "")
      .option("work-dir", "")
      .option("device", "cpu")
      .option("db", "")
      .flag("keep")
      .flag("help");
  p.parse(args);
  if (p.flag_set("help")) {
    std::printf(
        "usage: adala bench peer [--preset vit_small] [--res 224] [--batch 2] [--repeats 10]\n"
        "         [--python /usr/bin/python3] [--script scripts/peer_vit.py] [--work-dir DIR] "
        "[--keep]\n"
        "         [--db FILE|none]\n"
        "  runs the same ViT (same weights, input, threads) in this engine and in a plain PyTorch\n"
        "  peer (scripts/peer_vit.py) and prints the outputs' relative difference and the time\n"
        "  ratio, for inference and one Stage-2 step (student linear features vs teacher softmax\n"
        "  features, MSE, backward, AdamW).\n");
    return 0;
  }
  PeerOptions o;
  o.preset = p.get("preset");
  o.resolution = p.get_int("res");
  o.batch = p.get_int("batch");
  o.repeats = static_cast<int>(p.get_int("repeats"));
  o.python = p.get("python");
  o.script = p.get("script");
  o.work_dir = p.get("work-dir");
  o.keep_files = p.flag_set("keep");
  if (resolve_device(p.get("device")) != c10::Device(c10::kCPU))
    throw UsageError("bench peer compares on CPU only (Debian's python3-torch is CPU-only)");
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
  BenchmarkRecord record(p.get("db"),
                         "bench peer " + o.preset + " " + std::to_string(o.resolution) + "px",
                         config, "cpu");
  const auto report = run_peer_comparison(o);
  record.add(report, o);
  record.finish();
  std::printf("%s", format_peer_report(report, o).c_str());
  return report.agrees ? 0 : 1;
}

}  // namespace

int bench_command(const Args& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::printf(
        "usage: adala bench attention|scaling|flops|peer [OPTIONS]   (adala bench WHAT --help)\n"
        "  attention  softmax vs softmax-chunked vs linear attention kernels: time, peak memory\n"
        "  scaling    a whole ViT from 224^2 to 2048^2 per attention mode: GFLOPs, memory, speed\n"
        "  flops      the analytic FLOP model and the paper's ViT-L 1024^2 figures\n"
        "  peer       this engine vs a plain PyTorch peer: output difference and time ratio\n");
    return args.empty() ? 2 : 0;
  }
  const std::string what = args[0];
  const Args rest(args.begin() + 1, args.end());
  if (what == "attention") return bench_attention(rest);
  if (what == "scaling") return bench_scaling(rest);
  if (what == "flops") return bench_flops(rest);
  if (what == "peer") return bench_peer(rest);
  throw UsageError("unknown benchmark \"" + what +
                   "\" (expected attention, scaling, flops or peer)");
}

}  // namespace adala::cli
