#pragma once
// Lives on the features thread: the Features tab's engine work. Loads a run's teacher and
// newest student (cached while the files are unchanged), computes one image's PCA colour maps
// and cosine map (engine/infer/feature_comparison.h), and runs resolution sweeps, storing them
// with the run. The newest map request wins; a superseded one is dropped before it starts.
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

#include "widgets/inspect/feature_view.h"

namespace adala::gui {

class FeatureWorker : public QObject {
  Q_OBJECT
 public:
  explicit FeatureWorker(const QString& dbPath);
  ~FeatureWorker() override;

  std::atomic<quint64> latestMaps{0};
  std::atomic<bool> cancelSweep{false};

  // On the features thread.
  void maps(quint64 generation, const adala::widgets::FeatureRequest& request);
  void sweep(qint64 runId, const QString& runDir, const QString& scales, int limit);

 signals:
  void mapsReady(const adala::widgets::FeatureMaps& maps);
  void mapsFailed(const QString& message);
  void sweepProgress(double fraction);
  void sweepReady(const adala::widgets::ResolutionSweepData& sweep);
  void sweepFailed(const QString& message);

 private:
  struct State;
  std::unique_ptr<State> state_;
  QString dbPath_;
};

// The sweep a run has stored (evaluations of stage resolution_sweep); empty points when none.
adala::widgets::ResolutionSweepData storedResolutionSweep(const QString& dbPath, qint64 runId);

}  // namespace adala::gui
