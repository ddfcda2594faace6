#include "engine/seg/results_index.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "engine/json/json.h"
#include "engine/train/config/segmentation_config.h"

namespace adala {

namespace {

// The largest count an index may hold (doubles hold every integer up to it).
constexpr int64_t kMaxCount = int64_t(1) << 53;
constexpr int64_t kMaxImageSize = 65536;

// "an integer from 1 to 65536", "a non-negative integer".
std::string integer_range(int64_t lo, int64_t hi) {
  if (hi < kMaxCount) return "an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
  return lo == 0 ? "a non-negative integer" : "an integer of at least " + std::to_string(lo);
}

// Reads typed fields; each problem names the dotted field ("images[2].truth").
class IndexReader {
 public:
  explicit IndexReader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& problem) const {
    throw SegmentationIndexError(file_, problem);
  }

  const Json& required(const Json& o, const char* key, const std::string& at) const {
    const auto it = o.find(key);
    if (it == o.end()) fail(at + " is missing.");
    return *it;
  }
  std::string string(const Json& o, const char* key, const std::string& at) const {
    const Json& v = required(o, key, at);
    if (v.is_number()) {  // a numeric id
      std::ostringstream text;
      text.precision(15);
      text << v.get<double>();
      return text.str();
    }
    if (!v.is_string() || v.get_ref<const std::string&>().empty())
      fail(at + " must be a non-empty string.");
    return v.get<std::string>();
  }
  const Json& object(const Json& o, const char* key, const std::string& at) const {
    const Json& v = required(o, key, at);
    if (!v.is_object()) fail(at + " must be an object.");
    return v;
  }
  const Json& array(const Json& o, const char* key, const std::string& at) const {
    const Json& v = required(o, key, at);
    if (!v.is_array()) fail(at + " must be an array.");
    return v;
  }
  // A number; absent or null gives NaN unless `needed`.
  double number(const Json& o, const char* key, const std::string& at, bool needed) const {
    const auto it = o.find(key);
    if (it == o.end() || it->is_null()) {
      if (needed) fail(at + " is missing.");
      return std::nan("");
    }
    if (!it->is_number()) fail(at + " must be a number.");
    return it->get<double>();
  }
  // A score (IoU, accuracy, share of pixels): a number from 0 to 1, NaN when absent or null.
  double fraction(const Json& o, const char* key, const std::string& at, bool needed) const {
    const double x = number(o, key, at, needed);
    if (x < 0 || x > 1) fail(at + " is " + Json(x).dump() + ", outside 0..1.");
    return x;
  }
  // One score (or null: absent class) per class; absent or null gives an empty list.
  std::vector<double> per_class(const Json& o, const char* key, const std::string& at,
                                size_t classes) const {
    const auto it = o.find(key);
    if (it == o.end() || it->is_null()) return {};
    if (!it->is_array()) fail(at + " must be an array with one number (or null) per class.");
    if (it->size() != classes)
      fail(at + " has " + std::to_string(it->size()) + " entries, expected " +
           std::to_string(classes) + " (one per class).");
    std::vector<double> out;
    for (size_t i = 0; i < it->size(); ++i) {
      const Json& v = (*it)[i];
      const std::string where = at + "[" + std::to_string(i) + "]";
      if (v.is_null()) {
        out.push_back(std::nan(""));
        continue;
      }
      if (!v.is_number()) fail(where + " must be a number or null.");
      const double x = v.get<double>();
      if (x < 0 || x > 1) fail(where + " is " + v.dump() + ", outside 0..1.");
      out.push_back(x);
    }
    return out;
  }

  // A JSON string (a number is not one), non-empty.
  std::string text(const Json& o, const char* key, const std::string& at) const {
    const Json& v = required(o, key, at);
    if (!v.is_string() || v.get_ref<const std::string&>().empty())
      fail(at + " must be a non-empty string.");
    return v.get<std::string>();
  }
  // An integer from lo to hi (a whole number written as 2.0 counts).
  int64_t integer(const Json& v, const std::string& at, int64_t lo, int64_t hi) const {
    const double x = v.is_number() ? v.get<double>() : std::nan("");
    if (!(x >= double(lo) && x <= double(hi)) || x != std::floor(x))
      fail(at + " must be " + integer_range(lo, hi) + ".");
    return static_cast<int64_t>(x);
  }
  int64_t integer(const Json& o, const char* key, const std::string& at, int64_t lo,
                  int64_t hi) const {
    return integer(required(o, key, at), at, lo, hi);
  }
  // A rate or size: above 0 (at least 0 with `zero_ok`), NaN when absent or null.
  double positive(const Json& o, const char* key, const std::string& at, bool zero_ok) const {
    const double x = number(o, key, at, false);
    if (zero_ok ? x < 0 : x <= 0)
      fail(at + " is " + Json(x).dump() + (zero_ok ? ", below 0." : ", must be above 0."));
    return x;
  }
  // An optional object: nullptr when absent or null.
  const Json* optional_object(const Json& o, const char* key, const std::string& at) const {
    const auto it = o.find(key);
    if (it == o.end() || it->is_null()) return nullptr;
    if (!it->is_object()) fail(at + " must be an object.");
    return &*it;
  }

