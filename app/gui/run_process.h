#pragma once
// A training run on several data-parallel processes: `adala run CONFIG --nproc N --db DB
// --progress jsonl` as a child process (QProcess; the GUI thread never waits on it), which
// cannot run inside the workbench the way a one-process job does. Its JSON events on stderr
// (app/cli/progress_events.h, read with app/cli/progress_stream.h) become the same JobSource
// signals (app/gui/job_source.h) an in-process job reports, so the plots, the status and the
// run list follow it the same way: the metrics are rank 0's, averaged over the ranks. Cancel is
// Ctrl-C for the launcher's process group (the workers stop after their step, checkpoint, and the
// run is marked interrupted); pause is not available (the ranks wait for each other every step).
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QVector>

#include <memory>
#include <optional>

#include "app/gui/job_source.h"
#include "widgets/runs/run_types.h"

class QTemporaryDir;

namespace adala::cli {
class ProgressStream;
struct ProgressLine;
}  // namespace adala::cli

namespace adala::gui {

class RunProcess : public JobSource {
  Q_OBJECT
 public:
  explicit RunProcess(QObject* parent = nullptr);
  // A running command is interrupted (Ctrl-C) and given a few seconds, then killed.
  ~RunProcess() override;

  void setProgram(const QString& program) { program_ = program; }
  QString program() const { return program_; }

  // Starts job `jobId`; false + error when one is running or the experiment cannot be written.
  // The experiment document goes to a temporary file, its relative paths made absolute
  // against request.configDir (as the in-process job reads it).
  bool start(qint64 jobId, const adala::widgets::StartRequest& request, const QString& dbPath,
             QString* error = nullptr);
  void cancel();  // SIGINT to the launcher and its workers (one process group)
  bool running() const;
  qint64 jobId() const { return state_.jobId; }
  QStringList arguments() const { return arguments_; }
  adala::widgets::JobState state() const { return state_; }

 private:
  void readStderr();
  void handle(const std::vector<adala::cli::ProgressLine>& lines);
  void reportStarted();
  void onFinished(int exitCode, QProcess::ExitStatus status);
  void onError(QProcess::ProcessError error);
  void finish(adala::widgets::JobStatus status, const QString& message);

  QString program_;
  QProcess* process_ = nullptr;
  std::unique_ptr<QTemporaryDir> tempDir_;
  std::unique_ptr<adala::cli::ProgressStream> stream_;
  QStringList arguments_;
  adala::widgets::JobState state_;
  std::optional<adala::widgets::JobStatus> finishedStatus_;  // of the finished event
  bool started_ = false, cancelling_ = false, reported_ = true;
};

}  // namespace adala::gui
