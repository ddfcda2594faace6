// One training step (engine/train/training_step.h) on tiny models, against the same step
// written out with torch::optim and against AdamW's first update in closed form; loss scaling,
// a step skipped on overflowing gradients, the stops on a non-finite loss or gradient, autocast
// around the forward pass only, and the mean over the ranks of a (fake) world of two.
#include <torch/torch.h>

#include <QtTest/QtTest>

#include <cmath>
#include <limits>

#include "engine/kernels/fused_adamw.h"
#include "engine/model/numerical_health.h"
#include "engine/runtime/precision.h"
#include "engine/train/data_parallel.h"
#include "engine/train/grad_scaler.h"
#include "engine/train/gradient_health.h"
#include "engine/train/training_step.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_training_step {

using namespace adala;

namespace {

// Two transformer-like blocks ("blocks.0.weight", "blocks.1.weight", ...): GradientHealth
// counts their gradients per block.
struct TwoBlocks : torch::nn::Module {
  TwoBlocks() {
    torch::manual_seed(3);
    blocks = register_module(
        "blocks", torch::nn::ModuleList(torch::nn::Linear(3, 2), torch::nn::Linear(2, 2)));
  }
  torch::nn::Linear block(size_t i) {
    return torch::nn::Linear(blocks->ptr<torch::nn::LinearImpl>(i));
  }
  torch::Tensor forward(const torch::Tensor& x) { return block(1)(block(0)(x)); }
  torch::nn::ModuleList blocks;
};

// The fixed batch every step function below trains on.
struct Batch {
  torch::Tensor x = torch::tensor(
      {{1.0f, -2.0f, 0.5f}, {0.25f, 1.5f, -1.0f}, {-0.75f, 0.5f, 2.0f}, {2.0f, 0.0f, -0.5f}});
  torch::Tensor y = torch::tensor({{0.5f, -1.0f}, {1.0f, 0.0f}, {-0.5f, 2.0f}, {0.0f, 1.0f}});
};

StepFunction mse_step(TwoBlocks& model, const Batch& batch) {
  return [&model, batch](const at::Tensor&, int64_t) {
    StepOutput out;
    out.loss = torch::mse_loss(model.forward(batch.x), batch.y);
    return out;
  };
}

// The same parameters in a second model.
void copy_parameters(TwoBlocks& from, TwoBlocks& to) {
  torch::NoGradGuard no_grad;
  auto src = from.parameters(), dst = to.parameters();
  for (size_t i = 0; i < src.size(); ++i) dst[i].copy_(src[i]);
}

std::vector<torch::Tensor> snapshot(TwoBlocks& model) {
  std::vector<torch::Tensor> out;
  for (const auto& p : model.parameters()) out.push_back(p.detach().clone());
  return out;
}

bool bitwise_equal(const std::vector<torch::Tensor>& a, const std::vector<torch::Tensor>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!torch::equal(a[i], b[i])) return false;
  return true;
}

double grad_norm(const std::vector<torch::Tensor>& params) {
  double sum = 0.0;
  for (const auto& p : params) sum += p.grad().to(torch::kDouble).pow(2).sum().item<double>();
  return std::sqrt(sum);
}

// A world of two seen from rank 0, whose peer contributes `peer_loss` to the loss's sum and
// zeros to every gradient bucket: the mean loss is (own + peer_loss) / 2, every gradient half
// of this rank's.
class QuietPeer : public DataParallel {
 public:
  double peer_loss = 0.0;
  int reductions = 0;
  int rank() const override { return 0; }
  int world_size() const override { return 2; }
  std::string backend() const override { return "fake"; }
  void all_reduce_sum(at::Tensor& tensor) override {
    ++reductions;
    if (tensor.scalar_type() == at::kDouble) tensor.add_(peer_loss);  // average_value's
  }
  void broadcast(at::Tensor&, int) override {}
  void barrier() override {}
};

