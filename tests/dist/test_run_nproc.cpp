// `adala run --nproc 2` on a micro pipeline (Stages 0, 1 and 2 on 256 Fashion-MNIST images,
// one thread per process): the stage outputs equal a one-process run's, the database holds one
// run (rank 0's) tagged with the world, and bad combinations are refused.
// Engine headers first: LibTorch's must precede Qt's (Qt's `slots` macro breaks ATen).
#include "engine/io/safetensors.h"
#include "engine/dist/gloo_data_parallel.h"
#include "engine/store/run_store.h"
#include "engine/train/stage_catalog.h"
#include "tests/support/run_adala.h"
#include "tests/support/test_dirs.h"
#include "tests/support/test_suite.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QRegularExpression>
#include <QtTest/QtTest>

#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_run_nproc {

using namespace adala;
using store::OpenMode;
using store::RunStore;
namespace fs = std::filesystem;

namespace {

std::string fresh(const std::string& name) { return adala_test::fresh_test_dir("dist", name); }

std::string write_config(const std::string& dir) {
  const std::string path = dir + "/micro.json";
  std::ofstream(path) << R"({"name": "dp", "seed": 5, "device": "cpu",
  "model": {"preset": "fmnist_micro"},
  "data": {"train_limit": 256, "test_limit": 128},
  "stages": {
    "teacher": {"max_steps": 12, "batch_size": 32, "checkpoint_every": 4, "augment": true},
    "attention_alignment": {"max_steps": 6, "batch_size": 32, "checkpoint_every": 3},
    "feature_alignment": {"max_steps": 6, "batch_size": 32, "checkpoint_every": 3}}})";
  return path;
}

struct Finished {
  int exit_code = -1;
  QByteArray log;
};

Finished run_adala(const QStringList& args,
                   const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
  QProcess p;
  p.setProcessEnvironment(env);
  p.setProcessChannelMode(QProcess::MergedChannels);
  p.start(adala_test::adala_binary(), QStringList{"--threads", "1"} + args);
  Finished f;
  p.waitForFinished(-1);
  f.log = p.readAll();
  f.exit_code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
  return f;
}

std::string only_run_folder(const std::string& runs_dir) {
  std::vector<std::string> found;
  for (const auto& entry : fs::directory_iterator(runs_dir))
    if (fs::exists(entry.path() / "config.json")) found.push_back(entry.path().string());
  return found.size() == 1 ? found.front() : std::string();
}

// Relative difference of all tensors of two safetensors files taken as one vector (see
// test_data_parallel on why not tensor by tensor); the worst single tensor goes to *where.
double weights_difference(const std::string& a, const std::string& b, std::string* where) {
  const auto x = SafetensorsReader(a, ReadMode::Stream).load_all();
  const auto y = SafetensorsReader(b, ReadMode::Stream).load_all();
  if (x.size() != y.size()) return 1.0;
  std::vector<at::Tensor> flat_x, flat_y;
  double worst = 0;
  for (const auto& [name, t] : x) {
    auto it = y.find(name);
    if (it == y.end()) return 1.0;
    flat_x.push_back(t.to(at::kDouble).reshape({-1}));
    flat_y.push_back(it->second.to(at::kDouble).reshape({-1}));
    const double n = flat_y.back().norm().item<double>();
    const double d = (flat_x.back() - flat_y.back()).norm().item<double>() / (n > 0 ? n : 1.0);
    if (d > worst) worst = d, *where = name + " " + std::to_string(d);
  }
  const auto all_x = at::cat(flat_x), all_y = at::cat(flat_y);
  return (all_x - all_y).norm().item<double>() / all_y.norm().item<double>();
}

// Stage `stage`'s logged losses by step.
std::map<int64_t, double> logged_losses(const std::string& db, const std::string& stage) {
  RunStore store(db, OpenMode::ReadOnly);
  std::map<int64_t, double> out;
  for (const auto& row : store.metrics(store.list_runs().at(0).id, stage, "loss"))
    out[row.step] = row.value;
  return out;
}

// The launcher's child whose environment says RANK=<rank>; 0 when there is none.
pid_t child_with_rank(pid_t launcher, int rank) {
  const std::string wanted = "RANK=" + std::to_string(rank);
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    // pid (comm) state ppid ...: comm may hold spaces, so read after the last ')'.
    std::istringstream rest(line.substr(line.rfind(')') + 2));
    std::string state;
    long parent = 0;
    rest >> state >> parent;
    if (parent != long(launcher)) continue;
    std::ifstream environ(entry.path() / "environ", std::ios::binary);
    for (std::string var; std::getline(environ, var, '\0');)
      if (var == wanted) return pid_t(std::stol(name));
  }
  return 0;
}

}  // namespace

