// LibTorch (through the engine headers) before any Qt header: Qt's `slots` macro breaks ATen's
// ivalue_inl.h.
#include "engine/infer/feature_comparison.h"
#include "engine/infer/inspection_dataset.h"
#include "engine/infer/resolution_sweep.h"
#include "engine/infer/resolution_sweep_keys.h"
#include "engine/store/run_store.h"

#include "app/gui/feature_worker.h"

#include "app/gui/engine_worker.h"

#include <chrono>
#include <cmath>
#include <filesystem>

namespace adala::gui {

using namespace adala::widgets;

namespace {

struct CachedModel {
  std::string path;
  std::filesystem::file_time_type time{};
  std::unique_ptr<InferenceModel> model;

  InferenceModel& get(const std::string& p) {
    const auto t = std::filesystem::last_write_time(p);
    if (!model || path != p || time != t) {
      model.reset();
      model = std::make_unique<InferenceModel>(load_inference_model(p, c10::Device(c10::kCPU)));
      path = p;
      time = t;
    }
    return *model;
  }
};

// (H, W, 3) uint8 -> QImage (copied).
QImage rgbImage(const at::Tensor& hwc) {
  const at::Tensor t = hwc.contiguous();
  const int h = int(t.size(0)), w = int(t.size(1));
  QImage image(w, h, QImage::Format_RGB888);
  const uint8_t* p = t.data_ptr<uint8_t>();
  for (int y = 0; y < h; ++y) std::copy_n(p + size_t(y) * w * 3, size_t(w) * 3, image.scanLine(y));
  return image;
}

// (C, H, W) float in [0, 1] -> grey or RGB QImage.
QImage inputImage(const at::Tensor& chw) {
  const at::Tensor bytes =
      (chw.permute({1, 2, 0}) * 255.0).round().clamp(0, 255).to(at::kByte).contiguous();
  if (bytes.size(2) == 3) return rgbImage(bytes);
  const int h = int(bytes.size(0)), w = int(bytes.size(1)), c = int(bytes.size(2));
  QImage image(w, h, QImage::Format_Grayscale8);
  const uint8_t* p = bytes.data_ptr<uint8_t>();
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) image.scanLine(y)[x] = p[(size_t(y) * w + x) * c];
  return image;
}

}  // namespace

struct FeatureWorker::State {
  CachedModel teacher, student;
  std::shared_ptr<const Dataset> dataset;
  std::string datasetKey;
};

FeatureWorker::FeatureWorker(const QString& dbPath)
    : state_(std::make_unique<State>()), dbPath_(dbPath) {}
FeatureWorker::~FeatureWorker() = default;

void FeatureWorker::maps(quint64 generation, const FeatureRequest& request) {
  if (generation != latestMaps.load()) return;  // superseded before it started
  lowerCurrentThreadPriority(5);
  try {
    auto& s = *state_;
    const RunModelPaths paths = run_model_paths(request.runDir.toStdString());
    InferenceModel& teacher = s.teacher.get(paths.teacher);
    InferenceModel& student = s.student.get(paths.student);
    const int64_t channels = student.model->config().in_chans;
    FeatureImage picked;
    if (!request.imagePath.isEmpty()) {
      picked = feature_image_from_file(request.imagePath.toStdString(), channels);
    } else {
      const std::string key = paths.config + "\n" + std::to_string(channels);
      if (!s.dataset || s.datasetKey != key) {
        s.dataset.reset();
        s.dataset = open_inspection_dataset(paths.config, channels);
        s.datasetKey = key;
      }
      picked = feature_image_from_dataset(*s.dataset, request.itemIndex);
    }
    if (generation != latestMaps.load()) return;
    const FeatureComparison c = compare_features(teacher, student, picked.image);
    const PatchFeatureComparison& p = c.patches;
    FeatureMaps out;
    out.runId = request.runId;
    out.itemIndex = int(picked.index);
    out.datasetSize = s.dataset ? int(std::min<int64_t>(s.dataset->size(), 1 << 30)) : 0;
    out.description = QString::fromStdString(picked.description);
    out.teacherPath = QString::fromStdString(paths.teacher);
    out.studentPath = QString::fromStdString(paths.student);
    out.input = inputImage(c.input);
    out.teacherPca = rgbImage(p.teacher_rgb);
    out.studentPca = rgbImage(p.student_rgb);
    out.gridHeight = int(p.grid_height);
    out.gridWidth = int(p.grid_width);
    const at::Tensor cos = p.cosine.contiguous();
    out.cosine = QVector<float>(cos.data_ptr<float>(), cos.data_ptr<float>() + cos.numel());
    out.meanCosine = p.mean_cosine;
    out.minCosine = cos.min().item<double>();
    for (double v : p.pca.explained_variance_ratio) out.explainedVarianceRatio << v;
    emit mapsReady(out);
  } catch (const std::exception& e) {
    if (latestMaps.load() == generation)
      emit mapsFailed(tr("Cannot compare the features: %1").arg(QString::fromUtf8(e.what())));
  }
}

void FeatureWorker::sweep(qint64 runId, const QString& runDir, const QString& scales, int limit) {
  cancelSweep = false;
  lowerCurrentThreadPriority(5);
  try {
    ResolutionSweepOptions options;
    options.scales = parse_resolution_scales(scales.toStdString());
    options.limit = limit;
    auto last = std::chrono::steady_clock::now();
    options.progress = [&](double f) {
      const auto now = std::chrono::steady_clock::now();
      if (now - last > std::chrono::milliseconds(200) || f >= 1.0) {
        last = now;
        emit sweepProgress(f);
      }
      return !cancelSweep.load();
    };
    const ResolutionSweepResult r =
        run_resolution_sweep(runDir.toStdString(), c10::Device(c10::kCPU), options);
    if (runId > 0) {
      store::RunStore db(dbPath_.toStdString());
      for (const auto& p : r.points) {
        if (!std::isnan(p.teacher_top1))
          db.add_evaluation(runId, kResolutionSweepStage,
                            resolution_sweep_key("teacher", p.resolution), p.teacher_top1);
        db.add_evaluation(runId, kResolutionSweepStage,
                          resolution_sweep_key("student", p.resolution), p.student_top1);
      }
      db.add_evaluation(runId, kResolutionSweepStage, "images", double(r.images));
    }
    ResolutionSweepData out;
    out.runId = runId;
    out.images = int(r.images);
    for (const auto& p : r.points)
      out.points << SweepPoint{int(p.resolution),
                               std::isnan(p.teacher_top1) ? -1.0 : p.teacher_top1, p.student_top1};
    emit sweepReady(out);
  } catch (const ResolutionSweepCancelled&) {
    emit sweepFailed(tr("Resolution sweep cancelled."));
  } catch (const std::exception& e) {
    emit sweepFailed(tr("Resolution sweep failed: %1").arg(QString::fromUtf8(e.what())));
  }
}

ResolutionSweepData storedResolutionSweep(const QString& dbPath, qint64 runId) {
  ResolutionSweepData out;
  out.runId = runId;
  try {
    store::RunStore db(dbPath.toStdString(), store::OpenMode::ReadOnly);
    int64_t images = 0;
    for (const auto& [res, p] : stored_resolution_sweep(db.evaluations(runId), &images))
      out.points << SweepPoint{int(res), p.teacher_top1, p.student_top1};
    out.images = int(images);
  } catch (const std::exception&) {
  }
  return out;
}

}  // namespace adala::gui
