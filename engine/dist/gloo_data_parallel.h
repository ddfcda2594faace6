#pragma once
// DataParallel on PyTorch's c10d: rendezvous through a TCPStore that rank 0 serves at
// MASTER_ADDR:MASTER_PORT (or a FileStore on a shared file system), collectives on
// ProcessGroupGloo over TCP (CPU tensors, and CUDA tensors through the host) or, where
// LibTorch has it, ProcessGroupNCCL (each rank on cuda:LOCAL_RANK).
#include <memory>
#include <string>

#include "engine/dist/dist_environment.h"
#include "engine/train/data_parallel.h"

namespace adala {

// Joins the job `env` describes through env.backend. Gloo: nullptr for a world of one (there
// is nothing to share). NCCL: the group even for a world of one, each rank on cuda:LOCAL_RANK,
// with one collective run at once to set NCCL up. Throws std::runtime_error naming the store
// address and the cause when the rendezvous fails or times out, and for a backend this build
// lacks (nccl_unavailable_message()).
std::shared_ptr<DataParallel> join_data_parallel(const DistEnvironment& env);

bool gloo_available();
bool nccl_available();
// Why --backend nccl is refused here, e.g. "--backend nccl: this LibTorch was built without
// NCCL (CPU build); use --backend gloo".
std::string nccl_unavailable_message();

}  // namespace adala
