// `adala features RUN|WEIGHTS (--image-index I | --image FILE) --out DIR`: the teacher's and the
// student's final patch features as PCA colour maps (fitted on the teacher, applied to both,
// one colour scale) and their per-patch cosine similarity.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <ATen/ATen.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "app/cli/arg_parser.h"
#include "app/cli/commands.h"
#include "app/cli/inference_options.h"
#include "app/cli/run_argument.h"
#include "engine/runtime/device.h"
#include "engine/infer/feature_comparison.h"
#include "engine/infer/inspection_dataset.h"

namespace adala::cli {

namespace fs = std::filesystem;

namespace {

// (H, W, C) uint8 -> a BGR (or grey) Mat, each pixel `factor` x `factor` (nearest).
cv::Mat upscaled(const at::Tensor& hwc, int factor) {
  const at::Tensor t = hwc.contiguous();
  const int h = int(t.size(0)), w = int(t.size(1)), c = int(t.size(2));
  cv::Mat m(h, w, c == 1 ? CV_8UC1 : CV_8UC3, const_cast<uint8_t*>(t.data_ptr<uint8_t>()));
  cv::Mat bgr;
  if (c == 3)
    cv::cvtColor(m, bgr, cv::COLOR_RGB2BGR);
  else
    bgr = m.clone();
  cv::Mat out;
  cv::resize(bgr, out, cv::Size(w * factor, h * factor), 0, 0, cv::INTER_NEAREST);
  return out;
}

void write_png(const fs::path& path, const cv::Mat& image) {
  if (!cv::imwrite(path.string(), image)) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace

// The cosine map's colour scale: viridis on [0, 1] (below 0 clamps to 0), as the workbench
// draws it.
static cv::Mat cosine_colour_map(const at::Tensor& cosine, int factor) {
  const at::Tensor level = (cosine.clamp(0.0, 1.0) * 255.0).round().to(at::kByte).contiguous();
  cv::Mat grey(int(level.size(0)), int(level.size(1)), CV_8UC1, level.data_ptr<uint8_t>());
  cv::Mat coloured, out;
  cv::applyColorMap(grey, coloured, cv::COLORMAP_VIRIDIS);
  cv::resize(coloured, out, cv::Size(coloured.cols * factor, coloured.rows * factor), 0, 0,
             cv::INTER_NEAREST);
  return out;
}

int features_command(const Args& args) {
  CLI::App app{
      "The teacher's and the student's final patch features of one image (normed patch tokens, "
      "no class or register tokens) as PCA colour maps: the first three principal components "
      "of the TEACHER's features, applied to both and mapped to RGB with the teacher's "
      "per-component min/max, so a colour means the same in both images. Also the per-patch "
      "cosine similarity of the two. RUN is a run folder or a run id/name in the run database "
      "(teacher.safetensors and the newest student of its folder, its data.eval for "
      "--image-index); a .safetensors file is a student, with --teacher. Writes DIR/input.png, "
      "teacher.png, student.png, cosine.png (viridis, 0 to 1; nearest upscaling) and "
      "features.json.",
      "adala features"};
  prepare_command_app(app);
  std::string run, teacher_path, db, image, dataset, out_dir, device = "auto";
  int64_t index = -1;
  int pixels = 224;
  CheckpointOptions checkpoint;
  app.add_option("RUN", run, "a run folder, run id or name, or a student .safetensors")->required();
  app.add_option("--teacher", teacher_path, "the teacher's .safetensors (default: the run's)");
  app.add_option("--db", db, "the run database RUN is looked up in");
  auto* index_option =
      app.add_option("--image-index", index, "an image of the evaluation data, by index")
          ->check(non_negative_number());
  auto* image_option = app.add_option("--image", image, "an image file");
  index_option->excludes(image_option);
  app.add_option("--dataset", dataset,
                 "where --image-index picks from: a config.json (its data.eval), class folders, an "
                 "image folder or list (default: the run's data.eval; Fashion-MNIST test for a "
                 "weights file)");
  app.add_option("--out", out_dir, "the folder to write")->required();
  app.add_option("--size", pixels,
                 "at least this many pixels across in the PNGs (nearest upscaling)")
      ->check(positive_number());
  app.add_option("--device", device, "auto, cpu or cuda");
  add_checkpoint_options(app, checkpoint);  // for both models
  if (!parse_command_line(app, args)) return 0;
  if (index < 0 && image.empty()) throw UsageError("give --image-index I or --image FILE");

  std::error_code ec;
  std::string student_path, run_config;
  if (fs::is_regular_file(run, ec)) {
    student_path = run;
    if (teacher_path.empty()) {
      const fs::path beside = fs::path(run).parent_path() / "teacher.safetensors";
      if (!fs::is_regular_file(beside, ec) || fs::equivalent(beside, run, ec))
        throw UsageError(run + " is a weights file: give its teacher with --teacher");
      teacher_path = beside.string();
    }
  } else {
    const RunArgument r = resolve_run_argument(run, db);
    const RunModelPaths paths = run_model_paths(r.folder);
    student_path = paths.student;
    run_config = paths.config;
    if (teacher_path.empty()) teacher_path = paths.teacher;
  }
  const c10::Device dev = resolve_device(device);
  const InferenceLoadOptions load = checkpoint.load_options();
  InferenceModel teacher = load_inference_model(teacher_path, dev, load);
  InferenceModel student = load_inference_model(student_path, dev, load);
  for (const InferenceModel* m : {&teacher, &student})
    if (!m->preprocessing_note.empty()) std::cerr << "note: " << m->preprocessing_note << "\n";
  const int64_t channels = student.model->config().in_chans;
  FeatureImage picked;
  if (!image.empty()) {
    picked = feature_image_from_file(image, channels);
  } else {
    const std::string where = dataset.empty() ? run_config : dataset;
    const auto data = open_inspection_dataset(where, channels);
    picked = feature_image_from_dataset(*data, index);
  }
  const FeatureComparison c = compare_features(teacher, student, picked.image);
  const PatchFeatureComparison& p = c.patches;

  fs::create_directories(out_dir);
  const int grid = int(std::max(p.grid_height, p.grid_width));
  const int factor = std::max(1, (pixels + grid - 1) / grid);
  const at::Tensor input_hwc = (c.input.permute({1, 2, 0}) * 255.0).round().to(at::kByte);
  // The input at the same size as the maps: each patch factor x factor pixels.
  cv::Mat input = upscaled(input_hwc, 1);
  cv::resize(input, input, cv::Size(int(p.grid_width) * factor, int(p.grid_height) * factor), 0, 0,
             cv::INTER_NEAREST);
  write_png(fs::path(out_dir) / "input.png", input);
  write_png(fs::path(out_dir) / "teacher.png", upscaled(p.teacher_rgb, factor));
  write_png(fs::path(out_dir) / "student.png", upscaled(p.student_rgb, factor));
  write_png(fs::path(out_dir) / "cosine.png", cosine_colour_map(p.cosine, factor));

  nlohmann::json j;
  j["teacher"] = fs::absolute(teacher_path).string();
  j["student"] = fs::absolute(student_path).string();
  j["image"] = picked.description;
  if (picked.index >= 0) j["image_index"] = picked.index;
  j["grid"] = {p.grid_height, p.grid_width};
  j["mean_cosine"] = p.mean_cosine;
  j["explained_variance_ratio"] = p.pca.explained_variance_ratio;
  j["explained_variance"] = p.pca.explained_variance;
  std::vector<double> lo, hi;
  for (int64_t k = 0; k < 3; ++k) {
    lo.push_back(p.component_min[k].item<double>());
    hi.push_back(p.component_max[k].item<double>());
  }
  j["component_min"] = lo;
  j["component_max"] = hi;
  std::vector<std::vector<double>> rows;
  for (int64_t y = 0; y < p.grid_height; ++y) {
    std::vector<double> row;
    for (int64_t x = 0; x < p.grid_width; ++x) row.push_back(p.cosine[y][x].item<double>());
    rows.push_back(row);
  }
  j["cosine"] = rows;
  j["cosine_scale"] = {0.0, 1.0};
  std::ofstream(fs::path(out_dir) / "features.json") << j.dump(2) << "\n";

  double evr = 0.0;
  for (double v : p.pca.explained_variance_ratio) evr += v;
  std::cout << fmt::format("{}\nteacher {}\nstudent {}\n", picked.description, teacher_path,
                           student_path);
  std::cout << fmt::format("patches {}x{}, mean cosine {:.4f} (min {:.4f})\n", p.grid_height,
                           p.grid_width, p.mean_cosine, p.cosine.min().item<double>());
  std::string ratios;
  for (double v : p.pca.explained_variance_ratio)
    ratios += (ratios.empty() ? "" : " / ") + fmt::format("{:.1f}%", 100 * v);
  std::cout << fmt::format("teacher PCA: explained variance {} ({:.1f}% in all)\n", ratios,
                           100 * evr);
  std::cout << fmt::format("wrote {}/{{input,teacher,student,cosine}}.png and features.json\n",
                           out_dir);
  return 0;
}

}  // namespace adala::cli
