// Mixed precision and numerical health: bf16 autocast with float32 linear attention, the
// dynamic loss scaler (CPU arithmetic, and CUDA's kernels where a GPU is present), the
// numerical-health probe on a block whose normaliser is driven to zero on purpose, and a
// non-finite loss that names its block and leaves a resumable checkpoint of the last good step.
#include <torch/torch.h>

#include <ATen/autocast_mode.h>
#include <QtTest/QtTest>

#include <filesystem>
#include <functional>
#include <limits>

#include "engine/kernels/attention_ops.h"
#include "engine/model/numerical_health.h"
#include "engine/runtime/precision.h"
#include "engine/json/json.h"
#include "engine/train/config/experiment_config.h"
#include "engine/train/grad_scaler.h"
#include "engine/train/run_preflight.h"
#include "engine/model/linear_eps_scope.h"
#include "engine/train/stage_checkpoint.h"
#include "engine/train/stages.h"
#include "engine/train/training_loop.h"
#include "tests/support/test_dirs.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_mixed_precision {

using namespace adala;

namespace {

std::string fresh_dir(const std::string& name) {
  return adala_test::fresh_test_dir("mixed-precision", name);
}

ViTConfig micro_model(int64_t depth) {
  ViTConfig m = vit_preset("fmnist_micro");
  m.depth = depth;
  return m;
}

StageConfig short_stage(int64_t steps) {
  StageConfig s;
  s.epochs = 0;
  s.max_steps = steps;
  s.batch_size = 4;
  s.lr = 1e-3;
  s.warmup_steps = 0;
  return s;
}

// Drives block `b`'s linear-attention keys to phi(k) = exp(-1e4) = 0: every normaliser of
// that block is exactly 0 (the output is 0 / eps = 0, finite, and silently wrong).
void zero_normaliser_of_block(VisionTransformer& model, int64_t b) {
  torch::NoGradGuard no_grad;
  auto la = model->block(b)->attn->linear;
  const int64_t dim = la->proj->weight.size(0);
  la->qkv->weight.narrow(0, dim, dim).zero_();
  la->qkv->bias.narrow(0, dim, dim).fill_(-1e4);
}

// The smallest normaliser phi(q) . sum_n phi(k_n) of block b for `images`, computed from the
// block's own projections with torch::elu (not the probe's code path).
double reference_min_normaliser(VisionTransformer& model, const torch::Tensor& images, int64_t b) {
  torch::NoGradGuard no_grad;
  auto states = model->hidden_states(images);
  auto block = model->block(b);
  auto h = block->attn->linear->project(block->norm1->forward(states[size_t(b)]));
  auto phi_q = torch::elu(h.q.to(torch::kDouble)) + 1,
       phi_k = torch::elu(h.k.to(torch::kDouble)) + 1;
  auto den = torch::einsum("bhnd,bhd->bhn", {phi_q, phi_k.sum(2)});
  return den.min().item<double>();
}

}  // namespace

class TestMixedPrecision : public QObject {
  Q_OBJECT

 private slots:
  void precision_names_and_eps_defaults() {
    QCOMPARE(precision_from_string("bf16"), Precision::BF16);
    QCOMPARE(QString(to_string(Precision::FP16)), QString("fp16"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, precision_from_string("fp8"));
    // The argument or the constant 1e-5 (std::max picks one of them): the same bits.
    ADALA_COMPARE_EXACT(default_linear_eps(Precision::FP32, 1e-6), 1e-6);
    ADALA_COMPARE_EXACT(default_linear_eps(Precision::BF16, 1e-6), 1e-5);
    ADALA_COMPARE_EXACT(default_linear_eps(Precision::FP16, 1e-3), 1e-3);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             check_precision_supported(Precision::FP16, torch::kCPU));
  }

