#pragma once
// Does a student hold its accuracy above the resolution it was trained at? Top-1 of the teacher
// and the student on a run's evaluation data at 1x, 2x, 4x (any whole multiples) of the
// training side; position embeddings are resampled to the larger grid in the forward pass.
// Inputs at scale s: a "timm" evaluation transform is applied at s x res (the source images
// resampled once, to the larger size); a "none" source (Fashion-MNIST, images already res x res)
// is transformed as in training, then upsampled bilinearly to s x res.
#include <c10/core/Device.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "engine/model/vision_transformer.h"
#include "engine/train/stage_data.h"

namespace adala {

// "1,2,4" -> {1, 2, 4}. Throws std::invalid_argument with a plain message for an empty list,
// a part that is not a whole number, zero or a negative number, a scale above 64, or a
// repeated scale.
std::vector<int64_t> parse_resolution_scales(const std::string& text);

struct ResolutionSweepPoint {
  int64_t scale = 1, resolution = 0;
  double teacher_top1 = std::numeric_limits<double>::quiet_NaN();  // NaN: no teacher top-1
  double student_top1 = 0.0;
};

struct ResolutionSweepResult {
  int64_t base_resolution = 0, images = 0;
  std::vector<ResolutionSweepPoint> points;  // in the order of the scales
  std::vector<std::string> notes;
};

struct ResolutionSweepOptions {
  std::vector<int64_t> scales{1, 2, 4};
  int64_t limit = 0;  // > 0: the first `limit` evaluation images
  int64_t batch_size = 64;
  // Called after each batch with the fraction done; returning false stops the sweep
  // (ResolutionSweepCancelled).
  std::function<bool(double)> progress;
};

struct ResolutionSweepCancelled : std::runtime_error {
  ResolutionSweepCancelled() : std::runtime_error("resolution sweep cancelled") {}
};

// Top-1 of `model` on `data` at `scale` x the transform's resolution (scale 1: the pipeline's
// evaluation, evaluate_top1).
double top1_at_scale(VisionTransformer& model, const StageData& data, int64_t scale,
                     const c10::Device& device, int64_t batch_size,
                     const std::function<bool()>& step_done = {});

// `teacher` may be null (no teacher top-1: NaN). A teacher whose head does not have the
// student's width gets no top-1 either (a note says so).
ResolutionSweepResult resolution_sweep(VisionTransformer teacher, VisionTransformer student,
                                       const StageData& eval, const c10::Device& device,
                                       const ResolutionSweepOptions& options);

// The run folder's teacher and newest student (run_model_paths) on its data.eval (config.json).
// Throws std::runtime_error naming what is missing.
ResolutionSweepResult run_resolution_sweep(const std::string& run_dir, const c10::Device& device,
                                           const ResolutionSweepOptions& options);

// The first `limit` items of `data` (all of them when limit <= 0 or larger).
StageData first_images(const StageData& data, int64_t limit);

}  // namespace adala
