#include "engine/data/segmentation_scenes.h"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include <ATen/ops/adaptive_avg_pool2d.h>
#include <ATen/ops/upsample_bilinear2d.h>

#include "engine/data/split_mix.h"

namespace adala {

namespace {

// Layout streams of the two splits never coincide, whatever the seed.
constexpr uint64_t kValidationStream = 0x5EC0'DA7A'0000'0001ull;

void require(bool ok, const std::string& field, const std::string& reason) {
  if (!ok) throw std::invalid_argument("SceneOptions." + field + ": " + reason);
}

}  // namespace

void SceneOptions::validate() const {
  require(image_size >= 8 && image_size <= 8192, "image_size", "must be in 8..8192");
  require(min_garments >= 0, "min_garments", "must be >= 0");
  require(max_garments >= min_garments && max_garments <= 64, "max_garments",
          "must be in min_garments..64");
  require(min_scale > 0 && min_scale <= max_scale, "min_scale", "must be in (0, max_scale]");
  require(max_scale <= 1, "max_scale", "must be <= 1");
  require(threshold >= 0 && threshold < 1, "threshold", "must be in [0, 1)");
  require(background_min >= 0 && background_min <= background_max && background_max <= 1,
          "background_min", "need 0 <= background_min <= background_max <= 1");
}

SceneGenerator::SceneGenerator(ImageDataset garments, SceneOptions options, uint64_t seed)
    : garments_(std::move(garments)), options_(options), seed_(seed) {
  options_.validate();
  if (garments_.size() == 0) throw std::invalid_argument("SceneGenerator: empty garment pool");
  if (garments_.images.dim() != 4 || garments_.images.size(1) != 1)
    throw std::invalid_argument("SceneGenerator: garments must be (N, 1, H, W)");
  garments_.images = garments_.images.to(at::kFloat).contiguous();
  garments_.labels = garments_.labels.to(at::kLong).contiguous();
}

SceneLayout SceneGenerator::layout(int64_t index) const {
  SplitMix64 rng(seed_, uint64_t(index));
  SceneLayout l;
  l.background = random_texture(rng, options_.background_min, options_.background_max);
  const int64_t n = rng.integer(options_.min_garments, options_.max_garments);
  for (int64_t i = 0; i < n; ++i) {
    GarmentPlacement g;
    g.source = rng.integer(0, garments_.size() - 1);
    g.size = rng.uniform(options_.min_scale, options_.max_scale);
    g.x = rng.uniform(0.0, 1.0 - g.size);
    g.y = rng.uniform(0.0, 1.0 - g.size);
    g.flip = rng.coin();
    const double brightness = rng.uniform(0.8, 1.0);
    for (auto& c : g.tint) c = float(brightness * rng.uniform(0.7, 1.0));
    l.garments.push_back(g);
  }
  return l;
}

std::array<int64_t, 3> SceneGenerator::garment_box(const GarmentPlacement& g, int64_t s) const {
  const int64_t side = std::clamp<int64_t>(std::llround(g.size * double(s)), 2, s);
  const int64_t left = std::clamp<int64_t>(std::llround(g.x * double(s)), 0, s - side);
  const int64_t top = std::clamp<int64_t>(std::llround(g.y * double(s)), 0, s - side);
  return {left, top, side};
}

at::Tensor SceneGenerator::garment_pixels(const GarmentPlacement& g, int64_t image_size) const {
  if (g.source < 0 || g.source >= garments_.size())
    throw std::out_of_range("garment source " + std::to_string(g.source) + " outside the pool");
  const int64_t side = garment_box(g, image_size)[2];
  auto src = garments_.images.select(0, g.source).unsqueeze(0);  // (1, 1, 28, 28)
  // Area averaging when shrinking (no aliasing), bilinear when enlarging.
  auto px = side < src.size(-1) ? at::adaptive_avg_pool2d(src, {side, side})
                                : at::upsample_bilinear2d(src, {side, side}, false);
  px = px.view({side, side}).clamp(0.0, 1.0);
  return g.flip ? px.flip({1}).contiguous() : px.contiguous();
}

SegmentationScene SceneGenerator::render(const SceneLayout& layout) const {
  return render(layout, options_.image_size);
}

SegmentationScene SceneGenerator::render(const SceneLayout& layout, int64_t s) const {
  SegmentationScene scene;
  scene.image = render_texture(layout.background, s, s);
  scene.mask = at::zeros({s, s}, at::kByte);
  const float threshold = float(options_.threshold);
  for (const auto& g : layout.garments) {
    const auto box = garment_box(g, s);
    auto px = garment_pixels(g, s);
    auto on = px.gt(threshold);
    auto tint = at::tensor(std::vector<float>(g.tint.begin(), g.tint.end())).view({3, 1, 1});
    auto img = scene.image.narrow(1, box[1], box[2]).narrow(2, box[0], box[2]);
    img.copy_(at::where(on.unsqueeze(0), px.unsqueeze(0) * tint, img));
    auto m = scene.mask.narrow(0, box[1], box[2]).narrow(1, box[0], box[2]);
    const auto cls = garments_.labels[g.source].item<int64_t>() + 1;
    m.masked_fill_(on, cls);
  }
  return scene;
}

SegmentationDataset SceneGenerator::generate(int64_t count, int64_t first,
                                             at::ScalarType image_type) const {
  if (image_type != at::kFloat && image_type != at::kByte)
    throw std::invalid_argument("SceneGenerator::generate: images are float or uint8");
  SegmentationDataset d;
  d.classes = fashion_scene_classes();
  d.background = kSceneBackground;
  const int64_t s = options_.image_size;
  d.images = at::empty({count, 3, s, s}, image_type);
  d.masks = at::empty({count, s, s}, at::kByte);
  for (int64_t i = 0; i < count; ++i) {
    auto scene = this->scene(first + i);
    if (image_type == at::kByte)
      d.images[i].copy_(scene.image.mul(255.0).round_());
    else
      d.images[i].copy_(scene.image);
    d.masks[i].copy_(scene.mask);
    const std::string id = fmt::format("{:06}", first + i);
    d.ids.emplace_back(id);
  }
  return d;
}

SceneGenerator make_scene_generator(const std::string& root, const std::string& split,
                                    const SceneOptions& options, uint64_t seed,
                                    int64_t garment_limit) {
  if (split != "training" && split != "validation")
    throw std::invalid_argument("scene split must be \"training\" or \"validation\", got \"" +
                                split + "\"");
  const bool train = split == "training";
  ImageDataset pool = load_fashion_mnist(root, train ? "train" : "test", garment_limit);
  return SceneGenerator(std::move(pool), options, train ? seed : seed ^ kValidationStream);
}

}  // namespace adala
