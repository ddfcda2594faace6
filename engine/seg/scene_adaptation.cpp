#include "engine/seg/scene_adaptation.h"

#include <algorithm>
#include <stdexcept>

#include "engine/seg/segmentation_model.h"
#include "engine/train/config/experiment_config.h"
#include "engine/train/stages.h"

namespace adala {

VisionTransformer adapt_student_on_images(StageContext& ctx, VisionTransformer& teacher,
                                          const at::Tensor& images,
                                          const std::vector<int>& stages) {
  auto has = [&](int s) { return std::find(stages.begin(), stages.end(), s) != stages.end(); };
  if (stages.empty() ||
      !std::all_of(stages.begin(), stages.end(), [](int s) { return s == 1 || s == 2; }))
    throw std::invalid_argument("adapting a student: the stages are 1 and/or 2");
  const at::Tensor inputs = to_backbone_input(images, teacher->config().in_chans).contiguous();
  teacher->set_attention_mode(AttentionMode::Softmax);
  teacher->init_linear_from_softmax();
  teacher->eval();
  const AttentionPlan plan = student_attention_plan(ctx.config);
  VisionTransformer student = clone_model(teacher, ctx.device);
  if (has(1)) AttentionAlignmentStage(ctx).run(student, inputs);
  student->set_attention_plan(plan);
  if (has(2)) FeatureAlignmentStage(ctx).run(teacher, student, inputs);
  student->set_attention_plan(plan);
  student->eval();
  return student;
}

}  // namespace adala
