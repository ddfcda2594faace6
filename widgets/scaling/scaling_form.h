#pragma once
// The form that starts a resolution-scaling benchmark: model preset, resolutions, batch,
// attention modes, a hybrid student's plan (`--softmax-blocks` or `--plan`, one mode per block)
// and the window's k, Run / Cancel and a progress bar; and the earlier benchmark runs of the
// database to open again. It validates what was typed (a bad resolution list is shown, nothing
// starts) and emits requests; the caller runs the benchmark and reports back through the slots.
#include <QHash>
#include <QString>
#include <QStringList>
#include <QVector>
#include <QWidget>

#include "widgets/scaling/scaling_data.h"

class QCheckBox;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace adala::widgets {

class AttentionBlocksEditor;
class OddSpinBox;

constexpr int kMaxScalingBatch = 4096;

struct ScalingRequest {
  QString preset;
  QVector<int> resolutions;
  // softmax, softmax-chunked, linear, window-linear (in that order), then "plan" with a plan
  QStringList modes;
  int batch = 1;  // images per forward pass (`adala bench scaling --batch`)
  // The "plan" mode: the blocks that stay softmax, the others linear (`--softmax-blocks`), or
  // one mode per block (`--plan`); both empty without a plan.
  QVector<int> softmaxBlocks;
  QStringList plan;
  int window = 3;  // `--window`: k of window+linear attention, passed where a mode runs one
  bool usesWindow() const;
};

class ScalingForm : public QWidget {
  Q_OBJECT
 public:
  explicit ScalingForm(QWidget* parent = nullptr);

  void setPresets(const QStringList& presets, const QString& current = QStringLiteral("vit_small"));
  // Blocks per preset: the per-block plan offers one mode per block of the chosen preset.
  void setPresetDepths(const QHash<QString, int>& depths);
  void setResolutionsText(const QString& text);
  void setModes(const QStringList& modes);
  void setBatch(int batch);
  // The request as typed; false + the message shown (and nothing emitted) when it is invalid.
  bool validate(ScalingRequest* request = nullptr);

  // The earlier benchmark runs (newest first) in the "Earlier runs" list.
  void setEarlierRuns(const QVector<BenchmarkRunEntry>& runs);
  int earlierRunCount() const;

  bool running() const { return running_; }
  QString message() const;
  bool messageIsError() const { return messageIsError_; }

  QComboBox* presetBox() const { return preset_; }
  QLineEdit* resolutionEdit() const { return resolutions_; }
  QSpinBox* batchBox() const { return batch_; }
  QCheckBox* modeBox(const QString& mode) const;
  // The hybrid plan: none (0), softmax blocks (1) or per block (2); its fields; the window.
  enum PlanForm { NoPlan = 0, SoftmaxBlocksPlan = 1, PerBlockPlan = 2 };
  QComboBox* planFormBox() const { return planForm_; }
  QLineEdit* softmaxBlocksEdit() const { return softmaxBlocks_; }
  AttentionBlocksEditor* blocksEditor() const { return blocks_; }
  OddSpinBox* windowBox() const { return window_; }
  QPushButton* runButton() const { return run_; }
  QPushButton* cancelButton() const { return cancel_; }
  QProgressBar* progressBar() const { return progress_; }
  QComboBox* earlierRunsBox() const { return earlier_; }
  QPushButton* openRunButton() const { return openRun_; }
  QPushButton* openCsvButton() const { return openCsv_; }

 public slots:
  void setRunning(bool running);
  void setProgress(int done, int total, const QString& label);
  void showError(const QString& message);
  void showMessage(const QString& message);

 signals:
  void runRequested(const adala::widgets::ScalingRequest& request);
  void cancelRequested();
  void openRunRequested(qint64 runId);
  void openCsvRequested();

 private:
  QHBoxLayout* buildBenchRow(QWidget* box);
  QHBoxLayout* buildModesRow(QWidget* box);
  QHBoxLayout* buildPlanRow(QWidget* box);
  QHBoxLayout* buildEarlierRow(QWidget* box);
  void connectControls();
  void updateButtons();
  void updateDepth();
  void updatePlanFields();

  QComboBox* preset_ = nullptr;
  QLineEdit* resolutions_ = nullptr;
  QSpinBox* batch_ = nullptr;
  QCheckBox* modes_[4] = {};
  QComboBox* planForm_ = nullptr;
  QLineEdit* softmaxBlocks_ = nullptr;
  AttentionBlocksEditor* blocks_ = nullptr;
  OddSpinBox* window_ = nullptr;
  QHash<QString, int> depths_;
  QPushButton* run_ = nullptr;
  QPushButton* cancel_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* message_ = nullptr;
  QComboBox* earlier_ = nullptr;
  QPushButton* openRun_ = nullptr;
  QPushButton* openCsv_ = nullptr;
  bool running_ = false;
  bool messageIsError_ = false;
};

}  // namespace adala::widgets

Q_DECLARE_METATYPE(adala::widgets::ScalingRequest)
