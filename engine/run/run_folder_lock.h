#pragma once
// One live writer per run folder: an exclusive flock on <folder>/run.lock, held for the
// session's life, with the holder's pid and host written in the file so that a second writer
// (`adala run --resume` of a run still training) is refused naming who has it. The kernel drops
// the lock when its process dies, so a killed run can be resumed at once.
#include <stdexcept>
#include <string>

namespace adala {

class RunFolderBusy : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class RunFolderLock {
 public:
  // Creates the folder when needed. Throws RunFolderBusy ("run folder F is in use by pid P on
  // host H") when another open lock holds it, std::runtime_error when the file cannot be made.
  explicit RunFolderLock(const std::string& folder);
  ~RunFolderLock();
  RunFolderLock(const RunFolderLock&) = delete;
  RunFolderLock& operator=(const RunFolderLock&) = delete;

  static std::string lock_path(const std::string& folder);

 private:
  int fd_ = -1;
};

}  // namespace adala
