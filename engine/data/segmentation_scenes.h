#pragma once
// Synthetic segmentation scenes: real Fashion-MNIST garments placed, scaled, tinted and
// overlapping on procedural backgrounds, with a per-pixel class mask (0 background, 1..10 =
// Fashion-MNIST label + 1). A garment covers the pixels where its resized intensity exceeds
// the threshold; later garments occlude earlier ones. Scene `index` of a generator depends on
// (seed, index) alone, and positions are fractions of the side, so it renders at any size.
#include <ATen/ATen.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/data/fashion_mnist.h"
#include "engine/data/procedural_texture.h"
#include "engine/data/segmentation_dataset.h"

namespace adala {

struct SceneOptions {
  int64_t image_size = 112;
  int64_t min_garments = 2;
  int64_t max_garments = 5;
  double min_scale = 0.25;  // garment side as a fraction of the image side
  double max_scale = 0.5;
  double threshold = 0.2;  // garment intensity (0..1) above which a pixel is garment
  double background_min = 0.0, background_max = 0.6;  // texture colour range
  // Throws std::invalid_argument naming the bad field.
  void validate() const;
};

struct GarmentPlacement {
  int64_t source = 0;                        // index into the garment pool
  double x = 0, y = 0;                       // top-left corner, fractions of the side
  double size = 0.25;                        // side, fraction of the image side
  bool flip = false;                         // mirrored horizontally
  std::array<float, 3> tint{1.f, 1.f, 1.f};  // RGB multiplier of the garment's intensity
};

struct SceneLayout {
  TextureSpec background;
  std::vector<GarmentPlacement> garments;  // drawing order: later ones on top
};

struct SegmentationScene {
  at::Tensor image;  // (3, H, W) float in [0, 1]
  at::Tensor mask;   // (H, W) uint8
};

class SceneGenerator {
 public:
  // garments: a pool of (N, 1, 28, 28) images in [0, 1] with labels 0..9.
  SceneGenerator(ImageDataset garments, SceneOptions options, uint64_t seed);

  SceneLayout layout(int64_t index) const;
  SegmentationScene render(const SceneLayout& layout) const;
  SegmentationScene render(const SceneLayout& layout, int64_t image_size) const;
  SegmentationScene scene(int64_t index) const { return render(layout(index)); }
  // Scenes first .. first + count - 1, ids "000000"-style; images float, or rounded to uint8
  // (image_type kByte: a quarter of the memory, e.g. for a long pretraining stream).
  SegmentationDataset generate(int64_t count, int64_t first = 0,
                               at::ScalarType image_type = at::kFloat) const;

  const SceneOptions& options() const { return options_; }
  const ImageDataset& garments() const { return garments_; }
  // The garment's pixel footprint: (s, s) intensity of `source` resized to s px (and mirrored).
  at::Tensor garment_pixels(const GarmentPlacement& g, int64_t image_size) const;
  // Pixel rectangle of a placement at a resolution: left, top, side.
  std::array<int64_t, 3> garment_box(const GarmentPlacement& g, int64_t image_size) const;

 private:
  ImageDataset garments_;
  SceneOptions options_;
  uint64_t seed_;
};

// Training scenes draw garments from the Fashion-MNIST train split, validation scenes from
// the test split, and the two use different layout streams. split: "training"|"validation".
SceneGenerator make_scene_generator(const std::string& fashion_mnist_root, const std::string& split,
                                    const SceneOptions& options, uint64_t seed,
                                    int64_t garment_limit = 0);

}  // namespace adala
