#include "engine/train/data_parallel.h"

#include <ATen/ATen.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace adala {

RankSlice rank_slice(int64_t batch_size, const DataParallel* parallel, const std::string& field) {
  if (!parallel || parallel->world_size() <= 1) return {0, batch_size};
  const int64_t world = parallel->world_size();
  if (batch_size % world != 0)
    throw std::invalid_argument(field + ": " + std::to_string(batch_size) +
                                " is not divisible by the world size " + std::to_string(world) +
                                " (the global batch is split evenly over the processes)");
  const int64_t count = batch_size / world;
  return {parallel->rank() * count, count};
}

namespace {

// Runs `reduce` over buckets of same-typed tensors, each bucket one flat tensor; `copy_back`
// receives each tensor's slice of the reduced bucket.
template <class Reduce, class CopyBack>
void for_each_bucket(const std::vector<at::Tensor>& tensors, Reduce reduce, CopyBack copy_back) {
  size_t i = 0;
  while (i < tensors.size()) {
    const auto type = tensors[i].scalar_type();
    const auto device = tensors[i].device();
    std::vector<size_t> members;
    int64_t bytes = 0;
    for (size_t j = i; j < tensors.size(); ++j) {
      const auto& t = tensors[j];
      if (t.scalar_type() != type || t.device() != device) break;
      const int64_t size = t.numel() * int64_t(t.element_size());
      if (!members.empty() && bytes + size > kBucketBytes) break;
      members.push_back(j);
      bytes += size;
    }
    std::vector<at::Tensor> flat;
    flat.reserve(members.size());
    for (size_t j : members) flat.push_back(tensors[j].reshape({-1}));
    at::Tensor bucket = at::cat(flat);
    reduce(bucket);
    int64_t offset = 0;
    for (size_t j : members) {
      const int64_t n = tensors[j].numel();
      copy_back(j, bucket.narrow(0, offset, n).view(tensors[j].sizes()));
      offset += n;
    }
    i = members.back() + 1;
  }
}

}  // namespace

void average_gradients(DataParallel& parallel, const std::vector<at::Tensor>& params) {
  if (parallel.world_size() <= 1) return;
  std::vector<at::Tensor> grads;
  grads.reserve(params.size());
  // A parameter the step did not reach (a head in Stage 2, the linear branch in Stage 0) has
  // no gradient on any rank: the ranks run the same graph. It stays without one, so that the
  // optimiser skips it (weight decay included) as it does in one process.
  for (const auto& p : params)
    if (p.grad().defined()) grads.push_back(p.mutable_grad());
  const double inverse = 1.0 / parallel.world_size();
  for_each_bucket(
      grads,
      [&](at::Tensor& bucket) {
        parallel.all_reduce_sum(bucket);
        bucket.mul_(inverse);
      },
      [&](size_t j, const at::Tensor& averaged) { grads[j].copy_(averaged); });
}

void broadcast_from_rank0(DataParallel& parallel, const std::vector<at::Tensor>& tensors) {
  if (parallel.world_size() <= 1) return;
  std::vector<at::Tensor> detached;
  for (const auto& t : tensors) detached.push_back(t.detach());
  at::NoGradGuard no_grad;
  for_each_bucket(
      detached, [&](at::Tensor& bucket) { parallel.broadcast(bucket, 0); },
      [&](size_t j, const at::Tensor& value) { detached[j].copy_(value); });
}

std::vector<double> average_values(DataParallel& parallel, const std::vector<double>& values) {
  if (parallel.world_size() <= 1 || values.empty()) return values;
  at::Tensor t = at::tensor(values, at::kDouble);
  parallel.all_reduce_sum(t);
  t.div_(parallel.world_size());
  return std::vector<double>(t.data_ptr<double>(), t.data_ptr<double>() + t.numel());
}

double average_value(DataParallel& parallel, double value) {
  return average_values(parallel, {value}).front();
}

std::string broadcast_string(DataParallel& parallel, const std::string& value) {
  if (parallel.world_size() <= 1) return value;
  at::Tensor length = at::tensor({int64_t(value.size())}, at::kLong);
  parallel.broadcast(length, 0);
  at::Tensor bytes = at::zeros({length.item<int64_t>()}, at::kByte);
  if (parallel.rank() == 0 && !value.empty())
    std::copy(value.begin(), value.end(), bytes.data_ptr<uint8_t>());
  parallel.broadcast(bytes, 0);
  return std::string(reinterpret_cast<const char*>(bytes.data_ptr<uint8_t>()),
                     size_t(bytes.numel()));
}

std::vector<std::string> all_gather_strings(DataParallel& parallel, const std::string& value) {
  const int world = parallel.world_size();
  if (world <= 1) return {value};
  const int rank = parallel.rank();
  at::Tensor lengths = at::zeros({world}, at::kLong);
  lengths[rank] = int64_t(value.size());
  parallel.all_reduce_sum(lengths);
  const int64_t longest = lengths.max().item<int64_t>();
  // Each rank fills its own row; the sum of rows that are zero elsewhere is every row.
  const int64_t width = std::max<int64_t>(longest, 1);
  at::Tensor rows = at::zeros({world, width}, at::kInt);
  int* const cells = rows.data_ptr<int>();
  for (size_t i = 0; i < value.size(); ++i) cells[rank * width + int64_t(i)] = uint8_t(value[i]);
  parallel.all_reduce_sum(rows);
  std::vector<std::string> out(static_cast<size_t>(world));
  for (int r = 0; r < world; ++r)
    for (int64_t i = 0; i < lengths[r].item<int64_t>(); ++i)
      out[size_t(r)].push_back(char(uint8_t(cells[r * width + i])));
  return out;
}

std::string describe_hosts(const std::vector<std::string>& rank_hosts) {
  std::vector<std::pair<std::string, int>> counts;  // in order of first appearance
  for (const auto& host : rank_hosts) {
    auto it = std::find_if(counts.begin(), counts.end(),
                           [&](const auto& entry) { return entry.first == host; });
    if (it == counts.end())
      counts.emplace_back(host, 1);
    else
      ++it->second;
  }
  std::string out;
  for (const auto& [host, count] : counts)
    out += (out.empty() ? "" : ", ") + host + " (" + std::to_string(count) +
           (count == 1 ? " rank)" : " ranks)");
  return out;
}

std::string hosts_of_ranks(DataParallel& parallel) {
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) != 0) std::snprintf(name, sizeof(name), "unknown");
  return describe_hosts(all_gather_strings(parallel, name));
}

}  // namespace adala