struct Fixture {
  TwoBlocks model;
  Batch batch;
  HealthProbe probe;
  GradientHealth health{model, model.parameters()};
};

}  // namespace

class TestTrainingStep : public QObject {
  Q_OBJECT

 private slots:
  // Three steps with weight decay and clipping equal, bit for bit, the same steps written out:
  // zero_grad, forward, backward, clip_grad_norm_, AdamW::step.
  void steps_equal_the_same_steps_written_with_torch_optim() {
    Fixture f;
    TwoBlocks reference;
    copy_parameters(f.model, reference);
    auto options = torch::optim::AdamWOptions(0.05).weight_decay(0.1);
    torch::optim::AdamW optimizer(f.model.parameters(), options);
    torch::optim::AdamW reference_optimizer(reference.parameters(), options);
    TrainingStep step({f.model.parameters(), optimizer, nullptr, f.health, c10::kCPU,
                       Precision::FP32, 0.01, nullptr});
    for (int64_t s = 0; s < 3; ++s) {
      const StepResult r = step.run(mse_step(f.model, f.batch), torch::arange(4), s, f.probe);

      reference_optimizer.zero_grad();
      auto loss = torch::mse_loss(reference.forward(f.batch.x), f.batch.y);
      loss.backward();
      const double norm_before_clip = grad_norm(reference.parameters());
      torch::nn::utils::clip_grad_norm_(reference.parameters(), 0.01);
      reference_optimizer.step();

      QCOMPARE(int(r.outcome), int(StepOutcome::Taken));
      QVERIFY(!r.stopped());
      // The same ops on bit-identical parameters (copied, and equal after every step): same bits.
      ADALA_COMPARE_EXACT(r.loss, loss.item<double>());
      QVERIFY(bitwise_equal(snapshot(f.model), snapshot(reference)));
      QVERIFY(r.grad_nonfinite == (std::map<int64_t, double>{{0, 0.0}, {1, 0.0}}));
      ADALA_COMPARE_EXACT(r.allreduce_seconds, 0.0);  // no parallel: the 0.0 returned, no timing
      // The clip was active, and the step's gradients are the clipped ones.
      QVERIFY(norm_before_clip > 0.01);
      QVERIFY(std::abs(grad_norm(f.model.parameters()) - 0.01) < 1e-6);
    }
  }

  // AdamW's first update in closed form (bias-corrected moments m = g, v = g²):
  // p1 = p0 (1 - lr wd) - lr g / (|g| + eps), with g the MSE gradient of a linear layer,
  // dL/dW = 2/(N·O) (W x + b - y)ᵀ x, computed in double. The step runs FusedAdamW, the
  // optimiser the loop builds (engine/train/training_loop.cpp).
  void first_adamw_update_matches_its_closed_form() {
    Fixture f;
    auto layer = f.model.block(0);
    const torch::Tensor y = torch::tensor({{1.0, 0.0}, {0.0, 1.0}, {-1.0, 0.5}, {0.5, -0.5}});
    const double lr = 0.01, wd = 0.05, eps = 1e-8;
    const auto w0 = layer->weight.detach().to(torch::kDouble).clone();
    const auto b0 = layer->bias.detach().to(torch::kDouble).clone();
    FusedAdamW optimizer(layer->parameters(),
                         torch::optim::AdamWOptions(lr).weight_decay(wd).eps(eps));
    GradientHealth health(f.model, layer->parameters());
    TrainingStep step({layer->parameters(), optimizer, nullptr, health, c10::kCPU, Precision::FP32,
                       0.0, nullptr});
    const StepResult r = step.run(
        [&](const at::Tensor&, int64_t) {
          StepOutput out;
          out.loss = torch::mse_loss(layer(f.batch.x), y.to(torch::kFloat));
          return out;
        },
        torch::arange(4), 0, f.probe);

    const auto x = f.batch.x.to(torch::kDouble);
    const auto residual = torch::matmul(x, w0.t()) + b0 - y;  // (N, O)
    const double n = double(residual.numel());
    QVERIFY(std::abs(r.loss - residual.pow(2).sum().item<double>() / n) < 1e-6);
    const auto gw = torch::matmul(residual.t(), x) * (2.0 / n);
    const auto gb = residual.sum(0) * (2.0 / n);
    auto adamw = [&](const torch::Tensor& p, const torch::Tensor& g) {
      return p * (1.0 - lr * wd) - lr * g / (g.abs() + eps);
    };
    QVERIFY(torch::allclose(layer->weight.to(torch::kDouble), adamw(w0, gw), 0.0, 1e-7));
    QVERIFY(torch::allclose(layer->bias.to(torch::kDouble), adamw(b0, gb), 0.0, 1e-7));
    // Every entry moved by about lr: the closed form is not trivially met.
    QVERIFY(((layer->weight.to(torch::kDouble) - w0).abs() - lr).abs().max().item<double>() < 1e-3);
  }

