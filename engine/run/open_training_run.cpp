#include "engine/run/open_training_run.h"

#include <exception>

#include "engine/train/data_parallel.h"
#include "engine/train/run_preflight.h"

namespace adala {

namespace {

// The tags a data-parallel run is recorded with besides the front end's.
std::vector<std::string> data_parallel_tags(DataParallel& parallel, const std::string& hosts) {
  return {"data-parallel: " + std::to_string(parallel.world_size()) + " processes, " +
              parallel.backend(),
          "hosts: " + hosts};
}

}  // namespace

std::unique_ptr<RunSession> open_training_run(const ExperimentConfig& config,
                                              PipelineOptions& options,
                                              const RunTracking& tracking) {
  check_run_inputs(config, options);
  const std::string hosts = options.parallel ? hosts_of_ranks(*options.parallel) : "";
  if (options.parallel && options.parallel->rank() != 0) return nullptr;
  if (options.run_dir.empty()) options.run_dir = make_run_dir(config);
  try {
    RunRecord record = training_run_record(config, options);
    record.tags = tracking.tags;
    if (options.parallel)
      for (auto& tag : data_parallel_tags(*options.parallel, hosts))
        record.tags.push_back(std::move(tag));
    return std::make_unique<RunSession>(tracking.database, record);
  } catch (const std::exception& e) {
    std::throw_with_nested(RunRecordError(e.what()));
  }
}

}  // namespace adala
