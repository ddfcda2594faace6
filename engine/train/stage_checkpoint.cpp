#include "engine/train/stage_checkpoint.h"

#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include <torch/serialize/input-archive.h>
#include <torch/serialize/output-archive.h>

namespace adala {

namespace {
void write_module(torch::serialize::OutputArchive& archive, torch::nn::Module& module) {
  for (const auto& p : module.named_parameters()) archive.write("model." + p.key(), p.value());
  for (const auto& b : module.named_buffers()) archive.write("model." + b.key(), b.value(), true);
}

void read_module(torch::serialize::InputArchive& archive, torch::nn::Module& module) {
  for (auto& p : module.named_parameters()) archive.read("model." + p.key(), p.value());
  for (auto& b : module.named_buffers()) archive.read("model." + b.key(), b.value(), true);
}

torch::Device device_of(torch::nn::Module& module) {
  auto params = module.parameters();
  return params.empty() ? torch::Device(torch::kCPU) : params.front().device();
}
}  // namespace

void save_stage_checkpoint(const std::string& path, torch::nn::Module& module,
                           torch::optim::Optimizer& optimizer, int64_t step,
                           const CheckpointExtras& extras) {
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  if (!folder.empty()) std::filesystem::create_directories(folder);  // "" is the working folder
  torch::serialize::OutputArchive archive;
  write_module(archive, module);
  torch::serialize::OutputArchive opt;
  optimizer.save(opt);
  archive.write("optimizer", opt);
  archive.write("step", torch::tensor(step));
  for (const auto& [key, value] : extras) archive.write("extra." + key, value, true);
  const std::string tmp = path + ".tmp";
  archive.save_to(tmp);
  std::filesystem::rename(tmp, path);
}

int64_t load_stage_checkpoint(const std::string& path, torch::nn::Module& module,
                              torch::optim::Optimizer& optimizer, CheckpointExtras* extras) {
  if (!std::filesystem::exists(path)) throw std::runtime_error("checkpoint not found: " + path);
  try {
    torch::serialize::InputArchive archive;
    archive.load_from(path, device_of(module));
    read_module(archive, module);
    torch::serialize::InputArchive opt;
    archive.read("optimizer", opt);
    optimizer.load(opt);
    torch::Tensor step;
    archive.read("step", step);
    if (extras)
      for (auto& [key, value] : *extras) {
        torch::Tensor stored;
        if (archive.try_read("extra." + key, stored, true)) value = stored;
      }
    return step.item<int64_t>();
  } catch (const c10::Error& e) {
    throw std::runtime_error("checkpoint " + path +
                             " does not match this model: " + e.what_without_backtrace());
  }
}

int64_t checkpoint_step(const std::string& path) {
  if (!std::filesystem::exists(path)) return -1;
  torch::serialize::InputArchive archive;
  archive.load_from(path, torch::Device(torch::kCPU));
  torch::Tensor step;
  archive.read("step", step);
  return step.item<int64_t>();
}

int64_t load_checkpoint_weights(const std::string& path, torch::nn::Module& module) {
  if (!std::filesystem::exists(path)) throw std::runtime_error("checkpoint not found: " + path);
  torch::serialize::InputArchive archive;
  archive.load_from(path, device_of(module));
  read_module(archive, module);
  torch::Tensor step;
  archive.read("step", step);
  return step.item<int64_t>();
}

}  // namespace adala