  void linear_eps_scope_sets_and_restores_every_module() {
    VisionTransformer model(micro_model(3));
    model->block(1)->attn->linear->set_eps(3e-5);  // above the half-precision default
    auto eps_of = [&] {
      std::vector<double> out;
      for (const auto& m : linear_attention_modules(*model)) out.push_back(m->eps());
      return out;
    };
    const auto own = eps_of();
    QCOMPARE(int(own.size()), 3);
    {
      // Every eps is a constant or a value set, copied and restored: the same bits.
      const LinearEpsScope scope(*model, Precision::BF16);
      ADALA_COMPARE_EXACT(eps_of(), (std::vector<double>{1e-5, 3e-5, 1e-5}));
    }
    ADALA_COMPARE_EXACT(eps_of(), own);
    {
      const LinearEpsScope scope(*model, Precision::FP32);
      ADALA_COMPARE_EXACT(eps_of(), own);
    }
    {
      const LinearEpsScope scope(*model, 2e-4);
      ADALA_COMPARE_EXACT(eps_of(), (std::vector<double>{2e-4, 2e-4, 2e-4}));
      const LinearEpsScope keep(*model, 0.0);
      ADALA_COMPARE_EXACT(eps_of(), (std::vector<double>{2e-4, 2e-4, 2e-4}));
    }
    ADALA_COMPARE_EXACT(eps_of(), own);
  }

  // Under CPU bf16 autocast the projections run in bf16 and the kernel in float32: the module's
  // output equals bf16 projections + the float32 formula + a bf16 output projection.
  void linear_attention_runs_in_float32_inside_autocast() {
    torch::manual_seed(3);
    LinearAttention la(64, 4, true, 1e-6);
    auto x = torch::randn({2, 50, 64});
    torch::NoGradGuard no_grad;
    torch::Tensor out;
    {
      const AutocastScope autocast(torch::kCPU, Precision::BF16);
      QVERIFY(adala::autocast_enabled(c10::DeviceType::CPU));
      out = la->forward(x);
    }
    QVERIFY(!adala::autocast_enabled(c10::DeviceType::CPU));
    QVERIFY(out.scalar_type() == torch::kBFloat16);
    auto bf = [](const torch::Tensor& t) { return t.to(torch::kBFloat16); };
    auto qkv = torch::nn::functional::linear(bf(x), bf(la->qkv->weight), bf(la->qkv->bias));
    auto h = split_heads(qkv, 4);
    auto attn =
        linear_attention(h.q.to(torch::kFloat), h.k.to(torch::kFloat), h.v.to(torch::kFloat), 1e-6);
    auto ref = torch::nn::functional::linear(bf(merge_heads(attn)), bf(la->proj->weight),
                                             bf(la->proj->bias));
    const double rel =
        ((out.to(torch::kFloat) - ref.to(torch::kFloat)).norm() / ref.to(torch::kFloat).norm())
            .item<double>();
    QVERIFY2(rel < 1e-2, qPrintable(QString::number(rel)));
    // And the fp32 forward is within bf16's reach of it.
    auto fp32 = la->forward(x);
    const double rel32 = ((out.to(torch::kFloat) - fp32).norm() / fp32.norm()).item<double>();
    QVERIFY2(rel32 < 3e-2, qPrintable(QString::number(rel32)));
  }

  // Scale 1024, growth every 3 finite steps: an inf gradient halves the scale and is reported
  // (the caller skips); finite gradients come back divided by the scale; the third finite step
  // in a row doubles it.
  void loss_scaler_backs_off_and_grows_cpu() { check_scaler(torch::kCPU); }
  void loss_scaler_backs_off_and_grows_cuda() {
    if (!torch::cuda::is_available()) QSKIP("no CUDA device");
    check_scaler(torch::Device(torch::kCUDA));
  }