  // A power-of-two scale is exact both ways: the scaled step's parameters equal the unscaled
  // step's bit for bit, and with growth_interval 1 each finite step doubles the scale.
  void scaled_loss_gives_the_unscaled_update() {
    Fixture scaled, plain;
    copy_parameters(scaled.model, plain.model);
    torch::optim::SGD opt_scaled(scaled.model.parameters(), torch::optim::SGDOptions(0.1));
    torch::optim::SGD opt_plain(plain.model.parameters(), torch::optim::SGDOptions(0.1));
    GradScaler scaler(GradScalerOptions{1024.0, 2.0, 0.5, 1}, c10::kCPU);
    TrainingStep with_scaler({scaled.model.parameters(), opt_scaled, &scaler, scaled.health,
                              c10::kCPU, Precision::FP32, 0.0, nullptr});
    TrainingStep without({plain.model.parameters(), opt_plain, nullptr, plain.health, c10::kCPU,
                          Precision::FP32, 0.0, nullptr});
    for (int64_t s = 0; s < 2; ++s) {
      const StepResult a =
          with_scaler.run(mse_step(scaled.model, scaled.batch), {}, s, scaled.probe);
      const StepResult b = without.run(mse_step(plain.model, plain.batch), {}, s, plain.probe);
      QCOMPARE(int(a.outcome), int(StepOutcome::Taken));
      // The unscaled loss: the same forward of bit-identical models on the same batch.
      ADALA_COMPARE_EXACT(a.loss, b.loss);
      QVERIFY(bitwise_equal(snapshot(scaled.model), snapshot(plain.model)));
    }
    ADALA_COMPARE_EXACT(scaler.scale_value(), 4096.0);  // 1024 doubled twice: exact in float
  }

  // An infinite gradient in block 1 (d sqrt(w)/dw at w = 0) under loss scaling: the step is
  // skipped (no parameter moves, the optimiser keeps no state), the scale backs off from 8 to 4,
  // and the result names block 1 and the scale the loss had.
  void overflowing_gradients_skip_the_step_and_back_off() {
    Fixture f;
    f.model.block(1)->weight.detach().zero_();
    torch::optim::AdamW optimizer(f.model.parameters(), torch::optim::AdamWOptions(0.1));
    GradScaler scaler(GradScalerOptions{8.0, 2.0, 0.5, 100}, c10::kCPU);
    TrainingStep step({f.model.parameters(), optimizer, &scaler, f.health, c10::kCPU,
                       Precision::FP32, 1.0, nullptr});
    const auto before = snapshot(f.model);
    const StepResult r = step.run(
        [&](const at::Tensor&, int64_t) {
          StepOutput out;
          out.loss = torch::mse_loss(f.model.forward(f.batch.x), f.batch.y) +
                     f.model.block(1)->weight.sqrt().sum();
          return out;
        },
        {}, 0, f.probe);
    QCOMPARE(int(r.outcome), int(StepOutcome::SkippedByScaler));
    QVERIFY(!r.stopped());
    QVERIFY(std::isfinite(r.loss));
    // Powers of two: 8 backed off by 0.5, exact in float.
    ADALA_COMPARE_EXACT(r.loss_scale, 8.0);
    ADALA_COMPARE_EXACT(scaler.scale_value(), 4.0);
    QVERIFY(r.grad_nonfinite == (std::map<int64_t, double>{{0, 0.0}, {1, 4.0}}));
    QCOMPARE(r.where.block, int64_t(1));
    QCOMPARE(QString::fromStdString(r.where.what), QString("gradients of its trained parameters"));
    QVERIFY(bitwise_equal(snapshot(f.model), before));
    QVERIFY(optimizer.state().empty());
  }

