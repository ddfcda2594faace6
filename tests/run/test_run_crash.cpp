// kill -9 a real `adala run` (a micro four-stage pipeline) again and again at random moments
// — while it starts, trains, writes checkpoints, evaluates, records to the database — and
// resume it each time. Afterwards the database passes integrity_check, every stage's metrics
// are the steps 1..N exactly once, the run is one row marked done, and every stage's weights
// are bit-identical to an uninterrupted run's. ADALA_CRASH_SEED picks other kill points.
// Engine headers first: LibTorch's must precede Qt's (Qt's `slots` macro breaks ATen).
#include "engine/io/safetensors.h"
#include "engine/store/run_store.h"
#include "engine/train/stage_catalog.h"
#include "tests/support/run_adala.h"
#include "tests/support/test_dirs.h"
#include "tests/support/test_suite.h"

#include <QProcess>
#include <QtTest/QtTest>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_run_crash {

using namespace adala;
using store::OpenMode;
using store::RunStore;
namespace fs = std::filesystem;

namespace {

constexpr int kMinimumKills = 20;
constexpr int kStageSteps[4] = {16, 8, 8, 8};

std::string fresh(const std::string& name) { return adala_test::fresh_test_dir("run", name); }

std::string write_config(const std::string& dir) {
  const std::string path = dir + "/micro.json";
  std::ofstream(path) << R"({"name": "crash", "seed": 5, "device": "cpu",
  "model": {"preset": "fmnist_micro"},
  "data": {"train_limit": 256, "test_limit": 128},
  "stages": {
    "teacher": {"max_steps": 16, "batch_size": 32, "checkpoint_every": 2},
    "attention_alignment": {"max_steps": 8, "batch_size": 32, "checkpoint_every": 2},
    "feature_alignment": {"max_steps": 8, "batch_size": 32, "checkpoint_every": 2},
    "fine_tuning": {"max_steps": 8, "batch_size": 32, "checkpoint_every": 2}}})";
  return path;
}

struct Attempt {
  bool killed = false;
  int exit_code = -1;
  QByteArray log;
};

// Starts adala; with kill_after_lines > 0, SIGKILLs it once it has printed that many lines
// (progress lines, stage and evaluation messages), whatever it is doing at that moment.
Attempt run_adala(const QStringList& args, int kill_after_lines) {
  QProcess p;
  p.setProcessChannelMode(QProcess::MergedChannels);
  p.start(adala_test::adala_binary(), QStringList{"--threads", "1"} + args);
  Attempt a;
  if (!p.waitForStarted(-1)) {
    a.log = "could not start adala: " + p.errorString().toUtf8();
    return a;
  }
  while (p.waitForReadyRead(-1)) {
    a.log += p.readAll();
    if (kill_after_lines > 0 && a.log.count('\n') >= kill_after_lines) {
      p.kill();
      a.killed = true;
      break;
    }
  }
  p.waitForFinished(-1);
  a.log += p.readAll();
  if (a.killed && p.exitStatus() == QProcess::NormalExit) a.killed = false;  // it ended first
  a.exit_code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
  return a;
}

// The run folder an interrupted attempt left with its config, if any.
std::string resumable_folder(const std::string& runs_dir) {
  for (const auto& entry : fs::directory_iterator(runs_dir)) {
    if (fs::exists(entry.path() / "config.json")) return entry.path().string();
  }
  return {};
}

std::map<std::string, at::Tensor> stage_weights(const std::string& run_dir, int stage) {
  return SafetensorsReader(stage_output_path(run_dir, stage), ReadMode::Stream).load_all();
}

}  // namespace

class TestRunCrash : public QObject {
  Q_OBJECT

