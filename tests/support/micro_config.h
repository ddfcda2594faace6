#pragma once
// The smallest experiment the training suites run: fmnist_micro, seed 7, every stage `steps`
// steps of batch 8 at lr 3e-3 (2 warm-up steps), no checkpoints.
#include <cstdint>

#include "engine/model/vit_config.h"
#include "engine/train/config/experiment_config.h"

namespace adala_test {

inline adala::ExperimentConfig micro_experiment_config(int64_t steps) {
  adala::ExperimentConfig c;
  c.model = adala::vit_preset("fmnist_micro");
  c.seed = 7;
  for (adala::StageConfig* s :
       {&c.teacher, &c.attention_alignment, &c.feature_alignment, &c.fine_tuning}) {
    s->epochs = 0;
    s->max_steps = steps;
    s->batch_size = 8;
    s->lr = 3e-3;
    s->warmup_steps = 2;
    s->checkpoint_every = 0;
  }
  return c;
}

}  // namespace adala_test
