// Data parallelism on c10d/Gloo: two worker processes (this executable started again with
// ADALA_DIST_TEST_WORKER set, one thread each, on 127.0.0.1) train Stages 1, 2 and 3 for a few
// steps; their parameters must equal those of one process with the same global batch.
#include <torch/torch.h>

#include <QCoreApplication>
#include <QProcess>
#include <QtTest/QtTest>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>

#include "engine/io/safetensors.h"
#include "engine/model/vision_transformer.h"
#include "engine/dist/dist_environment.h"
#include "engine/dist/gloo_data_parallel.h"
#include "engine/dist/local_launcher.h"
#include "engine/train/batch_sampler.h"
#include "engine/train/data_parallel.h"
#include "engine/train/stage_data.h"
#include "engine/train/stages.h"
#include "tests/support/test_dirs.h"
#include "tests/support/micro_config.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_data_parallel {

using namespace adala;

namespace {

constexpr int64_t kSteps = 5;
constexpr int kDieStage = 9;  // the worker's mode in which one rank dies

ExperimentConfig micro_config() {
  ExperimentConfig c = adala_test::micro_experiment_config(kSteps);
  for (StageConfig* s : {&c.teacher, &c.attention_alignment, &c.feature_alignment, &c.fine_tuning})
    s->augment = true;  // the shift-and-flip augmentation, drawn per position in the batch
  return c;
}

// The worker: one stage on a fixed micro ViT and fixed images; rank 0 (or the only process)
// writes the trained parameters and the logged losses to ADALA_DIST_TEST_OUT.
int run_worker() {
  at::set_num_threads(1);
  const int stage = std::atoi(std::getenv("ADALA_DIST_TEST_STAGE"));
  const std::string out = std::getenv("ADALA_DIST_TEST_OUT");
  if (stage == kDieStage) {
    // Rank ADALA_DIST_TEST_DYING is killed once the group has run a collective (so neither rank
    // is still inside the rendezvous); the other's next collective fails.
    auto parallel = join_data_parallel(dist_environment_from_process());
    at::Tensor ones = at::ones({4});
    try {
      parallel->all_reduce_sum(ones);
      if (parallel->rank() == std::atoi(std::getenv("ADALA_DIST_TEST_DYING"))) std::raise(SIGKILL);
      parallel->all_reduce_sum(ones);
    } catch (const DataParallelError& e) {
      std::fprintf(stderr, "%s\n", e.what());
      return 3;
    }
    return 0;
  }
  torch::manual_seed(11);
  const ExperimentConfig c = micro_config();
  VisionTransformer teacher(c.model);
  auto images = torch::rand({64, 1, 28, 28});
  auto labels = torch::randint(0, 10, {64});
  auto parallel = join_data_parallel(dist_environment_from_process());
  // Sharded evaluation of the untrained teacher (identical in every world): 50 images in
  // batches of 8, so the ranks get 4 and 3 batches.
  const StageData eval_data =
      in_memory_stage_data(images.narrow(0, 0, 50), labels.narrow(0, 0, 50));
  const double top1_sharded = evaluate_top1(teacher, eval_data, torch::kCPU, parallel.get(), 8);
  const double top1_whole = evaluate_top1(teacher, eval_data, torch::kCPU, nullptr, 8);
  const int rank = parallel ? parallel->rank() : 0;
  std::string gathered = "rank" + std::string(size_t(rank + 1), '+');
  if (parallel) {
    gathered.clear();
    for (const auto& part :
         all_gather_strings(*parallel, "rank" + std::string(size_t(rank + 1), '+')))
      gathered += part + "|";
  }
  RecordingSink sink;
  JobControl control;
  StageContext ctx{c, torch::kCPU, sink, control, ""};
  ctx.parallel = parallel;
  VisionTransformer trained = teacher;
  if (stage == 1) {
    AttentionAlignmentStage(ctx).run(teacher, images);
  } else if (stage == 2) {
    trained = clone_model(teacher, torch::kCPU);
    trained->set_attention_mode(AttentionMode::Linear);
    // A random micro ViT's attention is nearly uniform, so the linear student starts within
    // 1e-7 of the teacher and its gradients sit at AdamW's eps, where updates amplify rounding:
    // moved away (deterministically), the loss and gradients are those of a real Stage 2.
    {
      torch::NoGradGuard no_grad;
      for (auto& p : trained->named_parameters())
        if (p.key().find(".attn.linear.") != std::string::npos)
          p.value().add_(torch::randn_like(p.value()) * 0.05);
    }
    FeatureAlignmentStage(ctx).run(teacher, trained, images);
  } else {
    teacher->set_attention_mode(AttentionMode::Linear);
    FineTuningStage(ctx).run(teacher, ImageDataset{images, labels});
  }
  if (parallel && parallel->rank() != 0) return 0;
  std::vector<std::pair<std::string, at::Tensor>> tensors;
  for (const auto& p : trained->named_parameters()) tensors.emplace_back(p.key(), p.value());
  std::vector<double> losses;
  for (const auto& m : sink.steps(stage_name(stage))) losses.push_back(m.loss);
  tensors.emplace_back("losses", torch::tensor(losses, torch::kDouble));
  tensors.emplace_back("top1", torch::tensor({top1_sharded, top1_whole}, torch::kDouble));
  tensors.emplace_back("gathered",
                       torch::tensor(std::vector<int64_t>(gathered.begin(), gathered.end())));
  write_safetensors(out, tensors, {});
  return 0;
}

std::string fresh_dir(const std::string& name) {
  return adala_test::fresh_test_dir("data-parallel", name);
}

QProcess* start_worker(int stage, const std::string& out, const std::map<QString, QString>& env) {
  auto* p = new QProcess;
  QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
  for (const char* name : {"RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT",
                           "SLURM_NTASKS", "SLURM_PROCID", "ADALA_DIST_STORE_FILE"})
    e.remove(name);
  e.insert("ADALA_DIST_TEST_WORKER", "1");
  e.insert("ADALA_DIST_TEST_STAGE", QString::number(stage));
  e.insert("ADALA_DIST_TEST_OUT", QString::fromStdString(out));
  e.insert("OMP_NUM_THREADS", "1");
  e.insert("OPENBLAS_NUM_THREADS", "1");
  for (const auto& [k, v] : env) e.insert(k, v);
  p->setProcessEnvironment(e);
  p->setProcessChannelMode(QProcess::MergedChannels);
  p->start(QCoreApplication::applicationFilePath(), {QStringLiteral("test_data_parallel")});
  return p;
}

// Waits for the worker (no time limit of its own: ctest's timeout bounds the suite).
QString finish(QProcess* p, int* code) {
  p->waitForFinished(-1);
  *code = p->exitStatus() == QProcess::NormalExit ? p->exitCode() : -1;
  const QString output = QString::fromLocal8Bit(p->readAll());
  delete p;
  return output;
}

double rel_diff(const at::Tensor& a, const at::Tensor& b) {
  const double denominator = b.to(at::kDouble).norm().item<double>();
  const double numerator = (a.to(at::kDouble) - b.to(at::kDouble)).norm().item<double>();
  return denominator > 0 ? numerator / denominator : numerator;
}

// A world of `size` in this process, for the slicing rules.
class FakeWorld : public DataParallel {
 public:
  FakeWorld(int rank, int size) : rank_(rank), size_(size) {}
  int rank() const override { return rank_; }
  int world_size() const override { return size_; }
  std::string backend() const override { return "fake"; }
  void all_reduce_sum(at::Tensor&) override {}
  void broadcast(at::Tensor&, int) override {}
  void barrier() override {}