 private slots:
  void killed_and_resumed_runs_match_an_uninterrupted_one() {
    const std::string dir = fresh("crash");
    const std::string config = write_config(dir);

    const std::string reference_runs = dir + "/reference";
    const std::string reference_db = dir + "/reference.sqlite";
    const Attempt reference = run_adala(
        {"run", QString::fromStdString(config), "--db", QString::fromStdString(reference_db),
         "--runs-dir", QString::fromStdString(reference_runs)},
        0);
    QVERIFY2(reference.exit_code == 0, reference.log.constData());
    const std::string reference_folder = resumable_folder(reference_runs);

    const char* seed_text = std::getenv("ADALA_CRASH_SEED");
    const unsigned seed =
        seed_text ? static_cast<unsigned>(std::strtoul(seed_text, nullptr, 10)) : 20261204u;
    std::mt19937 random(seed);
    // Kill points anywhere in a whole run's output (a resume prints its own preamble first,
    // so a narrower range could stall a run that never gets past it).
    std::uniform_int_distribution<int> lines_before_kill(
        1, std::max(2, static_cast<int>(reference.log.count('\n'))));
    const std::string db = dir + "/runs.sqlite";
    int kills = 0, pipelines = 0;
    while (kills < kMinimumKills) {
      const std::string runs = dir + "/crashed-" + std::to_string(pipelines++);
      fs::create_directories(runs);
      for (int attempt = 0;; ++attempt) {
        QVERIFY2(attempt < 400, "the run made no progress across 400 attempts");
        const std::string folder = resumable_folder(runs);
        const QStringList args =
            folder.empty() ? QStringList{"run", QString::fromStdString(config), "--runs-dir",
                                         QString::fromStdString(runs)}
                           : QStringList{"run", "--resume", QString::fromStdString(folder)};
        const Attempt a = run_adala(args + QStringList{"--db", QString::fromStdString(db)},
                                    lines_before_kill(random));
        if (a.killed) {
          ++kills;
          continue;
        }
        QVERIFY2(a.exit_code == 0,
                 qPrintable(QString("attempt %1 (%2) exited with %3 after %4 kills:\n%5")
                                .arg(attempt)
                                .arg(args.join(' '))
                                .arg(a.exit_code)
                                .arg(kills)
                                .arg(QString::fromUtf8(a.log))));
        break;
      }
      const std::string folder = resumable_folder(runs);
      for (int stage = 0; stage < 4; ++stage) {
        const auto expected = stage_weights(reference_folder, stage);
        const auto got = stage_weights(folder, stage);
        QCOMPARE(got.size(), expected.size());
        for (const auto& [name, tensor] : expected) {
          QVERIFY2(got.count(name) && got.at(name).equal(tensor),
                   qPrintable(QString("seed %1, stage %2: %3 differs from the uninterrupted run")
                                  .arg(seed)
                                  .arg(stage)
                                  .arg(QString::fromStdString(name))));
        }
      }
    }
    qInfo("seed %u: %d kills over %d pipelines", seed, kills, pipelines);

    RunStore store(db, OpenMode::ReadOnly);
    RunStore reference_store(reference_db, OpenMode::ReadOnly);
    QCOMPARE(store.integrity_check(), std::string("ok"));
    const int64_t reference_run = reference_store.list_runs().at(0).id;
    // One row per pipeline: every resume continued the row its folder was created with.
    const auto recorded = store.list_runs();
    QCOMPARE(static_cast<int>(recorded.size()), pipelines);
    for (const auto& run : recorded) {
      QCOMPARE(run.status, std::string("done"));
      for (int stage = 0; stage < 4; ++stage) {
        const auto losses = store.metrics(run.id, stage_name(stage), "loss");
        const auto expected = reference_store.metrics(reference_run, stage_name(stage), "loss");
        QCOMPARE(static_cast<int>(losses.size()), kStageSteps[stage]);
        for (size_t i = 0; i < losses.size(); ++i) {
          QCOMPARE(losses[i].step, int64_t(i + 1));
          // A resume replays the uninterrupted run's computation bit for bit (its weights are
          // compared with equal above): the same losses, stored as REALs and read back.
          ADALA_COMPARE_EXACT(losses[i].value, expected[i].value);
        }
      }
      QCOMPARE(store.evaluations(run.id), reference_store.evaluations(reference_run));
    }
  }
};

ADALA_TEST_GUILESS_MAIN(TestRunCrash)
}  // namespace test_run_crash

#include "test_run_crash.moc"
