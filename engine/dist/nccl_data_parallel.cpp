// The NCCL process group: compiled where CMake found LibTorch's ProcessGroupNCCL and nccl.h and
// a program using them linked (ADALA_HAVE_NCCL, engine/CMakeLists.txt).
#include "engine/dist/c10d_data_parallel.h"

#include <stdexcept>

#ifdef ADALA_HAVE_NCCL
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

namespace adala::dist_detail {

#ifdef ADALA_HAVE_NCCL
std::shared_ptr<DataParallel> join_nccl(const DistEnvironment& env) {
  const c10::Device device(c10::kCUDA, static_cast<c10::DeviceIndex>(env.local_rank));
  try {
    auto store = connect_store(env);
    auto options = c10d::ProcessGroupNCCL::Options::create();
    options->timeout = env.collective_timeout;
    auto group =
        c10::make_intrusive<c10d::ProcessGroupNCCL>(store, env.rank, env.world_size, options);
    store->setTimeout(env.collective_timeout);
    auto parallel = std::make_shared<C10dDataParallel<c10d::ProcessGroupNCCL>>(env, "nccl", store,
                                                                               group, device);
    // NCCL sets up its communicator on the first collective: one now, so that a rank that
    // cannot reach the others (or its GPU) fails here rather than in the first step.
    parallel->barrier();
    return parallel;
  } catch (const DataParallelError&) {
    throw;
  } catch (const std::exception& e) {
    throw std::runtime_error("rank " + std::to_string(env.rank) + " of " +
                             std::to_string(env.world_size) + " on " + device.str() +
                             " could not join the NCCL group through " + store_description(env) +
                             ": " + e.what());
  }
}
#else
std::shared_ptr<DataParallel> join_nccl(const DistEnvironment&) {
  throw std::logic_error("join_nccl: this build has no NCCL");
}
#endif

}  // namespace adala::dist_detail
