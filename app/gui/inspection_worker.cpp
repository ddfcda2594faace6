// LibTorch (through the engine headers) before any Qt header: Qt's `slots` macro breaks ATen's
// ivalue_inl.h.
#include "engine/inspect/attention_probe.h"
#include "engine/model/linear_eps_scope.h"
#include "engine/runtime/precision.h"
#include "engine/infer/inference_model.h"
#include "engine/infer/inspection_dataset.h"

#include "app/gui/inspection_worker.h"

#include "app/gui/engine_worker.h"

#include <QFileInfo>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

namespace adala::gui {

using namespace adala::widgets;

struct InspectionWorker::State {
  std::shared_ptr<AttentionProbe> probe;
  std::string modelPath;
  PretrainedConfig recorded;  // the file's settings (or the defaults it gets)
  bool fileHasSettings = true;
  PretrainedConfig data;  // with the request's overrides
  std::filesystem::file_time_type modelTime{};
  VisionTransformer model{nullptr};
  std::shared_ptr<const Dataset> dataset;
  std::string datasetKey;

  // Loads the checkpoint at `path` unless it is the one in memory, unchanged on disk.
  void useModel(const std::string& path);
  // The dataset at `where` read with `channels` channels, opened once.
  const Dataset& useDataset(const std::string& where, int channels);
};

void InspectionWorker::State::useModel(const std::string& path) {
  if (!std::filesystem::exists(path)) throw std::runtime_error("no such checkpoint: " + path);
  const auto mtime = std::filesystem::last_write_time(path);
  if (model && modelPath == path && modelTime == mtime) return;
  InferenceModel loaded = load_inference_model(path, c10::Device(c10::kCPU));
  model = loaded.model;
  recorded = std::move(loaded.data);
  fileHasSettings = loaded.preprocessing_note.empty();
  modelPath = path;
  modelTime = mtime;
}

const Dataset& InspectionWorker::State::useDataset(const std::string& where, int channels) {
  const std::string key = where + "\n" + std::to_string(channels);
  if (!dataset || datasetKey != key) {
    dataset.reset();
    dataset = open_inspection_dataset(where, channels);
    datasetKey = key;
  }
  return *dataset;
}

InspectionWorker::InspectionWorker() : state_(std::make_unique<State>()) {}
InspectionWorker::~InspectionWorker() = default;

namespace {

// H x W x C float image in [0, 1] -> (1, C, H, W) tensor (copied).
at::Tensor to_tensor(const cv::Mat& image) {
  cv::Mat contiguous = image.isContinuous() ? image : image.clone();
  auto t = at::from_blob(contiguous.data, {contiguous.rows, contiguous.cols, contiguous.channels()},
                         at::kFloat);
  return t.permute({2, 0, 1}).unsqueeze(0).clone();
}

// (C, H, W) uint8 -> H x W x C float in [0, 1].
cv::Mat to_float_image(const at::Tensor& chw) {
  const at::Tensor hwc = chw.permute({1, 2, 0}).contiguous().to(at::kFloat).div_(255.0);
  const int c = static_cast<int>(hwc.size(2));
  return cv::Mat(static_cast<int>(hwc.size(0)), static_cast<int>(hwc.size(1)), CV_32FC(c),
                 hwc.data_ptr<float>())
      .clone();
}

// The model's input as its checkpoint says it was trained: (x - mean) / std per channel.
at::Tensor normalised(const at::Tensor& input, const PretrainedConfig& data) {
  const int64_t c = input.size(1);
  auto per_channel = [c](const std::vector<double>& v) {
    std::vector<float> out(static_cast<size_t>(c));
    for (int64_t i = 0; i < c; ++i) out[size_t(i)] = float(v.size() == 1 ? v[0] : v.at(size_t(i)));
    return at::tensor(out).view({1, c, 1, 1});
  };
  return (input - per_channel(data.mean)) / per_channel(data.std);
}

// (1, C, H, W) in [0, 1] -> what the user sees (exactly the model's input, 8 bits).
QImage to_qimage(const at::Tensor& t) {
  auto hwc = (t[0].permute({1, 2, 0}).clamp(0, 1) * 255.0).round().to(at::kByte).contiguous();
  const int h = static_cast<int>(hwc.size(0)), w = static_cast<int>(hwc.size(1)),
            c = static_cast<int>(hwc.size(2));
  QImage image(w, h, c == 1 ? QImage::Format_Grayscale8 : QImage::Format_RGB888);
  const uint8_t* p = hwc.data_ptr<uint8_t>();
  for (int y = 0; y < h; ++y) {
    uchar* line = image.scanLine(y);
    if (c == 1 || c == 3) {
      std::copy_n(p + size_t(y) * w * c, size_t(w) * c, line);
    } else {  // other channel counts: show the first one
      for (int x = 0; x < w; ++x) line[x] = p[(size_t(y) * w + x) * c];
    }
  }
  return c == 1 || c == 3 ? image : image.convertToFormat(QImage::Format_Grayscale8);
}

int round_to_patch(int size, int patch) {
  return std::max(patch, static_cast<int>(std::lround(double(size) / patch)) * patch);
}

// `image` scaled whole into a side x side square, centred with its offset on whole patches,
// the rest filled with the per-channel mean (so the normalised padding is zero). `content`
// gets the image's rectangle (empty when it fills the square).
cv::Mat letterbox(const cv::Mat& image, int side, int patch, const PretrainedConfig& data,
                  QRect* content) {
  const double scale = std::min(double(side) / image.cols, double(side) / image.rows);
  const int w = std::clamp(static_cast<int>(std::lround(image.cols * scale)), 1, side);
  const int h = std::clamp(static_cast<int>(std::lround(image.rows * scale)), 1, side);
  cv::Mat resized = image;
  if (w != image.cols || h != image.rows) {
    const bool shrink = w < image.cols && h < image.rows;
    cv::resize(image, resized, cv::Size(w, h), 0, 0, shrink ? cv::INTER_AREA : cv::INTER_LINEAR);
  }
  if (w == side && h == side) {
    *content = QRect();
    return resized;
  }
  const int c = image.channels();
  cv::Scalar mean;
  for (int i = 0; i < std::min(c, 4); ++i)
    mean[i] = data.mean.size() == 1 ? data.mean[0] : data.mean.at(size_t(i));
  cv::Mat out(side, side, image.type(), mean);
  const int x0 = (side - w) / 2 / patch * patch, y0 = (side - h) / 2 / patch * patch;
  resized.copyTo(out(cv::Rect(x0, y0, w, h)));
  *content = QRect(x0, y0, w, h);
  return out;
}

// The request's mean / std fields ("0.5,0.5,0.5"); a field that is no list of numbers is an error
// naming it.
PreprocessingOverrides normalisation_overrides(const ProbeRequest& request) {
  PreprocessingOverrides o;
  auto numbers = [](const QString& text, const char* name) {
    std::vector<double> values;
    for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
      bool ok = false;
      const double v = part.trimmed().toDouble(&ok);
      if (!ok)
        throw std::runtime_error(std::string(name) + ": \"" + part.trimmed().toStdString() +
                                 "\" is not a number");
      values.push_back(v);
    }
    return values;
  };
  if (!request.mean.isEmpty()) o.mean = numbers(request.mean, "Mean");
  if (!request.std.isEmpty()) o.std = numbers(request.std, "Std");
  return o;
}

// The image to inspect as float H x W x C in [0, 1], with what it is.
struct SourceImage {
  cv::Mat image;
  QString description;
  int datasetSize = 0;  // 0 for an image file
};

SourceImage dataset_image(const Dataset& dataset, int64_t index) {
  SourceImage source;
  const int64_t i = std::clamp<int64_t>(index, 0, dataset.size() - 1);
  const Sample sample = dataset.get(i);
  source.image = to_float_image(sample.image);
  source.datasetSize = static_cast<int>(std::min<int64_t>(dataset.size(), 1 << 30));
  source.description =
      InspectionWorker::tr("item %1: %2")
          .arg(i)
          .arg(QString::fromStdString(describe_inspection_item(dataset, i, sample.label)));
  return source;
}

SourceImage file_image(const QString& path, int channels) {
  SourceImage source;
  cv::Mat raw =
      cv::imread(path.toStdString(), channels == 1 ? cv::IMREAD_GRAYSCALE : cv::IMREAD_COLOR);
  if (raw.empty()) throw std::runtime_error("cannot read the image " + path.toStdString());
  if (raw.channels() == 3) cv::cvtColor(raw, raw, cv::COLOR_BGR2RGB);
  raw.convertTo(source.image, raw.channels() == 1 ? CV_32FC1 : CV_32FC3, 1.0 / 255.0);
  source.description = QFileInfo(path).fileName();
  return source;
}

// A grey image repeated into `channels` planes, or a colour one made grey.
cv::Mat with_channels(const cv::Mat& image, int channels) {
  if (image.channels() == channels) return image;
  cv::Mat converted;
  if (image.channels() == 1) {
    std::vector<cv::Mat> planes(static_cast<size_t>(channels), image);
    cv::merge(planes, converted);
  } else {
    cv::cvtColor(image, converted, cv::COLOR_RGB2GRAY);
  }
  return converted;
}

// The size the model sees: the image's own (rounded to whole patches), or a square (the
// model's size or one asked for) that the image is letterboxed into: scaled whole, centred
// on whole patches, padded with the normalisation mean (zero after normalising).
cv::Mat model_input_image(const cv::Mat& image, int inputSize, const ViTConfig& cfg,
                          const PretrainedConfig& data, QRect* content) {
  const int patch = static_cast<int>(cfg.patch_size);
  if (inputSize >= 0) {
    const int side =
        round_to_patch(inputSize == 0 ? static_cast<int>(cfg.img_size) : inputSize, patch);
    return letterbox(image, side, patch, data, content);
  }
  const int h = round_to_patch(image.rows, patch), w = round_to_patch(image.cols, patch);
  if (h == image.rows && w == image.cols) return image;
  cv::Mat resized;
  const bool shrink = h < image.rows && w < image.cols;
  cv::resize(image, resized, cv::Size(w, h), 0, 0, shrink ? cv::INTER_AREA : cv::INTER_LINEAR);
  return resized;
}

// The probe's forward pass in the precision asked for (autocast; linear attention stays
// float32); the cached rows are float32 either way.
std::shared_ptr<AttentionProbe> run_probe(VisionTransformer& model, const at::Tensor& input,
                                          const PretrainedConfig& data, Precision precision,
                                          const ProbeOptions& options) {
  // The eps half precision needs, as predict and training use (the model's own afterwards).
  const LinearEpsScope eps_scope(*model, precision);
  const AutocastScope autocast(c10::Device(c10::kCPU), precision);
  return std::make_shared<AttentionProbe>(model, normalised(input, data), options);
}

// What the inspector shows of a probe: the model's input as an image, and the probe's grid.
InspectorImage probe_image(const AttentionProbe& probe, const at::Tensor& input, int patch) {
  InspectorImage out;
  out.image = to_qimage(input);
  out.gridHeight = static_cast<int>(probe.grid_height());
  out.gridWidth = static_cast<int>(probe.grid_width());
  out.prefixTokens = static_cast<int>(probe.num_prefix_tokens());
  out.patchSize = patch;
  out.depth = static_cast<int>(probe.depth());
  out.heads = static_cast<int>(probe.num_heads());
  out.forwardSeconds = probe.forward_seconds();
  return out;
}

}  // namespace

