#pragma once
// The Scaling tab: the benchmark form (top) and the scaling plots (below). Runs the benchmark
// through ScalingBenchProcess, plots the result when it ends, lists the database's earlier
// benchmark runs and opens them or a CSV file.
#include <QString>
#include <QStringList>
#include <QWidget>

namespace adala::widgets {
class ScalingForm;
class ScalingView;
struct ScalingRequest;
}  // namespace adala::widgets

namespace adala::gui {

class ScalingBenchProcess;

class ScalingPanel : public QWidget {
  Q_OBJECT
 public:
  explicit ScalingPanel(const QString& dbPath, QWidget* parent = nullptr);

  widgets::ScalingForm* form() const { return form_; }
  widgets::ScalingView* view() const { return view_; }
  ScalingBenchProcess* process() const { return process_; }

  void setPresets(const QStringList& presets);
  // Load into the plots; false (and the reason shown in the form) when there is nothing to show.
  bool openCsv(const QString& path);
  bool openRun(qint64 runId);
  void openCsvDialog();
  void refreshRuns();

 signals:
  void status(const QString& message);
  void benchmarkRecorded(qint64 runId);  // a run was added to (or changed in) the database

 private:
  void startBenchmark(const widgets::ScalingRequest& request);
  // The form shows what the plots show: the points' preset, resolutions and modes.
  void syncForm();

  QString dbPath_;
  widgets::ScalingForm* form_ = nullptr;
  widgets::ScalingView* view_ = nullptr;
  ScalingBenchProcess* process_ = nullptr;
};

}  // namespace adala::gui
