#include "engine/seg/results_folder.h"

#include <cmath>
#include <filesystem>
#include <stdexcept>

#include "engine/io/text_file.h"
#include "engine/data/opencv/png_io.h"

namespace adala {

namespace fs = std::filesystem;

namespace {

Json number_or_null(double v) {
  return std::isfinite(v) ? Json(std::round(v * 1e6) / 1e6) : Json(nullptr);
}

Json iou_array(const std::vector<std::optional<double>>& iou) {
  Json a = Json::array();
  for (const auto& v : iou) a.push_back(v ? number_or_null(*v) : Json(nullptr));
  return a;
}

}  // namespace

Json segmentation_summary_json(const ConfusionMatrix& c) {
  Json s = Json::object();
  s["miou"] = number_or_null(c.mean_iou());
  s["pixel_accuracy"] = number_or_null(c.pixel_accuracy());
  s["per_class_iou"] = iou_array(c.per_class_iou());
  return s;
}

Json write_segmentation_results(const std::string& dir, const SegmentationResults& r) {
  if (!r.data || !r.teacher || !r.student)
    throw std::invalid_argument("write_segmentation_results: incomplete results");
  const auto& data = *r.data;
  const int64_t ignore = 255;
  const int64_t count = std::min(
      {r.max_images, r.teacher->predictions.size(0), r.student->predictions.size(0), data.size()});
  for (const char* sub : {"images", "truth", "teacher", "student"})
    fs::create_directories(fs::path(dir) / sub);

  Json index = Json::object();
  index["head"] = Json(r.head);
  index["split"] = Json(r.split);
  index["ignore_index"] = Json(ignore);
  Json classes = Json::array();
  for (const auto& c : data.classes) {
    Json e = Json::object();
    e["name"] = Json(c.name);
    e["color"] = Json(c.hex());
    classes.push_back(e);
  }
  index["classes"] = classes;
  Json summary = Json::object();
  summary["teacher"] = segmentation_summary_json(r.teacher->confusion);
  summary["student"] = segmentation_summary_json(r.student->confusion);
  index["summary"] = summary;

  Json images = Json::array();
  for (int64_t i = 0; i < count; ++i) {
    const std::string id = size_t(i) < data.ids.size() ? data.ids[size_t(i)] : std::to_string(i);
    const std::string file = id + ".png";
    auto truth = data.masks[i];
    auto teacher = r.teacher->predictions[i], student = r.student->predictions[i];
    write_rgb_png((fs::path(dir) / "images" / file).string(), data.images[i]);
    write_label_png((fs::path(dir) / "truth" / file).string(), truth);
    write_label_png((fs::path(dir) / "teacher" / file).string(), teacher);
    write_label_png((fs::path(dir) / "student" / file).string(), student);
    ConfusionMatrix ct(data.num_classes(), ignore), cs(data.num_classes(), ignore);
    ct.add(teacher, truth);
    cs.add(student, truth);
    auto labelled = truth.ne(ignore);
    const auto n = labelled.sum().item<int64_t>();
    const auto differ = teacher.ne(student).logical_and(labelled).sum().item<int64_t>();
    Json e = Json::object();
    e["id"] = Json(id);
    e["image"] = Json("images/" + file);
    e["truth"] = Json("truth/" + file);
    e["teacher"] = Json("teacher/" + file);
    e["student"] = Json("student/" + file);
    e["teacher_miou"] = number_or_null(ct.mean_iou());
    e["student_miou"] = number_or_null(cs.mean_iou());
    e["teacher_iou"] = iou_array(ct.per_class_iou());
    e["student_iou"] = iou_array(cs.per_class_iou());
    e["disagreement"] = n ? number_or_null(double(differ) / double(n)) : Json(nullptr);
    images.push_back(e);
  }
  index["images"] = images;
  for (auto it = r.extra.begin(); it != r.extra.end(); ++it) index[it.key()] = it.value();
  write_text((fs::path(dir) / "index.json").string(), index.dump(2) + "\n");
  return index;
}

}  // namespace adala
