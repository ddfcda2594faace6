// `adala predict WEIGHTS IMAGE|FOLDER...`: class scores through a checkpoint, with the data
// settings it carries; top-1 on folders of class sub-folders.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "app/cli/arg_parser.h"
#include "app/cli/commands.h"
#include "app/cli/table_cells.h"
#include "app/cli/inference_options.h"
#include "engine/runtime/device.h"
#include "engine/io/safetensors.h"
#include "engine/infer/predict.h"

namespace adala::cli {

namespace {

std::string class_label(const PredictResult& r, int64_t index) {
  return index >= 0 && size_t(index) < r.class_names.size() ? r.class_names[size_t(index)]
                                                            : "#" + std::to_string(index);
}

void write_csv(std::ostream& out, const PredictResult& r, int64_t top) {
  out << "path,label";
  for (int64_t k = 1; k <= top; ++k) out << fmt::format(",top{0},top{0}_index,top{0}_score", k);
  out << "\n";
  for (const auto& p : r.items) {
    out << csv_field(p.path) << "," << (p.label >= 0 ? csv_field(class_label(r, p.label)) : "");
    for (size_t k = 0; k < p.top_index.size(); ++k)
      out << fmt::format(",{},{},{:.6g}", csv_field(class_label(r, p.top_index[k])), p.top_index[k],
                         p.top_score[k]);
    out << "\n";
  }
}

void print_table(const PredictResult& r) {
  size_t path_width = 5;
  for (const auto& p : r.items)
    path_width = std::max(path_width, std::min<size_t>(p.path.size(), 60));
  const bool labelled =
      std::any_of(r.items.begin(), r.items.end(), [](auto& p) { return p.label >= 0; });
  std::cout << fmt::format("{:<{}}  {}predictions (class score)\n", "image", path_width,
                           labelled ? fmt::format("{:<16}  ", "label") : "");
  for (const auto& p : r.items) {
    std::string line = fmt::format("{:<{}}  ", p.path, path_width);
    if (labelled) line += fmt::format("{:<16}  ", p.label >= 0 ? class_label(r, p.label) : "-");
    for (size_t k = 0; k < p.top_index.size(); ++k)
      line += fmt::format("{}{} {:.4f}", k ? "   " : "", class_label(r, p.top_index[k]),
                          p.top_score[k]);
    std::cout << line << "\n";
  }
}

// Beside the CSV: "scores.csv" -> "scores.confusion.csv" (label rows, predicted columns).
std::string confusion_path(const std::string& csv) {
  std::filesystem::path p(csv);
  return (p.parent_path() / (p.stem().string() + ".confusion.csv")).string();
}

void write_confusion_csv(const std::string& path, const PredictResult& r) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error(path + ": cannot write the confusion matrix");
  const int64_t k = r.confusion.size(0);
  const int64_t* m = r.confusion.data_ptr<int64_t>();
  out << "label/predicted";
  for (int64_t j = 0; j < k; ++j) out << "," << csv_field(class_label(r, j));
  out << "\n";
  for (int64_t i = 0; i < k; ++i) {
    out << csv_field(class_label(r, i));
    for (int64_t j = 0; j < k; ++j) out << "," << m[i * k + j];
    out << "\n";
  }
  if (!out.flush()) throw std::runtime_error(path + ": cannot write the confusion matrix");
}

// Top-1 and top-5 per labelled input (and over all), then accuracy per class.
void print_accuracy(std::ostream& out, const PredictResult& r) {
  int64_t images = 0, correct = 0, correct5 = 0;
  for (const auto& a : r.accuracy) {
    out << fmt::format("top-1 {:.4f} ({}/{})  top-5 {:.4f}  {}\n", a.top1(), a.correct, a.images,
                       a.top5(), a.origin);
    images += a.images;
    correct += a.correct;
    correct5 += a.correct_top5;
  }
  if (r.accuracy.size() > 1 && images > 0)
    out << fmt::format("top-1 {:.4f} ({}/{})  top-5 {:.4f}  all\n",
                       double(correct) / double(images), correct, images,
                       double(correct5) / double(images));
  if (images == 0) return;
  const std::vector<double> per_class = r.per_class_accuracy();
  out << "per class (top-1, images):\n";
  const int64_t k = r.confusion.size(0);
  const int64_t* m = r.confusion.data_ptr<int64_t>();
  for (size_t c = 0; c < per_class.size(); ++c) {
    if (std::isnan(per_class[c])) continue;
    int64_t total = 0;
    for (int64_t j = 0; j < k; ++j) total += m[int64_t(c) * k + j];
    out << fmt::format("  {:<24} {:.4f}  {}\n", class_label(r, int64_t(c)), per_class[c], total);
  }
}

}  // namespace

