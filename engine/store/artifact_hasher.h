#pragma once
// Hashes artifact files (checkpoints, reports) on one worker thread, in the order they were
// queued, so a training step never waits for a checkpoint's SHA-256. RunStore records the
// artifact at once and writes each digest when it is ready (RunStore::Impl).
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/store/sha256.h"

namespace adala::store {

class ArtifactHasher {
 public:
  struct Job {
    int64_t run = 0;
    std::string path;
    uint64_t ticket = 0;  // increasing: a later job for the same file supersedes earlier ones
  };
  struct Result {
    Job job;
    FileDigest digest;
    std::string error;  // non-empty: the file could not be read
  };

  ArtifactHasher() = default;
  ~ArtifactHasher();  // finishes the queued jobs, then stops the worker
  ArtifactHasher(const ArtifactHasher&) = delete;
  ArtifactHasher& operator=(const ArtifactHasher&) = delete;

  // Queues `path`; returns the job's ticket.
  uint64_t submit(int64_t run, const std::string& path);
  // The finished jobs, in queue order, since the last call. Never blocks on hashing.
  std::vector<Result> take_results();
  bool has_results() const;
  // Blocks until every queued job has a result.
  void wait_idle();

 private:
  void work();

  mutable std::mutex mutex_;
  std::condition_variable wake_, idle_;
  std::deque<Job> queue_;
  std::vector<Result> done_;
  bool busy_ = false, stop_ = false;
  uint64_t next_ticket_ = 1;
  std::thread worker_;  // started by the first submit
};

}  // namespace adala::store
