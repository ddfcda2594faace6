#pragma once
// What each stage of kStages does (stage_catalog.h), in the same order: run_pipeline looks a
// stage's runner up here and does everything the stages share (resume, saving, the attention
// mode, the evaluation) from the stage's table entry.
#include <array>

#include "engine/model/vision_transformer.h"
#include "engine/train/stage_catalog.h"
#include "engine/train/stage_context.h"
#include "engine/train/stage_data.h"

namespace adala {

struct StageRun {
  StageContext& ctx;
  VisionTransformer& teacher;
  VisionTransformer& student;  // Stage 0 trains the teacher and leaves it alone
  const StageData& data;       // the stage's data role (StageSpec::data)
  int latest = 0;              // the stage the student comes from (0: the teacher itself)
};

using StageRunner = void (*)(StageRun&);

const std::array<StageRunner, kStageCount>& stage_runners();

}  // namespace adala