  // The loop with dynamic loss scaling: a step whose gradient is inf (and loss finite) leaves
  // the weights as they were, halves the scale, counts a skipped step in the events and the
  // final evaluation, and the scale travels with the checkpoint.
  void training_loop_skips_an_inf_gradient_step() {
    const std::string dir = fresh_dir("scaler_loop");
    StageConfig config = short_stage(6);
    config.loss_scaling = "dynamic";
    config.loss_scale_init = 256;
    config.loss_scale_growth_interval = 100;
    torch::manual_seed(1);
    torch::nn::Linear model(3, 1);
    TrainingLoopSpec spec{"teacher", config, 32, 1, dir + "/teacher.pt"};
    RecordingSink sink;
    JobControl control;
    TrainingLoop loop(spec, *model, model->parameters(), sink, control);
    const auto x = torch::rand({8, 3});
    at::Tensor before, after;
    loop.run([&](const at::Tensor&, int64_t step) {
      StepOutput out;
      out.loss = model->forward(x).pow(2).mean();
      if (step == 2) before = model->weight.detach().clone();
      if (step == 3) after = model->weight.detach().clone();
      // d sqrt(u)/du at u = 0 is inf: the loss stays finite, its gradient does not.
      if (step == 2) out.loss = out.loss + (model->bias - model->bias.detach()).sum().sqrt();
      return out;
    });
    QVERIFY(torch::equal(before, after));  // step 3 (0-based 2) was skipped
    QCOMPARE(loop.skipped_steps(), int64_t(1));
    // Powers of two (256 backed off by 0.5) and a count held in a double: exact.
    ADALA_COMPARE_EXACT(loop.grad_scaler()->scale_value(), 128.0);
    const auto steps = sink.steps("teacher");
    ADALA_COMPARE_EXACT(steps.back().extra.at("skipped_steps"), 1.0);
    ADALA_COMPARE_EXACT(steps.back().extra.at("loss_scale"), 128.0);
    ADALA_COMPARE_EXACT(steps[1].extra.at("loss_scale"), 256.0);
    bool evaluation = false;
    // Exact: the count of skipped steps held in a double.
    for (const auto& e : sink.events())
      if (const auto* m = std::get_if<EvalMetrics>(&e))
        evaluation |= m->key == "skipped_steps" && std::equal_to<double>()(m->value, 1.0);
    QVERIFY(evaluation);
    CheckpointExtras extras{{"loss_scale", torch::Tensor()}, {"skipped_steps", torch::Tensor()}};
    torch::nn::Linear restored(3, 1);
    // The loop's groups: matrices (decayed), then vectors.
    torch::optim::AdamW opt({torch::optim::OptimizerParamGroup({restored->weight}),
                             torch::optim::OptimizerParamGroup({restored->bias})});
    QCOMPARE(load_stage_checkpoint(spec.checkpoint_path, *restored, opt, &extras), int64_t(6));
    ADALA_COMPARE_EXACT(extras.at("loss_scale").item<double>(), 128.0);  // read back
    QCOMPARE(extras.at("skipped_steps").item<int64_t>(), int64_t(1));
  }

