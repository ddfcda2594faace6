#include "app/gui/scaling_bench_process.h"

#include <variant>

#include "app/cli/progress_stream.h"
#include "app/gui/child_environment.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QPointer>
#include <QTimer>

#include <climits>

namespace adala::gui {

ScalingBenchProcess::ScalingBenchProcess(QObject* parent)
    : QObject(parent), program_(defaultProgram()) {}

ScalingBenchProcess::~ScalingBenchProcess() {
  if (process_ && process_->state() != QProcess::NotRunning) {
    process_->disconnect(this);
    process_->kill();  // its point children die with it (PR_SET_PDEATHSIG)
    process_->waitForFinished(3000);
  }
}

QString ScalingBenchProcess::defaultProgram() {
  const QDir here(QCoreApplication::applicationDirPath());
  for (const QString& candidate :
       {here.filePath(QStringLiteral("adala")), here.filePath(QStringLiteral("../bin/adala"))}) {
    const QFileInfo info(candidate);
    if (info.isFile() && info.isExecutable()) return info.canonicalFilePath();
  }
  return QStringLiteral("adala");
}

bool ScalingBenchProcess::running() const {
  return process_ && process_->state() != QProcess::NotRunning;
}

bool ScalingBenchProcess::start(const widgets::ScalingRequest& request, const QString& dbPath,
                                QString* error) {
  if (running()) {
    if (error) *error = tr("A benchmark is already running.");
    return false;
  }
  // The CSV is recorded with the run (an artifact `adala report` reads), so it goes next to
  // the database, in benchmarks/; a temporary folder only when there is no database.
  csvPath_.clear();
  tempDir_.reset();
  if (!dbPath.isEmpty()) {
    const QDir dir(QFileInfo(dbPath).absoluteDir().filePath(QStringLiteral("benchmarks")));
    if (dir.mkpath(QStringLiteral(".")))
      csvPath_ = dir.filePath(
          QStringLiteral("scaling-%1.csv")
              .arg(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz"))));
  }
  if (csvPath_.isEmpty()) {
    tempDir_ = std::make_unique<QTemporaryDir>(
        QDir::temp().filePath(QStringLiteral("adala-scaling-XXXXXX")));
    if (!tempDir_->isValid()) {
      if (error) *error = tr("Cannot create a temporary folder: %1").arg(tempDir_->errorString());
      return false;
    }
    csvPath_ = tempDir_->filePath(QStringLiteral("scaling.csv"));
  }
  QStringList resolutions;
  for (int r : request.resolutions) resolutions << QString::number(r);
  arguments_ = {QStringLiteral("bench"),    QStringLiteral("scaling"),
                QStringLiteral("--preset"), request.preset,
                QStringLiteral("--res"),    resolutions.join(QLatin1Char(',')),
                QStringLiteral("--modes"),  request.modes.join(QLatin1Char(',')),
                QStringLiteral("--batch"),  QString::number(request.batch)};
  // A hybrid student: the "plan" mode in --modes, its blocks here.
  if (!request.softmaxBlocks.isEmpty()) {
    QStringList blocks;
    for (int b : request.softmaxBlocks) blocks << QString::number(b);
    arguments_ << QStringLiteral("--softmax-blocks") << blocks.join(QLatin1Char(','));
  } else if (!request.plan.isEmpty()) {
    arguments_ << QStringLiteral("--plan") << request.plan.join(QLatin1Char(','));
  }
  if (request.usesWindow())
    arguments_ << QStringLiteral("--window") << QString::number(request.window);
  arguments_ << QStringLiteral("--csv") << csvPath_ << QStringLiteral("--db")
             << (dbPath.isEmpty() ? QStringLiteral("none") : dbPath) << QStringLiteral("--progress")
             << QStringLiteral("jsonl");

  if (process_) process_->deleteLater();
  process_ = new QProcess(this);
  process_->setProcessEnvironment(adalaChildEnvironment());
  connect(process_, &QProcess::readyReadStandardError, this, &ScalingBenchProcess::readStderr);
  connect(process_, &QProcess::readyReadStandardOutput, this,
          [this] { stdout_ += QString::fromUtf8(process_->readAllStandardOutput()); });
  connect(process_, &QProcess::finished, this, &ScalingBenchProcess::onFinished);
  connect(process_, &QProcess::errorOccurred, this, &ScalingBenchProcess::onError);
  stdout_.clear();
  stream_ = std::make_unique<adala::cli::ProgressStream>();
  runId_ = -1;
  cancelling_ = false;
  reported_ = false;
  ++launches_;
  process_->start(program_, arguments_);
  return true;
}

void ScalingBenchProcess::cancel() {
  if (!running()) return;
  cancelling_ = true;
  process_->terminate();
  QPointer<QProcess> p = process_;
  QTimer::singleShot(3000, this, [p] {
    if (p && p->state() != QProcess::NotRunning) p->kill();
  });
}

void ScalingBenchProcess::readStderr() {
  if (!process_ || !stream_) return;
  const QByteArray bytes = process_->readAllStandardError();
  handle(stream_->feed(std::string_view(bytes.constData(), size_t(bytes.size()))));
}

// The events of --progress jsonl (app/cli/progress_events.h); the other lines are the
// command's own text, which the stream keeps for the failure message.
void ScalingBenchProcess::handle(const std::vector<adala::cli::ProgressLine>& lines) {
  for (const auto& line : lines) {
    if (line.kind != adala::cli::ProgressLine::Kind::Event) continue;
    if (const auto* p = std::get_if<adala::cli::BenchProgressMessage>(&line.message)) {
      emit progress(static_cast<int>(std::min<int64_t>(p->done, INT_MAX)),
                    static_cast<int>(std::min<int64_t>(p->total, INT_MAX)),
                    QString::fromStdString(p->label));
    } else if (const auto* s = std::get_if<adala::cli::BenchStartMessage>(&line.message)) {
      QVector<int> resolutions;
      for (int64_t r : s->resolutions)
        if (r <= widgets::kMaxResolution) resolutions << static_cast<int>(r);
      QStringList modes;
      for (const auto& m : s->modes) modes << QString::fromStdString(m);
      emit benchmarkStarted(QString::fromStdString(s->preset), resolutions, modes);
    } else if (const auto* point = std::get_if<adala::cli::BenchPointMessage>(&line.message)) {
      emit pointMeasured(widgets::scalingSampleOf(point->row));
    } else if (const auto* r = std::get_if<adala::cli::RecordedMessage>(&line.message)) {
      runId_ = r->run_id;
      emit runRecorded(runId_);
    }
    // csv and done add nothing the exit status and the --csv path do not say; the error
    // event is the stream's failure reason.
  }
}

void ScalingBenchProcess::onFinished(int exitCode, QProcess::ExitStatus status) {
  if (reported_) return;
  reported_ = true;
  readStderr();
  handle(stream_->finish());
  if (cancelling_) {
    emit cancelled(runId_);
    return;
  }
  if (status == QProcess::NormalExit && exitCode == 0 && QFileInfo::exists(csvPath_)) {
    emit succeeded(csvPath_, runId_);
    return;
  }
  // The error event says what went wrong; else the command's own message ("adala bench: ...",
  // a usage error, which comes before any event), else its last line.
  const QString why = QString::fromStdString(stream_->failure_reason());
  QString message = status == QProcess::CrashExit ? tr("The benchmark process crashed.")
                    : exitCode != 0 ? tr("The benchmark failed (exit code %1).").arg(exitCode)
                                    : tr("The benchmark wrote no CSV.");
  if (!why.isEmpty()) message += QLatin1Char(' ') + why;
  emit failed(message, runId_);
}

void ScalingBenchProcess::onError(QProcess::ProcessError error) {
  if (error != QProcess::FailedToStart || reported_) return;  // the rest end in finished()
  reported_ = true;
  emit failed(tr("Cannot start %1: %2").arg(program_, process_->errorString()), runId_);
}

}  // namespace adala::gui
