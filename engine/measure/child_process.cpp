#include "engine/measure/child_process.h"

#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <thread>

#include <ATen/Parallel.h>

namespace adala {

namespace {

void write_all(int fd, const std::string& data) {
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return;  // the parent went away; nothing useful left to do
    }
    done += static_cast<size_t>(n);
  }
}

[[noreturn]] void child_main(int fd, const std::function<std::string()>& fn, int threads) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // die with the benchmark, never linger
  ::signal(SIGPIPE, SIG_IGN);
  std::string message;
  std::thread worker([&] {
    try {
      at::set_num_threads(threads);
      message = "O" + fn();
    } catch (const std::exception& e) {
      message = std::string("E") + e.what();
    } catch (...) {
      message = "Eunknown exception";
    }
  });
  worker.join();
  write_all(fd, message);
  ::close(fd);
  ::_exit(0);  // no atexit handlers or static destructors of the parent's copy
}

}  // namespace

ChildOutcome run_in_child(const std::function<std::string()>& fn, double timeout_s) {
  const int threads = at::get_num_threads();
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  std::fflush(stdout);  // else the child's exit could write the parent's buffered text twice
  std::fflush(stderr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    ::close(fds[0]);
    child_main(fds[1], fn, threads);
  }
  ::close(fds[1]);

  ChildOutcome out;
  std::string data;
  const auto start = std::chrono::steady_clock::now();
  char buf[65536];
  for (;;) {
    int wait_ms = -1;
    if (timeout_s > 0) {
      const double left =
          timeout_s -
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (left <= 0) {
        out.timed_out = true;
        break;
      }
      wait_ms = static_cast<int>(left * 1000.0) + 1;
    }
    pollfd p{fds[0], POLLIN, 0};
    const int r = ::poll(&p, 1, wait_ms);
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) continue;  // re-check the deadline
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // EOF: the child closed its end or died
    data.append(buf, static_cast<size_t>(n));
  }
  ::close(fds[0]);
  if (out.timed_out) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (out.timed_out) {
    out.error = "timed out after " + std::to_string(static_cast<int>(timeout_s)) + " s";
    return out;
  }
  if (WIFSIGNALED(status)) {
    out.term_signal = WTERMSIG(status);
    out.error = "child killed by signal " + std::to_string(out.term_signal) +
                (out.term_signal == SIGKILL ? " (out of memory?)" : "");
    return out;
  }
  if (data.empty()) {
    out.error =
        "child exited without a result (status " + std::to_string(WEXITSTATUS(status)) + ")";
    return out;
  }
  if (data[0] == 'O') {
    out.ok = true;
    out.payload = data.substr(1);
  } else {
    out.error = data.substr(1);
  }
  return out;
}

}  // namespace adala
