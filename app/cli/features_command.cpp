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

// The cosine map's colour scale: viridis on [0, 1] (below 0 clamps to 0), as the workbench
// draws it.
cv::Mat cosine_colour_map(const at::Tensor& cosine, int factor) {
  const at::Tensor level = (cosine.clamp(0.0, 1.0) * 255.0).round().to(at::kByte).contiguous();
  cv::Mat grey(int(level.size(0)), int(level.size(1)), CV_8UC1, level.data_ptr<uint8_t>());
  cv::Mat coloured, out;
  cv::applyColorMap(grey, coloured, cv::COLORMAP_VIRIDIS);
  cv::resize(coloured, out, cv::Size(coloured.cols * factor, coloured.rows * factor), 0, 0,
             cv::INTER_NEAREST);
  return out;
}

// What `adala features` was given.
struct FeaturesArgs {
  std::string run, teacher_path, db, image, dataset, out_dir, device = "auto";
  int64_t index = -1;
  int pixels = 224;
  CheckpointOptions checkpoint;
};

void declare_features(CLI::App& app, FeaturesArgs& a) {
  app.add_option("RUN", a.run, "a run folder, run id or name, or a student .safetensors")
      ->required();
  app.add_option("--teacher", a.teacher_path, "the teacher's .safetensors (default: the run's)");
  app.add_option("--db", a.db, "the run database RUN is looked up in");
  auto* index_option =
      app.add_option("--image-index", a.index, "an image of the evaluation data, by index")
          ->check(non_negative_number());
  auto* image_option = app.add_option("--image", a.image, "an image file");
  index_option->excludes(image_option);
  app.add_option("--dataset", a.dataset,
                 "where --image-index picks from: a config.json (its data.eval), class folders, an "
                 "image folder or list (default: the run's data.eval; Fashion-MNIST test for a "
                 "weights file)");
  app.add_option("--out", a.out_dir, "the folder to write")->required();
  app.add_option("--size", a.pixels,
                 "at least this many pixels across in the PNGs (nearest upscaling)")
      ->check(positive_number());
  app.add_option("--device", a.device, "auto, cpu or cuda");
  add_checkpoint_options(app, a.checkpoint);  // for both models
}

// The two weight files RUN stands for, and the run's config (empty for a weights file).
struct FeatureModelPaths {
  std::string teacher, student, run_config;
};

FeatureModelPaths feature_model_paths(const FeaturesArgs& a) {
  std::error_code ec;
  FeatureModelPaths out;
  out.teacher = a.teacher_path;
  if (fs::is_regular_file(a.run, ec)) {
    out.student = a.run;
    if (out.teacher.empty()) {
      const fs::path beside = fs::path(a.run).parent_path() / "teacher.safetensors";
      if (!fs::is_regular_file(beside, ec) || fs::equivalent(beside, a.run, ec))
        throw UsageError(a.run + " is a weights file: give its teacher with --teacher");
      out.teacher = beside.string();
    }
  } else {
    const RunArgument r = resolve_run_argument(a.run, a.db);
    const RunModelPaths paths = run_model_paths(r.folder);
    out.student = paths.student;
    out.run_config = paths.config;
    if (out.teacher.empty()) out.teacher = paths.teacher;
  }
  return out;
}

FeatureImage pick_image(const FeaturesArgs& a, const std::string& run_config, int64_t channels) {
  if (!a.image.empty()) return feature_image_from_file(a.image, channels);
  const std::string where = a.dataset.empty() ? run_config : a.dataset;
  const auto data = open_inspection_dataset(where, channels);
  return feature_image_from_dataset(*data, a.index);
}

// input.png, teacher.png, student.png and cosine.png, at least `pixels` across.
void write_feature_pngs(const FeatureComparison& c, const std::string& out_dir, int pixels) {
  const PatchFeatureComparison& p = c.patches;
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
}

void write_features_json(const FeatureModelPaths& paths, const FeatureImage& picked,
                         const PatchFeatureComparison& p, const std::string& out_dir) {
  nlohmann::json j;
  j["teacher"] = fs::absolute(paths.teacher).string();
  j["student"] = fs::absolute(paths.student).string();
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
}

void print_feature_summary(const FeatureModelPaths& paths, const FeatureImage& picked,
                           const PatchFeatureComparison& p, const std::string& out_dir) {
  double evr = 0.0;
  for (double v : p.pca.explained_variance_ratio) evr += v;
  std::cout << fmt::format("{}\nteacher {}\nstudent {}\n", picked.description, paths.teacher,
                           paths.student);
  std::cout << fmt::format("patches {}x{}, mean cosine {:.4f} (min {:.4f})\n", p.grid_height,
                           p.grid_width, p.mean_cosine, p.cosine.min().item<double>());
  std::string ratios;
  for (double v : p.pca.explained_variance_ratio)
    ratios += (ratios.empty() ? "" : " / ") + fmt::format("{:.1f}%", 100 * v);
  std::cout << fmt::format("teacher PCA: explained variance {} ({:.1f}% in all)\n", ratios,
                           100 * evr);
  std::cout << fmt::format("wrote {}/{{input,teacher,student,cosine}}.png and features.json\n",
                           out_dir);
}

}  // namespace

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
  FeaturesArgs a;
  declare_features(app, a);
  if (!parse_command_line(app, args)) return 0;
  if (a.index < 0 && a.image.empty()) throw UsageError("give --image-index I or --image FILE");

  const FeatureModelPaths paths = feature_model_paths(a);
  const c10::Device dev = resolve_device(a.device);
  const InferenceLoadOptions load = a.checkpoint.load_options();
  InferenceModel teacher = load_inference_model(paths.teacher, dev, load);
  InferenceModel student = load_inference_model(paths.student, dev, load);
  for (const InferenceModel* m : {&teacher, &student})
    if (!m->preprocessing_note.empty()) std::cerr << "note: " << m->preprocessing_note << "\n";
  const FeatureImage picked = pick_image(a, paths.run_config, student.model->config().in_chans);
  const FeatureComparison c = compare_features(teacher, student, picked.image);

  fs::create_directories(a.out_dir);
  write_feature_pngs(c, a.out_dir, a.pixels);
  write_features_json(paths, picked, c.patches, a.out_dir);
  print_feature_summary(paths, picked, c.patches, a.out_dir);
  return 0;
}

}  // namespace adala::cli
