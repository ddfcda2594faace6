#include "engine/dist/c10d_data_parallel.h"

#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include <chrono>
#include <thread>

namespace adala::dist_detail {

std::string store_description(const DistEnvironment& env) {
  return env.store_file.empty()
             ? "the TCP store at " + env.master_addr + ":" + std::to_string(env.master_port)
             : "the file store " + env.store_file;
}

c10::intrusive_ptr<c10d::Store> connect_store(const DistEnvironment& env) {
  if (!env.store_file.empty()) {
    auto store = c10::make_intrusive<c10d::FileStore>(env.store_file, env.world_size);
    store->setTimeout(env.rendezvous_timeout);
    return store;
  }
  c10d::TCPStoreOptions options;
  options.port = static_cast<std::uint16_t>(env.master_port);
  options.isServer = env.rank == 0;
  options.numWorkers = env.world_size;
  options.waitWorkers = true;
  options.timeout = env.rendezvous_timeout;
  return c10::make_intrusive<c10d::TCPStore>(env.master_addr, options);
}

std::string missing_ranks(c10d::Store& store, const DistEnvironment& env) {
  constexpr auto kWindow = std::chrono::seconds(3);
  const std::string prefix = "adala/after-failure/";
  try {
    store.setTimeout(kWindow);
    store.set(prefix + std::to_string(env.rank), std::vector<uint8_t>{1});
    std::vector<int> missing;
    const auto deadline = std::chrono::steady_clock::now() + kWindow;
    do {
      missing.clear();
      for (int r = 0; r < env.world_size; ++r)
        if (!store.check({prefix + std::to_string(r)})) missing.push_back(r);
      if (missing.empty()) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    } while (std::chrono::steady_clock::now() < deadline);
    if (missing.empty()) return "every rank is still there (a collective timed out or failed)";
    std::string names;
    for (int r : missing) names += (names.empty() ? "" : ", ") + std::to_string(r);
    return (missing.size() == 1 ? "rank " : "ranks ") + names + " stopped or stopped answering";
  } catch (const std::exception&) {
    if (env.store_file.empty())
      return "rank 0 stopped (its store at " + env.master_addr + ":" +
             std::to_string(env.master_port) + " is gone)";
    return "the file store " + env.store_file + " cannot be read";
  }
}

}  // namespace adala::dist_detail
