#pragma once
// Shared by the GUI suites: a scratch folder per test, a tiny experiment file, and settings
// kept out of the user's own configuration.
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QString>

#include "tests/support/test_dirs.h"
#include "widgets/runs/job_status.h"

namespace gui_test {

// ADALA_TEST_TMP/gui/<name>-<pid>, emptied first: a suite and its _shipped_threads twin run at
// the same time under ctest -j, and with one folder each emptied the other's files.
inline QString freshDir(const QString& name) {
  return QString::fromStdString(adala_test::fresh_test_dir("gui", name.toStdString()));
}

inline void isolateSettings() {
  QSettings::setDefaultFormat(QSettings::IniFormat);
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope,
                     freshDir(QStringLiteral("settings")));
}

// fmnist_micro, 256 images, `steps` optimiser steps per stage (`teacherSteps` for Stage 0).
inline QString writeTinyExperiment(const QString& dir, const QString& name, int steps = 5,
                                   int teacherSteps = 5) {
  // No augmentation: the teacher's augment_batch costs far more than a micro-model step.
  auto stage = [](int maxSteps, double lr) {
    return QJsonObject{{"max_steps", maxSteps},
                       {"batch_size", 32},
                       {"lr", lr},
                       {"log_every", 1},
                       {"augment", false}};
  };
  QJsonObject doc{
      {"name", name},
      {"seed", 3},
      // A micro model gains nothing from two threads, and loses a lot on a busy machine.
      {"threads", 1},
      {"model", QJsonObject{{"preset", "fmnist_micro"}}},
      {"data", QJsonObject{{"train_limit", 256}, {"test_limit", 256}, {"alignment_limit", 256}}},
      {"stages", QJsonObject{{"teacher", stage(teacherSteps, 0.002)},
                             {"attention_alignment", stage(steps, 0.001)},
                             {"feature_alignment", stage(steps, 0.0005)},
                             {"fine_tuning", stage(steps, 0.0003)}}},
      {"output", QJsonObject{{"runs_dir", dir + "/runs"}}}};
  const QString path = dir + "/" + name + ".json";
  QFile f(path);
  f.open(QIODevice::WriteOnly | QIODevice::Truncate);
  f.write(QJsonDocument(doc).toJson());
  return path;
}

}  // namespace gui_test

namespace adala::widgets {

// How QCOMPARE prints a job state (found by argument-dependent lookup), e.g. a run browser's
// statusOf against JobStatus::Done.
inline char* toString(JobStatus status) { return qstrdup(qPrintable(jobStatusName(status))); }
inline char* toString(const std::optional<JobStatus>& status) {
  return qstrdup(status ? qPrintable(jobStatusName(*status)) : "(none)");
}

}  // namespace adala::widgets
