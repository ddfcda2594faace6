#include "engine/report/segmentation_summary_reader.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "engine/json/json.h"

namespace adala::report {

namespace {

constexpr double kSummaryNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int64_t kMaxImageSide = 65536;

// Typed, range-checked fields of summary.json; every problem names the dotted field.
// Absent and null read alike ("not recorded") for every optional field.
class SummaryFieldReader {
 public:
  [[noreturn]] static void fail(const std::string& at, const std::string& problem) {
    throw SegmentationSummaryError(at + ": " + problem);
  }

  static const adala::Json* find(const adala::Json& o, const char* key) {
    const auto it = o.find(key);
    return it == o.end() || it->is_null() ? nullptr : &*it;
  }
  static std::string field(const std::string& at, const std::string& key) {
    return at.empty() ? key : at + "." + key;
  }

  static std::string text(const adala::Json& o, const char* key, const std::string& at) {
    const adala::Json* v = find(o, key);
    if (!v) return {};
    if (!v->is_string())
      fail(field(at, key), std::string("a string expected, got ") + adala::json_type_name(*v));
    return v->get<std::string>();
  }
  static std::optional<bool> flag(const adala::Json& o, const char* key, const std::string& at) {
    const adala::Json* v = find(o, key);
    if (!v) return std::nullopt;
    if (!v->is_boolean())
      fail(field(at, key), std::string("true or false expected, got ") + adala::json_type_name(*v));
    return v->get<bool>();
  }
  static double number(const adala::Json& v, const std::string& at) {
    if (!v.is_number()) fail(at, std::string("a number expected, got ") + adala::json_type_name(v));
    const double x = v.get<double>();
    if (!std::isfinite(x)) fail(at, "not a finite number");
    return x;
  }
  static double number(const adala::Json& o, const char* key, const std::string& at) {
    const adala::Json* v = find(o, key);
    return v ? number(*v, field(at, key)) : kSummaryNaN;
  }
  // A score (mIoU, pixel accuracy): a fraction from 0 to 1.
  static double fraction(const adala::Json& v, const std::string& at) {
    const double x = number(v, at);
    if (x < 0 || x > 1) fail(at, v.dump() + " is not a fraction in [0, 1]");
    return x;
  }
  static double fraction(const adala::Json& o, const char* key, const std::string& at) {
    const adala::Json* v = find(o, key);
    return v ? fraction(*v, field(at, key)) : kSummaryNaN;
  }
  // A positive number (or a non-negative one when `zero_allowed`).
  static double positive(const adala::Json& o, const char* key, const std::string& at,
                         bool zero_allowed) {
    const double x = number(o, key, at);
    if (std::isnan(x) || x > 0 || (zero_allowed && x == 0)) return x;
    fail(field(at, key), find(o, key)->dump() + (zero_allowed ? " is below 0" : " is not above 0"));
  }
  // A whole number in [lo, hi]; `missing` when absent.
  static int64_t integer(const adala::Json& v, const std::string& at, int64_t lo, int64_t hi) {
    const double x = number(v, at);
    if (x != std::floor(x)) fail(at, v.dump() + " is not a whole number");
    if (x < double(lo) || x > double(hi))
      fail(at, v.dump() + " is outside " + std::to_string(lo) + ".." + std::to_string(hi));
    return int64_t(x);
  }
  static int64_t integer(const adala::Json& o, const char* key, const std::string& at, int64_t lo,
                         int64_t hi, int64_t missing) {
    const adala::Json* v = find(o, key);
    return v ? integer(*v, field(at, key), lo, hi) : missing;
  }
  static const adala::Json* object(const adala::Json& o, const char* key, const std::string& at) {
    const adala::Json* v = find(o, key);
    if (v && !v->is_object())
      fail(field(at, key), std::string("an object expected, got ") + adala::json_type_name(*v));
    return v;
  }
  static const adala::Json* array(const adala::Json& o, const char* key, const std::string& at) {
    const adala::Json* v = find(o, key);
    if (v && !v->is_array())
      fail(field(at, key), std::string("an array expected, got ") + adala::json_type_name(*v));
    return v;
  }

  static SegmentationScores scores(const adala::Json& o, const char* key, const std::string& at) {
    SegmentationScores s;
    const adala::Json* v = object(o, key, at);
    if (!v) return s;
    const std::string where = field(at, key);
    s.miou = fraction(*v, "miou", where);
    s.pixel_accuracy = fraction(*v, "pixel_accuracy", where);
    s.img_per_s = positive(*v, "img_per_s", where, false);
    s.peak_mb = positive(*v, "peak_mb", where, true);
    if (const adala::Json* iou = array(*v, "per_class_iou", where)) {
      const std::string list = field(where, "per_class_iou");
      for (size_t i = 0; i < iou->size(); ++i) {
        const adala::Json& c = (*iou)[i];
        s.per_class_iou.push_back(c.is_null() ? kSummaryNaN
                                              : fraction(c, list + "[" + std::to_string(i) + "]"));
      }
    }
    return s;
  }