  // Block 1 of 3 has its normaliser driven to exactly zero: the probe reports 0 and a share of
  // 1 below the threshold there, the reference value and a share of 0 in the healthy blocks;
  // the loop stores the values per block and warns once naming block 1.
  void monitor_flags_a_block_with_a_zero_normaliser() {
    torch::manual_seed(5);
    VisionTransformer model(micro_model(3));
    model->set_attention_mode(AttentionMode::Linear);
    zero_normaliser_of_block(model, 1);
    auto images = torch::rand({4, 1, 28, 28});
    HealthProbe probe(1e-4);
    {
      torch::NoGradGuard no_grad;
      const HealthProbe::Scope scope(&probe);
      model->forward(images);
    }
    const auto health = probe.values();
    QCOMPARE(health.size(), size_t(3));
    // Exact by construction: block 1's keys are exactly -1e4 (zero weights, the bias), phi(k) =
    // exp(-1e4) underflows to 0 in float and double, so every normaliser is exactly 0, and the
    // share below the threshold is the mean of all ones.
    ADALA_COMPARE_EXACT(health[1].min_normaliser, 0.0);
    ADALA_COMPARE_EXACT(health[1].low_normaliser_share, 1.0);
    ADALA_COMPARE_EXACT(reference_min_normaliser(model, images, 1), 0.0);
    for (int64_t b : {0, 2}) {
      const double ref = reference_min_normaliser(model, images, b);
      QVERIFY(ref > 1e-2);
      QVERIFY2(std::abs(health[size_t(b)].min_normaliser - ref) < 1e-4 * ref,
               qPrintable(QString("%1 vs %2").arg(health[size_t(b)].min_normaliser).arg(ref)));
      ADALA_COMPARE_EXACT(health[size_t(b)].low_normaliser_share, 0.0);  // the mean of all zeros
      ADALA_COMPARE_EXACT(health[size_t(b)].attention_nonfinite, 0.0);   // a count
    }
    QVERIFY(health[2].max_abs_activation > 0);
    ADALA_COMPARE_EXACT(health[2].activation_nonfinite, 0.0);  // a count
    // Through the training loop: metrics per block and one warning naming block 1.
    RecordingSink sink;
    JobControl control;
    StageConfig config = short_stage(2);
    TrainingLoop loop(TrainingLoopSpec{"feature_alignment", config, 16, 1, ""}, *model,
                      trainable_parameters(model, false), sink, control);
    loop.run([&](const at::Tensor&, int64_t) {
      StepOutput out;
      out.loss = model->forward_features(images).pow(2).mean();
      return out;
    });
    const auto steps = sink.steps("feature_alignment");
    QCOMPARE(steps.size(), size_t(2));
    const auto& share = steps.back().per_block.at("health.low_normaliser_share");
    QCOMPARE(share.size(), size_t(3));
    // As above: shares of all or none, an exact 0 normaliser (block 1's keys stay near -1e4:
    // exp underflows to 0 and so does their gradient) and a count.
    ADALA_COMPARE_EXACT(share[1], 1.0);
    ADALA_COMPARE_EXACT(share[0], 0.0);
    ADALA_COMPARE_EXACT(steps.back().per_block.at("health.min_normaliser")[1], 0.0);
    ADALA_COMPARE_EXACT(steps.back().per_block.at("health.grad_nonfinite")[1], 0.0);
    int warnings = 0;
    for (const auto& e : sink.events())
      if (const auto* log = std::get_if<LogEvent>(&e);
          log && log->level == LogEvent::Level::Warning) {
        ++warnings;
        QVERIFY2(log->message.find("block 1: 100% of the linear-attention normalisers") !=
                     std::string::npos,
                 log->message.c_str());
      }
    QCOMPARE(warnings, 1);
  }

