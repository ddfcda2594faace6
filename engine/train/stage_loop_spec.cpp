#include "engine/train/stages.h"

namespace adala {

TrainingLoopSpec stage_loop_spec(const StageContext& ctx, const std::string& stage,
                                 const StageConfig& cfg, int64_t dataset_size, uint64_t seed) {
  TrainingLoopSpec spec{stage, cfg, dataset_size, seed, ctx.checkpoint_path(stage)};
  spec.parallel = ctx.parallel.get();
  spec.profile_steps = ctx.profile_steps;
  if (!ctx.run_dir.empty()) spec.profile_path = ctx.run_dir + "/profile-" + stage + ".md";
  return spec;
}

}  // namespace adala
