#pragma once
// Data parallelism as the training loop sees it: this process is rank r of W, every rank runs
// the same steps on its own slice of each global batch, and a few collectives keep the ranks
// identical. The loop depends only on this interface; engine/dist implements it on PyTorch's
// c10d (Gloo), and a world of one needs none.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace adala {

// A collective failed: another rank stopped, or did not answer within the timeout. The run is
// interrupted rather than failed: its last checkpoint resumes it (on any number of ranks).
class DataParallelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class DataParallel {
 public:
  virtual ~DataParallel() = default;
  virtual int rank() const = 0;
  virtual int world_size() const = 0;
  // What the run records: e.g. "gloo".
  virtual std::string backend() const = 0;
  // In place, on every rank: the element-wise sum over the ranks (a contiguous tensor).
  virtual void all_reduce_sum(at::Tensor& tensor) = 0;
  // In place: every rank's tensor becomes root's.
  virtual void broadcast(at::Tensor& tensor, int root) = 0;
  // Every rank waits here until all have arrived.
  virtual void barrier() = 0;
};

// This rank's share of a global batch of `batch_size`: items [first, first + count).
struct RankSlice {
  int64_t first = 0;
  int64_t count = 0;
};
// Throws std::invalid_argument naming `field` unless batch_size divides evenly over the ranks
// (so that every rank's mean loss weighs its images as the single-process mean would).
RankSlice rank_slice(int64_t batch_size, const DataParallel* parallel, const std::string& field);

// Tensors are flattened into buckets of at most this many bytes for each collective.
constexpr int64_t kBucketBytes = 25 << 20;

// The gradients of `params` averaged over the ranks, in place; a parameter without a gradient
// (one the step did not reach, on every rank alike) keeps none. One collective per bucket.
void average_gradients(DataParallel& parallel, const std::vector<at::Tensor>& params);
// Every tensor becomes rank 0's (parameters and buffers at the start of a stage).
void broadcast_from_rank0(DataParallel& parallel, const std::vector<at::Tensor>& tensors);
// The mean over the ranks of each value.
std::vector<double> average_values(DataParallel& parallel, const std::vector<double>& values);
double average_value(DataParallel& parallel, double value);
// Rank 0's string on every rank (e.g. the run folder rank 0 created).
std::string broadcast_string(DataParallel& parallel, const std::string& value);
// Every rank's string, in rank order, on every rank (e.g. the host each rank runs on).
std::vector<std::string> all_gather_strings(DataParallel& parallel, const std::string& value);
// "node-a (2 ranks), node-b (1 rank)": the hosts in order of their first rank.
std::string describe_hosts(const std::vector<std::string>& rank_hosts);
// Every rank's host name, gathered and described (a collective: every rank calls it).
std::string hosts_of_ranks(DataParallel& parallel);

}  // namespace adala