 private:
  int rank_, size_;
};

}  // namespace

class TestDataParallel : public QObject {
  Q_OBJECT
 private slots:
  void two_ranks_equal_one_rank_in_stage1() { compare_worlds(1, "file"); }
  void two_ranks_equal_one_rank_in_stage2() { compare_worlds(2, "tcp"); }
  void two_ranks_equal_one_rank_in_stage3() { compare_worlds(3, "file"); }

  void rank_slices_compose_the_global_batch() {
    // The loader's and the augmentation's slices, side by side, are the global batch.
    const StageData data = in_memory_stage_data(torch::rand({40, 1, 8, 8}), torch::arange(40));
    auto whole = make_training_loader(data, 8, 3, /*augment=*/true, 0);
    const FakeWorld r0(0, 2), r1(1, 2);
    auto first = make_training_loader(data, 8, 3, true, 0, rank_slice(8, &r0, "b"));
    auto second = make_training_loader(data, 8, 3, true, 0, rank_slice(8, &r1, "b"));
    for (int64_t step : {0, 1, 6}) {
      const Batch w = whole->batch(step), a = first->batch(step), b = second->batch(step);
      QVERIFY(torch::equal(torch::cat({a.images, b.images}), w.images));
      QVERIFY(torch::equal(torch::cat({a.labels, b.labels}), w.labels));
      const auto full = augment_batch(w.images, 5, step);
      const auto parts = torch::cat(
          {augment_batch(a.images, 5, step, 2, 0), augment_batch(b.images, 5, step, 2, 4)});
      QVERIFY(torch::equal(parts, full));
    }
  }