  // A NaN in block 2's attention at step 4: the stage stops naming block 2, checkpoints the
  // last good step (3) with the weights as they were, and a new loop resumes from it to the end.
  void nonfinite_loss_names_the_block_and_resumes() {
    const std::string dir = fresh_dir("nonfinite_block");
    torch::manual_seed(9);
    VisionTransformer model(micro_model(3));
    model->set_attention_mode(AttentionMode::Linear);
    auto images = torch::rand({4, 1, 28, 28});
    StageConfig config = short_stage(6);
    TrainingLoopSpec spec{"feature_alignment", config, 16, 1, dir + "/feature_alignment.pt"};
    auto step_fn = [&](bool poison) {
      return [&, poison](const at::Tensor&, int64_t step) {
        auto bias = model->block(2)->attn->linear->proj->bias;
        torch::Tensor saved;
        if (poison && step == 3) {
          torch::NoGradGuard no_grad;
          saved = bias.detach().clone();
          bias.index_put_({0}, std::numeric_limits<float>::quiet_NaN());
        }
        StepOutput out;
        out.loss = model->forward_features(images).pow(2).mean();
        if (saved.defined()) {
          torch::NoGradGuard no_grad;
          bias.copy_(saved);
        }
        return out;
      };
    };
    std::map<std::string, torch::Tensor> weights_at_3;
    {
      RecordingSink sink;
      JobControl control;
      TrainingLoop loop(spec, *model, trainable_parameters(model, false), sink, control);
      auto inner = step_fn(true);
      try {
        loop.run([&](const at::Tensor& i, int64_t step) {
          if (step == 3)
            for (const auto& p : model->named_parameters())
              weights_at_3[p.key()] = p.value().detach().clone();
          return inner(i, step);
        });
        QFAIL("a NaN loss did not stop the stage");
      } catch (const NonFiniteLossError& e) {
        const std::string message = e.what();
        QVERIFY2(message.find("the loss is nan at step 4 of 6") != std::string::npos, e.what());
        QVERIFY2(message.find("first non-finite values in block 2 (linear attention output") !=
                     std::string::npos,
                 e.what());
        QVERIFY2(message.find("the last good step (3) is checkpointed") != std::string::npos,
                 e.what());
      }
      bool failed = false;
      for (const auto& e : sink.events())
        if (const auto* s = std::get_if<StageEvent>(&e))
          failed |= s->kind == StageEvent::Kind::Failed &&
                    s->message.find("block 2") != std::string::npos;
      QVERIFY(failed);
    }
    QCOMPARE(checkpoint_step(spec.checkpoint_path), int64_t(3));
    VisionTransformer restored(micro_model(3));
    load_checkpoint_weights(spec.checkpoint_path, *restored);
    for (const auto& p : restored->named_parameters())
      QVERIFY2(torch::equal(p.value(), weights_at_3.at(p.key())), p.key().c_str());
    // Resume without the poison: steps 4..6 run and the stage finishes.
    RecordingSink sink;
    JobControl control;
    TrainingLoop resumed(spec, *model, trainable_parameters(model, false), sink, control);
    QCOMPARE(resumed.start_step(), int64_t(3));
    resumed.run(step_fn(false));
    QCOMPARE(sink.steps("feature_alignment").size(), size_t(3));
    QCOMPARE(checkpoint_step(spec.checkpoint_path), int64_t(6));
  }

  // bf16 training steps through the loop: the eps of every linear-attention module is the
  // half-precision default during the stage and the model's own afterwards.
  void bf16_stage_uses_the_half_precision_eps() {
    torch::manual_seed(2);
    VisionTransformer model(micro_model(2));
    model->set_attention_mode(AttentionMode::Linear);
    auto images = torch::rand({4, 1, 28, 28});
    StageConfig config = short_stage(2);
    config.precision = "bf16";
    RecordingSink sink;
    JobControl control;
    TrainingLoop loop(TrainingLoopSpec{"feature_alignment", config, 16, 1, ""}, *model,
                      trainable_parameters(model, false), sink, control);
    ADALA_COMPARE_EXACT(loop.linear_eps(), 1e-5);  // the constant kHalfPrecisionLinearEps
    std::vector<double> seen;
    std::vector<at::ScalarType> types;
    loop.run([&](const at::Tensor&, int64_t) {
      seen.push_back(model->block(0)->attn->linear->eps());
      StepOutput out;
      auto features = model->forward_features(images);
      types.push_back(
          model->block(0)->attn->linear->qkv->forward(torch::rand({1, 32})).scalar_type());
      out.loss = features.to(torch::kFloat).pow(2).mean();
      return out;
    });
    ADALA_COMPARE_EXACT(seen, (std::vector<double>{1e-5, 1e-5}));  // the constant, copied
    QVERIFY(types.front() == torch::kBFloat16);
    ADALA_COMPARE_EXACT(model->block(0)->attn->linear->eps(), 1e-6);  // the config's, restored
    QVERIFY(!adala::autocast_enabled(c10::DeviceType::CPU));
  }

