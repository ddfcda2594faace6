#include "engine/dist/gloo_data_parallel.h"

#include <cstdlib>
#include <stdexcept>

#ifdef ADALA_HAVE_GLOO
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#endif

#include "engine/dist/c10d_data_parallel.h"

namespace adala {

namespace {

#ifdef ADALA_HAVE_GLOO
bool is_loopback(const std::string& host) {
  return host == "localhost" || host.rfind("127.", 0) == 0 || host == "::1";
}

std::shared_ptr<DataParallel> join_gloo(const DistEnvironment& env) {
  try {
    auto store = dist_detail::connect_store(env);
    auto options = c10d::ProcessGroupGloo::Options::create(env.collective_timeout);
    if (const char* interface = std::getenv("GLOO_SOCKET_IFNAME"))
      options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForInterface(interface));
    else if (is_loopback(env.master_addr))
      options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
    else
      options->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
    auto group =
        c10::make_intrusive<c10d::ProcessGroupGloo>(store, env.rank, env.world_size, options);
    // The rendezvous is over; from here on a rank that does not answer is a failure, which the
    // collective timeout bounds.
    store->setTimeout(env.collective_timeout);
    return std::make_shared<dist_detail::C10dDataParallel<c10d::ProcessGroupGloo>>(
        env, "gloo", store, group, c10::nullopt);
  } catch (const std::exception& e) {
    throw std::runtime_error("rank " + std::to_string(env.rank) + " of " +
                             std::to_string(env.world_size) + " could not join through " +
                             dist_detail::store_description(env) + ": " + e.what());
  }
}
#endif

}  // namespace

bool gloo_available() {
#ifdef ADALA_HAVE_GLOO
  return true;
#else
  return false;
#endif
}

bool nccl_available() {
#ifdef ADALA_HAVE_NCCL
  return true;
#else
  return false;
#endif
}

std::string nccl_unavailable_message() {
#ifdef ADALA_TORCH_CUDA
  return "--backend nccl: this build found no NCCL process group in its CUDA LibTorch "
         "(ProcessGroupNCCL.hpp and nccl.h at configure time); use --backend gloo";
#else
  return "--backend nccl: this LibTorch was built without NCCL (CPU build); use --backend gloo";
#endif
}

std::shared_ptr<DataParallel> join_data_parallel(const DistEnvironment& env) {
  if (env.backend == "nccl") {
    if (!nccl_available()) throw std::runtime_error(nccl_unavailable_message());
    return dist_detail::join_nccl(env);
  }
  if (env.backend != "gloo")
    throw std::runtime_error("backend " + env.backend + " is unknown (gloo or nccl)");
  if (!env.distributed()) return nullptr;
#ifdef ADALA_HAVE_GLOO
  return join_gloo(env);
#else
  throw std::runtime_error(
      "--backend gloo: this build has no Gloo process group (libgloo-dev was not found at "
      "configure time); use --backend nccl");
#endif
}

}  // namespace adala
