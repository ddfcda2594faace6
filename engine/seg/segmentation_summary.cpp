#include "engine/seg/segmentation_summary.h"

#include <fmt/format.h>
#include <cmath>
#include <sstream>

#include "engine/report/sweep_columns.h"
#include "engine/seg/paper_reference.h"
#include "engine/seg/results_folder.h"

namespace adala {

namespace {

std::string pct(double v) {
  if (!std::isfinite(v)) return "n/a";
  return fmt::format("{:.2f}", 100.0 * v);
}

std::string pct(const std::optional<double>& v) { return v ? pct(*v) : "n/a"; }

Json rounded(double v, double scale) {
  if (!std::isfinite(v)) return Json(nullptr);
  return Json(std::round(v * scale) / scale);
}

Json point_json(const SegmentationPoint& p) {
  Json j = Json::object();
  j["miou"] = rounded(p.miou, 1e6);
  j["pixel_accuracy"] = rounded(p.pixel_accuracy, 1e6);
  j["img_per_s"] = p.cost.ms_per_call > 0 ? rounded(p.cost.calls_per_s(), 1e3) : Json(nullptr);
  j["peak_mb"] = p.cost.peak_bytes >= 0 ? rounded(p.cost.peak_bytes / 1e6, 1e3) : Json(nullptr);
  return j;
}

Json paper_json() {
  const auto& p = kPaperCityscapes;
  auto side = [](const PaperSegmentationPoint& s) {
    Json j = Json::object();
    j["miou"] = s.miou;
    j["img_per_s"] = s.img_per_s;
    j["peak_mb"] = s.peak_mb;
    return j;
  };
  Json j = Json::object();
  j["dataset"] = p.dataset;
  j["image_size"] = p.image_size;
  j["teacher"] = side(p.teacher);
  j["student"] = side(p.student);
  return j;
}

// A sweep row's resolution, scene count and garment range.
Json row_json(const SegmentationSweepRow& row) {
  Json j = Json::object();
  j["image_size"] = row.image_size;
  j["val_images"] = row.val_images;
  j["garments"] = Json::array({row.min_garments, row.max_garments});
  return j;
}

// The teacher and student points of one head.
Json head_points_json(const SegmentationSweepHead& h) {
  Json j = Json::object();
  j["teacher"] = point_json(h.teacher);
  j["student"] = point_json(h.student);
  return j;
}

std::string heads_words(const SegmentationJobResult& r) {
  std::string out;
  for (const auto& h : r.heads) {
    out += (out.empty() ? "" : " + ") + std::string(to_string(h.head));
    if (h.probe_epochs > 0)
      out +=
          fmt::format(" (probed {} epoch{} first)", h.probe_epochs, h.probe_epochs == 1 ? "" : "s");
  }
  return out + (r.heads.size() == 1 ? " head" : " heads");
}

// The cells of engine/report/sweep_columns.h's columns, each followed by " |".
std::string sweep_cells(const SweepPairValues& values) {
  std::string out;
  for (const SweepColumn& column : sweep_columns()) {
    const double v = column.value(values);
    std::string cell = "n/a";
    if (std::isfinite(v)) {
      switch (column.format) {
        case SweepCellFormat::Percent:
          cell = pct(v);
          break;
        case SweepCellFormat::SignedPoints:
          cell = fmt::format("{:+.2f}", 100.0 * v);
          break;
        case SweepCellFormat::Amount:
          cell = fmt::format("{:.2f}", v);
          break;
        case SweepCellFormat::Ratio:
          cell = fmt::format("{:.2f}×", v);
          break;
      }
    }
    out += " " + cell + " |";
  }
  return out;
}

// {background_class, teacher: {foreground_iou, class_accuracy}, student: {...}}
Json foreground_json(int64_t background, const SegmentationHeadResult& h) {
  Json j = Json::object();
  j["background_class"] = background;
  for (const auto& [who, eval] :
       {std::pair{"teacher", &h.teacher}, std::pair{"student", &h.student}}) {
    const ForegroundSplit s = foreground_split(eval->confusion, background);
    j[who] = {{"foreground_iou", rounded(s.foreground_iou, 1e6)},
              {"class_accuracy", rounded(s.class_accuracy, 1e6)}};
  }
  return j;
}

// [{classes, or_more, images, teacher_miou, student_miou}]: teacher and student were evaluated
// on the same images, so their groups pair up one to one.
Json classes_per_image_json(const SegmentationHeadResult& h) {
  Json out = Json::array();
  const auto& t = h.teacher.by_classes_per_image;
  const auto& s = h.student.by_classes_per_image;
  for (size_t i = 0; i < t.size() && i < s.size(); ++i)
    out.push_back({{"classes", t[i].classes},
                   {"or_more", t[i].classes == ClassesPerImageBreakdown::kCap},
                   {"images", t[i].images},
                   {"teacher_miou", rounded(t[i].confusion.mean_iou(), 1e6)},
                   {"student_miou", rounded(s[i].confusion.mean_iou(), 1e6)}});
  return out;
}

void classes_per_image_markdown(std::ostringstream& md, const SegmentationJobResult& r) {
  bool grouped = false;
  for (const auto& h : r.heads) grouped |= h.teacher.by_classes_per_image.size() > 1;
  if (!grouped) return;
  md << "\nBy how many object classes an image's truth shows (scenes: garments; two of one "
        "class count once): where in the split each gap arises.\n\n";
  md << "| head | classes per image | images | teacher mIoU | student mIoU | gap (pt) |\n";
  md << "|---|---|---|---|---|---|\n";
  for (const auto& h : r.heads) {
    const auto& t = h.teacher.by_classes_per_image;
    const auto& s = h.student.by_classes_per_image;
    for (size_t i = 0; i < t.size() && i < s.size(); ++i) {
      const double tm = t[i].confusion.mean_iou(), sm = s[i].confusion.mean_iou();
      md << "| " << to_string(h.head) << " | " << t[i].classes
         << (t[i].classes == ClassesPerImageBreakdown::kCap ? "+" : "") << " | " << t[i].images
         << " | " << pct(tm) << " | " << pct(sm) << " | "
         << fmt::format("{:+.2f}", 100.0 * (sm - tm)) << " |\n";
    }
  }
}

}  // namespace

std::string segmentation_story_line(const SegmentationJobResult& r) {
  const std::string backbone =
      r.train_backbone ? fmt::format("backbone fine-tuned (lr x {:g}, layer decay {:g})",
                                     r.backbone_lr_scale, r.layer_decay)
                       : "frozen backbone";
  return fmt::format("{}x{} · {} · {} · {} training scenes · student: {}", r.image_size,
                     r.image_size, backbone, heads_words(r), r.train_images, r.adaptation);
}

Json segmentation_index_extra(const SegmentationJobResult& r, SegmentationHeadKind head) {
  Json story = Json::object();
  story["image_size"] = r.image_size;
  story["backbone"] = r.train_backbone ? "fine-tuned" : "frozen";
  if (r.train_backbone) {
    story["backbone_lr_scale"] = r.backbone_lr_scale;
    story["layer_decay"] = r.layer_decay;
    for (const auto& h : r.heads)
      if (h.head == head) story["probe_epochs"] = h.probe_epochs;
  }
  story["head"] = to_string(head);
  story["train_images"] = r.train_images;
  story["adaptation"] = r.adaptation;
  Json sweep = Json::array();
  for (const auto& row : r.sweep)
    for (const auto& h : row.heads)
      if (h.head == head) {
        Json j = row_json(row);
        j.update(head_points_json(h));
        sweep.push_back(j);
      }
  Json extra = Json::object();
  extra["story"] = story;
  if (!sweep.empty()) {
    extra["sweep"] = sweep;
    extra["paper_reference"] = paper_json();
  }
  return extra;
}

Json segmentation_job_summary_json(const ExperimentConfig& config,
                                   const std::string& teacher_weights,
                                   const SegmentationJobResult& r) {
  const auto& seg = config.segmentation;
  Json summary = Json::object();
  summary["experiment"] = Json(config.name);
  summary["dataset"] = Json(seg.data.dataset);
  summary["image_size"] = Json(r.image_size);
  summary["train_images"] = Json(r.train_images);
  summary["val_images"] = Json(r.val_images);
  summary["train_backbone"] = Json(r.train_backbone);
  if (r.train_backbone) {
    summary["backbone_lr_scale"] = Json(r.backbone_lr_scale);
    summary["layer_decay"] = Json(r.layer_decay);
  }
  summary["teacher_weights"] = Json(teacher_weights);
  summary["student_weights"] = Json(r.student_weights);
  summary["adaptation"] = Json(r.adaptation);
  summary["story"] = Json(segmentation_story_line(r));
  Json heads = Json::object();
  for (const auto& hr : r.heads) {
    Json h = Json::object();
    h["teacher"] = segmentation_summary_json(hr.teacher.confusion);
    h["student"] = segmentation_summary_json(hr.student.confusion);
    h["miou_gap"] = rounded(hr.student.confusion.mean_iou() - hr.teacher.confusion.mean_iou(), 1e6);
    h["teacher_train_seconds"] = rounded(hr.teacher_train_seconds, 10);
    h["student_train_seconds"] = rounded(hr.student_train_seconds, 10);
    h["results"] = Json(std::string(to_string(hr.head)) + "/index.json");
    if (r.background >= 0) h["foreground"] = foreground_json(r.background, hr);
    h["by_classes_per_image"] = classes_per_image_json(hr);
    heads[to_string(hr.head)] = h;
  }
  summary["heads"] = heads;
  if (!r.sweep.empty()) {
    Json sweep = Json::array();
    for (const auto& row : r.sweep) {
      Json j = row_json(row);
      Json hs = Json::object();
      for (const auto& h : row.heads) hs[to_string(h.head)] = head_points_json(h);
      j["heads"] = hs;
      sweep.push_back(j);
    }
    summary["sweep"] = sweep;
    summary["paper_reference"] = paper_json();
  }
  return summary;
}

std::string segmentation_summary_markdown(const SegmentationJobResult& r) {
  std::ostringstream md;
  md << "# Segmentation: teacher (softmax) vs ViT-AdaLA student (linear attention)\n\n";
  md << segmentation_story_line(r) << ".\n\n";
  md << r.train_images << " training / " << r.val_images << " validation images, " << r.image_size
     << "x" << r.image_size << ", " << r.protocol
     << "; mIoU over classes present (TP+FP+FN > 0), validation split.\n\n";
  md << "| head | teacher mIoU | student mIoU | gap (pt) | teacher pixel acc | student pixel acc "
        "|\n";
  md << "|---|---|---|---|---|---|\n";
  for (const auto& h : r.heads) {
    const double t = h.teacher.confusion.mean_iou(), s = h.student.confusion.mean_iou();
    const std::string gap = fmt::format("{:+.2f}", 100.0 * (s - t));
    md << "| " << to_string(h.head) << " | " << pct(t) << " | " << pct(s) << " | " << gap << " | "
       << pct(h.teacher.confusion.pixel_accuracy()) << " | "
       << pct(h.student.confusion.pixel_accuracy()) << " |\n";
  }
  if (r.background >= 0) {
    md << "\nWhere the errors lie (foreground: every class but "
       << r.classes[size_t(r.background)].name
       << "): foreground IoU (finding the objects) and class accuracy on the pixels that truth "
          "and prediction both call foreground (naming them).\n\n";
    md << "| head | teacher foreground IoU | student foreground IoU | teacher class accuracy | "
          "student class accuracy |\n|---|---|---|---|---|\n";
    for (const auto& h : r.heads) {
      const ForegroundSplit t = foreground_split(h.teacher.confusion, r.background),
                            s = foreground_split(h.student.confusion, r.background);
      md << "| " << to_string(h.head) << " | " << pct(t.foreground_iou) << " | "
         << pct(s.foreground_iou) << " | " << pct(t.class_accuracy) << " | "
         << pct(s.class_accuracy) << " |\n";
    }
  }
  classes_per_image_markdown(md, r);
  if (!r.sweep.empty()) {
    md << "\n## Resolutions\n\nHeads trained at " << r.image_size << "x" << r.image_size
       << ", evaluated at each resolution on validation scenes whose garments keep their pixel "
          "size (more garments per image). Batch 1; img/s: median of interleaved rounds; peak: "
          "allocator bytes above weights and input over one prediction.\n\n";
    md << "| resolution | head | scenes (garments) |";
    for (const SweepColumn& column : sweep_columns()) md << " " << column.header << " |";
    md << "\n|---|---|---|";
    for (size_t c = 0; c < sweep_columns().size(); ++c) md << "---|";
    md << "\n";
    for (const auto& row : r.sweep)
      for (const auto& h : row.heads)
        md << fmt::format("| {}x{} | {} | {} ({}-{}) |", row.image_size, row.image_size,
                          to_string(h.head), row.val_images, row.min_garments, row.max_garments)
           << sweep_cells({h.teacher.miou, h.student.miou, h.teacher.cost.calls_per_s(),
                           h.student.cost.calls_per_s(), h.teacher.cost.peak_bytes / 1e6,
                           h.student.cost.peak_bytes / 1e6})
           << "\n";
    const auto& p = kPaperCityscapes;
    md << fmt::format("| paper: {} {}x{} (ViT-L, H100) | - | - |", p.dataset, p.image_size,
                      p.image_size)
       << sweep_cells({p.teacher.miou, p.student.miou, p.teacher.img_per_s, p.student.img_per_s,
                       p.teacher.peak_mb, p.student.peak_mb})
       << "\n";
  }
  md << "\nPer-class IoU (%):\n\n| class |";
  for (const auto& h : r.heads)
    md << " " << to_string(h.head) << " teacher | " << to_string(h.head) << " student |";
  md << "\n|---|";
  for (size_t i = 0; i < r.heads.size(); ++i) md << "---|---|";
  md << "\n";
  std::vector<std::vector<std::optional<double>>> t, s;
  for (const auto& h : r.heads) {
    t.push_back(h.teacher.confusion.per_class_iou());
    s.push_back(h.student.confusion.per_class_iou());
  }
  for (size_t c = 0; c < r.classes.size(); ++c) {
    md << "| " << r.classes[c].name << " |";
    for (size_t i = 0; i < r.heads.size(); ++i)
      md << " " << pct(t[i][c]) << " | " << pct(s[i][c]) << " |";
    md << "\n";
  }
  return md.str();
}

}  // namespace adala