  SegmentationIndexStory story(const Json& o) const {
    SegmentationIndexStory s;
    s.image_size = int(integer(o, "image_size", "story.image_size", 1, kMaxImageSize));
    s.backbone = text(o, "backbone", "story.backbone");
    if (s.backbone != "frozen" && s.backbone != "fine-tuned")
      fail("story.backbone is " + Json(s.backbone).dump() +
           ", expected \"frozen\" or \"fine-tuned\".");
    s.backbone_lr_scale = positive(o, "backbone_lr_scale", "story.backbone_lr_scale", true);
    s.layer_decay = number(o, "layer_decay", "story.layer_decay", false);
    if (s.layer_decay <= 0 || s.layer_decay > 1)
      fail("story.layer_decay is " + Json(s.layer_decay).dump() + ", outside (0, 1].");
    if (const auto it = o.find("probe_epochs"); it != o.end() && !it->is_null())
      s.probe_epochs = integer(*it, "story.probe_epochs", 0, kMaxProbeEpochs);
    s.head = text(o, "head", "story.head");
    if (const auto it = o.find("train_images"); it != o.end() && !it->is_null())
      s.train_images = integer(*it, "story.train_images", 0, kMaxCount);
    if (const auto it = o.find("adaptation"); it != o.end() && !it->is_null()) {
      if (!it->is_string()) fail("story.adaptation must be a string.");
      s.adaptation = it->get<std::string>();
    }
    return s;
  }

  // parent.<model>: {miou, pixel_accuracy, img_per_s, peak_mb}, each a number or null.
  SegmentationIndexMeasure measure(const Json& parent, const char* model,
                                   const std::string& parent_at) const {
    const std::string at = parent_at + "." + model;
    const Json& o = object(parent, model, at);
    SegmentationIndexMeasure m;
    m.miou = fraction(o, "miou", at + ".miou", false);
    m.pixel_accuracy = fraction(o, "pixel_accuracy", at + ".pixel_accuracy", false);
    m.img_per_s = positive(o, "img_per_s", at + ".img_per_s", false);
    m.peak_mb = positive(o, "peak_mb", at + ".peak_mb", true);
    return m;
  }

  SegmentationIndexSweepRow sweep_row(const Json& o, const std::string& at) const {
    if (!o.is_object()) fail(at + " must be an object.");
    SegmentationIndexSweepRow row;
    row.image_size = int(integer(o, "image_size", at + ".image_size", 1, kMaxImageSize));
    row.val_images = integer(o, "val_images", at + ".val_images", 0, kMaxCount);
    const Json& garments = array(o, "garments", at + ".garments");
    if (garments.size() != 2)
      fail(at + ".garments must hold two integers, the fewest and the most per scene (it has " +
           std::to_string(garments.size()) + ").");
    row.garments_min = integer(garments[0], at + ".garments[0]", 0, kMaxCount);
    row.garments_max = integer(garments[1], at + ".garments[1]", 0, kMaxCount);
    if (row.garments_min > row.garments_max)
      fail(at + ".garments is " + garments.dump() +
           ": the first (fewest) must not exceed the second (most).");
    row.teacher = measure(o, "teacher", at);
    row.student = measure(o, "student", at);
    return row;
  }

  std::vector<SegmentationIndexSweepRow> sweep(const Json& root) const {
    const auto it = root.find("sweep");
    if (it == root.end() || it->is_null()) return {};
    if (!it->is_array()) fail("sweep must be an array.");
    std::vector<SegmentationIndexSweepRow> rows;
    for (size_t i = 0; i < it->size(); ++i)
      rows.push_back(sweep_row((*it)[i], "sweep[" + std::to_string(i) + "]"));
    return rows;
  }

  SegmentationIndexPaperReference paper_reference(const Json& o) const {
    const std::string at = "paper_reference";
    SegmentationIndexPaperReference p;
    p.dataset = text(o, "dataset", at + ".dataset");
    p.image_size = int(integer(o, "image_size", at + ".image_size", 1, kMaxImageSize));
    p.teacher = measure(o, "teacher", at);
    p.student = measure(o, "student", at);
    return p;
  }

