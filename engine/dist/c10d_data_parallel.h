#pragma once
// What the Gloo and NCCL process groups share (internal to engine/dist): the rendezvous store,
// the report of which ranks are gone after a failed collective, and DataParallel over a c10d
// process group. ProcessGroupGloo and ProcessGroupNCCL derive from c10d::ProcessGroup in
// LibTorch 1.13 and from c10d::Backend in 2.x, with the same collective calls: hence a
// template over the group's type.
#include <torch/csrc/distributed/c10d/Store.hpp>
#include <torch/csrc/distributed/c10d/Types.hpp>
#include <torch/csrc/distributed/c10d/Work.hpp>

#include <ATen/ATen.h>
#include <c10/util/Optional.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/dist/dist_environment.h"
#include "engine/train/data_parallel.h"

namespace adala::dist_detail {

// "the TCP store at HOST:PORT" or "the file store PATH".
std::string store_description(const DistEnvironment& env);
// The rendezvous: rank 0 serves a TCPStore at MASTER_ADDR:MASTER_PORT (or every rank opens the
// FileStore), waiting for all ranks within the rendezvous timeout.
c10::intrusive_ptr<c10d::Store> connect_store(const DistEnvironment& env);
// After a failed collective, names the ranks that are gone, whoever started them (our
// launcher, torchrun, Slurm): every surviving rank checks in at the store, and the ranks that
// do not within a few seconds are dead or hung. When rank 0's TCP store is gone, rank 0 is.
std::string missing_ranks(c10d::Store& store, const DistEnvironment& env);

// The NCCL group (nccl_data_parallel.cpp), in builds that have one.
std::shared_ptr<DataParallel> join_nccl(const DistEnvironment& env);

template <class Group>
class C10dDataParallel final : public DataParallel {
 public:
  // device: where the group's collectives run (NCCL: the rank's GPU; a tensor elsewhere goes
  // through a copy there), nullopt: on each tensor's own device (Gloo). With a device the
  // barrier is an all-reduce of one element there, so it never guesses which GPU to use.
  C10dDataParallel(DistEnvironment env, std::string backend, c10::intrusive_ptr<c10d::Store> store,
                   c10::intrusive_ptr<Group> group, c10::optional<c10::Device> device)
      : env_(std::move(env)),
        backend_(std::move(backend)),
        store_(std::move(store)),
        group_(std::move(group)),
        device_(device) {}

  int rank() const override { return env_.rank; }
  int world_size() const override { return env_.world_size; }
  std::string backend() const override { return backend_; }

  void all_reduce_sum(at::Tensor& tensor) override {
    on_device(tensor, [&](at::Tensor& t) {
      std::vector<at::Tensor> tensors{t};
      run("all-reduce", [&] { return group_->allreduce(tensors); });
    });
  }
  void broadcast(at::Tensor& tensor, int root) override {
    on_device(tensor, [&](at::Tensor& t) {
      std::vector<at::Tensor> tensors{t};
      c10d::BroadcastOptions options;
      options.rootRank = root;
      run("broadcast", [&] { return group_->broadcast(tensors, options); });
    });
  }
  void barrier() override {
    if (device_) {
      at::Tensor one = at::ones({1}, at::TensorOptions().device(*device_));
      all_reduce_sum(one);
      return;
    }
    run("barrier", [&] { return group_->barrier(); });
  }

 private:
  template <class Fn>
  void on_device(at::Tensor& tensor, Fn fn) {
    if (!device_ || tensor.device() == *device_) return fn(tensor);
    at::Tensor there = tensor.to(*device_);
    fn(there);
    tensor.copy_(there);
  }

  template <class Start>
  void run(const char* what, Start start) {
    try {
      start()->wait();
    } catch (const std::exception& e) {
      throw DataParallelError("rank " + std::to_string(env_.rank) + ": the " + what + " across " +
                              std::to_string(env_.world_size) + " processes failed: " +
                              missing_ranks(*store_, env_) + " (" + e.what() + ")");
    }
  }

  DistEnvironment env_;
  std::string backend_;
  c10::intrusive_ptr<c10d::Store> store_;
  c10::intrusive_ptr<Group> group_;
  c10::optional<c10::Device> device_;
};

}  // namespace adala::dist_detail
