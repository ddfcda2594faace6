#include "engine/dist/local_launcher.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <stdexcept>
#include <thread>

namespace adala {

int free_tcp_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof(addr);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    const std::string error = std::strerror(errno);
    ::close(fd);
    throw std::runtime_error("cannot find a free TCP port: " + error);
  }
  ::close(fd);
  return ntohs(addr.sin_port);
}

namespace {

std::string describe_status(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status))
    return std::string("was killed by signal ") + std::to_string(WTERMSIG(status)) + " (" +
           strsignal(WTERMSIG(status)) + ")";
  return "stopped";
}

int exit_code_of(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

}  // namespace

LaunchResult launch_local_workers(const LaunchOptions& options,
                                  const std::function<void(const std::string&)>& log) {
  if (options.nproc < 1) throw std::invalid_argument("--nproc must be at least 1");
  if (options.argv.empty()) throw std::invalid_argument("no worker command line");
  const int port = options.master_port > 0 ? options.master_port : free_tcp_port();
  std::vector<char*> argv;
  for (const auto& a : options.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t launcher = ::getpid();
  std::map<pid_t, int> ranks;  // running workers
  for (int rank = 0; rank < options.nproc; ++rank) {
    const pid_t pid = ::fork();
    if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
    if (pid == 0) {
      // The worker ends when the launcher does, whatever ends it.
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() != launcher) ::_exit(1);
      ::setenv("RANK", std::to_string(rank).c_str(), 1);
      ::setenv("LOCAL_RANK", std::to_string(rank).c_str(), 1);
      ::setenv("WORLD_SIZE", std::to_string(options.nproc).c_str(), 1);
      ::setenv("MASTER_ADDR", options.master_addr.c_str(), 1);
      ::setenv("MASTER_PORT", std::to_string(port).c_str(), 1);
      ::execv(argv[0], argv.data());
      std::fprintf(stderr, "rank %d: cannot start %s: %s\n", rank, argv[0], std::strerror(errno));
      ::_exit(127);
    }
    ranks[pid] = rank;
  }
  log("started " + std::to_string(options.nproc) + " processes (MASTER_ADDR " +
      options.master_addr + ", MASTER_PORT " + std::to_string(port) + ")");
  // Ctrl-C reaches the workers too (same process group); the launcher waits for them.
  struct sigaction ignore {
  }, previous_int{}, previous_term{};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGINT, &ignore, &previous_int);

  LaunchResult result;
  auto stop_others = [&](int signal) {
    for (const auto& [pid, rank] : ranks) ::kill(pid, signal);
  };
  std::chrono::steady_clock::time_point kill_at{};
  while (!ranks.empty()) {
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, result.first_failed_rank >= 0 ? WNOHANG : 0);
    if (pid < 0) {
      if (errno == EINTR) continue;
      break;  // no children left
    }
    if (pid == 0) {  // stopping the others: escalate after the grace period
      if (std::chrono::steady_clock::now() >= kill_at) stop_others(SIGKILL);
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      continue;
    }
    auto it = ranks.find(pid);
    if (it == ranks.end()) continue;
    const int rank = it->second;
    ranks.erase(it);
    const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (!ok && result.first_failed_rank < 0) {
      result.first_failed_rank = rank;
      result.exit_code = exit_code_of(status);
      result.message = "rank " + std::to_string(rank) + " " + describe_status(status) +
                       "; stopping the other ranks";
      log(result.message);
      stop_others(SIGTERM);
      kill_at = std::chrono::steady_clock::now() + options.grace;
    }
  }
  ::sigaction(SIGINT, &previous_int, nullptr);
  (void)previous_term;
  return result;
}

}  // namespace adala
