// Engine headers (no LibTorch among these) before Qt's.
#include "app/cli/progress_stream.h"
#include "engine/json/json.h"
#include "engine/train/config/experiment_config.h"

#include "app/gui/run_process.h"

#include <QDir>
#include <QFile>
#include <QProcessEnvironment>
#include <QTemporaryDir>

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <variant>

#include "app/gui/qt_event_sink.h"
#include "app/gui/scaling_bench_process.h"
#include "app/gui/child_environment.h"

namespace adala::gui {

using namespace adala::widgets;
using adala::cli::ProgressLine;

RunProcess::RunProcess(QObject* parent)
    : JobSource(parent), program_(ScalingBenchProcess::defaultProgram()) {}

RunProcess::~RunProcess() {
  if (!running()) return;
  process_->disconnect(this);
  // As Ctrl-C: the workers checkpoint and the run is marked interrupted, not left running.
  const auto pid = static_cast<pid_t>(process_->processId());
  if (pid > 0) ::kill(-pid, SIGINT);
  if (!process_->waitForFinished(10000)) {
    if (pid > 0) ::kill(-pid, SIGKILL);
    process_->waitForFinished(3000);
  }
}

bool RunProcess::running() const { return process_ && process_->state() != QProcess::NotRunning; }

bool RunProcess::start(qint64 jobId, const StartRequest& request, const QString& dbPath,
                       QString* error) {
  if (running()) {
    if (error) *error = tr("A multi-process run is already running.");
    return false;
  }
  arguments_ = {QStringLiteral("run")};
  tempDir_.reset();
  if (request.resumeRunDir.isEmpty()) {
    // The document as the in-process job reads it: relative paths from its folder.
    std::string text;
    try {
      const Json doc = resolve_config_paths(parse_json_strict(request.configJson.toStdString()),
                                            request.configDir.toStdString());
      text = doc.dump(2);
    } catch (const std::exception& e) {
      if (error)
        *error = tr("The experiment is not valid JSON: %1").arg(QString::fromUtf8(e.what()));
      return false;
    }
    tempDir_ =
        std::make_unique<QTemporaryDir>(QDir::temp().filePath(QStringLiteral("adala-run-XXXXXX")));
    QFile file(tempDir_->isValid() ? tempDir_->filePath(QStringLiteral("experiment.json"))
                                   : QString());
    if (!tempDir_->isValid() || !file.open(QIODevice::WriteOnly) ||
        file.write(text.data(), qint64(text.size())) != qint64(text.size())) {
      if (error)
        *error = tr("Cannot write the experiment to a temporary file: %1").arg(file.errorString());
      return false;
    }
    file.close();
    arguments_ << file.fileName();
    if (!request.stages.isEmpty()) {
      QStringList stages;
      for (int s : request.stages) stages << QString::number(s);
      arguments_ << QStringLiteral("--stages") << stages.join(QLatin1Char(','));
    }
  } else {
    arguments_ << QStringLiteral("--resume") << request.resumeRunDir;
  }
  arguments_ << QStringLiteral("--nproc") << QString::number(std::max(1, request.processes))
             << QStringLiteral("--db") << (dbPath.isEmpty() ? QStringLiteral("none") : dbPath)
             << QStringLiteral("--progress") << QStringLiteral("jsonl");
  if (!request.device.isEmpty()) arguments_ << QStringLiteral("--device") << request.device;

  if (process_) process_->deleteLater();
  process_ = new QProcess(this);
  process_->setProcessEnvironment(adalaChildEnvironment());
  // Its own process group: Cancel is Ctrl-C for the launcher and its workers together, and a
  // Ctrl-C meant for the workbench's terminal does not reach them twice.
  process_->setChildProcessModifier([] { ::setpgid(0, 0); });
  connect(process_, &QProcess::readyReadStandardError, this, &RunProcess::readStderr);
  connect(process_, &QProcess::readyReadStandardOutput, this,
          [this] { process_->readAllStandardOutput(); });
  connect(process_, &QProcess::finished, this, &RunProcess::onFinished);
  connect(process_, &QProcess::errorOccurred, this, &RunProcess::onError);
  stream_ = std::make_unique<adala::cli::ProgressStream>();
  state_ = JobState{};
  state_.jobId = jobId;
  state_.processes = std::max(1, request.processes);
  state_.runDir = request.resumeRunDir;
  finishedStatus_.reset();
  started_ = false;
  cancelling_ = false;
  reported_ = false;
  process_->start(program_, arguments_);
  return true;
}

void RunProcess::cancel() {
  if (!running() || cancelling_) return;
  cancelling_ = true;
  const auto pid = static_cast<pid_t>(process_->processId());
  if (pid > 0) ::kill(-pid, SIGINT);
}

void RunProcess::readStderr() {
  if (!process_ || !stream_) return;
  const QByteArray bytes = process_->readAllStandardError();
  handle(stream_->feed(std::string_view(bytes.constData(), size_t(bytes.size()))));
}

void RunProcess::reportStarted() {
  if (started_) return;
  started_ = true;
  state_.status = JobStatus::Running;
  emit jobStarted(state_);
}

void RunProcess::handle(const std::vector<ProgressLine>& lines) {
  QVector<StepUpdate> batch;
  auto flush = [&] {
    if (batch.isEmpty()) return;
    emit steps(batch);
    batch.clear();
  };
  for (const ProgressLine& line : lines) {
    if (line.kind == ProgressLine::Kind::Invalid) {
      flush();
      emit log(
          LogLine{LogLine::Level::Warning, tr("unreadable progress line (%1): %2")
                                               .arg(QString::fromStdString(line.error),
                                                    QString::fromStdString(line.text).left(200))});
      continue;
    }
    if (line.kind != ProgressLine::Kind::Event) continue;  // the progress bar and other text
    const auto& m = line.message;
    if (const auto* run = std::get_if<adala::cli::RunMessage>(&m)) {
      state_.name = QString::fromStdString(run->name);
      state_.runDir = QString::fromStdString(run->run_dir);
    } else if (const auto* rec = std::get_if<adala::cli::RecordedMessage>(&m)) {
      state_.runId = rec->run_id;
      reportStarted();
    } else if (const auto* done = std::get_if<adala::cli::RunFinishedMessage>(&m)) {
      flush();
      finishedStatus_ = parseJobStatus(QString::fromStdString(done->status));
    } else if (const auto* step = std::get_if<StepMetrics>(&m)) {
      reportStarted();
      batch.push_back(QtEventSink::convert(*step));
    } else {
      flush();
      if (const auto* s = std::get_if<StageEvent>(&m)) {
        reportStarted();
        emit stageChanged(QtEventSink::convert(*s));
      } else if (const auto* e = std::get_if<EvalMetrics>(&m)) {
        emit evaluation(QtEventSink::convert(*e));
      } else if (const auto* a = std::get_if<ArtifactEvent>(&m)) {
        emit artifact(QtEventSink::convert(*a));
      } else if (const auto* l = std::get_if<LogEvent>(&m)) {
        emit log(QtEventSink::convert(*l));
      }
      // error: kept by the stream (failure_reason); the bench events do not come from run.
    }
  }
  flush();
}

void RunProcess::finish(JobStatus status, const QString& message) {
  reported_ = true;
  state_.status = status;
  state_.message = message;
  tempDir_.reset();
  emit jobFinished(state_);
}

void RunProcess::onFinished(int exitCode, QProcess::ExitStatus status) {
  if (reported_) return;
  readStderr();
  handle(stream_->finish());
  const QString processes = tr("%n processes", nullptr, state_.processes);
  const bool interrupted = finishedStatus_ == JobStatus::Interrupted;
  if (status == QProcess::NormalExit && exitCode == 0 && !interrupted)
    return finish(JobStatus::Done, tr("finished on %1").arg(processes));
  if (interrupted || (cancelling_ && started_) ||
      (status == QProcess::NormalExit && exitCode == 130))
    return finish(JobStatus::Interrupted,
                  tr("cancelled on %1; resumable from its last checkpoint").arg(processes));
  if (cancelling_) return finish(JobStatus::Cancelled, tr("cancelled before it started"));
  // The command's own message: its error event, else its last "adala ..." line.
  QString why = QString::fromStdString(stream_->failure_reason());
  if (why.isEmpty())
    why = status == QProcess::CrashExit ? tr("adala run crashed.")
                                        : tr("adala run failed (exit code %1).").arg(exitCode);
  emit log(LogLine{LogLine::Level::Error, why});
  finish(JobStatus::Failed, why);
}

void RunProcess::onError(QProcess::ProcessError error) {
  if (error != QProcess::FailedToStart || reported_) return;  // the rest end in finished()
  const QString why = tr("Cannot start %1: %2").arg(program_, process_->errorString());
  emit log(LogLine{LogLine::Level::Error, why});
  finish(JobStatus::Failed, why);
}

}  // namespace adala::gui
