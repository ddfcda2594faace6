#pragma once
// Lives on the inspection thread: loads a checkpoint and an image, builds an AttentionProbe
// (one forward pass), then answers row requests in O(N d) each. The newest request wins:
// a superseded load stops at its next progress check, stale row requests are skipped.
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

#include "widgets/runs/run_types.h"

namespace adala::gui {

class InspectionWorker : public QObject {
  Q_OBJECT
 public:
  InspectionWorker();
  ~InspectionWorker() override;

  // Called from any thread: mark what the newest request is before queuing it.
  std::atomic<quint64> latestLoad{0};
  std::atomic<quint64> latestRows{0};
  std::atomic<quint64> latestOverview{0};

  // On the inspection thread.
  void load(quint64 generation, const adala::widgets::ProbeRequest& request);
  void rows(quint64 requestId, int block, int head, int query);
  // Every block x head's rows of the query (grid) and / or its rollout (O(N^2 d) per softmax
  // block: stops when a newer overview request arrives).
  void overview(quint64 requestId, int query, bool grid, bool rollout);

 signals:
  void progress(double fraction);
  void ready(const adala::widgets::InspectorImage& image);
  void failed(const QString& message);
  void rowsReady(const adala::widgets::AttentionRows& rows);
  void overviewReady(const adala::widgets::AttentionOverview& overview);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace adala::gui