  void fp16_on_cpu_is_refused_naming_the_field() {
    StageConfig config = short_stage(2);
    config.precision = "fp16";
    torch::nn::Linear model(3, 1);
    NullSink sink;
    JobControl control;
    try {
      TrainingLoop loop(TrainingLoopSpec{"fine_tuning", config, 16, 1, ""}, *model,
                        model->parameters(), sink, control);
      QFAIL("fp16 on CPU was accepted");
    } catch (const ConfigError& e) {
      QCOMPARE(QString::fromStdString(e.field()), QString("stages.fine_tuning.precision"));
    }
  }

  // "auto" on a machine without CUDA is a CPU run: fp16 is refused before the run is recorded,
  // naming the stage's field, not when the stage starts.
  void fp16_with_auto_device_on_a_cpu_is_refused_before_the_run() {
    if (torch::cuda::is_available()) QSKIP("a CUDA device takes fp16");
    const ExperimentConfig c = parse_experiment_config(parse_json_strict(
        R"({"device": "auto", "model": {"preset": "fmnist_micro"},
            "stages": {"feature_alignment": {"precision": "fp16"}}})"));
    PipelineOptions o;
    o.stages = {2};
    try {
      check_run_inputs(c, o);
      QFAIL("fp16 on a CPU run was accepted");
    } catch (const ConfigError& e) {
      QCOMPARE(QString::fromStdString(e.field()), QString("stages.feature_alignment.precision"));
    }
    o.stages = {0};  // a stage that keeps fp32 passes this check
    try {
      check_run_inputs(c, o);
    } catch (const ConfigError& e) {
      QVERIFY2(std::string(e.field()).find("precision") == std::string::npos, e.what());
    }
  }

 private:
  void check_scaler(const torch::Device& device) {
    GradScaler scaler(GradScalerOptions{1024.0, 2.0, 0.5, 3}, device);
    auto p = torch::zeros({2}, torch::TensorOptions(device).requires_grad(true));
    auto set_grad = [&](std::vector<float> g) { p.mutable_grad() = torch::tensor(g).to(device); };
    // Every scale here is a power of two (x 2, x 0.5 from 1024): exact in float on any device.
    ADALA_COMPARE_EXACT(scaler.scale(torch::tensor(2.0f).to(device)).item<double>(), 2048.0);
    set_grad({1.0f, std::numeric_limits<float>::infinity()});
    QVERIFY(scaler.unscale({p}));
    scaler.update();
    ADALA_COMPARE_EXACT(scaler.scale_value(), 512.0);
    QCOMPARE(scaler.growth_tracker(), int64_t(0));
    set_grad({1.0f, std::numeric_limits<float>::quiet_NaN()});
    QVERIFY(scaler.unscale({p}));
    scaler.update();
    ADALA_COMPARE_EXACT(scaler.scale_value(), 256.0);
    for (int i = 1; i <= 3; ++i) {
      set_grad({512.0f, -256.0f});
      QVERIFY(!scaler.unscale({p}));
      QVERIFY(torch::equal(p.grad().cpu(), torch::tensor({2.0f, -1.0f})));
      scaler.update();
      ADALA_COMPARE_EXACT(scaler.scale_value(), i < 3 ? 256.0 : 512.0);
      QCOMPARE(scaler.growth_tracker(), int64_t(i < 3 ? i : 0));
    }
    // The checkpointed state restores another scaler exactly.
    GradScaler other(GradScalerOptions{}, device);
    other.load(scaler.scale_tensor(), scaler.growth_tracker_tensor());
    ADALA_COMPARE_EXACT(other.scale_value(), 512.0);  // written and read back as a float
  }
};

ADALA_TEST_GUILESS_MAIN(TestMixedPrecision)
}  // namespace test_mixed_precision

#include "test_mixed_precision.moc"