class TestRunNproc : public QObject {
  Q_OBJECT
 private slots:
  void two_processes_train_as_one() {
    const std::string dir = fresh("nproc");
    const std::string config = write_config(dir);
    const auto args = [&](const std::string& name) {
      return QStringList{"run",        QString::fromStdString(config),
                         "--stages",   "0,1,2",
                         "--db",       QString::fromStdString(dir + "/" + name + ".sqlite"),
                         "--runs-dir", QString::fromStdString(dir + "/" + name)};
    };
    const Finished one = run_adala(args("one"));
    QVERIFY2(one.exit_code == 0, one.log.constData());
    const Finished two = run_adala(args("two") + QStringList{"--nproc", "2"});
    QVERIFY2(two.exit_code == 0, two.log.constData());
    QVERIFY2(two.log.contains("started 2 processes"), two.log.constData());

    const std::string folder_one = only_run_folder(dir + "/one");
    const std::string folder_two = only_run_folder(dir + "/two");
    QVERIFY2(!folder_two.empty(), "the two ranks made more or fewer than one run folder");
    for (int stage : {0, 1, 2}) {
      std::string where;
      const double d = weights_difference(stage_output_path(folder_two, stage),
                                          stage_output_path(folder_one, stage), &where);
      QVERIFY2(d < 1e-5,
               qPrintable(QString("stage %1: the weights differ by %2").arg(stage).arg(d)));
      qInfo("stage %d: weights %.3g apart (largest per tensor: %s)", stage, d, where.c_str());
    }
    RunStore store(dir + "/two.sqlite", OpenMode::ReadOnly);
    const auto runs = store.list_runs();
    QCOMPARE(int(runs.size()), 1);
    QCOMPARE(QString::fromStdString(runs[0].status), QString("done"));
    QVERIFY(std::find(runs[0].tags.begin(), runs[0].tags.end(),
                      "data-parallel: 2 processes, gloo") != runs[0].tags.end());
    char host[256] = {};
    gethostname(host, sizeof(host) - 1);
    QVERIFY(std::find(runs[0].tags.begin(), runs[0].tags.end(),
                      "hosts: " + std::string(host) + " (2 ranks)") != runs[0].tags.end());
  }