  void uneven_batches_are_refused_naming_the_field() {
    const FakeWorld world(1, 3);
    try {
      rank_slice(8, &world, "stages.feature_alignment.batch_size");
      QFAIL("no error");
    } catch (const std::invalid_argument& e) {
      QCOMPARE(QString(e.what()),
               QString("stages.feature_alignment.batch_size: 8 is not divisible by the world "
                       "size 3 (the global batch is split evenly over the processes)"));
    }
    const FakeWorld two(1, 2);
    const RankSlice s = rank_slice(8, &two, "x");
    QCOMPARE(s.first, int64_t(4));
    QCOMPARE(s.count, int64_t(4));
    QCOMPARE(rank_slice(8, nullptr, "x").count, int64_t(8));
  }

  // --backend nccl where LibTorch has no NCCL: refused with a plain message, in a world of one
  // too (NCCL builds its group there, Gloo needs none).
  void nccl_is_refused_where_libtorch_has_none() {
    QVERIFY(gloo_available());
    QVERIFY(join_data_parallel(DistEnvironment{}) == nullptr);
    if (nccl_available()) QSKIP("this build has NCCL");
    const std::string message = nccl_unavailable_message();
    QVERIFY2(message.rfind("--backend nccl: ", 0) == 0, message.c_str());
    QVERIFY(message.size() > 20 && message.substr(message.size() - 20) == "; use --backend gloo");
    if (!torch::cuda::is_available())
      QCOMPARE(QString::fromStdString(message),
               QString("--backend nccl: this LibTorch was built without NCCL (CPU build); use "
                       "--backend gloo"));
    for (int world : {1, 2}) {
      DistEnvironment env;
      env.backend = "nccl";
      env.world_size = world;
      try {
        join_data_parallel(env);
        QFAIL("--backend nccl was not refused");
      } catch (const std::runtime_error& e) {
        QCOMPARE(std::string(e.what()), message);
      }
    }
  }

  void environment_from_torchrun_and_slurm() {
    auto read = [](std::map<std::string, std::string> vars) {
      return read_dist_environment([vars](const char* name) -> const char* {
        auto it = vars.find(name);
        return it == vars.end() ? nullptr : it->second.c_str();
      });
    };
    auto none = read({});
    QCOMPARE(none.world_size, 1);
    QVERIFY(!none.distributed());
    auto torchrun = read({{"RANK", "3"},
                          {"WORLD_SIZE", "4"},
                          {"LOCAL_RANK", "1"},
                          {"MASTER_ADDR", "node7"},
                          {"MASTER_PORT", "29511"}});
    QCOMPARE(torchrun.rank, 3);
    QCOMPARE(torchrun.world_size, 4);
    QCOMPARE(torchrun.local_rank, 1);
    QCOMPARE(torchrun.master_addr, std::string("node7"));
    QCOMPARE(torchrun.master_port, 29511);
    QCOMPARE(torchrun.source, std::string("torchrun"));
    auto slurm = read({{"SLURM_NTASKS", "8"},
                       {"SLURM_PROCID", "5"},
                       {"SLURM_LOCALID", "1"},
                       {"MASTER_ADDR", "n1"},
                       {"ADALA_DIST_TIMEOUT_S", "30"}});
    QCOMPARE(slurm.rank, 5);
    QCOMPARE(slurm.world_size, 8);
    QCOMPARE(slurm.source, std::string("slurm"));
    QCOMPARE(slurm.collective_timeout.count(), int64_t(30000));
  }

