#pragma once
// What a segmentation job reports: summary.json, summary.md and the extra entries of each
// head's index.json ("story", "sweep", "paper_reference": results_folder.h).
#include <string>

#include "engine/json/json.h"
#include "engine/seg/segmentation_job.h"

namespace adala {

// The run's story in one line: "112x112 · backbone fine-tuned (lr x 0.5, layer decay 0.75) ·
// linear + mask2former heads · 600 training scenes".
std::string segmentation_story_line(const SegmentationJobResult& result);

// index.json's "story", "sweep" (this head's rows) and "paper_reference".
Json segmentation_index_extra(const SegmentationJobResult& result, SegmentationHeadKind head);

Json segmentation_job_summary_json(const ExperimentConfig& config,
                                   const std::string& teacher_weights,
                                   const SegmentationJobResult& result);

// Markdown: the story, per head teacher / student mIoU, gap, pixel accuracy, the resolution
// sweep beside the paper's Cityscapes row, then per-class IoU.
std::string segmentation_summary_markdown(const SegmentationJobResult& result);

}  // namespace adala
