#pragma once
#include <string>

#include "engine/train/experiment_config.h"
#include "engine/train/pipeline.h"

namespace adala::cli {

// A short Markdown summary of one pipeline run, written next to its weights.
std::string run_summary_markdown(const ExperimentConfig& config, const PipelineResult& result);

}  // namespace adala::cli