  // SIGKILL one rank mid-run: the launcher names it and stops the other, the run is
  // interrupted (not failed), and one process resumes the two ranks' checkpoint with the same
  // next loss.
  void a_killed_rank_interrupts_the_run_and_one_process_resumes_it() {
    const std::string dir = fresh("kill");
    const std::string config = dir + "/teacher.json";
    std::ofstream(config) << R"({"name": "kill", "seed": 9, "device": "cpu",
      "model": {"preset": "fmnist_micro"}, "data": {"train_limit": 512, "test_limit": 64},
      "stages": {"teacher": {"max_steps": 600, "batch_size": 16, "checkpoint_every": 100}}})";
    const auto args = [&](const std::string& name) {
      return QStringList{"run",        QString::fromStdString(config),
                         "--stages",   "0",
                         "--db",       QString::fromStdString(dir + "/" + name + ".sqlite"),
                         "--runs-dir", QString::fromStdString(dir + "/" + name)};
    };
    QProcess launcher;
    launcher.setProcessChannelMode(QProcess::MergedChannels);
    launcher.start(adala_test::adala_binary(),
                   QStringList{"--threads", "1"} + args("killed") + QStringList{"--nproc", "2"});
    QVERIFY(launcher.waitForStarted(-1));
    // Once the two ranks are past their first checkpoint (step 100), rank 1 dies.
    auto past_checkpoint = [&] {
      if (!fs::exists(dir + "/killed.sqlite")) return false;
      try {
        RunStore store(dir + "/killed.sqlite", OpenMode::ReadOnly);
        const auto runs = store.list_runs();
        return !runs.empty() && store.last_metric_step(runs[0].id, stage_name(0)) >= 102;
      } catch (const std::exception&) {
        return false;  // being created
      }
    };
    while (!past_checkpoint() && launcher.state() == QProcess::Running) QTest::qWait(50);
    const pid_t rank1 = child_with_rank(pid_t(launcher.processId()), 1);
    QVERIFY2(rank1 > 0, "rank 1 not found (the run ended before the kill?)");
    QElapsedTimer since_kill;
    since_kill.start();
    QCOMPARE(::kill(rank1, SIGKILL), 0);
    launcher.waitForFinished(-1);
    const double seconds = since_kill.elapsed() / 1000.0;
    const QByteArray log = launcher.readAll();
    QVERIFY2(launcher.exitStatus() == QProcess::NormalExit && launcher.exitCode() != 0,
             log.constData());
    QVERIFY2(log.contains("adala run: rank 1 was killed by signal 9"), log.constData());
    qInfo("the launcher ended %.2f s after rank 1 was killed", seconds);
    const std::string folder = only_run_folder(dir + "/killed");
    {
      RunStore store(dir + "/killed.sqlite", OpenMode::ReadOnly);
      const auto recorded = store.list_runs();
      QCOMPARE(int(recorded.size()), 1);
      QCOMPARE(QString::fromStdString(recorded[0].status), QString("interrupted"));
    }
    // One process resumes what two began: the steps after the checkpoint, which the two ranks
    // had already taken before the kill, come out with the same losses.
    const auto two_ranks = logged_losses(dir + "/killed.sqlite", stage_name(0));
    const Finished resumed = run_adala({"run", "--resume", QString::fromStdString(folder), "--db",
                                        QString::fromStdString(dir + "/killed.sqlite")});
    QVERIFY2(resumed.exit_code == 0, resumed.log.constData());
    const QRegularExpression resumed_at("resumed at step (\\d+)");
    const auto match = resumed_at.match(QString::fromUtf8(resumed.log));
    QVERIFY2(match.hasMatch(), resumed.log.constData());
    const int64_t next = match.captured(1).toLongLong() + 1;
    QVERIFY2(two_ranks.count(next),
             "the two ranks were killed before the step after the checkpoint");
    const auto one_rank = logged_losses(dir + "/killed.sqlite", stage_name(0));
    const double rel =
        std::abs(one_rank.at(next) - two_ranks.at(next)) / std::abs(two_ranks.at(next));
    QVERIFY2(rel < 1e-5, qPrintable(QString("step %1: loss %2 on one rank, %3 on two")
                                        .arg(next)
                                        .arg(one_rank.at(next), 0, 'g', 9)
                                        .arg(two_ranks.at(next), 0, 'g', 9)));
    qInfo("resumed at step %lld on one rank: the next loss is %.9g, two ranks had %.9g",
          (long long)next - 1, one_rank.at(next), two_ranks.at(next));
    RunStore store(dir + "/killed.sqlite", OpenMode::ReadOnly);
    QCOMPARE(int(store.list_runs().size()), 1);
    QCOMPARE(QString::fromStdString(store.list_runs().at(0).status), QString("done"));
  }

  void nproc_inside_a_launched_job_is_refused() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("RANK", "0");
    env.insert("WORLD_SIZE", "2");
    const Finished f = run_adala({"run", "unused.json", "--nproc", "2"}, env);
    QCOMPARE(f.exit_code, 2);
    QVERIFY2(f.log.contains("--nproc: this process is already rank 0 of 2 (RANK and WORLD_SIZE "
                            "are set); start it without --nproc"),
             f.log.constData());
  }

  void backends_this_build_lacks_are_refused() {
    const Finished mpi = run_adala({"run", "unused.json", "--backend", "mpi"},
                                   QProcessEnvironment::systemEnvironment());
    QCOMPARE(mpi.exit_code, 2);
    QVERIFY2(mpi.log.contains("--backend: mpi not in {gloo,nccl}"), mpi.log.constData());
    if (nccl_available()) QSKIP("this build has NCCL");
    // With --nproc and in one process alike, before anything starts.
    for (const QStringList& extra : {QStringList{"--nproc", "2"}, QStringList{}}) {
      const Finished nccl =
          run_adala(QStringList{"run", "unused.json", "--backend", "nccl"} + extra,
                    QProcessEnvironment::systemEnvironment());
      QCOMPARE(nccl.exit_code, 2);
      QVERIFY2(nccl.log.contains(QByteArray::fromStdString(nccl_unavailable_message())),
               nccl.log.constData());
    }
  }

  void a_batch_that_does_not_split_is_refused_naming_the_field() {
    const std::string dir = fresh("uneven");
    const std::string config = dir + "/uneven.json";
    std::ofstream(config) << R"({"name": "uneven", "seed": 5, "device": "cpu",
      "model": {"preset": "fmnist_micro"}, "data": {"train_limit": 64, "test_limit": 32},
      "stages": {"teacher": {"max_steps": 2, "batch_size": 9}}})";
    const Finished f =
        run_adala({"run", QString::fromStdString(config), "--stages", "0", "--db", "none",
                   "--runs-dir", QString::fromStdString(dir), "--nproc", "2"});
    QVERIFY(f.exit_code != 0);
    QVERIFY2(f.log.contains("stages.teacher.batch_size: 9 is not divisible by the world size 2"),
             f.log.constData());
    QVERIFY2(f.log.contains("adala run: rank "), f.log.constData());
  }
};

ADALA_TEST_GUILESS_MAIN(TestRunNproc)
}  // namespace test_run_nproc

#include "test_run_nproc.moc"
