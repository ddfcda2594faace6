// FusedAdamW against LibTorch's AdamW: the same trajectory, the same state, checkpoints that
// load into either.
#include <torch/torch.h>

#include <QtTest/QtTest>

#include <sstream>

#include "engine/kernels/fused_adamw.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_fused_adamw {

using namespace adala;

namespace {

struct Problem {
  std::vector<torch::Tensor> params;
};

// Three parameters of awkward sizes (one not a multiple of any vector width or grain) and a
// loss whose gradients change from step to step.
Problem make_problem(torch::Dtype dtype = torch::kFloat) {
  torch::manual_seed(7);
  Problem p;
  for (int64_t n : {int64_t(3), int64_t(1000), int64_t(70001)})
    p.params.push_back(torch::randn({n}, torch::dtype(dtype)).set_requires_grad(true));
  return p;
}

torch::Tensor loss_of(const Problem& p, int step) {
  auto loss = torch::zeros({}, p.params[0].options());
  for (size_t i = 0; i < p.params.size(); ++i) {
    const auto& w = p.params[i];
    auto target = torch::sin(torch::arange(w.numel(), w.options()) * (0.01 * (step + 1 + i)));
    loss = loss + ((w - target).pow(2) * (1.0 + double(i))).sum() + w.pow(4).mean();
  }
  return loss;
}

std::vector<torch::optim::OptimizerParamGroup> groups(const Problem& p) {
  // Two groups with their own lr and weight decay, as TrainingLoop builds them.
  std::vector<torch::optim::OptimizerParamGroup> g;
  g.emplace_back(std::vector<torch::Tensor>{p.params[0], p.params[2]},
                 std::make_unique<torch::optim::AdamWOptions>(
                     torch::optim::AdamWOptions(3e-3).weight_decay(0.05)));
  g.emplace_back(std::vector<torch::Tensor>{p.params[1]},
                 std::make_unique<torch::optim::AdamWOptions>(
                     torch::optim::AdamWOptions(1e-2).weight_decay(0.0)));
  return g;
}

template <typename Opt>
void run_steps(Opt& opt, Problem& p, int from, int to) {
  for (int s = from; s < to; ++s) {
    opt.zero_grad();
    loss_of(p, s).backward();
    opt.step();
  }
}

double max_rel(const Problem& a, const Problem& b) {
  double worst = 0;
  for (size_t i = 0; i < a.params.size(); ++i) {
    auto d = (a.params[i] - b.params[i]).abs().max().item<double>();
    worst = std::max(worst, d / b.params[i].abs().max().item<double>());
  }
  return worst;
}

}  // namespace

class TestFusedAdamW : public QObject {
  Q_OBJECT
 private slots:
  void matchesLibTorchAdamW() {
    auto ref = make_problem(), fused = make_problem();
    torch::optim::AdamW ref_opt(groups(ref), torch::optim::AdamWOptions(1e-3));
    FusedAdamW fused_opt(groups(fused), torch::optim::AdamWOptions(1e-3));
    run_steps(ref_opt, ref, 0, 50);
    run_steps(fused_opt, fused, 0, 50);
    const double rel = max_rel(fused, ref);
    QVERIFY2(rel < 1e-5, qPrintable(QString("max relative difference %1").arg(rel)));
    // The parameters really moved, so the comparison is not of two untouched copies.
    auto start = make_problem();
    QVERIFY(max_rel(fused, start) > 1e-2);
  }

  void nonFloatParametersTakeTheReferencePath() {
    auto ref = make_problem(torch::kDouble), fused = make_problem(torch::kDouble);
    torch::optim::AdamW ref_opt(groups(ref), torch::optim::AdamWOptions(1e-3));
    FusedAdamW fused_opt(groups(fused), torch::optim::AdamWOptions(1e-3));
    run_steps(ref_opt, ref, 0, 10);
    run_steps(fused_opt, fused, 0, 10);
    for (size_t i = 0; i < ref.params.size(); ++i)
      QVERIFY(torch::equal(fused.params[i], ref.params[i]));
  }

  void checkpointsAreInterchangeable() {
    // 20 fused steps, save, load into LibTorch's AdamW, 10 more; against 30 reference steps.
    auto ref = make_problem(), resumed = make_problem();
    torch::optim::AdamW ref_opt(groups(ref), torch::optim::AdamWOptions(1e-3));
    run_steps(ref_opt, ref, 0, 30);
    FusedAdamW fused_opt(groups(resumed), torch::optim::AdamWOptions(1e-3));
    run_steps(fused_opt, resumed, 0, 20);
    std::ostringstream saved;
    torch::save(fused_opt, saved);
    torch::optim::AdamW loaded(groups(resumed), torch::optim::AdamWOptions(1e-3));
    std::istringstream in(saved.str());
    torch::load(loaded, in);
    const auto& state = static_cast<torch::optim::AdamWParamState&>(
        *loaded.state().at(optimizer_state_key(resumed.params[2])));
    QCOMPARE(state.step(), int64_t(20));
    run_steps(loaded, resumed, 20, 30);
    const double rel = max_rel(resumed, ref);
    QVERIFY2(rel < 1e-5, qPrintable(QString("max relative difference %1").arg(rel)));
  }
};

ADALA_TEST_GUILESS_MAIN(TestFusedAdamW)
}  // namespace test_fused_adamw

#include "test_fused_adamw.moc"
