// The "data" block: per-stage sources (data.train / data.eval / data.alignment), the
// Fashion-MNIST shorthand of earlier configs, and the loader's settings.
#include <array>

#include "engine/data/fashion_mnist.h"
#include "engine/train/config/config_reader.h"

namespace adala {

namespace {

// What a source kind starts from: Fashion-MNIST keeps its own convention (grey, pixels in
// [0, 1], no resize, the stages' shift-and-flip augmentation); image files get timm's.
DataSourceConfig source_defaults(const std::string& kind) {
  DataSourceConfig d;
  d.source = kind;
  if (kind == "fashion-mnist") {
    d.root = default_fashion_mnist_root();
    d.channels = 1;
    d.transform.preprocess = "none";
    d.transform.mean = {0.0};
    d.transform.std = {1.0};
  } else {
    d.channels = 3;
    d.transform.preprocess = "timm";
    d.transform.mean = imagenet_mean();
    d.transform.std = imagenet_std();
  }
  return d;
}

std::array<double, 2> pair_of(ConfigReader& r, const std::string& key,
                              std::array<double, 2> fallback, double min, double max) {
  const auto v = r.numbers(key, {fallback[0], fallback[1]}, min, max, 2, 2);
  if (v[0] > v[1]) throw ConfigError(r.field(key), "the first entry must not exceed the second");
  return {v[0], v[1]};
}

DataSourceConfig read_source(ConfigReader r, const ViTConfig& model) {
  const std::string kind =
      r.string("source", "fashion-mnist", {"fashion-mnist", "image-folder", "image-list"});
  DataSourceConfig s = source_defaults(kind);
  const bool fmnist = kind == "fashion-mnist";
  s.root = r.string("root", s.root);
  if (r.has("list") && kind != "image-list")
    throw ConfigError(r.field("list"), "only an image-list source takes a list file");
  s.list = r.string("list", "");
  if (r.has("split") && !fmnist)
    throw ConfigError(r.field("split"), "only a fashion-mnist source has splits");
  s.split = r.string("split", s.split, {"train", "test"});
  if (r.has("classes") && kind != "image-folder")
    throw ConfigError(r.field("classes"), "only an image-folder source takes a class list");
  s.classes = r.string("classes", "");
  s.limit = r.integer("limit", 0, 0, kMaxConfigCount);
  s.channels = r.integer("channels", s.channels, 1, 3);
  if (s.channels == 2) throw ConfigError(r.field("channels"), "must be 1 (grey) or 3 (RGB)");
  if (fmnist && s.channels != 1) throw ConfigError(r.field("channels"), "Fashion-MNIST is grey: 1");
  TransformSpec& t = s.transform;
  t.preprocess = r.string("preprocess", t.preprocess, {"timm", "none"});
  t.interpolation = interpolation_from_string(
      r.string("interpolation", to_string(t.interpolation), {"bilinear", "bicubic"}));
  t.crop_mode =
      crop_mode_from_string(r.string("crop_mode", to_string(t.crop_mode), {"center", "squash"}));
  t.crop_pct = r.number("crop_pct", t.crop_pct, 0.0, 1.0, true);
  t.scale = pair_of(r, "scale", t.scale, 1e-6, 1.0);
  t.ratio = pair_of(r, "ratio", t.ratio, 1e-3, 1e3);
  t.hflip = r.number("hflip", t.hflip, 0.0, 1.0);
  const size_t n = size_t(s.channels);
  // Grey image files default to Fashion-MNIST's convention (pixels in [0, 1]).
  if (t.mean.size() != n) t.mean = {0.0}, t.std = {1.0};
  t.mean = r.numbers("mean", t.mean, -1e3, 1e3, 1, n);
  t.std = r.numbers("std", t.std, 1e-6, 1e3, 1, n);
  if (t.mean.size() != 1 && t.mean.size() != n)
    throw ConfigError(r.field("mean"), "needs 1 or " + std::to_string(n) + " entries");
  if (t.std.size() != 1 && t.std.size() != n)
    throw ConfigError(r.field("std"), "needs 1 or " + std::to_string(n) + " entries");
  // The stage's input size (default: the model's); position embeddings interpolate to it.
  t.resolution = r.integer("res", model.img_size, 1, 65536);
  if (t.resolution % model.patch_size != 0)
    throw ConfigError(r.field("res"), "patch size " + std::to_string(model.patch_size) +
                                          " (model.patch_size) does not divide " +
                                          std::to_string(t.resolution));
  r.finish();
  if (kind == "image-folder" && s.root.empty())
    throw ConfigError(r.field("root"), "an image-folder source needs its folder");
  if (kind == "image-list" && s.root.empty() && s.list.empty())
    throw ConfigError(r.field("list"), "an image-list source needs a list file or a folder (root)");
  if (s.channels != model.in_chans)
    throw ConfigError(r.field("channels"),
                      std::to_string(s.channels) + "-channel images, but the model takes " +
                          std::to_string(model.in_chans) + " (model.in_chans)");
  return s;
}

}  // namespace

DataConfig read_data_config(ConfigReader d, const ViTConfig& model) {
  DataConfig c;
  c.dataset = d.string("dataset", c.dataset, {"fashion-mnist"});
  c.root = d.string("root", default_fashion_mnist_root());
  c.decode_threads = d.integer("decode_threads", c.decode_threads, 0, 256);
  c.prefetch = d.integer("prefetch", c.prefetch, 0, 1024);
  c.skip_bad_images = d.string("on_bad_image", "error", {"error", "skip"}) == "skip";
  const bool per_stage = d.has("train") || d.has("eval") || d.has("alignment");
  for (const char* legacy : {"train_limit", "test_limit", "alignment_limit"})
    if (per_stage && d.has(legacy))
      throw ConfigError(d.field(legacy),
                        "with data.train / data.eval / data.alignment, give each its own limit");
  c.train_limit = d.integer("train_limit", 0, 0, kMaxConfigCount);
  c.test_limit = d.integer("test_limit", 0, 0, kMaxConfigCount);
  c.alignment_limit = d.integer("alignment_limit", 0, 0, kMaxConfigCount);

  // The Fashion-MNIST shorthand: the sources every config had before per-stage data.
  DataSourceConfig fm = source_defaults("fashion-mnist");
  fm.root = c.root;
  fm.transform.resolution = model.img_size;
  c.train = fm;
  c.train.limit = c.train_limit;
  c.eval = fm;
  c.eval.split = "test";
  c.eval.limit = c.test_limit;
  c.alignment = c.train;
  if (c.alignment_limit > 0)
    c.alignment.limit =
        c.train_limit > 0 ? std::min(c.alignment_limit, c.train_limit) : c.alignment_limit;

  if (d.has("train")) {
    c.train = read_source(d.child("train"), model);
    c.eval = c.train;
    c.alignment = c.train;
  } else if (per_stage && model.in_chans != 1) {
    throw ConfigError(d.field("train"),
                      "needed: the Fashion-MNIST default is grey, the model takes " +
                          std::to_string(model.in_chans) + " channels");
  }
  if (d.has("eval")) c.eval = read_source(d.child("eval"), model);
  if (d.has("alignment")) c.alignment = read_source(d.child("alignment"), model);
  d.finish();
  return c;
}

}  // namespace adala
