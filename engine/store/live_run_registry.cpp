// Which runs a live RunStore of this process is writing: lets a store tell "running, by a
// store of this very process" from "running, but that store was destroyed" — the process
// token alone cannot, it is the same for both.
#include <mutex>
#include <set>
#include <utility>

#include "engine/store/run_store_impl.h"

namespace adala::store {
namespace {

std::mutex& registry_mutex() {
  static std::mutex mutex;
  return mutex;
}

std::set<std::pair<std::string, int64_t>>& registry() {
  static std::set<std::pair<std::string, int64_t>> live;
  return live;
}

}  // namespace

void register_live_run(const std::string& canonical_path, int64_t run) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  registry().insert({canonical_path, run});
}

void unregister_live_run(const std::string& canonical_path, int64_t run) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  registry().erase({canonical_path, run});
}

bool is_live_run(const std::string& canonical_path, int64_t run) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  return registry().count({canonical_path, run}) > 0;
}

}  // namespace adala::store
