#pragma once
// A cheap look at the data paths of a parsed experiment: each source's folder or list file
// exists and is of the right kind. Nothing is listed or decoded, so a form can call it on
// every keystroke; the full checks (empty class folders, bad images) happen when the run opens
// its data.
#include "engine/train/config/experiment_config.h"

namespace adala {

// Throws ConfigError naming the field the document holds: "data.root" (the Fashion-MNIST
// shorthand), "data.<train|eval|alignment>.root" or ".list". Sources the document leaves out
// (copies of data.train) are not checked twice.
void check_data_paths(const ExperimentConfig& config);

}  // namespace adala