int predict_command(const Args& args) {
  CLI::App app{
      "Class scores of images through a checkpoint, with the input size, mean/std and crop it "
      "carries (adala.pretrained_cfg; defaults for files without). A folder of class "
      "sub-folders also gives its top-1 accuracy.",
      "adala predict"};
  prepare_command_app(app);
  std::string weights, classes_file, csv, logits_out, device = "auto";
  std::vector<std::string> inputs;
  PredictOptions options;
  CheckpointOptions checkpoint;
  bool list = false;
  app.add_option("WEIGHTS", weights, "a .safetensors checkpoint")->required();
  app.add_option("IMAGES", inputs, "image files and folders (class sub-folders: labelled)")
      ->required();
  app.add_option("--top", options.top, "classes listed per image")->check(positive_number());
  app.add_option("--classes", classes_file,
                 "class names, one per line, in the model's output order (default: the "
                 "checkpoint's)");
  app.add_option("--csv", csv, "write the scores as CSV to this file (- for stdout)");
  app.add_option("--logits", logits_out, "write the logits (images x classes) as safetensors");
  app.add_flag("--list", list,
               "list every image's classes even when the inputs are class folders (which "
               "otherwise print only their accuracy)");
  add_inference_options(app, options, device);
  add_checkpoint_options(app, checkpoint);
  if (!parse_command_line(app, args)) return 0;

  if (!classes_file.empty()) options.class_names = read_class_names(classes_file);
  InferenceModel model =
      load_inference_model(weights, resolve_device(device), checkpoint.load_options());
  if (!model.preprocessing_note.empty()) std::cerr << "note: " << model.preprocessing_note << "\n";
  const std::vector<ImageInput> sets = open_image_inputs(inputs, model.data.in_chans);
  const PredictResult result = predict(model, sets, options);
  for (const auto& note : result.notes) std::cerr << "note: " << note << "\n";
  const bool folders_only = !result.accuracy.empty() && result.accuracy.size() == sets.size();

  const int64_t top = std::min(options.top, model.model->config().num_classes);
  if (csv == "-") {
    write_csv(std::cout, result, top);
  } else if (!csv.empty()) {
    std::ofstream out(csv);
    if (!out) throw std::runtime_error(csv + ": cannot write the CSV file");
    write_csv(out, result, top);
    if (!out.flush()) throw std::runtime_error(csv + ": cannot write the CSV file");
  } else if (list || !folders_only) {
    print_table(result);
  }
  if (!csv.empty() && csv != "-" && !result.accuracy.empty())
    write_confusion_csv(confusion_path(csv), result);
  if (!logits_out.empty()) {
    std::vector<std::string> paths;
    for (const auto& p : result.items) paths.push_back(p.path);
    write_safetensors(
        logits_out, {{"logits", result.logits}},
        {{"adala.predict.weights", weights}, {"adala.predict.paths", Json(paths).dump()}});
  }
  // Accuracy lines go to stdout unless the CSV does.
  print_accuracy(csv == "-" ? std::cerr : std::cout, result);
  return 0;
}

}  // namespace adala::cli