  static SegmentationHeadResult head(const std::string& name, const adala::Json& h,
                                     const std::string& at) {
    if (!h.is_object())
      fail(at, std::string("an object expected, got ") + adala::json_type_name(h));
    SegmentationHeadResult r;
    r.head = name;
    r.teacher = scores(h, "teacher", at);
    r.student = scores(h, "student", at);
    r.miou_gap = number(h, "miou_gap", at);
    if (std::abs(r.miou_gap) > 1)
      fail(field(at, "miou_gap"), h.at("miou_gap").dump() + " is outside [-1, 1]");
    r.teacher_train_seconds = positive(h, "teacher_train_seconds", at, true);
    r.student_train_seconds = positive(h, "student_train_seconds", at, true);
    r.results = text(h, "results", at);
    return r;
  }

  static SegmentationSweepPoint sweep_point(const adala::Json& p, const std::string& at) {
    if (!p.is_object())
      fail(at, std::string("an object expected, got ") + adala::json_type_name(p));
    SegmentationSweepPoint point;
    if (!find(p, "image_size")) fail(field(at, "image_size"), "missing");
    point.image_size = integer(p, "image_size", at, 1, kMaxImageSide, 0);
    point.val_images = integer(p, "val_images", at, 0, INT64_MAX / 2, -1);
    if (const adala::Json* g = array(p, "garments", at))
      for (size_t i = 0; i < g->size(); ++i)
        point.garments.push_back(
            integer((*g)[i], field(at, "garments") + "[" + std::to_string(i) + "]", 0, 1 << 20));
    if (const adala::Json* heads = object(p, "heads", at))
      for (auto it = heads->begin(); it != heads->end(); ++it) {
        const std::string where = field(field(at, "heads"), it.key());
        const adala::Json& h = it.value();
        if (!h.is_object())
          fail(where, std::string("an object expected, got ") + adala::json_type_name(h));
        point.heads.push_back({it.key(), scores(h, "teacher", where), scores(h, "student", where)});
      }
    return point;
  }

  static SegmentationPaperReference paper(const adala::Json& p, const std::string& at) {
    SegmentationPaperReference r;
    r.dataset = text(p, "dataset", at);
    r.image_size = integer(p, "image_size", at, 1, kMaxImageSide, 0);
    r.teacher = scores(p, "teacher", at);
    r.student = scores(p, "student", at);
    return r;
  }
};

}  // namespace

double SegmentationHeadResult::gap() const {
  if (std::isfinite(miou_gap)) return miou_gap;
  return student.miou - teacher.miou;  // NaN when either is
}

SegmentationSummary parse_segmentation_summary(std::string_view text) {
  using R = SummaryFieldReader;
  adala::Json doc;
  try {
    doc = adala::parse_json_strict(text);
  } catch (const adala::JsonError& e) {
    throw SegmentationSummaryError(e.what());
  }
  if (!doc.is_object())
    throw SegmentationSummaryError(std::string("the document must be a JSON object, got ") +
                                   adala::json_type_name(doc));
  SegmentationSummary s;
  s.experiment = R::text(doc, "experiment", "");
  s.dataset = R::text(doc, "dataset", "");
  s.image_size = R::integer(doc, "image_size", "", 1, kMaxImageSide, 0);
  s.train_images = R::integer(doc, "train_images", "", 0, INT64_MAX / 2, -1);
  s.val_images = R::integer(doc, "val_images", "", 0, INT64_MAX / 2, -1);
  s.train_backbone = R::flag(doc, "train_backbone", "");
  s.backbone_lr_scale = R::positive(doc, "backbone_lr_scale", "", true);
  s.layer_decay = R::positive(doc, "layer_decay", "", false);
  if (s.layer_decay > 1) R::fail("layer_decay", doc.at("layer_decay").dump() + " is above 1");
  s.teacher_weights = R::text(doc, "teacher_weights", "");
  s.student_weights = R::text(doc, "student_weights", "");
  s.adaptation = R::text(doc, "adaptation", "");

  const adala::Json* heads = R::object(doc, "heads", "");
  if (!heads) R::fail("heads", "missing");
  if (heads->empty()) R::fail("heads", "no head");
  for (auto it = heads->begin(); it != heads->end(); ++it)
    s.heads.push_back(R::head(it.key(), it.value(), "heads." + it.key()));

  if (const adala::Json* sweep = R::array(doc, "sweep", ""))
    for (size_t i = 0; i < sweep->size(); ++i)
      s.sweep.push_back(R::sweep_point((*sweep)[i], "sweep[" + std::to_string(i) + "]"));
  if (const adala::Json* paper = R::object(doc, "paper_reference", ""))
    s.paper = R::paper(*paper, "paper_reference");
  return s;
}

SegmentationSummary read_segmentation_summary(const std::string& path, std::string* problem) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    if (problem) *problem = std::strerror(errno);
    return {};
  }
  std::ostringstream bytes;
  bytes << file.rdbuf();
  if (file.bad()) {
    if (problem) *problem = "cannot read the file";
    return {};
  }
  try {
    return parse_segmentation_summary(bytes.str());
  } catch (const SegmentationSummaryError& e) {
    if (problem) *problem = e.what();
  }
  return {};
}

}  // namespace adala::report
