#pragma once
// The Summary tab's view of one run: name, status, device, method and feature map; teacher and
// student top-1 and the gap between them in points; each stage's status, steps, time and last
// loss / learning rate / training accuracy; tags, notes and the whole config (flattened).
// Draws a store::RunOverview (a plain struct); loadRun reads one through its own read-only
// connection (a few small queries, once). A value the run never recorded reads "not evaluated"
// or "—", never 0.
#include <QString>
#include <QWidget>

#include "engine/store/run_overview.h"

class QLabel;
class QTableWidget;

namespace adala::widgets {

class RunSummaryPanel : public QWidget {
  Q_OBJECT
 public:
  explicit RunSummaryPanel(QWidget* parent = nullptr);

  // False + error (and the panel says so) when the database or the run cannot be read.
  bool loadRun(const QString& dbPath, qint64 runId, QString* error = nullptr);
  void setOverview(const adala::store::RunOverview& overview);
  void clear(const QString& message = QString());

  qint64 runId() const { return runId_; }
  const adala::store::RunOverview& overview() const { return overview_; }
  // What is shown (for tests).
  QString teacherText() const;
  QString studentText() const;
  QString gapText() const;
  QLabel* titleLabel() const { return title_; }
  QTableWidget* stageTable() const { return stages_; }
  QTableWidget* configTable() const { return config_; }

  // Shared with the compare table: "86.22 %", "−3.09 pt", "3 min 12 s" (locale's decimal
  // point), "—" for NaN.
  static QString percentText(double fraction);
  static QString pointsText(double points);
  static QString durationText(double seconds);
  static QString numberText(double value);
  // A recorded status in words (widgets/runs/job_status.h), else as stored (a dash when empty).
  static QString statusText(const std::string& status);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void retranslate();
  void retranslateHeadings();
  void showFacts(const store::RunOverview& o);
  void showResults(const store::RunOverview& o);
  void fillStages(const store::RunOverview& o);
  void fitStagesHeight();

  QLabel* title_ = nullptr;
  QLabel* subtitle_ = nullptr;
  QLabel* teacherCaption_ = nullptr;
  QLabel* studentCaption_ = nullptr;
  QLabel* gapCaption_ = nullptr;
  QLabel* teacher_ = nullptr;
  QLabel* student_ = nullptr;
  QLabel* gap_ = nullptr;
  QLabel* stagesHeading_ = nullptr;
  QLabel* configHeading_ = nullptr;
  QLabel* tags_ = nullptr;
  QLabel* notes_ = nullptr;
  QTableWidget* stages_ = nullptr;
  QTableWidget* config_ = nullptr;
  adala::store::RunOverview overview_;
  qint64 runId_ = -1;
  bool hasRun_ = false;
  QString message_;
};

}  // namespace adala::widgets
