// The stages on a micro ViT and synthetic images: gradient masks, overfitting, exact zeros,
// resume determinism and cancellation.
#include <torch/torch.h>

#include <QtTest/QtTest>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/train/stage_catalog.h"
#include "engine/train/stage_checkpoint.h"
#include "engine/train/stages.h"
#include "engine/train/step_profiler.h"
#include "tests/support/cancel_after_sink.h"
#include "tests/support/test_dirs.h"
#include "tests/support/micro_config.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_stages {

using namespace adala;

namespace {

ExperimentConfig micro_config() { return adala_test::micro_experiment_config(12); }

std::string fresh_dir(const std::string& name) {
  return adala_test::fresh_test_dir("stages", name);
}

std::vector<double> losses(const RecordingSink& sink, const std::string& stage) {
  std::vector<double> out;
  for (const auto& m : sink.steps(stage)) out.push_back(m.loss);
  return out;
}

}  // namespace

class TestStages : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { torch::manual_seed(0); }

  void stage1_gradients_reach_only_linear_attention() {
    VisionTransformer teacher(vit_preset("fmnist_micro"));
    auto before = clone_model(teacher, torch::kCPU);
    auto out = AttentionAlignmentStage::loss(teacher, torch::rand({4, 1, 28, 28}));
    QCOMPARE(out.per_block_mse.size(), size_t(teacher->depth()));
    out.loss.backward();
    int with_grad = 0;
    for (const auto& p : teacher->named_parameters()) {
      const bool linear = p.key().find(".attn.linear.") != std::string::npos;
      const bool grad =
          p.value().grad().defined() && p.value().grad().abs().sum().item<double>() > 0;
      QVERIFY2(linear == grad, qPrintable(QString::fromStdString(p.key())));
      with_grad += grad;
    }
    QCOMPARE(with_grad, int(teacher->depth() * 4));  // qkv.{weight,bias}, proj.{weight,bias}
    // And a full Stage-1 run leaves every teacher tensor bit-identical.
    ExperimentConfig c = micro_config();
    NullSink sink;
    JobControl control;
    StageContext ctx{c, torch::kCPU, sink, control, ""};
    AttentionAlignmentStage(ctx).run(teacher, torch::rand({32, 1, 28, 28}));
    auto ref = before->named_parameters();
    int changed = 0;
    for (const auto& p : teacher->named_parameters()) {
      const bool same = torch::equal(p.value(), ref[p.key()]);
      if (p.key().find(".attn.linear.") == std::string::npos)
        QVERIFY2(same, qPrintable(QString::fromStdString(p.key())));
      else
        changed += !same;
    }
    QVERIFY(changed > 0);
  }

  void per_block_mse_is_each_blocks_mse() {
    // Stages 1 and 2 copy all blocks' MSE to the host at once: block b's entry is its own MSE.
    VisionTransformer teacher(vit_preset("fmnist_micro"));
    auto student = clone_model(teacher, torch::kCPU);
    student->set_attention_mode(AttentionMode::Linear);
    auto batch = torch::rand({4, 1, 28, 28});
    auto stage1 = AttentionAlignmentStage::loss(teacher, batch);
    auto stage2 = FeatureAlignmentStage::loss(teacher, student, batch);
    torch::NoGradGuard no_grad;
    auto close = [](double a, double b) { return std::abs(a - b) <= 1e-5 * std::abs(b); };
    auto x = teacher->prepare_tokens(batch);
    double sum = 0;
    QCOMPARE(stage1.per_block_mse.size(), size_t(teacher->depth()));
    for (int64_t b = 0; b < teacher->depth(); ++b) {
      auto r = teacher->block(b)->forward_alignment(x);
      const double mse = torch::mse_loss(r.linear_attn, r.softmax_attn).item<double>();
      QVERIFY2(mse > 0 && close(stage1.per_block_mse[size_t(b)], mse),
               qPrintable(QString::number(b)));
      sum += mse;
      x = r.next;
    }
    QVERIFY(close(stage1.loss.item<double>(), sum / double(teacher->depth())));
    auto target = teacher->hidden_states(batch), states = student->hidden_states(batch);
    QCOMPARE(stage2.per_block_mse.size(), states.size() - 1);
    for (size_t b = 1; b < states.size(); ++b) {
      const double mse = torch::mse_loss(states[b], target[b]).item<double>();
      QVERIFY2(close(stage2.per_block_mse[b - 1], mse), qPrintable(QString::number(b)));
    }
  }

  void stage1_overfits_a_small_batch() {
    VisionTransformer teacher(vit_preset("fmnist_micro"));
    {
      // Peaky softmax attention with outputs of unit scale (a fresh init gives ~1e-9 MSE),
      // and a linear branch pushed away from it, so there is something to learn.
      torch::NoGradGuard g;
      for (int64_t b = 0; b < teacher->depth(); ++b) {
        auto attn = teacher->block(b)->attn;
        attn->qkv->weight.mul_(20.0);
        attn->proj->weight.mul_(20.0);
        attn->init_linear_from_softmax();
        attn->linear->qkv->weight.add_(torch::randn_like(attn->linear->qkv->weight) * 0.2);
      }
    }
    ExperimentConfig c = micro_config();
    c.attention_alignment.max_steps = 150;
    c.attention_alignment.batch_size = 16;
    c.attention_alignment.lr = 3e-3;
    RecordingSink sink;
    JobControl control;
    StageContext ctx{c, torch::kCPU, sink, control, ""};
    auto images = torch::rand({16, 1, 28, 28});
    const double initial = AttentionAlignmentStage::loss(teacher, images).loss.item<double>();
    AttentionAlignmentStage(ctx).run(teacher, images);
    const double final_loss = AttentionAlignmentStage::loss(teacher, images).loss.item<double>();
    QVERIFY2(final_loss < 0.3 * initial,
             qPrintable(QString("initial %1 final %2").arg(initial).arg(final_loss)));
    QCOMPARE(sink.steps(stage_name(1)).size(), size_t(150));
  }

  void stage1_restores_requires_grad_when_cancelled() {
    ExperimentConfig c = micro_config();
    VisionTransformer teacher(c.model);
    teacher->pos_embed.set_requires_grad(false);  // a caller's own choice survives the stage
    JobControl control;
    adala_test::CancelAfterSink sink(control, 2);
    StageContext ctx{c, torch::kCPU, sink, control, ""};
    bool cancelled = false;
    try {
      AttentionAlignmentStage(ctx).run(teacher, torch::rand({32, 1, 28, 28}));
    } catch (const JobCancelled&) {
      cancelled = true;
    }
    QVERIFY(cancelled);
    for (const auto& p : teacher->named_parameters())
      QVERIFY2(p.value().requires_grad() == (p.key() != "pos_embed"),
               qPrintable(QString::fromStdString(p.key())));
  }

  void stage2_teacher_against_itself_is_exactly_zero() {
    VisionTransformer teacher(vit_preset("fmnist_micro"));
    auto student = clone_model(teacher, torch::kCPU);
    auto out = FeatureAlignmentStage::loss(teacher, student, torch::rand({4, 1, 28, 28}));
    // Not bit for bit: the frozen teacher's softmax runs softmax_attention_heads (no autograd),
    // the student's LibTorch's. Identical weights, so features of about unit scale that differ by
    // float32 rounding (<= ~1e-6 each), an MSE <= ~1e-12; any real mismatch is far above 1e-10.
    ADALA_COMPARE_NEAR(out.loss.item<double>(), 0.0, 1e-10);
    for (double v : out.per_block_mse) ADALA_COMPARE_NEAR(v, 0.0, 1e-10);
    // The linear student is not the teacher: the loss is positive and reaches all of it.
    student->set_attention_mode(AttentionMode::Linear);
    auto lin = FeatureAlignmentStage::loss(teacher, student, torch::rand({4, 1, 28, 28}));
    QVERIFY(lin.loss.item<double>() > 0.0);
    lin.loss.backward();
    QVERIFY(student->blocks->ptr(0)->named_parameters()["mlp.fc1.weight"].grad().defined());
    QVERIFY(student->named_parameters()["patch_embed.proj.weight"].grad().defined());
    QVERIFY(!teacher->named_parameters()["patch_embed.proj.weight"].grad().defined());
  }

  void stage2_aligns_the_listed_blocks_through_the_final_norm() {
    torch::manual_seed(5);
    VisionTransformer teacher(vit_preset("fmnist_micro"));
    auto student = clone_model(teacher, torch::kCPU);
    student->set_attention_mode(AttentionMode::Linear);
    {
      // A freshly initialised student differs from its teacher by float noise alone: move it.
      torch::NoGradGuard no_grad;
      for (auto& p : student->parameters()) p.add_(torch::randn_like(p) * 0.05);
    }
    const int64_t depth = teacher->depth();
    QVERIFY(depth >= 2);
    auto batch = torch::rand({4, 1, 28, 28});
    // Reference: walk the blocks by hand, each output through the final norm.
    std::vector<double> normed_mse;
    {
      torch::NoGradGuard no_grad;
      auto t = teacher->prepare_tokens(batch), s = student->prepare_tokens(batch);
      teacher->set_attention_mode(AttentionMode::Softmax);
      for (int64_t b = 0; b < depth; ++b) {
        t = teacher->block(b)->forward(t);
        s = student->block(b)->forward(s);
        normed_mse.push_back(
            torch::mse_loss(student->norm->forward(s), teacher->norm->forward(t)).item<double>());
      }
    }
    auto close = [](double a, double b) { return std::abs(a - b) <= 1e-5 * std::abs(b); };
    const double last = FeatureAlignmentStage::loss(teacher, student, batch).loss.item<double>();
    QVERIFY2(close(last, normed_mse.back()), qPrintable(QString::number(last)));
    const double listed_last =
        FeatureAlignmentStage::loss(teacher, student, batch, {depth}).loss.item<double>();
    ADALA_COMPARE_EXACT(listed_last, last);  // {depth} is the default: the same computation
    const double both =
        FeatureAlignmentStage::loss(teacher, student, batch, {1, depth}).loss.item<double>();
    QVERIFY2(close(both, (normed_mse.front() + normed_mse.back()) / 2),
             qPrintable(QString::number(both)));
    QVERIFY(std::abs(both - last) > 1e-3 * last);
    // Aligning block 1 alone trains nothing after it.
    auto first = FeatureAlignmentStage::loss(teacher, student, batch, {1});
    QVERIFY(close(first.loss.item<double>(), normed_mse.front()));
    first.loss.backward();
    auto params = student->named_parameters();
    QVERIFY(params["blocks.0.mlp.fc1.weight"].grad().defined());
    const auto later = params["blocks." + std::to_string(depth - 1) + ".mlp.fc1.weight"].grad();
    // Exactly zero: nothing after block 1 reaches the loss (no gradient, or an all-zero one).
    if (later.defined()) ADALA_COMPARE_EXACT(later.abs().sum().item<double>(), 0.0);
  }

  void resume_gives_the_same_next_loss() {
    auto images = torch::rand({64, 1, 28, 28});
    ExperimentConfig c = micro_config();
    c.feature_alignment.max_steps = 10;
    auto run = [&](const std::string& dir, int64_t cancel_after, RecordingSink& sink) {
      torch::manual_seed(3);
      VisionTransformer teacher(c.model);
      VisionTransformer student = clone_model(teacher, torch::kCPU);
      JobControl control;
      adala_test::CancelAfterSink cancel(control, cancel_after);
      EventSink& target = cancel_after > 0 ? static_cast<EventSink&>(cancel) : sink;
      StageContext ctx{c, torch::kCPU, target, control, dir};
      try {
        FeatureAlignmentStage(ctx).run(teacher, student, images);
      } catch (const JobCancelled&) {
        for (const auto& e : cancel.events()) sink.on_event(e);
        return false;
      }
      return true;
    };
    RecordingSink straight, first, second;
    QVERIFY(run(fresh_dir("resume_straight"), 0, straight));
    const std::string dir = fresh_dir("resume_split");
    QVERIFY(!run(dir, 4, first));  // cancelled after step 4, checkpoint written at step 4
    QCOMPARE(checkpoint_step(dir + "/checkpoints/feature_alignment.pt"), int64_t(4));
    QVERIFY(run(dir, 0, second));
    auto a = losses(straight, stage_name(2)), b = losses(first, stage_name(2)),
         r = losses(second, stage_name(2));
    QCOMPARE(a.size(), size_t(10));
    QCOMPARE(b.size(), size_t(4));
    QCOMPARE(r.size(), size_t(6));
    QCOMPARE(second.steps(stage_name(2)).front().step, int64_t(5));
    // The same seed, data and steps in one process; the resumed run restores the weights and the
    // optimiser state bit for bit from the checkpoint: a bit-identical continuation.
    for (size_t i = 0; i < 4; ++i) ADALA_COMPARE_EXACT(b[i], a[i]);
    for (size_t i = 0; i < 6; ++i) ADALA_COMPARE_EXACT(r[i], a[4 + i]);
  }

  void cancellation_leaves_a_loadable_checkpoint() {
    ExperimentConfig c = micro_config();
    c.teacher.max_steps = 50;
    const std::string dir = fresh_dir("cancel");
    VisionTransformer model(c.model);
    JobControl control;
    adala_test::CancelAfterSink sink(control, 3);
    StageContext ctx{c, torch::kCPU, sink, control, dir};
    ImageDataset data{torch::rand({40, 1, 28, 28}), torch::randint(0, 10, {40})};
    bool cancelled = false;
    try {
      TeacherPretrainingStage(ctx).run(model, data);
    } catch (const JobCancelled& e) {
      cancelled = true;
      QCOMPARE(QString::fromStdString(e.stage()), QString(stage_name(0)));
    }
    QVERIFY(cancelled);
    bool saw_cancel_event = false;
    for (const auto& e : sink.events())
      if (const auto* s = std::get_if<StageEvent>(&e))
        saw_cancel_event |= s->kind == StageEvent::Kind::Cancelled;
    QVERIFY(saw_cancel_event);
    VisionTransformer restored(c.model);
    QCOMPARE(load_checkpoint_weights(dir + "/checkpoints/teacher.pt", *restored), int64_t(3));
    auto x = torch::rand({2, 1, 28, 28});
    torch::NoGradGuard g;
    model->eval();
    restored->eval();
    QVERIFY(torch::equal(restored->forward(x), model->forward(x)));
  }

  // A NaN loss at step 6 (checkpoints every 2 steps): the stage fails naming itself and the
  // step, the parameters keep their step-5 values, which are checkpointed (the last good step).
  void non_finite_loss_stops_the_stage_and_keeps_the_checkpoint() {
    const std::string dir = fresh_dir("nonfinite");
    StageConfig config = micro_config().teacher;
    config.checkpoint_every = 2;
    torch::nn::Linear model(3, 1);
    TrainingLoopSpec spec{"teacher", config, 32, 1, dir + "/checkpoints/teacher.pt"};
    RecordingSink sink;
    JobControl control;
    TrainingLoop loop(spec, *model, model->parameters(), sink, control);
    at::Tensor weights_before_bad_step;
    const auto x = torch::rand({8, 3});
    try {
      loop.run([&](const at::Tensor&, int64_t step) {
        StepOutput out;
        out.loss = model->forward(x).pow(2).mean();
        if (step == 5) {
          weights_before_bad_step = model->weight.detach().clone();
          out.loss = out.loss * std::numeric_limits<double>::quiet_NaN();
        }
        return out;
      });
      QFAIL("a NaN loss did not stop the stage");
    } catch (const NonFiniteLossError& e) {
      QCOMPARE(QString(e.what()),
               QString::fromStdString("stage teacher: the loss is nan at step 6 of 12; training "
                                      "stopped (the last good step (5) is checkpointed in " +
                                      spec.checkpoint_path +
                                      "; --resume continues from it; a lower learning rate, "
                                      "another precision or finite input weights may help)"));
    }
    QVERIFY(torch::equal(model->weight, weights_before_bad_step));
    QCOMPARE(checkpoint_step(spec.checkpoint_path), int64_t(5));
    bool failed_event = false;
    for (const auto& e : sink.events())
      if (const auto* s = std::get_if<StageEvent>(&e))
        failed_event |= s->kind == StageEvent::Kind::Failed && s->stage == "teacher" &&
                        s->message.find("step 6") != std::string::npos;
    QVERIFY(failed_event);
    QCOMPARE(sink.steps("teacher").size(), size_t(5));
  }

  void step_profiler_counts_phases_and_operators() {
    // Steps 0-4; the window is steps 1-3: four 64x64 products a step inside a named phase.
    StepProfiler profiler("teacher", 1, 3);
    auto a = torch::randn({64, 64});
    bool done = false;
    for (int64_t step = 0; step < 5; ++step) {
      profiler.before_step(step);
      {
        RECORD_USER_SCOPE("stage 9: known work");
        for (int i = 0; i < 4; ++i) a = torch::mm(a, a).tanh();
      }
      const bool ended = profiler.after_step(step);
      QCOMPARE(ended, step == 3);
      done |= ended;
    }
    QVERIFY(done);
    const StepProfile& p = profiler.result();
    QCOMPARE(p.first_step, int64_t(2));
    QCOMPARE(p.steps, int64_t(3));
    QCOMPARE(p.phases.size(), size_t(1));
    QCOMPARE(QString::fromStdString(p.phases[0].name), QString("stage 9: known work"));
    // 3 calls x the rounded 1 / 3: within an ulp of 1, a miscount is off by >= 1/3.
    ADALA_COMPARE_NEAR(p.phases[0].calls_per_step, 1.0, 1e-12);
    double mm_calls = 0, tanh_calls = 0, self_sum = 0;
    for (const auto& op : p.operators) {
      if (op.name == "aten::mm") mm_calls = op.calls_per_step;
      if (op.name == "aten::tanh") tanh_calls = op.calls_per_step;
      QVERIFY2(op.ms_per_step >= 0, op.name.c_str());
      self_sum += op.ms_per_step;
    }
    // calls x the rounded 1 / steps (3): within an ulp of the count, a miscount is off by >= 1/3.
    ADALA_COMPARE_NEAR(mm_calls, 4.0, 1e-12);
    ADALA_COMPARE_NEAR(tanh_calls, 4.0, 1e-12);
    // Self times add up to no more than the phase around them, which is within the wall time.
    QVERIFY2(self_sum <= p.phases[0].ms_per_step * 1.0001 + 1e-6,
             qPrintable(QString("%1 > %2").arg(self_sum).arg(p.phases[0].ms_per_step)));
    QVERIFY(p.phases[0].ms_per_step <= p.wall_ms_per_step * 1.0001 + 1e-6);
    const std::string table = format_step_profile(p);
    QVERIFY2(table.find("| └ stage 9: known work |") != std::string::npos, table.c_str());
    QVERIFY2(table.find("| aten::mm | 4 |") != std::string::npos, table.c_str());
    QVERIFY_EXCEPTION_THROWN(StepProfiler("x", 0, 0), std::invalid_argument);
  }

  void training_loop_writes_the_profile_of_its_steps() {
    const std::string dir = fresh_dir("profile");
    std::filesystem::create_directories(dir);
    StageConfig config = micro_config().teacher;
    torch::nn::Linear model(3, 1);
    TrainingLoopSpec spec{"teacher", config, 32, 1, ""};
    spec.profile_steps = 2;
    spec.profile_path = dir + "/profile-teacher.md";
    RecordingSink sink;
    JobControl control;
    TrainingLoop loop(spec, *model, model->parameters(), sink, control);
    const auto x = torch::rand({8, 3});
    loop.run([&](const at::Tensor&, int64_t) {
      StepOutput out;
      out.loss = model->forward(x).pow(2).mean();
      return out;
    });
    std::ifstream in(spec.profile_path);
    QVERIFY2(in.good(), spec.profile_path.c_str());
    std::stringstream text;
    text << in.rdbuf();
    const std::string table = text.str();
    for (const char* row : {"steps 2-3 (2 profiled)", "| step: forward + loss |",
                            "| step: backward |", "| step: clip + optimiser |", "aten::addmm"})
      QVERIFY2(table.find(row) != std::string::npos, (std::string(row) + " in\n" + table).c_str());
    bool logged = false;
    for (const auto& e : sink.events())
      if (const auto* log = std::get_if<LogEvent>(&e))
        logged |= log->message.find("profile of stage teacher (also in " + spec.profile_path) == 0;
    QVERIFY(logged);
  }

  void teacher_learns_a_separable_task() {
    // Labels depend on which image half is bright: a few dozen steps must get it right.
    ExperimentConfig c = micro_config();
    c.teacher.max_steps = 80;
    c.teacher.batch_size = 32;
    auto images = torch::rand({256, 1, 28, 28}) * 0.2;
    auto labels = torch::randint(0, 2, {256});
    for (int64_t i = 0; i < 256; ++i)
      images[i].narrow(2, labels[i].item<int64_t>() * 14, 14).add_(0.8);
    ImageDataset data{images, labels};
    VisionTransformer model(c.model);
    NullSink sink;
    JobControl control;
    StageContext ctx{c, torch::kCPU, sink, control, ""};
    TeacherPretrainingStage(ctx).run(model, data);
    QVERIFY(evaluate_top1(model, data, torch::kCPU) > 0.95);
  }
};

ADALA_TEST_GUILESS_MAIN(TestStages)
}  // namespace test_stages

#include "test_stages.moc"
