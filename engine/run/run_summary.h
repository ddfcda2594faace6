#pragma once
#include <string>

#include "engine/train/config/experiment_config.h"
#include "engine/train/pipeline.h"

namespace adala {

// A short Markdown summary of one pipeline run, written next to its weights.
std::string run_summary_markdown(const ExperimentConfig& config, const PipelineResult& result);

// Where write_run_summary puts it: <run_dir>/summary.md.
std::string run_summary_path(const std::string& run_dir);

// Writes the summary into the run folder; returns its path. Throws std::runtime_error when the
// file cannot be written.
std::string write_run_summary(const ExperimentConfig& config, const PipelineResult& result);

}  // namespace adala