  // Without a launcher (torchrun, Slurm, by hand) the survivor names the rank that died.
  void a_dead_rank_is_named_by_the_survivor() {
    const std::string dir = fresh_dir("dead_rank");
    for (const int dying : {1, 0}) {
      const int port = free_tcp_port();
      auto env = [&](int rank) {
        return std::map<QString, QString>{{"WORLD_SIZE", "2"},
                                          {"RANK", QString::number(rank)},
                                          {"MASTER_ADDR", "127.0.0.1"},
                                          {"MASTER_PORT", QString::number(port)},
                                          {"ADALA_DIST_TIMEOUT_S", "60"},
                                          {"ADALA_DIST_TEST_DYING", QString::number(dying)}};
      };
      QProcess* rank0 = start_worker(kDieStage, dir + "/unused", env(0));
      QProcess* rank1 = start_worker(kDieStage, dir + "/unused", env(1));
      int code0 = 0, code1 = 0;
      const QString log0 = finish(rank0, &code0), log1 = finish(rank1, &code1);
      const int survivor_code = dying == 1 ? code0 : code1;
      const QString survivor_log = dying == 1 ? log0 : log1;
      QCOMPARE(dying == 1 ? code1 : code0, -1);  // killed
      QVERIFY2(survivor_code == 3, qPrintable(survivor_log));
      const QString expected =
          dying == 1 ? QString(
                           "rank 0: the all-reduce across 2 processes failed: rank 1 stopped "
                           "or stopped answering")
                     : QString(
                           "rank 1: the all-reduce across 2 processes failed: rank 0 stopped "
                           "(its store at 127.0.0.1:%1 is gone)")
                           .arg(port);
      QVERIFY2(survivor_log.contains(expected), qPrintable(survivor_log));
    }
  }

  void hosts_are_described_in_rank_order_with_counts() {
    QCOMPARE(describe_hosts({"node-b", "node-a", "node-b", "node-b"}),
             std::string("node-b (3 ranks), node-a (1 rank)"));
    QCOMPARE(describe_hosts({"solo"}), std::string("solo (1 rank)"));
  }

  void malformed_environments_name_the_variable() {
    const std::vector<std::pair<std::map<std::string, std::string>, QString>> cases = {
        {{{"RANK", "0"}}, "RANK and WORLD_SIZE go together, but only RANK is set"},
        {{{"RANK", "2"}, {"WORLD_SIZE", "2"}}, "RANK=2 is outside 0..1"},
        {{{"RANK", "0"}, {"WORLD_SIZE", "two"}}, "WORLD_SIZE=\"two\" is not an integer"},
        {{{"RANK", "0"}, {"WORLD_SIZE", "0"}}, "WORLD_SIZE=0 is outside 1..1048576"},
        {{{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"MASTER_PORT", "70000"}},
         "MASTER_PORT=70000 is outside 1..65535"},
        {{{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"MASTER_ADDR", ""}}, "MASTER_ADDR is empty"},
        {{{"SLURM_NTASKS", "4"}}, "SLURM_NTASKS is set but SLURM_PROCID is not"},
        {{{"ADALA_DIST_BACKEND", "mpi"}}, "ADALA_DIST_BACKEND=\"mpi\" (allowed: gloo, nccl)"},
        {{{"ADALA_DIST_TIMEOUT_S", "-1"}}, "ADALA_DIST_TIMEOUT_S=-1 is outside 1..86400"},
    };
    for (const auto& [vars, message] : cases) {
      try {
        read_dist_environment([&vars = vars](const char* name) -> const char* {
          auto it = vars.find(name);
          return it == vars.end() ? nullptr : it->second.c_str();
        });
        QFAIL(qPrintable("no error for " + message));
      } catch (const std::invalid_argument& e) {
        QCOMPARE(QString(e.what()), message);
      }
    }
  }

