#pragma once
// Runs `adala bench scaling` as a child process (QProcess: the GUI thread never waits on it):
// the `adala` binary next to the workbench's, with --db the workbench's database and --csv
// to a file in benchmarks/ next to it (recorded with the run; a temporary file without a
// database) and --progress jsonl: follows the JSON events it writes on stderr (progress, the
// recorded run id, an error; app/cli/progress_events.h); reports success with the CSV,
// failure with the command's own error message, or a cancel.
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

#include "widgets/scaling/scaling_data.h"
#include "widgets/scaling/scaling_form.h"

class QTemporaryDir;

namespace adala::cli {
class ProgressStream;
struct ProgressLine;
}  // namespace adala::cli

namespace adala::gui {

class ScalingBenchProcess : public QObject {
  Q_OBJECT
 public:
  explicit ScalingBenchProcess(QObject* parent = nullptr);
  ~ScalingBenchProcess() override;  // a running benchmark is killed

  // `adala` next to this executable (build/bin), else ../bin/adala, else "adala" on PATH.
  static QString defaultProgram();
  void setProgram(const QString& program) { program_ = program; }
  QString program() const { return program_; }

  // Starts the benchmark; false + error when one is running or the program is missing.
  bool start(const widgets::ScalingRequest& request, const QString& dbPath,
             QString* error = nullptr);
  void cancel();  // SIGTERM, then SIGKILL after 3 s
  bool running() const;
  int launchCount() const { return launches_; }
  QStringList arguments() const { return arguments_; }
  qint64 runId() const { return runId_; }  // the recorded run, -1 until the command names it
  QString output() const { return stdout_; }

 signals:
  void progress(int done, int total, const QString& label);
  // The start event: what the command will measure.
  void benchmarkStarted(const QString& preset, const QVector<int>& resolutions,
                        const QStringList& modes);
  // A point event: one measured point, as it arrives (a resolution's modes once all its
  // rounds are in).
  void pointMeasured(const adala::widgets::ScalingSample& sample);
  void runRecorded(qint64 runId);
  void succeeded(const QString& csvPath, qint64 runId);
  void failed(const QString& message, qint64 runId);
  void cancelled(qint64 runId);

 private:
  void readStderr();
  void handle(const std::vector<adala::cli::ProgressLine>& lines);
  void onFinished(int exitCode, QProcess::ExitStatus status);
  void onError(QProcess::ProcessError error);

  QString program_;
  QProcess* process_ = nullptr;
  std::unique_ptr<QTemporaryDir> tempDir_;
  QString csvPath_;
  QStringList arguments_;
  QString stdout_;
  std::unique_ptr<adala::cli::ProgressStream> stream_;  // stderr: lines, events, the error
  qint64 runId_ = -1;
  int launches_ = 0;
  bool cancelling_ = false;
  bool reported_ = false;
};

}  // namespace adala::gui