  SegmentationIndexScores scores(const Json& summary, const char* model, size_t classes) const {
    const std::string at = std::string("summary.") + model;
    const Json& o = object(summary, model, at);
    SegmentationIndexScores s;
    s.miou = fraction(o, "miou", at + ".miou", true);
    s.pixel_accuracy = fraction(o, "pixel_accuracy", at + ".pixel_accuracy", false);
    s.per_class_iou = per_class(o, "per_class_iou", at + ".per_class_iou", classes);
    return s;
  }

 private:
  std::string file_;
};

}  // namespace

SegmentationIndexError::SegmentationIndexError(std::string file, std::string problem)
    : std::runtime_error(file + ": " + problem),
      file_(std::move(file)),
      problem_(std::move(problem)) {}

SegmentationIndex read_segmentation_index(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw SegmentationIndexError(path, std::string("cannot open (") + std::strerror(errno) + ").");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw SegmentationIndexError(path, "cannot read.");
  return parse_segmentation_index(text.str(), path);
}

SegmentationIndex parse_segmentation_index(const std::string& text, const std::string& path) {
  const IndexReader r(path);
  Json root;
  try {
    root = parse_json_strict(text);
  } catch (const JsonError& e) {
    r.fail(std::string("not valid JSON (") + e.what() + ").");
  }
  if (!root.is_object()) r.fail("the top level must be an object.");

  SegmentationIndex out;
  if (const auto head = root.find("head"); head != root.end() && head->is_string())
    out.head = head->get<std::string>();
  if (const auto split = root.find("split"); split != root.end() && split->is_string())
    out.split = split->get<std::string>();
  if (root.contains("ignore_index")) {
    const double ignore = r.number(root, "ignore_index", "ignore_index", true);
    if (ignore < 0 || ignore > 255 || ignore != std::floor(ignore))
      r.fail("ignore_index must be an integer from 0 to 255.");
    out.ignore_index = static_cast<int>(ignore);
  }

  const Json& classes = r.array(root, "classes", "classes");
  if (classes.empty()) r.fail("classes is empty.");
  if (classes.size() > 255)
    r.fail("classes has " + std::to_string(classes.size()) + " entries; masks hold at most 255.");
  for (size_t i = 0; i < classes.size(); ++i) {
    const std::string at = "classes[" + std::to_string(i) + "]";
    if (!classes[i].is_object()) r.fail(at + " must be an object with a name and a color.");
    out.classes.push_back(
        {r.string(classes[i], "name", at + ".name"), r.string(classes[i], "color", at + ".color")});
  }
  const size_t class_count = out.classes.size();
  if (out.ignore_index < static_cast<int>(class_count))
    r.fail("ignore_index " + std::to_string(out.ignore_index) +
           " is also a class index (there are " + std::to_string(class_count) + " classes).");

  const Json& summary = r.object(root, "summary", "summary");
  out.teacher = r.scores(summary, "teacher", class_count);
  out.student = r.scores(summary, "student", class_count);

  const Json& images = r.array(root, "images", "images");
  if (images.empty()) r.fail("images is empty.");
  for (size_t i = 0; i < images.size(); ++i) {
    const std::string at = "images[" + std::to_string(i) + "]";
    const Json& o = images[i];
    if (!o.is_object()) r.fail(at + " must be an object.");
    SegmentationIndexEntry e;
    e.id = r.string(o, "id", at + ".id");
    e.image = r.string(o, "image", at + ".image");
    e.truth = r.string(o, "truth", at + ".truth");
    e.teacher = r.string(o, "teacher", at + ".teacher");
    e.student = r.string(o, "student", at + ".student");
    e.teacher_miou = r.fraction(o, "teacher_miou", at + ".teacher_miou", false);
    e.student_miou = r.fraction(o, "student_miou", at + ".student_miou", false);
    e.disagreement = r.fraction(o, "disagreement", at + ".disagreement", false);
    e.teacher_iou = r.per_class(o, "teacher_iou", at + ".teacher_iou", class_count);
    e.student_iou = r.per_class(o, "student_iou", at + ".student_iou", class_count);
    out.entries.push_back(std::move(e));
  }

  // Newer writers add how the models were made, a resolution sweep and the paper's numbers.
  if (const Json* story = r.optional_object(root, "story", "story")) out.story = r.story(*story);
  out.sweep = r.sweep(root);
  if (const Json* paper = r.optional_object(root, "paper_reference", "paper_reference"))
    out.paper_reference = r.paper_reference(*paper);
  return out;
}

}  // namespace adala
