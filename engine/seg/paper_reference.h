#pragma once
// The paper's high-resolution segmentation row (ViT-AdaLA project page: Cityscapes at 1024²,
// DINOv2-L, H100, batch 1), shown beside this engine's resolution sweep.
namespace adala {

struct PaperSegmentationPoint {
  double miou, img_per_s, peak_mb;
};

struct PaperSegmentationReference {
  const char* dataset;
  int image_size;
  PaperSegmentationPoint teacher, student;
};

inline constexpr PaperSegmentationReference kPaperCityscapes{
    "Cityscapes", 1024, {0.8098, 7.07, 3283.6}, {0.7873, 15.95, 1376.4}};

}  // namespace adala
