#pragma once
// What can go wrong with a run's input is checked before the run is recorded or a folder is
// made: a bad stage list, absent or malformed data, a model that does not fit the data, a
// teacher file that cannot be loaded. Each is a ConfigError naming the thing.
#include "engine/train/config/experiment_config.h"
#include "engine/train/pipeline.h"

namespace adala {

// Throws ConfigError: field "--stages", "data.root", "model.<field>" or "teacher.weights".
void check_run_inputs(const ExperimentConfig& config, const PipelineOptions& options);

}  // namespace adala
