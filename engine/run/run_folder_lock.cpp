#include "engine/run/run_folder_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace adala {

namespace {

std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "unknown";
  return name;
}

// The holder's "pid P on host H" as it wrote it; a file being rewritten may read empty.
std::string holder(int fd) {
  char buf[512] = {};
  const ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
  std::string text = n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text.empty() ? "another process" : text;
}

}  // namespace

std::string RunFolderLock::lock_path(const std::string& folder) { return folder + "/run.lock"; }

RunFolderLock::RunFolderLock(const std::string& folder) {
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  const std::string path = lock_path(folder);
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0)
    throw std::runtime_error("run folder " + folder + ": cannot open " + path + ": " +
                             std::strerror(errno));
  if (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int e = errno;
    const std::string who = e == EWOULDBLOCK ? holder(fd_) : std::string();
    ::close(fd_);
    fd_ = -1;
    if (e == EWOULDBLOCK)
      throw RunFolderBusy("run folder " + folder + " is in use by " + who +
                          " (one writer per run; wait for it to end or stop it first)");
    throw std::runtime_error("run folder " + folder + ": cannot lock " + path + ": " +
                             std::strerror(e));
  }
  const std::string me = "pid " + std::to_string(::getpid()) + " on host " + host_name() + "\n";
  if (ftruncate(fd_, 0) != 0 || pwrite(fd_, me.data(), me.size(), 0) < 0) {
    // The lock holds without the note; a refused writer then says "another process".
  }
}

RunFolderLock::~RunFolderLock() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace adala