 private:
  // Stage `stage` once in one process and once over two; the trained parameters and the
  // logged (rank-averaged) losses must agree.
  void compare_worlds(int stage, const char* store) {
    const std::string dir = fresh_dir("dp_stage" + std::to_string(stage));
    int code = 0;
    QString log = finish(start_worker(stage, dir + "/one.safetensors", {}), &code);
    QVERIFY2(code == 0, qPrintable(log));
    std::map<QString, QString> common{{"WORLD_SIZE", "2"}, {"MASTER_ADDR", "127.0.0.1"}};
    if (std::string(store) == "tcp")
      common["MASTER_PORT"] = QString::number(free_tcp_port());
    else
      common["ADALA_DIST_STORE_FILE"] = QString::fromStdString(dir + "/store");
    auto with_rank = [&](int rank) {
      auto env = common;
      env["RANK"] = QString::number(rank);
      return env;
    };
    QProcess* rank0 = start_worker(stage, dir + "/two.safetensors", with_rank(0));
    QProcess* rank1 = start_worker(stage, dir + "/unused.safetensors", with_rank(1));
    int code0 = 0, code1 = 0;
    const QString log0 = finish(rank0, &code0), log1 = finish(rank1, &code1);
    QVERIFY2(code0 == 0, qPrintable(log0));
    QVERIFY2(code1 == 0, qPrintable(log1));
    QVERIFY(!std::filesystem::exists(dir + "/unused.safetensors"));  // rank 1 writes nothing
    SafetensorsReader one(dir + "/one.safetensors"), two(dir + "/two.safetensors");
    // Sharded evaluation counts what one process counts; every rank's string arrives in order.
    const auto top1_one = one.load("top1"), top1_two = two.load("top1");
    // top-1 is a whole count of correct predictions (all-reduced as an exact integer) over the 50
    // images, one division: the same count gives the same double, written and read back here.
    ADALA_COMPARE_EXACT(top1_two[0].item<double>(), top1_two[1].item<double>());
    ADALA_COMPARE_EXACT(top1_two[0].item<double>(), top1_one[1].item<double>());
    ADALA_COMPARE_EXACT(top1_one[0].item<double>(), top1_one[1].item<double>());
    QVERIFY(top1_one[1].item<double>() > 0.0);  // a count that could go wrong, not 0 = 0
    const auto bytes = two.load("gathered");
    QCOMPARE(std::string(bytes.data_ptr<int64_t>(), bytes.data_ptr<int64_t>() + bytes.numel()),
             std::string("rank+|rank++|"));
    const auto losses_one = one.load("losses"), losses_two = two.load("losses");
    QCOMPARE(losses_one.numel(), int64_t(kSteps));
    // The first step starts from the same parameters: only the summation order differs.
    const double first = rel_diff(losses_two[0], losses_one[0]);
    QVERIFY2(first < 1e-5, qPrintable(QString("the first losses differ by %1").arg(first)));
    // All parameters as one vector (AdamW divides by sqrt(v): where a gradient is near its eps
    // a rounding difference moves a single element by up to lr, which a tiny tensor such as a
    // zero-initialised bias shows as a large relative difference of its own).
    std::vector<at::Tensor> flat_one, flat_two;
    double worst = 0;
    std::string worst_name;
    for (const auto& info : one.tensors()) {
      const std::string& name = info.name;
      if (name == "losses" || name == "top1" || name == "gathered") continue;
      flat_one.push_back(one.load(name).reshape({-1}));
      flat_two.push_back(two.load(name).reshape({-1}));
      const double d = rel_diff(flat_two.back(), flat_one.back());
      if (d > worst) worst = d, worst_name = name;
    }
    const int compared = int(flat_one.size());
    QVERIFY(compared > 10);
    const double all = rel_diff(torch::cat(flat_two), torch::cat(flat_one));
    QVERIFY2(all < 1e-5, qPrintable(QString("the parameters differ by %1").arg(all)));
    qInfo(
        "stage %d: all parameters %.3g apart; first loss %.3g, all losses %.3g; largest per "
        "tensor %.3g (%s)",
        stage, all, first, rel_diff(losses_two, losses_one), worst, worst_name.c_str());
  }
};

static int suite_main(int argc, char** argv) {
  if (std::getenv("ADALA_DIST_TEST_WORKER")) {
    try {
      return run_worker();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "worker: %s\n", e.what());
      return 2;
    }
  }
  QCoreApplication app(argc, argv);
  TestDataParallel test;
  return QTest::qExec(&test, argc, argv);
}

ADALA_TEST_CUSTOM_MAIN(suite_main)

}  // namespace test_data_parallel

#include "test_data_parallel.moc"
