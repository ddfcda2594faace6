#include "engine/dist/dist_environment.h"

#include <cstdlib>
#include <stdexcept>

namespace adala {

namespace {

int64_t parse_integer(const char* name, const char* text, int64_t low, int64_t high) {
  const std::string value(text);
  size_t used = 0;
  long long parsed = 0;
  try {
    parsed = std::stoll(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (value.empty() || used != value.size())
    throw std::invalid_argument(std::string(name) + "=\"" + value + "\" is not an integer");
  if (parsed < low || parsed > high)
    throw std::invalid_argument(std::string(name) + "=" + value + " is outside " +
                                std::to_string(low) + ".." + std::to_string(high));
  return parsed;
}

}  // namespace

DistEnvironment read_dist_environment(const std::function<const char*(const char*)>& lookup) {
  DistEnvironment env;
  constexpr int64_t kMaxWorld = 1 << 20;
  const char* world = lookup("WORLD_SIZE");
  const char* rank = lookup("RANK");
  const char* slurm_tasks = lookup("SLURM_NTASKS");
  if (world || rank) {
    if (!world || !rank)
      throw std::invalid_argument(std::string("RANK and WORLD_SIZE go together, but only ") +
                                  (world ? "WORLD_SIZE" : "RANK") + " is set");
    env.source = "torchrun";
    env.world_size = int(parse_integer("WORLD_SIZE", world, 1, kMaxWorld));
    env.rank = int(parse_integer("RANK", rank, 0, env.world_size - 1));
    if (const char* local = lookup("LOCAL_RANK"))
      env.local_rank = int(parse_integer("LOCAL_RANK", local, 0, env.world_size - 1));
  } else if (slurm_tasks) {
    env.source = "slurm";
    env.world_size = int(parse_integer("SLURM_NTASKS", slurm_tasks, 1, kMaxWorld));
    const char* procid = lookup("SLURM_PROCID");
    if (!procid) throw std::invalid_argument("SLURM_NTASKS is set but SLURM_PROCID is not");
    env.rank = int(parse_integer("SLURM_PROCID", procid, 0, env.world_size - 1));
    if (const char* local = lookup("SLURM_LOCALID"))
      env.local_rank = int(parse_integer("SLURM_LOCALID", local, 0, env.world_size - 1));
  }
  if (const char* addr = lookup("MASTER_ADDR")) {
    if (!*addr) throw std::invalid_argument("MASTER_ADDR is empty");
    env.master_addr = addr;
  }
  if (const char* port = lookup("MASTER_PORT"))
    env.master_port = int(parse_integer("MASTER_PORT", port, 1, 65535));
  if (const char* file = lookup("ADALA_DIST_STORE_FILE")) env.store_file = file;
  if (const char* backend = lookup("ADALA_DIST_BACKEND")) {
    env.backend = backend;
    if (env.backend != "gloo" && env.backend != "nccl")
      throw std::invalid_argument("ADALA_DIST_BACKEND=\"" + env.backend +
                                  "\" (allowed: gloo, nccl)");
  }
  if (const char* t = lookup("ADALA_DIST_TIMEOUT_S"))
    env.collective_timeout =
        std::chrono::seconds(parse_integer("ADALA_DIST_TIMEOUT_S", t, 1, 86400));
  if (const char* t = lookup("ADALA_DIST_RENDEZVOUS_TIMEOUT_S"))
    env.rendezvous_timeout =
        std::chrono::seconds(parse_integer("ADALA_DIST_RENDEZVOUS_TIMEOUT_S", t, 1, 86400));
  return env;
}

DistEnvironment dist_environment_from_process() {
  return read_dist_environment([](const char* name) { return std::getenv(name); });
}

}  // namespace adala
