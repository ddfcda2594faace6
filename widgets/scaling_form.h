#pragma once
// The form that starts a resolution-scaling benchmark: model preset, resolutions, batch,
// attention modes, Run / Cancel and a progress bar; and the earlier benchmark runs of the
// database to open again. It validates what was typed (a bad resolution list is shown, nothing
// starts) and emits requests; the caller runs the benchmark and reports back through the slots.
#include <QString>
#include <QStringList>
#include <QVector>
#include <QWidget>

#include "widgets/scaling_data.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace adala::widgets {

constexpr int kMaxScalingBatch = 4096;

struct ScalingRequest {
  QString preset;
  QVector<int> resolutions;
  QStringList modes;  // softmax, softmax-chunked, linear (in that order)
  int batch = 1;      // images per forward pass (`adala bench scaling --batch`)
};

class ScalingForm : public QWidget {
  Q_OBJECT
 public:
  explicit ScalingForm(QWidget* parent = nullptr);

  void setPresets(const QStringList& presets, const QString& current = QStringLiteral("vit_small"));
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
  void updateButtons();

  QComboBox* preset_ = nullptr;
  QLineEdit* resolutions_ = nullptr;
  QSpinBox* batch_ = nullptr;
  QCheckBox* modes_[3] = {};
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
