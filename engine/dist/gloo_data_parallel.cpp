#include "engine/dist/gloo_data_parallel.h"

#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <thread>

namespace adala {

namespace {

bool is_loopback(const std::string& host) {
  return host == "localhost" || host.rfind("127.", 0) == 0 || host == "::1";
}

class GlooDataParallel : public DataParallel {
 public:
  explicit GlooDataParallel(const DistEnvironment& env) : env_(env) {
    const std::string where = env.store_file.empty() ? "the TCP store at " + env.master_addr + ":" +
                                                           std::to_string(env.master_port)
                                                     : "the file store " + env.store_file;
    try {
      if (env.store_file.empty()) {
        c10d::TCPStoreOptions options;
        options.port = static_cast<std::uint16_t>(env.master_port);
        options.isServer = env.rank == 0;
        options.numWorkers = env.world_size;
        options.waitWorkers = true;
        options.timeout = env.rendezvous_timeout;
        store_ = c10::make_intrusive<c10d::TCPStore>(env.master_addr, options);
      } else {
        store_ = c10::make_intrusive<c10d::FileStore>(env.store_file, env.world_size);
        store_->setTimeout(env.rendezvous_timeout);
      }
      auto options = c10d::ProcessGroupGloo::Options::create(env.collective_timeout);
      if (const char* interface = std::getenv("GLOO_SOCKET_IFNAME"))
        options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForInterface(interface));
      else if (is_loopback(env.master_addr))
        options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
      else
        options->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
      group_ =
          c10::make_intrusive<c10d::ProcessGroupGloo>(store_, env.rank, env.world_size, options);
      // The rendezvous is over; from here on a rank that does not answer is a failure, which
      // the collective timeout bounds.
      store_->setTimeout(env.collective_timeout);
    } catch (const std::exception& e) {
      throw std::runtime_error("rank " + std::to_string(env.rank) + " of " +
                               std::to_string(env.world_size) + " could not join through " + where +
                               ": " + e.what());
    }
  }

  int rank() const override { return env_.rank; }
  int world_size() const override { return env_.world_size; }
  std::string backend() const override { return "gloo"; }

  void all_reduce_sum(at::Tensor& tensor) override {
    std::vector<at::Tensor> tensors{tensor};
    run("all-reduce", [&] { return group_->allreduce(tensors); });
  }
  void broadcast(at::Tensor& tensor, int root) override {
    std::vector<at::Tensor> tensors{tensor};
    c10d::BroadcastOptions options;
    options.rootRank = root;
    run("broadcast", [&] { return group_->broadcast(tensors, options); });
  }
  void barrier() override {
    run("barrier", [&] { return group_->barrier(); });
  }

 private:
  template <class Start>
  void run(const char* what, Start start) {
    try {
      start()->wait();
    } catch (const std::exception& e) {
      throw DataParallelError("rank " + std::to_string(env_.rank) + ": the " + what + " across " +
                              std::to_string(env_.world_size) +
                              " processes failed: " + missing_ranks() + " (" + e.what() + ")");
    }
  }

  // After a failed collective, names the ranks that are gone, whoever started them (our
  // launcher, torchrun, Slurm): every surviving rank checks in at the store, and the ranks
  // that do not within a few seconds are dead or hung. When rank 0's TCP store is gone, rank 0
  // is.
  std::string missing_ranks() {
    constexpr auto kWindow = std::chrono::seconds(3);
    const std::string prefix = "adala/after-failure/";
    try {
      store_->setTimeout(kWindow);
      store_->set(prefix + std::to_string(env_.rank), std::vector<uint8_t>{1});
      std::vector<int> missing;
      const auto deadline = std::chrono::steady_clock::now() + kWindow;
      do {
        missing.clear();
        for (int r = 0; r < env_.world_size; ++r)
          if (!store_->check({prefix + std::to_string(r)})) missing.push_back(r);
        if (missing.empty()) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      } while (std::chrono::steady_clock::now() < deadline);
      if (missing.empty()) return "every rank is still there (a collective timed out or failed)";
      std::string names;
      for (int r : missing) names += (names.empty() ? "" : ", ") + std::to_string(r);
      return (missing.size() == 1 ? "rank " : "ranks ") + names + " stopped or stopped answering";
    } catch (const std::exception&) {
      if (env_.store_file.empty())
        return "rank 0 stopped (its store at " + env_.master_addr + ":" +
               std::to_string(env_.master_port) + " is gone)";
      return "the file store " + env_.store_file + " cannot be read";
    }
  }

  DistEnvironment env_;
  c10::intrusive_ptr<c10d::Store> store_;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> group_;
};

}  // namespace

std::shared_ptr<DataParallel> join_data_parallel(const DistEnvironment& env) {
  if (!env.distributed()) return nullptr;
  if (env.backend != "gloo")
    throw std::runtime_error("backend " + env.backend +
                             " is not in this build (it has gloo; nccl needs a CUDA LibTorch "
                             "built with NCCL)");
  return std::make_shared<GlooDataParallel>(env);
}

}  // namespace adala
