#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>

#include "app/cli/arg_parser.h"
#include "app/cli/commands.h"
#include "app/cli/progress_events.h"
#include "app/cli/run_progress.h"
#include "engine/run/run_summary.h"
#include "app/cli/tracked_run.h"
#ifdef ADALA_HAVE_DIST
#include "engine/dist/dist_environment.h"
#include "engine/dist/gloo_data_parallel.h"
#include "engine/dist/local_launcher.h"
#endif
#include "engine/train/pipeline.h"
#include "engine/train/stage_catalog.h"

namespace adala::cli {

namespace {

std::vector<int> parse_stages(const std::string& text) {
  std::vector<int> stages;
  for (const auto& part : split_list(text)) {
    if (part.size() != 1 || !is_stage_index(part[0] - '0'))
      throw UsageError("--stages: \"" + part + "\" is not a stage (use numbers " +
                       stage_index_range() + ", e.g. 0,1,2,3)");
    const int stage = part[0] - '0';
    if (std::find(stages.begin(), stages.end(), stage) != stages.end())
      throw UsageError("--stages: stage " + part + " is listed twice");
    stages.push_back(stage);
  }
  if (stages.empty()) throw UsageError("--stages: no stage given");
  return stages;
}

#ifdef ADALA_HAVE_DIST
// This command line again, N times, as ranks 0..N-1 (without --nproc; with cores/N threads
// each unless --threads was given).
int launch_workers(int nproc) {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> line;
  for (std::string arg; std::getline(in, arg, '\0');) line.push_back(arg);
  if (line.empty()) throw std::runtime_error("cannot read this process's command line");
  std::vector<std::string> argv{std::filesystem::read_symlink("/proc/self/exe").string()};
  bool threads = false;
  for (size_t i = 1; i < line.size(); ++i) {
    if (line[i] == "--nproc") {
      ++i;
      continue;
    }
    if (line[i].rfind("--nproc=", 0) == 0) continue;
    threads = threads || line[i] == "--threads" || line[i].rfind("--threads=", 0) == 0;
    argv.push_back(line[i]);
  }
  if (!threads) {
    const int cores = int(std::max(1u, std::thread::hardware_concurrency()));
    argv.push_back("--threads");
    argv.push_back(std::to_string(std::max(1, cores / nproc)));
  }
  LaunchOptions options;
  options.nproc = nproc;
  options.argv = argv;
  const LaunchResult result = launch_local_workers(
      options, [](const std::string& m) { std::fprintf(stderr, "adala run: %s\n", m.c_str()); });
  return result.exit_code;
}
#endif

// What `adala run` was given.
struct RunArgs {
  std::string config_path, stages, resume, device, runs_dir, db, backend, progress = "bar";
  int nproc = 1;
  bool allow_nonfinite = false;
  int64_t profile_steps = 0;
  CLI::Option* stages_option = nullptr;
  CLI::Option* runs_dir_option = nullptr;
};

void declare_run(CLI::App& app, RunArgs& a) {
  app.add_option("CONFIG", a.config_path, "the experiment (experiments/*.json)");
  a.stages_option = app.add_option("--stages", a.stages, "stages to run, e.g. 0,1,2,3");
  app.add_option("--resume", a.resume, "RUN_DIR, or a run id or name from the database");
  app.add_option("--device", a.device, "auto, cpu or cuda (default: the config's)");
  a.runs_dir_option = app.add_option("--runs-dir", a.runs_dir, "where run folders go");
  app.add_option("--db", a.db, "the run database, or none");
  app.add_option("--nproc", a.nproc,
                 "worker processes on this machine, data parallel (as torchrun's "
                 "--nproc-per-node; each gets cores/N threads unless --threads is given)")
      ->check(CLI::Range(1, 1024));
  app.add_option("--backend", a.backend,
                 "gloo (CPUs, and GPUs through the host) or nccl (GPUs, each rank on "
                 "cuda:LOCAL_RANK, also for a world of one; needs a CUDA LibTorch with NCCL); "
                 "default gloo, or ADALA_DIST_BACKEND")
      ->check(CLI::IsMember({"gloo", "nccl"}));
  app.add_flag("--allow-nonfinite", a.allow_nonfinite,
               "load weights holding NaN or Inf with a warning instead of refusing them");
  app.add_option("--profile-steps", a.profile_steps,
                 "profile this many steps of each training stage (from its second step) and "
                 "log where their time goes: phases and operators (also profile-<stage>.md in "
                 "the run folder)")
      ->check(CLI::Range(int64_t(0), int64_t(1000)));
  app.add_option("--progress", a.progress,
                 "bar: a progress bar on stderr; jsonl: also one JSON object per line on stderr "
                 "(events run, recorded, stage, step, eval, artifact, log, finished, error; "
                 "rank 0 only, except an error)")
      ->check(CLI::IsMember({"bar", "jsonl"}));
}

#ifdef ADALA_HAVE_DIST
// The process's place in a data-parallel world, --backend applied; refuses the combinations
// that cannot run.
DistEnvironment checked_dist_environment(const RunArgs& a) {
  DistEnvironment dist = dist_environment_from_process();
  if (!a.backend.empty()) dist.backend = a.backend;
  if (dist.backend == "nccl") {
    if (!nccl_available()) throw UsageError(nccl_unavailable_message());
    if (a.device == "cpu")
      throw UsageError(
          "--backend nccl: NCCL runs each rank on cuda:LOCAL_RANK, not on --device cpu; use "
          "--backend gloo");
  }
  if (a.nproc > 1 && dist.distributed())
    throw UsageError("--nproc: this process is already rank " + std::to_string(dist.rank) + " of " +
                     std::to_string(dist.world_size) +
                     " (RANK and WORLD_SIZE are set); start it without --nproc");
  return dist;
}
#else
void refuse_data_parallel(const RunArgs& a) {
  if (a.nproc > 1) throw UsageError("--nproc: this build has no data parallelism (libgloo-dev)");
  if (a.backend == "nccl")
    throw UsageError(
        "--backend nccl: this build has no data parallelism (no c10d process group); use one "
        "process");
}
#endif

// The experiment (CONFIG, or the resumed run's) and the pipeline's options from the command
// line.
ExperimentConfig run_inputs(const RunArgs& a, PipelineOptions& options) {
  ExperimentConfig config;
  if (!a.resume.empty()) {
    const std::string dir = resolve_run_dir(a.db, a.resume);
    config = load_run_config(dir);
    options.stages = load_run_stages(dir);
    options.run_dir = dir;
  } else {
    config = load_experiment_config(a.config_path);
  }
  if (a.stages_option->count()) options.stages = parse_stages(a.stages);
  if (a.runs_dir_option->count()) config.runs_dir = a.runs_dir;
  options.device = a.device;
  options.allow_nonfinite = a.allow_nonfinite;
  options.profile_steps = a.profile_steps;
  return config;
}

// Runs the stages as a tracked run; rank 0 prints the summary.
int run_and_report(const ExperimentConfig& config, PipelineOptions& options, const std::string& db,
                   ProgressEvents* events) {
  const bool reporter = !options.parallel || options.parallel->rank() == 0;
  TrackedRunOptions tracking;
  tracking.db_path = db;
  std::unique_ptr<JsonlProgressSink> jsonl;
  if (events && reporter) {
    jsonl = start_run_progress(*events, config, options, db);
    tracking.extra_sink = jsonl.get();
  }
  TrackedRunResult result = run_tracked(config, options, tracking);
  if (jsonl) events->finished(result.cancelled ? "interrupted" : "done", result.run_id);
  if (result.cancelled) return 130;
  if (!reporter) return 0;
  std::printf("%s\nsummary written to %s\n", run_summary_markdown(config, result.pipeline).c_str(),
              result.summary_path.c_str());
  return 0;
}

// events: --progress jsonl, else null.
int run_stages(const Args& args, ProgressEvents* events) {
  CLI::App app{
      "Runs the ViT-AdaLA stages: 0 teacher, 1 attention alignment, 2 feature alignment, "
      "3 fine-tuning. --resume continues an interrupted run from its last checkpoint (a run "
      "folder, or a run id/name from the database; CONFIG is then optional). Ctrl-C stops after "
      "the current step, checkpoints, and marks the run interrupted.",
      "adala run"};
  prepare_command_app(app);
  RunArgs a;
  declare_run(app, a);
  if (!parse_command_line(app, args)) return 0;
  if (a.config_path.empty() && a.resume.empty())
    throw UsageError("missing CONFIG.json (see adala run --help)");
#ifdef ADALA_HAVE_DIST
  const DistEnvironment dist = checked_dist_environment(a);
  if (a.nproc > 1) return launch_workers(a.nproc);
#else
  refuse_data_parallel(a);
#endif

  PipelineOptions options;
  const ExperimentConfig config = run_inputs(a, options);
#ifdef ADALA_HAVE_DIST
  // NCCL: each rank on its own GPU, as torchrun's LOCAL_RANK numbers them.
  if (dist.backend == "nccl") options.device = "cuda:" + std::to_string(dist.local_rank);
  // Started by --nproc, torchrun or Slurm: join the group (a world of one needs none).
  options.parallel = join_data_parallel(dist);
#endif
  return run_and_report(config, options, a.db, events);
}

}  // namespace

int run_command(const Args& args) {
  // --progress jsonl: an error anywhere, the command line's included, ends the stream as an
  // error event (CLI11 checks the value; this only looks for it).
  bool jsonl = false;
  for (size_t i = 0; i < args.size(); ++i)
    jsonl = jsonl || args[i] == "--progress=jsonl" ||
            (args[i] == "--progress" && i + 1 < args.size() && args[i + 1] == "jsonl");
  ProgressEvents events(stderr);
  return with_progress_errors(jsonl ? &events : nullptr,
                              [&] { return run_stages(args, jsonl ? &events : nullptr); });
}

}  // namespace adala::cli