void InspectionWorker::load(quint64 generation, const ProbeRequest& request) {
  if (generation != latestLoad.load()) return;  // superseded before it started
  lowerCurrentThreadPriority(5);
  try {
    auto& s = *state_;
    const std::string path = request.checkpoint.toStdString();
    s.useModel(path);
    const PreprocessingOverrides overrides = normalisation_overrides(request);
    s.data = apply_preprocessing_overrides(s.recorded, overrides);
    const QString preprocessingNote = QString::fromStdString(
        assumed_preprocessing_note(path, s.fileHasSettings, s.data, overrides));
    const ViTConfig& cfg = s.model->config();
    const int channels = static_cast<int>(cfg.in_chans);

    const SourceImage source =
        request.datasetItem ? dataset_image(s.useDataset(request.dataset.toStdString(), channels),
                                            request.itemIndex)
                            : file_image(request.imagePath, channels);
    QRect content;
    const at::Tensor input = to_tensor(model_input_image(with_channels(source.image, channels),
                                                         request.inputSize, cfg, s.data, &content));

    ProbeOptions options;
    auto lastEmit = std::chrono::steady_clock::now();
    options.progress = [&](double f) {
      if (latestLoad.load() != generation) return false;
      const auto now = std::chrono::steady_clock::now();
      if (now - lastEmit > std::chrono::milliseconds(100) || f >= 1.0) {
        lastEmit = now;
        emit progress(f);
      }
      return true;
    };
    s.probe.reset();
    const Precision precision = precision_from_string(request.precision.toStdString());
    check_precision_supported(precision, c10::Device(c10::kCPU));
    const auto probe = run_probe(s.model, input, s.data, precision, options);
    s.probe = probe;
    InspectorImage out = probe_image(*probe, input, static_cast<int>(cfg.patch_size));
    out.checkpoint = request.checkpoint;
    out.description = source.description;
    out.preprocessingNote = preprocessingNote;
    out.datasetSize = source.datasetSize;
    out.precision = request.precision;
    out.content = content;
    emit ready(out);
  } catch (const ProbeCancelled&) {
    // A newer request replaced this one (or the user cancelled): say nothing.
    if (latestLoad.load() == generation) emit failed(tr("Cancelled."));
  } catch (const std::exception& e) {
    if (latestLoad.load() == generation)
      emit failed(tr("Cannot inspect: %1").arg(QString::fromUtf8(e.what())));
  }
}

