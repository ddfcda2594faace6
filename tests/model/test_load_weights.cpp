// load_weights / save_weights / load_model, the timm / Meta / Hugging Face key mapping and
// preset matching, on tiny DINOv2-like models (depth 2) so the whole suite runs in seconds.
#include <torch/torch.h>

#include <QtTest/QtTest>

#include "engine/model/load_weights.h"
#include "engine/model/preset_match.h"
#include "engine/io/safetensors.h"
#include "engine/model/vit_config_json.h"
#include "engine/model/weight_mapping.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_load_weights {

using namespace adala;

namespace {

using TensorMap = std::map<std::string, at::Tensor>;

ViTConfig tiny_dinov2(bool registers) {
  ViTConfig c;
  c.name = registers ? "tiny_dinov2_reg" : "tiny_dinov2";
  c.img_size = 16;
  c.patch_size = 4;
  c.in_chans = 3;
  c.embed_dim = 32;
  c.depth = 2;
  c.num_heads = 2;
  c.mlp_ratio = 4.0;
  c.layer_scale = true;
  c.layer_scale_init = 1.0;
  c.num_register_tokens = registers ? 4 : 0;
  c.no_embed_class = registers;
  return c;
}

// Every parameter random, the linear branch too (so "initialised" is visible).
void randomise(VisionTransformer& m, int seed) {
  torch::manual_seed(seed);
  torch::NoGradGuard no_grad;
  for (auto& p : m->parameters()) p.copy_(torch::randn_like(p) * 0.2);
}

bool is_linear(const std::string& name) { return name.find(".attn.linear.") != std::string::npos; }

// The model's tensors under timm names, as a softmax checkpoint has them (no linear branch).
TensorMap timm_tensors(VisionTransformer& m) {
  TensorMap out;
  for (const auto& kv : m->named_parameters())
    if (!is_linear(kv.key())) out[kv.key()] = kv.value().detach().clone();
  return out;
}

TensorMap snapshot(VisionTransformer& m) {
  TensorMap out;
  for (const auto& kv : m->named_parameters()) out[kv.key()] = kv.value().detach().clone();
  return out;
}

bool same_tensors(const TensorMap& a, const TensorMap& b) {
  if (a.size() != b.size()) return false;
  for (const auto& [k, v] : a)
    if (!b.count(k) || !torch::equal(v, b.at(k))) return false;
  return true;
}

std::vector<std::pair<std::string, at::Tensor>> as_list(const TensorMap& m) {
  return {m.begin(), m.end()};
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

bool has(const std::string& text, const std::string& piece) {
  return text.find(piece) != std::string::npos;
}

std::string load_error(VisionTransformer& m, const std::string& file, LoadOptions o = {}) {
  try {
    load_weights(m, file, o);
  } catch (const WeightLoadError& e) {
    return e.what();
  }
  return "";
}

at::Tensor param(VisionTransformer& m, const std::string& name) {
  return m->named_parameters()[name];
}

// Shapes of a config's tensors without building it (timm layout, optionally Meta's pos_embed).
ShapeMap shapes_for(const ViTConfig& c, bool meta_pos = false) {
  const int64_t d = c.embed_dim, h = c.mlp_hidden(), g = c.grid_size();
  ShapeMap s;
  s["patch_embed.proj.weight"] = {d, c.in_chans, c.patch_size, c.patch_size};
  s["patch_embed.proj.bias"] = {d};
  if (c.class_token) s["cls_token"] = {1, 1, d};
  if (c.num_register_tokens) s["reg_token"] = {1, c.num_register_tokens, d};
  const int64_t prefix = meta_pos ? 1 : (c.no_embed_class ? 0 : c.num_prefix_tokens());
  s["pos_embed"] = {1, prefix + g * g, d};
  for (int64_t i = 0; i < c.depth; ++i) {
    const std::string b = "blocks." + std::to_string(i) + ".";
    for (const char* n : {"norm1", "norm2"}) {
      s[b + n + ".weight"] = {d};
      s[b + n + ".bias"] = {d};
    }
    s[b + "attn.qkv.weight"] = {3 * d, d};
    if (c.qkv_bias) s[b + "attn.qkv.bias"] = {3 * d};
    s[b + "attn.proj.weight"] = {d, d};
    s[b + "attn.proj.bias"] = {d};
    s[b + "mlp.fc1.weight"] = {h, d};
    s[b + "mlp.fc1.bias"] = {h};
    s[b + "mlp.fc2.weight"] = {d, h};
    s[b + "mlp.fc2.bias"] = {d};
    if (c.layer_scale) {
      s[b + "ls1.gamma"] = {d};
      s[b + "ls2.gamma"] = {d};
    }
  }
  s["norm.weight"] = {d};
  s["norm.bias"] = {d};
  if (c.num_classes) {
    s["head.weight"] = {c.num_classes, d};
    s["head.bias"] = {c.num_classes};
  }
  return s;
}

// Meta DINOv2's names for a model's weights: chunked blocks, register_tokens, mask_token, and
// pos_embed with a cls slot. The model's cls_token is reset to what folding will produce so the
// reference stays bit-identical: cls = meta_cls + meta_pos[:, 0].
TensorMap meta_tensors(VisionTransformer& m) {
  TensorMap meta;
  const int64_t d = m->config().embed_dim;
  auto slot = torch::randn({1, 1, d}) * 0.2;
  auto meta_cls = m->cls_token.detach() - slot;
  {
    torch::NoGradGuard no_grad;
    m->cls_token.copy_(meta_cls.to(torch::kFloat) + slot.to(torch::kFloat));
  }
  for (const auto& [name, t] : timm_tensors(m)) {
    if (name == "cls_token") {
      meta["cls_token"] = meta_cls;
    } else if (name == "reg_token") {
      meta["register_tokens"] = t;
    } else if (name == "pos_embed") {
      meta["pos_embed"] = torch::cat({slot, t}, 1);
    } else if (name.rfind("blocks.", 0) == 0) {
      const size_t dot = name.find('.', 7);
      const std::string i = name.substr(7, dot - 7);
      meta["blocks." + i + "." + name.substr(7)] = t;  // block_chunks = depth: blocks.{i}.{i}.*
    } else {
      meta[name] = t;
    }
  }
  meta["mask_token"] = torch::zeros({1, d});
  return meta;
}

// Hugging Face Dinov2Model names (separate q/k/v, layer_scale lambda1, layernorm).
TensorMap hf_tensors(VisionTransformer& m, const std::string& prefix) {
  TensorMap hf;
  const auto& c = m->config();
  const int64_t d = c.embed_dim;
  auto ours = timm_tensors(m);
  hf[prefix + "embeddings.cls_token"] = ours.at("cls_token");
  hf[prefix + "embeddings.mask_token"] = torch::zeros({1, d});
  if (c.num_register_tokens) hf[prefix + "embeddings.register_tokens"] = ours.at("reg_token");
  hf[prefix + "embeddings.position_embeddings"] = ours.at("pos_embed");
  hf[prefix + "embeddings.patch_embeddings.projection.weight"] = ours.at("patch_embed.proj.weight");
  hf[prefix + "embeddings.patch_embeddings.projection.bias"] = ours.at("patch_embed.proj.bias");
  for (int64_t i = 0; i < c.depth; ++i) {
    const std::string b = "blocks." + std::to_string(i) + ".";
    const std::string l = prefix + "encoder.layer." + std::to_string(i) + ".";
    for (const char* kind : {"weight", "bias"}) {
      auto qkv = ours.at(b + "attn.qkv." + kind);
      hf[l + "attention.attention.query." + kind] = qkv.narrow(0, 0, d).clone();
      hf[l + "attention.attention.key." + kind] = qkv.narrow(0, d, d).clone();
      hf[l + "attention.attention.value." + kind] = qkv.narrow(0, 2 * d, d).clone();
      hf[l + "attention.output.dense." + kind] = ours.at(b + "attn.proj." + kind);
      for (const char* n : {"norm1.", "norm2.", "mlp.fc1.", "mlp.fc2."})
        hf[l + n + kind] = ours.at(b + n + kind);
    }
    hf[l + "layer_scale1.lambda1"] = ours.at(b + "ls1.gamma");
    hf[l + "layer_scale2.lambda1"] = ours.at(b + "ls2.gamma");
  }
  hf[prefix + "layernorm.weight"] = ours.at("norm.weight");
  hf[prefix + "layernorm.bias"] = ours.at("norm.bias");
  return hf;
}

}  // namespace

class TestLoadWeights : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir dir_;
  std::string path(const std::string& name) const {
    return dir_.filePath(QString::fromStdString(name)).toStdString();
  }
  at::Tensor images_;