  // The same gradient without loss scaling stops the step before the optimiser.
  void nonfinite_gradient_without_scaling_stops_before_the_update() {
    Fixture f;
    f.model.block(1)->weight.detach().zero_();
    torch::optim::AdamW optimizer(f.model.parameters(), torch::optim::AdamWOptions(0.1));
    TrainingStep step({f.model.parameters(), optimizer, nullptr, f.health, c10::kCPU,
                       Precision::FP32, 1.0, nullptr});
    const auto before = snapshot(f.model);
    const StepResult r = step.run(
        [&](const at::Tensor&, int64_t) {
          StepOutput out;
          out.loss = f.model.block(1)->weight.sqrt().sum();
          return out;
        },
        {}, 0, f.probe);
    QCOMPARE(int(r.outcome), int(StepOutcome::NonFiniteGradients));
    QVERIFY(r.stopped());
    QCOMPARE(QString::fromStdString(r.problem), QString("4 gradient values are not finite"));
    QCOMPARE(r.where.block, int64_t(1));
    QCOMPARE(QString::fromStdString(r.where.what), QString("gradients of its trained parameters"));
    QVERIFY(bitwise_equal(snapshot(f.model), before));
    QVERIFY(optimizer.state().empty());
  }

  // A NaN loss stops the step before backward: no gradient is computed, nothing moves.
  void nonfinite_loss_stops_before_backward() {
    Fixture f;
    torch::optim::AdamW optimizer(f.model.parameters(), torch::optim::AdamWOptions(0.1));
    TrainingStep step({f.model.parameters(), optimizer, nullptr, f.health, c10::kCPU,
                       Precision::FP32, 1.0, nullptr});
    const auto before = snapshot(f.model);
    const StepResult r = step.run(
        [&](const at::Tensor&, int64_t) {
          StepOutput out;
          out.loss = torch::mse_loss(f.model.forward(f.batch.x), f.batch.y) *
                     std::numeric_limits<double>::quiet_NaN();
          out.extra["seen"] = 1.0;
          return out;
        },
        {}, 0, f.probe);
    QCOMPARE(int(r.outcome), int(StepOutcome::NonFiniteLoss));
    QVERIFY(r.stopped());
    QCOMPARE(QString::fromStdString(r.problem), QString("the loss is nan"));
    QVERIFY(r.where.what.empty());  // no linear-attention block reported to the probe
    QVERIFY(r.grad_nonfinite.empty());
    ADALA_COMPARE_EXACT(r.output.extra.at("seen"), 1.0);  // the step function's value, copied
    for (const auto& p : f.model.parameters()) QVERIFY(!p.grad().defined());
    QVERIFY(bitwise_equal(snapshot(f.model), before));
  }

