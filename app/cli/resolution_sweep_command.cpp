// `adala resolution-sweep RUN [--scales 1,2,4] [--limit N]`: top-1 of a run's teacher and
// student at whole multiples of the training resolution, stored with the run.
#include <fmt/format.h>

#include <cmath>
#include <iostream>

#include "app/cli/arg_parser.h"
#include "app/cli/commands.h"
#include "app/cli/run_argument.h"
#include "engine/runtime/device.h"
#include "engine/infer/resolution_sweep.h"
#include "engine/infer/resolution_sweep_keys.h"
#include "engine/store/run_store.h"

namespace adala::cli {

int resolution_sweep_command(const Args& args) {
  CLI::App app{
      "Top-1 of a run's teacher (softmax) and student (linear attention) on the run's "
      "evaluation data at whole multiples of the training resolution (position embeddings "
      "resampled; a Fashion-MNIST 28x28 run: 28, 56, 112). A \"timm\" source is resized to each "
      "size; a \"none\" source (images already at the training size) is upsampled bilinearly. "
      "RUN is a run folder or a run id/name; the result is stored with the run in the run "
      "database as evaluations of stage \"resolution_sweep\" (keys teacher_top1@R, "
      "student_top1@R, images).",
      "adala resolution-sweep"};
  prepare_command_app(app);
  std::string run, db, scales_text = "1,2,4", device = "auto";
  ResolutionSweepOptions options;
  app.add_option("RUN", run, "a run folder, or a run id or name")->required();
  app.add_option("--db", db, "the run database");
  app.add_option("--scales", scales_text, "multiples of the training resolution");
  app.add_option("--limit", options.limit, "the first N evaluation images (default: all)")
      ->check(positive_number());
  app.add_option("--batch-size", options.batch_size, "images per forward pass")
      ->check(positive_number());
  app.add_option("--device", device, "auto, cpu or cuda");
  bool no_store = false;
  app.add_flag("--no-store", no_store, "print only; do not record the result in the database");
  if (!parse_command_line(app, args)) return 0;
  try {
    options.scales = parse_resolution_scales(scales_text);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--scales: ") + e.what());
  }
  const RunArgument r = resolve_run_argument(run, db);
  const ResolutionSweepResult result =
      run_resolution_sweep(r.folder, resolve_device(device), options);
  for (const auto& note : result.notes) std::cout << note << "\n";
  std::cout << fmt::format("{} evaluation images, trained at {}x{}\n\n", result.images,
                           result.base_resolution, result.base_resolution);
  std::cout << fmt::format("{:>6}  {:>10}  {:>14}  {:>14}  {:>10}\n", "scale", "resolution",
                           "teacher top-1", "student top-1", "gap (pt)");
  auto pct = [](double v) {
    return std::isnan(v) ? std::string("-") : fmt::format("{:.2f}%", 100 * v);
  };
  for (const auto& p : result.points)
    std::cout << fmt::format("{:>5}x  {:>10}  {:>14}  {:>14}  {:>10}\n", p.scale,
                             fmt::format("{}x{}", p.resolution, p.resolution), pct(p.teacher_top1),
                             pct(p.student_top1),
                             std::isnan(p.teacher_top1)
                                 ? std::string("-")
                                 : fmt::format("{:+.2f}", 100 * (p.student_top1 - p.teacher_top1)));
  if (!no_store && r.run_id > 0) {
    store::RunStore store(r.db);
    for (const auto& p : result.points) {
      if (!std::isnan(p.teacher_top1))
        store.add_evaluation(r.run_id, kResolutionSweepStage,
                             resolution_sweep_key("teacher", p.resolution), p.teacher_top1);
      store.add_evaluation(r.run_id, kResolutionSweepStage,
                           resolution_sweep_key("student", p.resolution), p.student_top1);
    }
    store.add_evaluation(r.run_id, kResolutionSweepStage, "images", double(result.images));
    std::cout << fmt::format("\nstored with run {} in {}\n", r.run_id, r.db);
  } else if (!no_store) {
    std::cout << "\n(the run folder is not in a run database: not stored)\n";
  }
  return 0;
}

}  // namespace adala::cli
