#pragma once
// Where this process stands in a data-parallel job, read as torchrun and Slurm describe it:
// RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR, MASTER_PORT (torchrun, or set by hand), else
// SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID with MASTER_ADDR/MASTER_PORT from the
// environment. Neither: a world of one.
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

namespace adala {

struct DistEnvironment {
  int rank = 0, world_size = 1, local_rank = 0;
  std::string master_addr = "127.0.0.1";
  int master_port = 29500;
  std::string store_file;  // non-empty: rendezvous through this file (a shared file system)
  std::string backend = "gloo";
  std::string source = "single process";  // "torchrun", "slurm", "single process"
  std::chrono::milliseconds rendezvous_timeout{std::chrono::seconds(60)};
  std::chrono::milliseconds collective_timeout{std::chrono::minutes(5)};
  bool distributed() const { return world_size > 1; }
};

// Reads the variables through `lookup` (nullptr for unset); throws std::invalid_argument
// naming the variable when a value is malformed or out of range (a rank outside
// [0, WORLD_SIZE), a port outside 1..65535, ...). ADALA_DIST_TIMEOUT_S (collectives, default
// 300) and ADALA_DIST_RENDEZVOUS_TIMEOUT_S (default 60) set the timeouts, ADALA_DIST_STORE_FILE
// a file store instead of TCP.
DistEnvironment read_dist_environment(const std::function<const char*(const char*)>& lookup);
DistEnvironment dist_environment_from_process();

}  // namespace adala