  // The forward pass runs under bf16 autocast with the probe installed; backward (seen from a
  // gradient hook) and everything after the step run without either.
  void forward_alone_runs_under_autocast_and_the_probe() {
    Fixture f;
    torch::optim::SGD optimizer(f.model.parameters(), torch::optim::SGDOptions(0.1));
    TrainingStep step({f.model.parameters(), optimizer, nullptr, f.health, c10::kCPU,
                       Precision::BF16, 0.0, nullptr});
    bool forward_autocast = false, backward_autocast = true, hook_ran = false;
    HealthProbe* forward_probe = nullptr;
    torch::Dtype output_type = torch::kFloat;
    const StepResult r = step.run(
        [&](const at::Tensor&, int64_t) {
          forward_autocast = autocast_enabled(c10::DeviceType::CPU);
          forward_probe = HealthProbe::current();
          auto y = f.model.forward(f.batch.x);
          output_type = y.scalar_type();
          y.register_hook([&](const torch::Tensor&) {
            hook_ran = true;
            backward_autocast = autocast_enabled(c10::DeviceType::CPU);
          });
          StepOutput out;
          out.loss = torch::mse_loss(y.to(torch::kFloat), f.batch.y);
          return out;
        },
        {}, 0, f.probe);
    QCOMPARE(int(r.outcome), int(StepOutcome::Taken));
    QVERIFY(forward_autocast);
    QVERIFY(output_type == torch::kBFloat16);
    QCOMPARE(forward_probe, &f.probe);
    QVERIFY(hook_ran);
    QVERIFY(!backward_autocast);
    QVERIFY(!autocast_enabled(c10::DeviceType::CPU));
    QCOMPARE(HealthProbe::current(), static_cast<HealthProbe*>(nullptr));
  }

  // With data parallelism the step's loss and gradients are the mean over the ranks, before the
  // update: with a peer contributing zeros, SGD (lr 1) moves by exactly half this rank's
  // gradient, in two collectives (the loss, one gradient bucket).
  void ranks_average_loss_and_gradients_before_the_update() {
    Fixture f, alone;
    copy_parameters(f.model, alone.model);
    QuietPeer peer;
    torch::optim::SGD optimizer(f.model.parameters(), torch::optim::SGDOptions(1.0));
    torch::optim::SGD alone_optimizer(alone.model.parameters(), torch::optim::SGDOptions(1.0));
    TrainingStep step({f.model.parameters(), optimizer, nullptr, f.health, c10::kCPU,
                       Precision::FP32, 0.0, &peer});
    TrainingStep one_process({alone.model.parameters(), alone_optimizer, nullptr, alone.health,
                              c10::kCPU, Precision::FP32, 0.0, nullptr});
    const auto before = snapshot(f.model);
    const StepResult r = step.run(mse_step(f.model, f.batch), {}, 0, f.probe);
    const StepResult own = one_process.run(mse_step(alone.model, alone.batch), {}, 0, alone.probe);
    QCOMPARE(int(r.outcome), int(StepOutcome::Taken));
    QCOMPARE(peer.reductions, 2);
    // (own + the peer's 0.0) / 2 in double: an exact halving of the same forward's loss.
    ADALA_COMPARE_EXACT(r.loss, own.loss / 2);
    QVERIFY(r.allreduce_seconds >= 0.0);
    const auto after = snapshot(f.model);
    const auto params = alone.model.parameters();
    for (size_t i = 0; i < before.size(); ++i)
      QVERIFY(torch::equal(after[i], before[i] - params[i].grad() / 2));

    // A peer whose loss is infinite stops this rank too, before backward.
    peer.peer_loss = std::numeric_limits<double>::infinity();
    const StepResult stopped = step.run(mse_step(f.model, f.batch), {}, 1, f.probe);
    QCOMPARE(int(stopped.outcome), int(StepOutcome::NonFiniteLoss));
    QCOMPARE(QString::fromStdString(stopped.problem), QString("the loss is inf"));
    QCOMPARE(peer.reductions, 3);
    QVERIFY(bitwise_equal(snapshot(f.model), after));
  }
};

ADALA_TEST_GUILESS_MAIN(TestTrainingStep)
}  // namespace test_training_step

#include "test_training_step.moc"
