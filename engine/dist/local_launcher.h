#pragma once
// `adala run --nproc N`: N worker processes on this machine, started as torchrun starts them
// (RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR, MASTER_PORT in their environment). The launcher
// waits for all; when one fails, it stops the others (SIGTERM, then SIGKILL after a grace
// period) and reports which rank failed first. Workers die with the launcher (no orphans).
#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace adala {

struct LaunchOptions {
  int nproc = 1;
  std::vector<std::string> argv;  // the worker's command line; argv[0] is the executable
  std::string master_addr = "127.0.0.1";
  int master_port = 0;  // 0: a free port of this machine
  std::chrono::milliseconds grace{std::chrono::seconds(10)};
};

struct LaunchResult {
  int exit_code = 0;  // 0 when every rank succeeded; else the first failure's status
  int first_failed_rank = -1;
  std::string message;  // empty on success
};

// A TCP port nobody listens on right now (bound to port 0 and released).
int free_tcp_port();
LaunchResult launch_local_workers(const LaunchOptions& options,
                                  const std::function<void(const std::string&)>& log);

}  // namespace adala
