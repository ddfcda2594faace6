#pragma once
// DataParallel on PyTorch's c10d: rendezvous through a TCPStore that rank 0 serves at
// MASTER_ADDR:MASTER_PORT (or a FileStore on a shared file system), collectives on
// ProcessGroupGloo over TCP. Gloo runs on CPU tensors and on CUDA tensors (through the host).
#include <memory>

#include "engine/dist/dist_environment.h"
#include "engine/train/data_parallel.h"

namespace adala {

// Joins the job `env` describes; nullptr for a world of one. Throws std::runtime_error naming
// the store address and the cause when the rendezvous fails or times out, and for a backend
// this build lacks (nccl needs a CUDA LibTorch with NCCL).
std::shared_ptr<DataParallel> join_data_parallel(const DistEnvironment& env);

}  // namespace adala
