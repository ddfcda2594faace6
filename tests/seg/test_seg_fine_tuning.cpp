// Backbone fine-tuning for segmentation: block checkpointing gives the plain path's gradients,
// layer-wise lr decay's groups and scales, the checkpointing policy, the patch re-cut (the
// re-cut model sees an image as the original sees it average-pooled), same-pixel-scale scenes
// for the resolution sweep, probing before fine-tuning (LP-FT), and the new config fields with
// their errors.
#include <torch/torch.h>

#include <QtTest/QtTest>

#include <cmath>
#include <map>

#include "engine/data/segmentation_scenes.h"
#include "engine/model/block_checkpoint.h"
#include "engine/model/patch_recut.h"
#include "engine/seg/segmentation_stage.h"
#include "engine/seg/segmentation_sweep.h"
#include "engine/train/config/experiment_config.h"
#include "engine/train/cancellation.h"
#include "engine/train/events.h"
#include "engine/train/stages.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_seg_fine_tuning {

using namespace adala;

namespace {

std::string config_error(const std::string& segmentation) {
  try {
    parse_experiment_config(parse_json_strict(
        R"({"model": {"preset": "fmnist_tiny", "patch_size": 8, "img_size": 112}, "segmentation": )" +
        segmentation + "}"));
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

// Gradients of sum(features * weights) w.r.t. every parameter and the input, with or without
// block checkpointing.
std::map<std::string, at::Tensor> gradients(VisionTransformer& vit, const at::Tensor& images,
                                            bool checkpoint, at::Tensor* input_grad) {
  vit->zero_grad();
  auto x = images.clone().requires_grad_(true);
  auto feats = backbone_patch_features(vit, x, {2, vit->depth()}, checkpoint);
  auto w = torch::linspace(-1, 1, feats[0].numel(), torch::kDouble).view(feats[0].sizes());
  auto loss = (feats[0] * w).sum() + feats[1].pow(2).mean();
  loss.backward();
  std::map<std::string, at::Tensor> out;
  for (const auto& p : vit->named_parameters(true))
    if (p.value().grad().defined()) out[p.key()] = p.value().grad().clone();
  *input_grad = x.grad().clone();
  return out;
}

}  // namespace

class SegFineTuningTest : public QObject {
  Q_OBJECT
 private slots:
  void checkpointed_blocks_give_the_plain_gradients_data() {
    QTest::addColumn<int>("mode");
    QTest::newRow("softmax") << int(AttentionMode::Softmax);
    QTest::newRow("linear") << int(AttentionMode::Linear);
  }
  void checkpointed_blocks_give_the_plain_gradients() {
    QFETCH(int, mode);
    torch::manual_seed(4);
    ViTConfig c = vit_preset("fmnist_micro");
    VisionTransformer vit(c);
    vit->to(torch::kDouble);
    vit->set_attention_mode(AttentionMode(mode));
    auto images = torch::rand({2, 1, 28, 28}, torch::kDouble);
    at::Tensor plain_input, checkpointed_input;
    const auto plain = gradients(vit, images, false, &plain_input);
    const auto checkpointed = gradients(vit, images, true, &checkpointed_input);
    QVERIFY(plain.size() > 10);
    QCOMPARE(checkpointed.size(), plain.size());
    for (const auto& [name, g] : plain) {
      QVERIFY2(checkpointed.count(name), name.c_str());
      const double diff = (checkpointed.at(name) - g).abs().max().item<double>();
      const double scale = g.abs().max().item<double>();
      QVERIFY2(diff <= 1e-12 * std::max(1.0, scale),
               qPrintable(QString("%1: %2").arg(QString::fromStdString(name)).arg(diff)));
    }
    QVERIFY((checkpointed_input - plain_input).abs().max().item<double>() <= 1e-12);
    // No grad mode: the plain forward, same values.
    torch::NoGradGuard no_grad;
    auto a = backbone_patch_features(vit, images, {c.depth}, true)[0];
    auto b = backbone_patch_features(vit, images, {c.depth}, false)[0];
    QVERIFY(torch::equal(a, b));
  }

  void layer_decay_scales_each_group() {
    torch::manual_seed(1);
    VisionTransformer vit(vit_preset("fmnist_tiny"));  // depth 4
    vit->set_attention_mode(AttentionMode::Linear);
    const double scale = 0.5, decay = 0.75;
    const auto groups = layer_decayed_parameters(vit, scale, decay);
    std::map<const void*, double> scale_of;
    size_t total = 0;
    for (const auto& [params, s] : groups) {
      total += params.size();
      for (const auto& p : params) scale_of[p.unsafeGetTensorImpl()] = s;
    }
    // Every trainable backbone parameter exactly once, none of the classifier.
    QCOMPARE(total, trainable_parameters(vit, false).size());
    QCOMPARE(scale_of.size(), total);
    auto expect = [&](const std::string& name, double want) {
      const auto* p = vit->named_parameters(true).find(name);
      QVERIFY2(p, name.c_str());
      QVERIFY2(scale_of.count(p->unsafeGetTensorImpl()), name.c_str());
      QVERIFY2(std::abs(scale_of.at(p->unsafeGetTensorImpl()) - want) < 1e-15, name.c_str());
    };
    expect("patch_embed.proj.weight", scale * std::pow(decay, 5));
    expect("pos_embed", scale * std::pow(decay, 5));
    expect("cls_token", scale * std::pow(decay, 5));
    expect("blocks.0.mlp.fc1.weight", scale * std::pow(decay, 4));
    expect("blocks.3.norm1.weight", scale * decay);
    expect("norm.weight", scale);
    QVERIFY(!vit->named_parameters(true).find("head.weight") ||
            !scale_of.count(vit->named_parameters(true)["head.weight"].unsafeGetTensorImpl()));
    // Decay 1: one scale for all (scale * pow(1.0, k), and pow(1, k) is exactly 1).
    for (const auto& [params, s] : layer_decayed_parameters(vit, scale, 1.0))
      ADALA_COMPARE_EXACT(s, scale);
  }

  void checkpointing_policy() {
    QVERIFY(!checkpoint_blocks(GradientCheckpointing::Auto, 112, 8));  // 196 tokens
    QVERIFY(checkpoint_blocks(GradientCheckpointing::Auto, 512, 8));   // 4096 tokens
    QVERIFY(!checkpoint_blocks(GradientCheckpointing::Auto, 504, 8));  // 3969 tokens
    QVERIFY(checkpoint_blocks(GradientCheckpointing::On, 112, 8));
    QVERIFY(!checkpoint_blocks(GradientCheckpointing::Off, 4096, 8));
  }

  void recut_model_sees_the_pooled_image() {
    torch::manual_seed(2);
    ViTConfig c = vit_preset("fmnist_tiny");  // patch 4 at 28 px
    VisionTransformer small(c);
    small->to(torch::kDouble);
    ViTConfig big = c;
    big.patch_size = 8;
    big.img_size = 56;
    VisionTransformer recut = recut_patches(small, big);
    recut->to(torch::kDouble);
    QCOMPARE(recut->config().patch_size, int64_t(8));
    QCOMPARE(recut->pos_embed.size(1), int64_t(1 + 7 * 7));
    torch::NoGradGuard no_grad;
    // At 56 px the re-cut model's grid is 7 x 7 like the original's at 28 px: same positions.
    auto image = torch::rand({2, 1, 56, 56}, torch::kDouble);
    auto pooled = torch::avg_pool2d(image, 2);
    auto a = recut->forward_features(image), b = small->forward_features(pooled);
    QVERIFY2((a - b).abs().max().item<double>() < 1e-10,
             qPrintable(QString::number((a - b).abs().max().item<double>())));
    // Errors name the problem.
    ViTConfig odd = big;
    odd.patch_size = 6;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, recut_patches(small, odd));
    ViTConfig wider = big;
    wider.embed_dim = 128;
    try {
      recut_patches(small, wider);
      QFAIL("expected an error");
    } catch (const std::invalid_argument& e) {
      QVERIFY(std::string(e.what()).find("more than img_size and patch_size") != std::string::npos);
    }
  }

  void same_pixel_scale_keeps_garment_pixels() {
    SceneOptions o;
    o.image_size = 112;
    o.min_garments = 2;
    o.max_garments = 3;
    o.min_scale = 0.3;
    o.max_scale = 0.55;
    const SceneOptions s = same_pixel_scale(o, 448);
    QCOMPARE(s.image_size, int64_t(448));
    QCOMPARE(s.min_garments, int64_t(32));
    QCOMPARE(s.max_garments, int64_t(48));
    QVERIFY(std::abs(s.min_scale * 448 - 0.3 * 112) < 1e-9);
    QVERIFY(std::abs(s.max_scale * 448 - 0.55 * 112) < 1e-9);
    const SceneOptions capped = same_pixel_scale(o, 1024);
    QCOMPARE(capped.max_garments, int64_t(64));
    const SceneOptions same = same_pixel_scale(o, 112);
    QCOMPARE(same.min_garments, o.min_garments);
    ADALA_COMPARE_EXACT(same.max_scale, o.max_scale);  // divided by a ratio of exactly 1
  }

  // LP-FT is the head's frozen-backbone run under "<stage>_probe", then the fine-tuning run:
  // the same parameters as those two runs made one after the other by hand.
  void probing_then_fine_tuning_is_the_two_runs_in_turn() {
    ExperimentConfig config = parse_experiment_config(parse_json_strict(
        R"({"model": {"preset": "fmnist_micro", "patch_size": 4, "img_size": 16},
            "segmentation": {"train_backbone": true, "eval_batch_size": 4}})"));
    SceneOptions so;
    so.image_size = 16;
    SceneGenerator gen(load_fashion_mnist(default_fashion_mnist_root(), "test", 20), so, 5);
    const SegmentationDataset scenes = gen.generate(8);
    SegmentationTraining t;
    t.optimisation.epochs = 1;
    t.optimisation.batch_size = 4;
    t.optimisation.lr = 1e-2;
    t.train_backbone = true;
    t.backbone_lr_scale = 0.5;
    SegmentationModelOptions mo;
    mo.num_classes = 11;
    auto fresh = [&] {
      torch::manual_seed(3);
      return SegmentationModel(VisionTransformer(config.model), mo);
    };
    JobControl control;
    RecordingSink sink;
    StageContext ctx{config, c10::Device(c10::kCPU), sink, control, ""};
    SegmentationModel lpft = fresh();
    auto embed = [](SegmentationModel& m) {
      return m->backbone->named_parameters()["patch_embed.proj.weight"].clone();
    };
    const at::Tensor embed_before = embed(lpft);
    SegmentationTraining with_probe = t;
    with_probe.probe_epochs = 2;
    SegmentationStage(ctx, "seg_x", with_probe).run(lpft, scenes);
    QCOMPARE(sink.steps("seg_x_probe").size(), size_t(4));  // 2 epochs of 2 steps
    QCOMPARE(sink.steps("seg_x").size(), size_t(2));
    QVERIFY(!torch::equal(embed(lpft), embed_before));

    SegmentationModel by_hand = fresh();
    SegmentationTraining probe = t;
    probe.train_backbone = false;
    probe.optimisation.epochs = 2;
    SegmentationStage(ctx, "seg_y_probe", probe).run(by_hand, scenes);
    QVERIFY(torch::equal(embed(by_hand), embed_before));
    SegmentationStage(ctx, "seg_y", t).run(by_hand, scenes);
    const auto a = lpft->named_parameters(), b = by_hand->named_parameters();
    QCOMPARE(a.size(), b.size());
    for (const auto& p : a)
      QVERIFY2(torch::allclose(p.value(), b[p.key()], 1e-5, 1e-6), p.key().c_str());
  }

  void config_fields_and_errors() {
    auto c = parse_experiment_config(parse_json_strict(
        R"({"model": {"preset": "fmnist_tiny", "patch_size": 8, "img_size": 112},
            "segmentation": {"layer_decay": 0.75, "gradient_checkpointing": "on",
                             "sweep_resolutions": [224, 448], "sweep_val_images": 8,
                             "teacher": "t.safetensors",
                             "pretrain": {"init": "c.safetensors", "images": 100, "epochs": 2}}})"));
    const auto& s = c.segmentation;
    ADALA_COMPARE_EXACT(s.layer_decay, 0.75);  // the JSON's 0.75, parsed
    QVERIFY(s.gradient_checkpointing == GradientCheckpointing::On);
    QCOMPARE(s.sweep_resolutions, (std::vector<int64_t>{224, 448}));
    QCOMPARE(s.sweep_val_images, int64_t(8));
    QCOMPARE(QString::fromStdString(s.teacher), QString("t.safetensors"));
    QVERIFY(s.pretrain.present);
    QCOMPARE(s.pretrain.images, int64_t(100));
    QCOMPARE(s.pretrain.first_scene, int64_t(1000000));
    QCOMPARE(s.pretrain.training.epochs, int64_t(2));
    auto has = [](const std::string& error, const char* part) {
      return error.find(part) != std::string::npos;
    };
    QVERIFY(has(config_error(R"({"layer_decay": 0})"), "segmentation.layer_decay"));
    QVERIFY(has(config_error(R"({"layer_decay": 1.5})"), "segmentation.layer_decay"));
    QVERIFY(has(config_error(R"({"gradient_checkpointing": "yes"})"),
                "segmentation.gradient_checkpointing"));
    const std::string res = config_error(R"({"sweep_resolutions": [450]})");
    QVERIFY2(has(res, "segmentation.sweep_resolutions") && has(res, "450"), res.c_str());
    QVERIFY(has(config_error(R"({"sweep_resolutions": [0]})"), "segmentation.sweep_resolutions"));
    QVERIFY(has(config_error(R"({"pretrain": {"images": 10}})"), "segmentation.pretrain.init"));
    QVERIFY(has(config_error(R"({"pretrain": {"init": "x", "images": 0}})"),
                "segmentation.pretrain.images"));
    QVERIFY(has(config_error(R"({"pretrain": {"init": "x", "bogus": 1}})"), "bogus"));
    auto lp = parse_experiment_config(parse_json_strict(
        R"({"segmentation": {"train_backbone": true, "linear": {"probe_epochs": 3},
                             "mask2former": {"probe_epochs": 1}}})"));
    QCOMPARE(lp.segmentation.linear_probe_epochs, int64_t(3));
    QCOMPARE(lp.segmentation.mask2former.probe_epochs, int64_t(1));
    QCOMPARE(head_training(lp.segmentation, SegmentationHeadKind::Linear).probe_epochs, int64_t(3));
    QCOMPARE(config_error(R"({"linear": {"probe_epochs": 2}})"),
             std::string("segmentation.linear.probe_epochs: a frozen backbone's head is all "
                         "probe: set \"train_backbone\": true or drop probe_epochs"));
    QVERIFY(has(config_error(R"({"train_backbone": true, "mask2former": {"probe_epochs": -1}})"),
                "segmentation.mask2former.probe_epochs"));
  }
};

ADALA_TEST_APPLESS_MAIN(SegFineTuningTest)
}  // namespace test_seg_fine_tuning

#include "test_seg_fine_tuning.moc"
