#include "engine/infer/resolution_sweep.h"

#include <ATen/ATen.h>
#include <torch/nn/functional/upsampling.h>
#include <torch/utils.h>

#include <cmath>
#include <set>
#include <stdexcept>

#include "engine/infer/feature_comparison.h"
#include "engine/infer/inference_model.h"
#include "engine/train/config/experiment_config.h"

namespace adala {

std::vector<int64_t> parse_resolution_scales(const std::string& text) {
  const std::string hint = ": scales are whole numbers of 1 or more, e.g. 1,2,4";
  if (text.find_first_not_of(" ,") == std::string::npos)
    throw std::invalid_argument("no scales given" + hint);
  std::vector<int64_t> scales;
  std::set<int64_t> seen;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    std::string part =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    while (!part.empty() && part.front() == ' ') part.erase(part.begin());
    while (!part.empty() && part.back() == ' ') part.pop_back();
    if (part.empty()) throw std::invalid_argument("an empty scale in \"" + text + "\"" + hint);
    const bool negative = part.front() == '-';
    const std::string digits = negative ? part.substr(1) : part;
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
      throw std::invalid_argument("scale \"" + part + "\" is not a whole number" + hint);
    if (negative) throw std::invalid_argument("scale " + part + " is negative" + hint);
    if (digits.size() > 6 || std::stoll(digits) > 64)
      throw std::invalid_argument("scale " + part + " is too large (at most 64)");
    const int64_t s = std::stoll(digits);
    if (s == 0) throw std::invalid_argument("scale 0 is not a resolution" + hint);
    if (!seen.insert(s).second) throw std::invalid_argument("scale " + part + " is given twice");
    scales.push_back(s);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return scales;
}

namespace {

// The first `limit` items of another dataset.
class FirstItems : public Dataset {
 public:
  FirstItems(std::shared_ptr<const Dataset> base, int64_t limit)
      : base_(std::move(base)), limit_(limit) {}
  int64_t size() const override { return std::min(limit_, base_->size()); }
  Sample get(int64_t index) const override { return base_->get(index); }
  std::string item_name(int64_t index) const override { return base_->item_name(index); }
  int64_t channels() const override { return base_->channels(); }
  std::vector<std::string> class_names() const override { return base_->class_names(); }
  std::string describe() const override {
    return base_->describe() + ", first " + std::to_string(size());
  }

 private:
  std::shared_ptr<const Dataset> base_;
  int64_t limit_;
};

}  // namespace

StageData first_images(const StageData& data, int64_t limit) {
  if (limit <= 0 || limit >= data.size()) return data;
  StageData out = data;
  out.dataset = std::make_shared<FirstItems>(data.dataset, limit);
  return out;
}

double top1_at_scale(VisionTransformer& model, const StageData& data, int64_t scale,
                     const c10::Device& device, int64_t batch_size,
                     const std::function<bool()>& step_done) {
  if (scale < 1) throw std::invalid_argument("scale must be 1 or more");
  if (data.size() == 0) return 0.0;
  StageData scaled = for_device(data, device);
  const int64_t res = data.transform.resolution;
  const bool upsample = scale > 1 && data.transform.preprocess == "none";
  if (scale > 1 && !upsample) scaled.transform.resolution = res * scale;
  torch::NoGradGuard no_grad;
  const bool was_training = model->is_training();
  model->eval();
  int64_t correct = 0;
  auto loader = make_evaluation_loader(scaled, batch_size);
  for (int64_t step = 0; step < evaluation_steps(scaled, batch_size); ++step) {
    Batch b = loader->batch(step);
    at::Tensor images = to_device(b.images, device);
    if (upsample)
      images = torch::nn::functional::interpolate(
          images, torch::nn::functional::InterpolateFuncOptions()
                      .size(std::vector<int64_t>{res * scale, res * scale})
                      .mode(torch::kBilinear)
                      .align_corners(false));
    correct +=
        model->forward(images).argmax(1).eq(to_device(b.labels, device)).sum().item<int64_t>();
    if (step_done && !step_done()) {
      model->train(was_training);
      throw ResolutionSweepCancelled();
    }
  }
  model->train(was_training);
  return double(correct) / double(data.size());
}

ResolutionSweepResult resolution_sweep(VisionTransformer teacher, VisionTransformer student,
                                       const StageData& all, const c10::Device& device,
                                       const ResolutionSweepOptions& options) {
  if (options.scales.empty()) throw std::invalid_argument("no scales");
  const StageData eval = first_images(all, options.limit);
  if (eval.size() == 0) throw std::runtime_error("the evaluation data set has no images");
  if (!eval.dataset->has_labels())
    throw std::runtime_error("the evaluation data set has no labels: no top-1");
  ResolutionSweepResult result;
  result.base_resolution = eval.transform.resolution;
  result.images = eval.size();
  const bool with_teacher =
      teacher && teacher->config().num_classes == student->config().num_classes;
  if (teacher && !with_teacher)
    result.notes.push_back("the teacher's head has " +
                           std::to_string(teacher->config().num_classes) +
                           " classes, the student's " +
                           std::to_string(student->config().num_classes) + ": no teacher top-1");
  const int64_t steps_per_pass = evaluation_steps(eval, options.batch_size);
  const int64_t total = steps_per_pass * int64_t(options.scales.size()) * (with_teacher ? 2 : 1);
  int64_t done = 0;
  auto step_done = [&] {
    ++done;
    return !options.progress ||
           options.progress(double(done) / double(std::max<int64_t>(total, 1)));
  };
  for (int64_t scale : options.scales) {
    ResolutionSweepPoint p;
    p.scale = scale;
    p.resolution = eval.transform.resolution * scale;
    if (with_teacher)
      p.teacher_top1 = top1_at_scale(teacher, eval, scale, device, options.batch_size, step_done);
    p.student_top1 = top1_at_scale(student, eval, scale, device, options.batch_size, step_done);
    result.points.push_back(p);
  }
  return result;
}

ResolutionSweepResult run_resolution_sweep(const std::string& run_dir, const c10::Device& device,
                                           const ResolutionSweepOptions& options) {
  const RunModelPaths paths = run_model_paths(run_dir);
  if (paths.config.empty())
    throw std::runtime_error(run_dir + ": the run folder has no config.json (its evaluation data)");
  ExperimentConfig config;
  try {
    config = load_experiment_config(paths.config);
  } catch (const std::exception& e) {
    throw std::runtime_error(paths.config + ": " + e.what());
  }
  const StageData eval = open_stage_data(config.data.eval, config.data, "data.eval");
  InferenceModel teacher = load_inference_model(paths.teacher, device);
  InferenceModel student = load_inference_model(paths.student, device);
  ResolutionSweepResult r = resolution_sweep(teacher.model, student.model, eval, device, options);
  r.notes.insert(r.notes.begin(), "teacher " + paths.teacher + ", student " + paths.student);
  return r;
}

}  // namespace adala
