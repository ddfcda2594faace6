#include "engine/train/stage_runners.h"

#include "engine/train/stages.h"

namespace adala {

namespace {

void pretrain_teacher(StageRun& r) { TeacherPretrainingStage(r.ctx).run(r.teacher, r.data); }

void align_attention(StageRun& r) { AttentionAlignmentStage(r.ctx).run(r.student, r.data); }

void align_features(StageRun& r) { FeatureAlignmentStage(r.ctx).run(r.teacher, r.student, r.data); }

void fine_tune(StageRun& r) {
  const int64_t classes = r.ctx.config.model.num_classes;
  r.ctx.log(std::string(stage_name(3)) + ": student starts from " +
            (r.latest == 0 ? std::string("the teacher (naive swap)") : stage_name(r.latest)));
  if (r.student->config().num_classes != classes) {
    r.ctx.log(std::string(stage_name(3)) + ": the checkpoint's head has " +
              std::to_string(r.student->config().num_classes) + " classes, the data " +
              std::to_string(classes) + ": Stage 3 starts a fresh head");
    r.student->reset_head(classes);
  }
  FineTuningStage(r.ctx).run(r.student, r.data);
}

}  // namespace

const std::array<StageRunner, kStageCount>& stage_runners() {
  static const std::array<StageRunner, kStageCount> runners = {pretrain_teacher, align_attention,
                                                               align_features, fine_tune};
  return runners;
}

}  // namespace adala