void InspectionWorker::rows(quint64 requestId, int block, int head, int query) {
  if (requestId != latestRows.load()) return;  // a newer request is queued behind this one
  auto probe = state_->probe;
  if (!probe) return;
  try {
    const auto pair = probe->rows(block, head, query);
    AttentionRows out;
    out.requestId = requestId;
    out.block = block;
    out.head = head;
    out.query = query;
    out.softmax = QVector<float>(pair.softmax.begin(), pair.softmax.end());
    out.linear = QVector<float>(pair.linear.begin(), pair.linear.end());
    out.kl = pair.kl;
    out.mse = pair.mse;
    for (const auto& h : probe->all_heads(block, query)) {
      out.headKl.push_back(h.kl);
      out.headMse.push_back(h.mse);
    }
    emit rowsReady(out);
  } catch (const std::exception& e) {
    emit failed(tr("Cannot compute attention rows: %1").arg(QString::fromUtf8(e.what())));
  }
}

void InspectionWorker::overview(quint64 requestId, int query, bool grid, bool rollout) {
  if (requestId != latestOverview.load()) return;
  auto probe = state_->probe;
  if (!probe) return;
  try {
    AttentionOverview out;
    out.requestId = requestId;
    out.query = query;
    out.blocks = static_cast<int>(probe->depth());
    out.heads = static_cast<int>(probe->num_heads());
    if (grid) {
      for (int b = 0; b < out.blocks; ++b)
        for (const auto& pair : probe->all_heads(b, query, true)) {
          out.softmax.push_back(QVector<float>(pair.softmax.begin(), pair.softmax.end()));
          out.linear.push_back(QVector<float>(pair.linear.begin(), pair.linear.end()));
        }
    }
    if (rollout) {
      const auto current = [this, requestId](double) { return latestOverview.load() == requestId; };
      const auto soft = probe->rollout(query, false, current);
      const auto lin = probe->rollout(query, true, current);
      out.rolloutSoftmax = QVector<float>(soft.begin(), soft.end());
      out.rolloutLinear = QVector<float>(lin.begin(), lin.end());
    }
    emit overviewReady(out);
  } catch (const ProbeCancelled&) {
    // superseded by a newer request
  } catch (const std::exception& e) {
    emit failed(tr("Cannot compute the overview: %1").arg(QString::fromUtf8(e.what())));
  }
}

}  // namespace adala::gui
