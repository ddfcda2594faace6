#include "engine/store/artifact_hasher.h"

#include <exception>

namespace adala::store {

ArtifactHasher::~ArtifactHasher() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (worker_.joinable()) worker_.join();
}

uint64_t ArtifactHasher::submit(int64_t run, const std::string& path) {
  std::lock_guard<std::mutex> lock(mutex_);
  const uint64_t ticket = next_ticket_++;
  queue_.push_back({run, path, ticket});
  if (!worker_.joinable()) worker_ = std::thread([this] { work(); });
  wake_.notify_one();
  return ticket;
}

std::vector<ArtifactHasher::Result> ArtifactHasher::take_results() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<Result> out = std::move(done_);
  done_.clear();
  return out;
}

bool ArtifactHasher::has_results() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return !done_.empty();
}

void ArtifactHasher::wait_idle() {
  std::unique_lock<std::mutex> lock(mutex_);
  idle_.wait(lock, [this] { return queue_.empty() && !busy_; });
}

void ArtifactHasher::work() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    wake_.wait(lock, [this] { return stop_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, and nothing is left to hash
    Result result;
    result.job = std::move(queue_.front());
    queue_.pop_front();
    busy_ = true;
    lock.unlock();
    try {
      result.digest = sha256_file(result.job.path);
    } catch (const std::exception& e) {
      result.error = e.what();
    }
    lock.lock();
    busy_ = false;
    done_.push_back(std::move(result));
    if (queue_.empty()) idle_.notify_all();
  }
}

}  // namespace adala::store
