#pragma once
// Qt value types of what a training job reports, as the views receive them. The engine's own
// events (engine/train/events.h) are converted to these on the engine thread and delivered
// through queued signals, so no view ever sees an engine type (or a tensor).
#include <QByteArray>
#include <QImage>
#include <QRect>
#include <QList>
#include <QMap>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QVector>

#include "widgets/runs/job_status.h"

namespace adala::widgets {

// Stage names as the engine and the run database spell them, in stage order 0..3.
const QStringList& stageNames();
int stageIndex(const QString& stage);  // -1 when unknown
QString stageTitle(int index);         // "Stage 1 · attention alignment" (translated)

struct StepUpdate {
  QString stage;
  qint64 step = 0, totalSteps = 0, epoch = 0;
  double loss = 0.0, lr = 0.0, imagesPerSecond = 0.0, etaSeconds = 0.0;
  double dataWaitShare = 0.0;  // of the step time since the previous report, waiting for data
  QVector<double> perBlockMse;
  QMap<QString, double> extra;
};

struct StageUpdate {
  enum class Kind { Started, Finished, Cancelled, Failed };
  QString stage;
  Kind kind = Kind::Started;
  qint64 totalSteps = 0, step = 0;
  double seconds = 0.0;
  QString message;
};

struct EvalUpdate {
  QString stage, key;
  double value = 0.0;
};

struct ArtifactUpdate {
  QString stage, kind, path;
};

struct LogLine {
  enum class Level { Info, Warning, Error };
  Level level = Level::Info;
  QString message;
};

// A job's life on the engine thread.
struct JobState {
  qint64 jobId = 0;
  qint64 runId = -1;  // database row, -1 before it exists
  QString runDir;
  QString name;
  // queued, running, then done, interrupted, failed; or cancelled (never started)
  JobStatus status = JobStatus::Queued;
  QString message;
  int processes = 1;  // data-parallel worker processes (>1: `adala run --nproc`, no pause)
};

// A run to start (or resume) as the launcher describes it.
struct StartRequest {
  QByteArray configJson;  // the experiment document (validated by the engine again)
  QString configDir;      // its relative paths are relative to this folder
  QList<int> stages;      // 0..3
  QString device;         // "" = the document's
  QString resumeRunDir;   // non-empty: continue this run folder (configJson unused)
  QStringList tags;
  int processes = 1;  // 1: in the workbench; more: `adala run --nproc N` (app/gui/run_process.h)
};

// Which model and image the attention inspector should probe.
struct ProbeRequest {
  QString checkpoint;  // a .safetensors file
  bool datasetItem = true;
  int itemIndex = 0;  // in `dataset`
  // Where dataset items come from: empty = Fashion-MNIST's test split; a folder (class folders
  // or an image tree), an image list file, or a run's config.json (its evaluation data).
  QString dataset;
  QString imagePath;                           // when !datasetItem
  QString precision = QStringLiteral("fp32");  // of the forward pass: fp32 or bf16 (autocast)
  int inputSize = 0;  // 0 = the model's img_size, -1 = the image's own size, else a square side
  // Normalisation overrides as comma lists ("0.5,0.5,0.5"); empty = the checkpoint's.
  QString mean, std;
};

// What the attention inspector shows: the exact model input (as an 8-bit image) and its grid.
struct InspectorImage {
  QImage image;
  int gridHeight = 0, gridWidth = 0, prefixTokens = 0, patchSize = 1;
  int depth = 0, heads = 0;
  QString checkpoint, description;
  double forwardSeconds = 0.0;
  int datasetSize = 0;  // items in the request's dataset (dataset items only)
  QString precision;    // of the forward pass
  // The values assumed because the checkpoint does not record them (empty: none).
  QString preprocessingNote;
  // The image's pixels inside the model input: a non-square image at a square input size is
  // letterboxed (scaled whole, padded with the normalisation mean); empty = all of it.
  QRect content;
};

// One query's rows (prefix tokens first, then the patch grid row-major) and per-head stats.
struct AttentionRows {
  quint64 requestId = 0;
  int block = 0, head = 0, query = 0;
  QVector<float> softmax, linear;
  double kl = 0.0, mse = 0.0;
  QVector<double> headKl, headMse;  // every head of the block, same query
};

// One query's rows in every block x head (the overview grid) and / or its attention rollout
// through all blocks, of both paths; what was not asked for is empty.
struct AttentionOverview {
  quint64 requestId = 0;
  int query = 0, blocks = 0, heads = 0;
  QVector<QVector<float>> softmax, linear;       // [block * heads + head], N each
  QVector<float> rolloutSoftmax, rolloutLinear;  // N each
};

}  // namespace adala::widgets

Q_DECLARE_METATYPE(adala::widgets::StepUpdate)
Q_DECLARE_METATYPE(adala::widgets::StageUpdate)
Q_DECLARE_METATYPE(adala::widgets::EvalUpdate)
Q_DECLARE_METATYPE(adala::widgets::ArtifactUpdate)
Q_DECLARE_METATYPE(adala::widgets::LogLine)
Q_DECLARE_METATYPE(adala::widgets::JobState)
Q_DECLARE_METATYPE(adala::widgets::StartRequest)
Q_DECLARE_METATYPE(adala::widgets::ProbeRequest)
Q_DECLARE_METATYPE(adala::widgets::InspectorImage)
Q_DECLARE_METATYPE(adala::widgets::AttentionRows)
Q_DECLARE_METATYPE(adala::widgets::AttentionOverview)
