// `adala predict WEIGHTS IMAGE|FOLDER...`: class scores through a checkpoint, with the data
// settings it carries; top-1 on folders of class sub-folders.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "app/cli/arg_parser.h"
#include "app/cli/commands.h"
#include "app/cli/inference_options.h"
#include "engine/core/device.h"
#include "engine/core/safetensors.h"
#include "engine/infer/predict.h"

namespace adala::cli {

namespace {

std::string class_label(const PredictResult& r, int64_t index) {
  return index >= 0 && size_t(index) < r.class_names.size() ? r.class_names[size_t(index)]
                                                            : "#" + std::to_string(index);
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
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
  app.add_option("WEIGHTS", weights, "a .safetensors checkpoint")->required();
  app.add_option("IMAGES", inputs, "image files and folders (class sub-folders: labelled)")
      ->required();
  app.add_option("--top", options.top, "classes listed per image")->check(positive_number());
  app.add_option("--classes", classes_file,
                 "class names, one per line, in the model's output order (default: the "
                 "checkpoint's)");
  app.add_option("--csv", csv, "write the scores as CSV to this file (- for stdout)");
  app.add_option("--logits", logits_out, "write the logits (images x classes) as safetensors");
  add_inference_options(app, options, device);
  if (!parse_command_line(app, args)) return 0;

  if (!classes_file.empty()) options.class_names = read_class_names(classes_file);
  InferenceModel model = load_inference_model(weights, resolve_device(device));
  const std::vector<ImageInput> sets = open_image_inputs(inputs, model.data.in_chans);
  const PredictResult result = predict(model, sets, options);
  for (const auto& note : result.notes) std::cerr << "note: " << note << "\n";

  const int64_t top = std::min(options.top, model.model->config().num_classes);
  if (csv == "-") {
    write_csv(std::cout, result, top);
  } else if (!csv.empty()) {
    std::ofstream out(csv);
    if (!out) throw std::runtime_error(csv + ": cannot write the CSV file");
    write_csv(out, result, top);
    if (!out.flush()) throw std::runtime_error(csv + ": cannot write the CSV file");
  } else {
    print_table(result);
  }
  if (!logits_out.empty()) {
    std::vector<std::string> paths;
    for (const auto& p : result.items) paths.push_back(p.path);
    write_safetensors(
        logits_out, {{"logits", result.logits}},
        {{"adala.predict.weights", weights}, {"adala.predict.paths", Json(paths).dump()}});
  }
  // Accuracy lines go to stdout unless the CSV does.
  std::ostream& summary = csv == "-" ? std::cerr : std::cout;
  int64_t images = 0, correct = 0;
  for (const auto& a : result.accuracy) {
    summary << fmt::format("top-1 {:.4f} ({}/{}) {}\n", a.top1(), a.correct, a.images, a.origin);
    images += a.images;
    correct += a.correct;
  }
  if (result.accuracy.size() > 1)
    summary << fmt::format("top-1 {:.4f} ({}/{}) all\n",
                           images > 0 ? double(correct) / double(images) : 0.0, correct, images);
  return 0;
}

}  // namespace adala::cli
