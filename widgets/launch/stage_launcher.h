#pragma once
// Starts a run: an experiment file, or its fields edited in a form that is validated live by
// the engine's own config parser (bad fields are marked with the reason and Start is
// disabled); stages 0-3, device, seed; a progress bar per stage with ETA and images/s; a log.
#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <functional>

#include "engine/train/stage_catalog.h"
#include "widgets/runs/run_types.h"

class QCheckBox;
class QComboBox;
class QGridLayout;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QSpinBox;
class QPushButton;
class QTabWidget;

namespace adala::widgets {

class AttentionPlanForm;
class DataSourceForm;

// The first problem of an experiment document: its dotted field path and the reason.
struct FieldProblem {
  QString field, reason;
  bool ok() const { return field.isEmpty() && reason.isEmpty(); }
};
// Validates the document for a run of these stages (0..3); its relative paths are relative to
// `baseDir` (the folder of the file it came from).
using ConfigValidator = std::function<FieldProblem(const QByteArray& json, const QList<int>& stages,
                                                   const QString& baseDir)>;

class StageLauncher : public QWidget {
  Q_OBJECT
 public:
  explicit StageLauncher(QWidget* parent = nullptr);
  ~StageLauncher() override;

  // The engine's parser (the app installs parse_experiment_config); without one, only JSON
  // syntax is checked.
  void setValidator(ConfigValidator validator);
  void setPresets(const QStringList& presets);
  // Blocks per preset (the app fills it from the engine's presets): the depth the attention
  // plan field offers a mode for each block of (model.depth in the document overrides it).
  void setPresetDepths(const QHash<QString, int>& depths);

  // Loads an experiment file into the form (false + message in the log when unreadable).
  bool loadFile(const QString& path);
  bool saveFile(const QString& path);
  void setDocument(const QJsonObject& document);
  // The recorded config of a run being resumed (not a file: Save As writes it to one).
  void showRunConfig(qint64 runId, const QJsonObject& config);
  QJsonObject document() const { return document_; }
  QByteArray documentJson() const;
  QString filePath() const { return filePath_; }
  // Where the document's relative paths point from: its file's folder, or the working folder
  // for an experiment never saved.
  QString baseDir() const;

  // Form access by dotted path ("stages.attention_alignment.lr", "seed", ...).
  QLineEdit* field(const QString& path) const;
  QComboBox* combo(const QString& path) const;
  QCheckBox* stageCheck(int stage) const { return stageChecks_[stage]; }
  QList<int> selectedStages() const;
  void setSelectedStages(const QList<int>& stages);
  QPushButton* startButton() const { return startButton_; }
  QPushButton* pauseButton() const { return pauseButton_; }
  QPushButton* cancelButton() const { return cancelButton_; }
  // Data-parallel worker processes for the next run (1..cores; 1 trains in the workbench).
  QSpinBox* processesBox() const { return processes_; }
  QLabel* problemLabel() const { return problemLabel_; }
  QProgressBar* progressBar(int stage) const { return bars_[stage]; }
  QLabel* progressLabel(int stage) const { return barLabels_[stage]; }
  QLabel* fileLabel() const { return fileLabel_; }
  QPlainTextEdit* log() const { return log_; }
  DataSourceForm* dataForm() const { return dataForm_; }
  AttentionPlanForm* planForm() const { return planForm_; }
  QLabel* stageStatus(int stage) const { return barLabels_[stage]; }
  FieldProblem problem() const { return problem_; }
  bool isRunning() const { return running_; }
  // Whether the form was edited since it was last loaded, saved or replaced by a run's config.
  bool hasUnsavedEdits() const { return edited_; }

 public slots:
  void revalidate();
  // Run lifecycle, from the controller.
  void onJobStarted(const adala::widgets::JobState& state);
  void onSteps(const QVector<adala::widgets::StepUpdate>& steps);
  void onStage(const adala::widgets::StageUpdate& update);
  void onLog(const adala::widgets::LogLine& line);
  void onJobFinished(const adala::widgets::JobState& state);
  void onPaused(bool paused);
  void appendLog(const QString& text,
                 adala::widgets::LogLine::Level level = adala::widgets::LogLine::Level::Info);
  void start();

 signals:
  void startRequested(const adala::widgets::StartRequest& request);
  void pauseRequested(bool pause);
  void cancelRequested();
  void openFileRequested();
  void validityChanged(bool ok);

 private:
  QHBoxLayout* buildFileRow();
  QWidget* buildExperimentPage();
  QWidget* buildStagesPage();
  QWidget* buildDataPage();
  void onDataEdited();
  void onPlanEdited();
  void setSection(const QString& key, const QJsonObject& section);
  void showJson();  // the document, indented, in the JSON tab
  // The model's blocks: model.depth, else its preset's (0 when the teacher's weights give it).
  int modelDepth() const;
  void updatePlanDepth();
  QHBoxLayout* buildRunButtons();
  QGridLayout* buildProgressGrid();
  QLineEdit* addLineField(const QString& path, const QString& placeholder, const QString& tip);
  QComboBox* addComboField(const QString& path, const QStringList& items, bool editable);
  void fillForm();
  void onFieldEdited(const QString& path, const QString& text);
  void markProblem();
  void updateButtons();
  QString pausedAtText(int stage) const;  // "paused at step 40 of 468"
  void resetProgress();
  void countDataWait(int stage, const StepUpdate& m);

  ConfigValidator validator_;
  QJsonObject document_;
  QString filePath_;
  QHash<QString, QLineEdit*> lines_;
  QHash<QString, QComboBox*> combos_;
  QHash<QString, QWidget*> widgets_;
  QLabel* fileLabel_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  QCheckBox* stageChecks_[kStageCount] = {};
  QProgressBar* bars_[kStageCount] = {};
  QLabel* barLabels_[kStageCount] = {};
  DataSourceForm* dataForm_ = nullptr;
  AttentionPlanForm* planForm_ = nullptr;
  QHash<QString, int> presetDepths_;
  // Per stage: the data-wait share of each report times the steps it covers, the steps
  // covered, and the last step reported (for the stage's mean when it ends).
  double waitedSteps_[kStageCount] = {};
  qint64 countedSteps_[kStageCount] = {};
  qint64 lastStep_[kStageCount] = {};
  QLabel* problemLabel_ = nullptr;
  QPushButton* startButton_ = nullptr;
  QPushButton* pauseButton_ = nullptr;
  QPushButton* cancelButton_ = nullptr;
  QSpinBox* processes_ = nullptr;
  QPlainTextEdit* log_ = nullptr;
  QPlainTextEdit* jsonView_ = nullptr;
  FieldProblem problem_;
  QList<int> startedStages_;  // of the run this form started, until it reports in
  bool running_ = false;
  bool edited_ = false;
  bool paused_ = false;
  int runProcesses_ = 1;  // of the running job
  int activeStage_ = -1;  // the stage training now (its bar reads "paused" while paused)
  bool filling_ = false;
};

}  // namespace adala::widgets