  // Softmax checkpoint of a random reg model, plus the model it came from.
  std::string write_timm_file(VisionTransformer& source, const std::string& name) {
    randomise(source, 11);
    const std::string file = path(name);
    write_safetensors(file, as_list(timm_tensors(source)));
    return file;
  }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    torch::manual_seed(3);
    images_ = torch::randn({2, 3, 16, 16});
  }

  void timm_names_reproduce_forward_features() {
    for (bool registers : {false, true}) {
      for (ReadMode mode : {ReadMode::Mmap, ReadMode::Stream}) {
        VisionTransformer a(tiny_dinov2(registers));
        const std::string file = write_timm_file(a, "timm.safetensors");
        VisionTransformer b(tiny_dinov2(registers));
        randomise(b, 99);
        QVERIFY(!torch::equal(a->forward_features(images_), b->forward_features(images_)));
        LoadOptions o;
        o.mode = mode;
        const LoadReport r = load_weights(b, file, o);
        QVERIFY2(r.ok(), r.summary().c_str());
        QCOMPARE(r.format, std::string("timm"));
        QCOMPARE(r.loaded.size(), timm_tensors(a).size());
        QCOMPARE(r.initialised.size(), size_t{2 * 4});  // linear qkv.{w,b}, proj.{w,b} per block
        QVERIFY(torch::equal(a->forward_features(images_), b->forward_features(images_)));
      }
    }
  }

  void linear_branch_is_initialised_from_softmax() {
    VisionTransformer a(tiny_dinov2(true));
    const std::string file = write_timm_file(a, "timm_linear.safetensors");
    VisionTransformer b(tiny_dinov2(true));
    randomise(b, 5);
    const LoadReport r = load_weights(b, file);
    QVERIFY(contains(r.initialised, "blocks.1.attn.linear.qkv.weight"));
    for (int64_t i = 0; i < b->depth(); ++i) {
      auto attn = b->block(i)->attn;
      QVERIFY(torch::equal(attn->linear->qkv->weight, attn->qkv->weight));
      QVERIFY(torch::equal(attn->linear->qkv->bias, attn->qkv->bias));
      QVERIFY(torch::equal(attn->linear->proj->weight, attn->proj->weight));
      QVERIFY(torch::equal(attn->linear->proj->bias, attn->proj->bias));
      QVERIFY(torch::equal(attn->qkv->weight, a->block(i)->attn->qkv->weight));
    }

    // Without the option the linear branch is missing, by name.
    VisionTransformer c(tiny_dinov2(true));
    LoadOptions o;
    o.init_missing_linear_from_softmax = false;
    const std::string message = load_error(c, file, o);
    QVERIFY2(has(message, "missing: blocks.0.attn.linear.qkv.weight"), message.c_str());
    QVERIFY2(has(message, "missing: blocks.1.attn.linear.proj.bias"), message.c_str());
  }

  void linear_branch_in_file_is_loaded_not_initialised() {
    VisionTransformer a(tiny_dinov2(false));
    randomise(a, 21);  // linear branch differs from qkv/proj
    const std::string file = path("adala.safetensors");
    save_weights(a, file);
    VisionTransformer b(tiny_dinov2(false));
    const LoadReport r = load_weights(b, file);
    QCOMPARE(r.format, std::string("adala"));
    QVERIFY(r.initialised.empty());
    QVERIFY(same_tensors(snapshot(a), snapshot(b)));
    QVERIFY(!torch::equal(b->block(0)->attn->linear->qkv->weight, b->block(0)->attn->qkv->weight));
  }

  void half_precision_files_convert_to_float() {
    for (auto type : {torch::kHalf, torch::kBFloat16}) {
      VisionTransformer a(tiny_dinov2(false));
      randomise(a, 8);
      TensorMap reduced;
      for (const auto& [k, v] : timm_tensors(a)) reduced[k] = v.to(type);
      const std::string file = path("reduced.safetensors");
      write_safetensors(file, as_list(reduced));
      VisionTransformer b(tiny_dinov2(false));
      const LoadReport r = load_weights(b, file);
      QVERIFY2(r.ok(), r.summary().c_str());
      bool noted = false;
      for (const auto& n : r.notes) noted = noted || has(n, " -> F32");
      QVERIFY2(noted, r.summary().c_str());
      for (const auto& [k, v] : reduced) {
        QCOMPARE(param(b, k).scalar_type(), torch::kFloat);
        QVERIFY2(torch::equal(param(b, k), v.to(torch::kFloat)), k.c_str());
      }
    }
  }

  void meta_dinov2_file_loads_and_folds_pos_embed() {
    VisionTransformer a(tiny_dinov2(true));
    randomise(a, 31);
    const TensorMap meta = meta_tensors(a);
    QVERIFY(meta.count("blocks.1.1.attn.qkv.weight"));
    const std::string file = path("meta.safetensors");
    write_safetensors(file, as_list(meta));
    VisionTransformer b(tiny_dinov2(true));
    const LoadReport r = load_weights(b, file);
    QVERIFY2(r.ok(), r.summary().c_str());
    QCOMPARE(r.format, std::string("meta-dinov2"));
    QVERIFY2(has(r.summary(), "skipped: mask_token"), r.summary().c_str());
    QVERIFY2(has(r.summary(), "folded"), r.summary().c_str());
    QVERIFY(torch::equal(a->forward_features(images_), b->forward_features(images_)));

    // The fold is what Meta's forward does: cat(cls, patches) + pos, registers after cls.
    auto patches = b->patch_embed->forward(images_);
    auto tokens =
        torch::cat({meta.at("cls_token").expand({2, -1, -1}), patches}, 1) + meta.at("pos_embed");
    auto reference =
        torch::cat({tokens.narrow(1, 0, 1), meta.at("register_tokens").expand({2, -1, -1}),
                    tokens.narrow(1, 1, tokens.size(1) - 1)},
                   1);
    auto ours = b->prepare_tokens(images_);
    QCOMPARE(ours.sizes().vec(), reference.sizes().vec());
    QVERIFY(torch::allclose(ours, reference, 0.0, 1e-6));
  }

  void meta_swiglu_is_reported_as_unsupported() {
    VisionTransformer a(tiny_dinov2(true));
    randomise(a, 32);
    TensorMap meta = meta_tensors(a);
    meta["blocks.0.0.mlp.w12.weight"] = meta.at("blocks.0.0.mlp.fc1.weight");
    meta.erase("blocks.0.0.mlp.fc1.weight");
    const std::string file = path("meta_swiglu.safetensors");
    write_safetensors(file, as_list(meta));
    VisionTransformer b(tiny_dinov2(true));
    const std::string message = load_error(b, file);
    QVERIFY2(has(message, "SwiGLU"), message.c_str());
    QVERIFY2(has(message, "unexpected: blocks.0.0.mlp.w12.weight"), message.c_str());
    QVERIFY2(has(message, "missing: blocks.0.mlp.fc1.weight"), message.c_str());
  }

  void hugging_face_file_loads() {
    for (bool registers : {false, true}) {
      VisionTransformer a(tiny_dinov2(registers));
      randomise(a, 41);
      TensorMap hf;
      if (registers) {
        // HF's register variant keeps the cls slot like Meta: build it from Meta's layout.
        const TensorMap meta = meta_tensors(a);
        hf = hf_tensors(a, "dinov2.");
        hf["dinov2.embeddings.cls_token"] = meta.at("cls_token");
        hf["dinov2.embeddings.position_embeddings"] = meta.at("pos_embed");
      } else {
        hf = hf_tensors(a, "");
      }
      const std::string file = path("hf.safetensors");
      write_safetensors(file, as_list(hf));
      VisionTransformer b(tiny_dinov2(registers));
      const LoadReport r = load_weights(b, file);
      QVERIFY2(r.ok(), r.summary().c_str());
      QCOMPARE(r.format, std::string("hf-dinov2"));
      QVERIFY(torch::equal(a->block(1)->attn->qkv->weight, b->block(1)->attn->qkv->weight));
      QVERIFY(torch::equal(a->forward_features(images_), b->forward_features(images_)));
    }
  }

  void hugging_face_incomplete_qkv_is_explained() {
    VisionTransformer a(tiny_dinov2(false));
    randomise(a, 42);
    TensorMap hf = hf_tensors(a, "");
    hf.erase("encoder.layer.1.attention.attention.key.weight");
    VisionTransformer b(tiny_dinov2(false));
    try {
      load_weights(b, hf);
      QFAIL("expected WeightLoadError");
    } catch (const WeightLoadError& e) {
      const std::string m = e.what();
      QVERIFY2(has(m, "missing: blocks.1.attn.qkv.weight"), m.c_str());
      QVERIFY2(has(m, "unexpected: encoder.layer.1.attention.attention.query.weight"), m.c_str());
      QVERIFY2(has(m, "only query, value"), m.c_str());
    }
  }

  void wrong_shape_is_refused_naming_the_tensor() {
    VisionTransformer a(tiny_dinov2(false));
    randomise(a, 51);
    TensorMap t = timm_tensors(a);
    t["blocks.1.mlp.fc1.weight"] = torch::randn({65, 32});
    const std::string file = path("wrong_shape.safetensors");
    write_safetensors(file, as_list(t));
    VisionTransformer b(tiny_dinov2(false));
    const TensorMap before = snapshot(b);
    const std::string message = load_error(b, file);
    QVERIFY2(has(message, file), message.c_str());
    QVERIFY2(has(message, "blocks.1.mlp.fc1.weight: checkpoint [65, 32] vs model [128, 32]"),
             message.c_str());
    QVERIFY(same_tensors(before, snapshot(b)));  // strict: untouched
  }

  // A checkpoint with NaN / Inf: refused naming the tensor and leaving the model untouched,
  // or loaded with a warning note when allowed.
  void non_finite_weights_are_refused_naming_the_tensor() {
    VisionTransformer source(tiny_dinov2(false));
    randomise(source, 7);
    TensorMap file = timm_tensors(source);
    file.at("blocks.1.mlp.fc1.weight")[0][3] = std::numeric_limits<float>::quiet_NaN();
    file.at("blocks.1.mlp.fc1.weight")[2][0] = -std::numeric_limits<float>::infinity();
    file.at("cls_token").fill_(std::numeric_limits<float>::infinity());
    const std::string path = dir_.filePath("nonfinite.safetensors").toStdString();
    write_safetensors(path, as_list(file));

    VisionTransformer target(tiny_dinov2(false));
    randomise(target, 8);
    const TensorMap before = snapshot(target);
    try {
      load_weights(target, path);
      QFAIL("non-finite weights were loaded");
    } catch (const NonFiniteWeightsError& e) {
      const std::string what = e.what();
      QVERIFY2(what.rfind(path + ": tensor \"", 0) == 0, e.what());
      QVERIFY2(what.find("non-finite value") != std::string::npos, e.what());
      QVERIFY2(what.find("--allow-nonfinite") != std::string::npos, e.what());
    }
    QVERIFY(same_tensors(snapshot(target), before));

    LoadOptions allow;
    allow.allow_nonfinite = true;
    const LoadReport report = load_weights(target, path, allow);
    std::vector<std::string> warnings;
    for (const auto& note : report.notes)
      if (note.rfind("warning: ", 0) == 0) warnings.push_back(note);
    QCOMPARE(warnings.size(), size_t(2));
    const std::string all = warnings[0] + "\n" + warnings[1];
    QVERIFY2(all.find("tensor \"blocks.1.mlp.fc1.weight\" holds 2 non-finite values (NaN or "
                      "Inf) of 4096") != std::string::npos,
             all.c_str());
    QVERIFY2(all.find("tensor \"cls_token\" holds 32 non-finite values") != std::string::npos,
             all.c_str());
    QVERIFY(torch::isnan(target->named_parameters()["blocks.1.mlp.fc1.weight"][0][3]).item<bool>());
  }

  void missing_and_unexpected_are_named() {
    VisionTransformer a(tiny_dinov2(false));
    randomise(a, 52);
    TensorMap t = timm_tensors(a);
    t.erase("blocks.0.norm1.bias");
    t.erase("pos_embed");
    t["blocks.0.attn.extra"] = torch::ones({2});
    t["fc_norm.weight"] = torch::ones({32});
    t["blocks.1.ls2.gamma"] = torch::ones({31});
    const std::string file = path("broken.safetensors");
    write_safetensors(file, as_list(t));

    VisionTransformer b(tiny_dinov2(false));
    randomise(b, 53);
    const TensorMap before = snapshot(b);
    try {
      load_weights(b, file);
      QFAIL("expected WeightLoadError");
    } catch (const WeightLoadError& e) {
      const std::string m = e.what();
      for (const char* piece : {"missing: blocks.0.norm1.bias", "missing: pos_embed",
                                "unexpected: blocks.0.attn.extra", "unexpected: fc_norm.weight",
                                "misshapen: blocks.1.ls2.gamma: checkpoint [31] vs model [32]",
                                "2 missing, 2 unexpected, 1 misshapen"})
        QVERIFY2(has(m, piece), qPrintable(QString("\"%1\" not in: %2").arg(piece, m.c_str())));
      QCOMPARE(e.report().missing.size(), size_t{2});
      QCOMPARE(e.report().unexpected.size(), size_t{2});
      QCOMPARE(e.report().misshapen.size(), size_t{1});
    }
    QVERIFY(same_tensors(before, snapshot(b)));

    // Non-strict: what fits is loaded, the rest is reported and left as it was.
    LoadOptions lenient;
    lenient.strict = false;
    const LoadReport r = load_weights(b, file, lenient);
    QVERIFY(!r.ok());
    QVERIFY(contains(r.missing, "blocks.0.norm1.bias"));
    QVERIFY(contains(r.unexpected, "fc_norm.weight"));
    QCOMPARE(r.misshapen.size(), size_t{1});
    QVERIFY2(has(r.summary(), "missing: pos_embed"), r.summary().c_str());
    QVERIFY(torch::equal(param(b, "blocks.0.norm1.weight"), t.at("blocks.0.norm1.weight")));
    QVERIFY(torch::equal(param(b, "blocks.0.norm1.bias"), before.at("blocks.0.norm1.bias")));
    QVERIFY(torch::equal(param(b, "blocks.1.ls2.gamma"), before.at("blocks.1.ls2.gamma")));
    QVERIFY(torch::equal(param(b, "pos_embed"), before.at("pos_embed")));
  }

  void head_can_be_left_out() {
    VisionTransformer a(vit_preset("fmnist_micro"));  // 10 classes
    randomise(a, 61);
    const std::string file = path("micro.safetensors");
    write_safetensors(file, as_list(timm_tensors(a)));
    ViTConfig five = vit_preset("fmnist_micro");
    five.num_classes = 5;
    VisionTransformer b(five);
    QVERIFY(has(load_error(b, file), "head.weight: checkpoint [10, 32] vs model [5, 32]"));
    const auto head_before = b->head->weight.clone();
    LoadOptions o;
    o.load_head = false;
    const LoadReport r = load_weights(b, file, o);
    QVERIFY2(r.ok(), r.summary().c_str());
    QVERIFY(has(r.summary(), "skipped: head.weight"));
    QVERIFY(torch::equal(b->head->weight, head_before));
    auto x = torch::randn({2, 1, 28, 28});
    QVERIFY(torch::equal(a->forward_features(x), b->forward_features(x)));
  }

  void pos_embed_interpolation_is_optional() {
    VisionTransformer a(tiny_dinov2(false));
    randomise(a, 62);
    ViTConfig bigger = tiny_dinov2(false);
    bigger.img_size = 24;  // 6x6 grid instead of 4x4
    VisionTransformer b(bigger);
    TensorMap t = timm_tensors(a);
    QVERIFY_THROWS_EXCEPTION(WeightLoadError, load_weights(b, t));
    LoadOptions o;
    o.interpolate_pos_embed = true;
    const LoadReport r = load_weights(b, t, o);
    QVERIFY2(r.ok(), r.summary().c_str());
    QCOMPARE(b->pos_embed.sizes().vec(), (std::vector<int64_t>{1, 37, 32}));
    QVERIFY(torch::equal(b->pos_embed, interpolate_pos_embed(t.at("pos_embed"), 1, 6, 6)));
    QVERIFY(has(r.summary(), "resampled"));
  }

  void save_and_load_model_round_trip() {
    ViTConfig c = vit_preset("fmnist_micro");
    VisionTransformer a(c);
    randomise(a, 71);
    a->set_attention_mode(1, AttentionMode::Linear);
    const std::string file = path("model.safetensors");
    save_weights(a, file, {{"run", "42"}});
    {
      SafetensorsReader r(file);
      QCOMPARE(r.metadata().at("run"), std::string("42"));
      QCOMPARE(r.metadata().at("adala.attention_modes"), std::string("softmax,linear"));
      QVERIFY(has(r.metadata().at("adala.config"), "\"embed_dim\":32"));
      for (const auto& info : r.tensors()) QCOMPARE(info.dtype, std::string("F32"));
    }
    VisionTransformer m = load_model(file, torch::kCPU);
    QCOMPARE(vit_config_to_json(m->config()).dump(), vit_config_to_json(a->config()).dump());
    QVERIFY(m->attention_modes() == a->attention_modes());
    auto x = torch::randn({3, 1, 28, 28});
    QVERIFY(torch::equal(a->forward(x), m->forward(x)));

    // No adala.config: the config comes from the preset the shapes match.
    const std::string bare = path("bare.safetensors");
    write_safetensors(bare, as_list(timm_tensors(a)));
    VisionTransformer n = load_model(bare, torch::kCPU);
    QCOMPARE(n->config().name, std::string("fmnist_micro"));
    a->set_attention_mode(AttentionMode::Softmax);
    QVERIFY(torch::equal(a->forward(x), n->forward(x)));
  }

  void vit_config_json_round_trip_and_errors() {
    ViTConfig c = vit_preset("dinov2_vits14_reg");
    c.num_classes = 7;
    c.mlp_ratio = 2.5;
    const ViTConfig back = vit_config_from_json(parse_json_strict(vit_config_to_json(c).dump()));
    QCOMPARE(vit_config_to_json(back).dump(), vit_config_to_json(c).dump());
    ADALA_COMPARE_EXACT(back.mlp_ratio, 2.5);  // 2.5 written to JSON and read back
    QCOMPARE(back.no_embed_class, true);

    const ViTConfig from_preset =
        vit_config_from_json(parse_json_strict("{\"preset\": \"fmnist_micro\", \"depth\": 3}"));
    QCOMPARE(from_preset.depth, int64_t{3});
    QCOMPARE(from_preset.embed_dim, int64_t{32});
    auto error = [](const char* text) {
      try {
        vit_config_from_json(parse_json_strict(text));
      } catch (const std::invalid_argument& e) {
        return std::string(e.what());
      }
      return std::string();
    };
    QVERIFY(has(error("{\"dept\": 3}"), "\"dept\""));
    QVERIFY(has(error("{\"depth\": \"3\"}"), "\"depth\""));
    QVERIFY(has(error("{\"embed_dim\": 30, \"num_heads\": 4}"), "divisible"));
  }

  void checkpoint_format_detection() {
    QCOMPARE(detect_checkpoint_format({"cls_token", "blocks.0.attn.qkv.weight"}),
             CheckpointFormat::Timm);
    QCOMPARE(detect_checkpoint_format({"blocks.0.attn.linear.qkv.weight"}),
             CheckpointFormat::Adala);
    QCOMPARE(detect_checkpoint_format({"mask_token", "blocks.0.norm1.weight"}),
             CheckpointFormat::MetaDinov2);
    QCOMPARE(detect_checkpoint_format({"blocks.0.3.norm1.weight"}), CheckpointFormat::MetaDinov2);
    QCOMPARE(detect_checkpoint_format({"embeddings.cls_token"}),
             CheckpointFormat::HuggingFaceDinov2);
    QCOMPARE(detect_checkpoint_format({"dinov2.encoder.layer.0.norm1.weight", "classifier.weight"}),
             CheckpointFormat::HuggingFaceDinov2);
    QCOMPARE(detect_checkpoint_format({"module.pos_embed", "module.blocks.0.norm1.weight"}),
             CheckpointFormat::Timm);
    QCOMPARE(detect_checkpoint_format({"conv1.weight", "fc.weight"}), CheckpointFormat::Unknown);
    const auto plan = plan_key_mapping({"module.blocks.0.norm1.weight"});
    QCOMPARE(plan.entries.at(0).target, std::string("blocks.0.norm1.weight"));
  }

  void preset_matching() {
    // The shape helper agrees with a real model.
    VisionTransformer micro(vit_preset("fmnist_micro"));
    ShapeMap real;
    for (const auto& kv : micro->named_parameters()) real[kv.key()] = kv.value().sizes().vec();
    ShapeMap helper = shapes_for(vit_preset("fmnist_micro"));
    for (const auto& [k, v] : real)
      if (!is_linear(k)) QVERIFY2(helper.count(k) && helper.at(k) == v, k.c_str());

    auto guess = guess_preset(real);
    QCOMPARE(guess.matches, std::vector<std::string>{"fmnist_micro"});
    QCOMPARE(guess.best, std::string("fmnist_micro"));
    QVERIFY2(guess.exact, guess.reason.c_str());
    QVERIFY(summarise_vit_shapes(real).linear_branch);

    // Meta's ViT-S/14 with registers: pos_embed 1 + 37*37 slots.
    const auto meta_reg = shapes_for(vit_preset("dinov2_vits14_reg"), true);
    QCOMPARE(matching_presets(meta_reg), std::vector<std::string>{"dinov2_vits14_reg"});
    const auto s = summarise_vit_shapes(meta_reg);
    QCOMPARE(s.grid, int64_t{37});
    QCOMPARE(s.pos_prefix, int64_t{1});
    QCOMPARE(s.num_register_tokens, int64_t{4});
    QCOMPARE(config_from_shapes(meta_reg).no_embed_class, true);  // loader folds the slot

    QCOMPARE(matching_presets(shapes_for(vit_preset("dinov2_vitb14"))),
             std::vector<std::string>{"dinov2_vitb14"});
    ViTConfig base = vit_preset("vit_base");
    base.img_size = 384;
    base.num_classes = 1000;
    auto g = guess_preset(shapes_for(base));
    QCOMPARE(g.matches, std::vector<std::string>{"vit_base"});
    QVERIFY(!g.exact);
    QVERIFY2(has(g.reason, "image size 384 vs 224"), g.reason.c_str());

    ViTConfig odd = vit_preset("vit_small");
    odd.depth = 6;
    g = guess_preset(shapes_for(odd));
    QVERIFY(g.matches.empty());
    QCOMPARE(g.best, std::string("vit_small"));
    QVERIFY2(has(g.reason, "depth 6 vs 12"), g.reason.c_str());
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, config_from_shapes(shapes_for(odd)));
    QVERIFY(guess_preset({{"fc.weight", {10, 5}}}).best.empty());

    // With the head count the shapes cannot give, a file no preset fits gets a config read off
    // its shapes: the same architecture as the one that wrote them.
    odd.num_heads = 3;
    odd.mlp_ratio = 3.0;
    odd.num_classes = 7;
    const ViTConfig read = config_from_shapes(shapes_for(odd), 3);
    for (const auto& f : vit_config_fields()) {
      if (std::string(f.name) == "name") continue;
      ViTConfig one = odd;
      std::visit([&](auto member) { one.*member = read.*member; }, f.member);
      QVERIFY2(one == odd, f.name);
    }
    QCOMPARE(read.mlp_hidden(), odd.mlp_hidden());
    // An MLP width that is no whole multiple of the embedding keeps its exact width.
    odd.mlp_ratio = 1155.0 / 384.0;
    QCOMPARE(config_from_shapes(shapes_for(odd), 3).mlp_hidden(), odd.mlp_hidden());
    // A preset match takes the given head count instead of the preset's.
    QCOMPARE(config_from_shapes(shapes_for(vit_preset("vit_small")), 12).num_heads, int64_t(12));
    QCOMPARE(config_from_shapes(shapes_for(vit_preset("vit_small"))).num_heads, int64_t(6));
    // A head count that does not divide the width is refused, naming both.
    try {
      config_from_shapes(shapes_for(odd), 5);
      QFAIL("5 heads for width 384 were accepted");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(has(e.what(), "embed_dim (384) must be divisible by num_heads (5)"), e.what());
    }
  }
};

ADALA_TEST_GUILESS_MAIN(TestLoadWeights)
}  // namespace test_load_weights

#include "test_load_weights.moc"
