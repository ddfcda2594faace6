#include "engine/bench/peer_comparison.h"

#include <fmt/printf.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

#include <ATen/Parallel.h>
#include <c10/core/InferenceMode.h>
#include <torch/autograd.h>
#include <torch/nn/functional/loss.h>
#include <torch/optim/adamw.h>

#include "engine/measure/bench_common.h"
#include "engine/json/json.h"
#include "engine/kernels/fused_adamw.h"
#include "engine/io/safetensors.h"
#include "engine/model/vision_transformer.h"
#include "engine/model/vit_config_json.h"
#include "engine/runtime/device.h"

namespace adala {

namespace {

double rel_diff(const at::Tensor& a, const at::Tensor& ref) {
  if (a.sizes() != ref.sizes())
    throw std::runtime_error("peer output shape mismatch: engine " + std::to_string(a.numel()) +
                             " elements vs peer " + std::to_string(ref.numel()));
  auto r = ref.to(at::kDouble);
  const double denom = r.norm().item<double>();
  const double num = (a.to(at::kDouble) - r).norm().item<double>();
  return denom > 0 ? num / denom : num;
}

bool file_exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string make_temp_dir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/adala-peer-XXXXXX";
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  if (!::mkdtemp(buf.data()))
    throw std::runtime_error("mkdtemp: " + std::string(std::strerror(errno)));
  return buf.data();
}

std::string read_tail(const std::string& path, size_t max_chars = 4000) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  return s.size() > max_chars ? s.substr(s.size() - max_chars) : s;
}

// Runs argv with extra environment variables; stdout and stderr go to log_path.
int run_process(const std::vector<std::string>& argv, const std::vector<std::string>& env_extra,
                const std::string& log_path, double timeout_s) {
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork: " + std::string(std::strerror(errno)));
  if (pid == 0) {
    const int fd = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      ::dup2(fd, STDOUT_FILENO);
      ::dup2(fd, STDERR_FILENO);
      ::close(fd);
    }
    for (const auto& kv : env_extra) ::putenv(const_cast<char*>(kv.c_str()));
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    std::fprintf(stderr, "exec %s: %s\n", args[0], std::strerror(errno));
    ::_exit(127);
  }
  const auto start = std::chrono::steady_clock::now();
  int status = 0;
  for (;;) {
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) break;
    if (r < 0 && errno != EINTR)
      throw std::runtime_error("waitpid: " + std::string(std::strerror(errno)));
    if (timeout_s > 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >
            timeout_s) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      throw std::runtime_error("the peer timed out after " + std::to_string(int(timeout_s)) + " s");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

bool is_trainable(const std::string& name, bool linear_mode) {
  if (name.rfind("head.", 0) == 0) return false;
  if (name.rfind("blocks.", 0) != 0) return true;
  const bool linear_param = name.find(".attn.linear.") != std::string::npos;
  const bool softmax_param = !linear_param && name.find(".attn.") != std::string::npos;
  return linear_mode ? !softmax_param : !linear_param;
}

at::Tensor flat(const std::vector<at::Tensor>& parts) {
  std::vector<at::Tensor> f;
  for (const auto& p : parts) f.push_back(p.detach().reshape({-1}).to(at::kFloat));
  return at::cat(f);
}

// The files of one comparison in its working folder.
struct PeerFiles {
  std::string input, output, log;
};

PeerFiles peer_files(const std::string& work_dir) {
  return {work_dir + "/peer_input.safetensors", work_dir + "/peer_output.safetensors",
          work_dir + "/peer.log"};
}

// The softmax teacher from the seed, its linear branch its own q/k/v/proj plus noise.
VisionTransformer make_teacher(const ViTConfig& config, const PeerOptions& o) {
  torch::manual_seed(o.seed);
  VisionTransformer teacher(config);
  torch::NoGradGuard no_grad;
  for (auto& kv : teacher->named_parameters())
    if (kv.key().find(".attn.linear.") != std::string::npos)
      kv.value().add_(torch::randn_like(kv.value()) * o.linear_noise);
  return teacher;
}

std::vector<std::string> trainable_names(VisionTransformer& teacher) {
  std::vector<std::string> trainable;
  for (const auto& kv : teacher->named_parameters())
    if (is_trainable(kv.key(), true)) trainable.push_back(kv.key());
  return trainable;
}

// The run's settings as the peer reads them (the input file's "adala.peer" metadata).
Json peer_settings(const PeerOptions& o, int threads, const c10::Device& device,
                   const std::vector<std::string>& trainable) {
  Json settings = Json::object();
  settings["batch"] = Json(o.batch);
  settings["resolution"] = Json(o.resolution);
  settings["repeats"] = Json(int64_t(o.repeats));
  settings["warmup"] = Json(int64_t(o.warmup));
  settings["threads"] = Json(int64_t(threads));
  settings["device"] = Json(device.str());
  settings["lr"] = Json(o.lr);
  settings["weight_decay"] = Json(o.weight_decay);
  Json names = Json::array();
  for (const auto& n : trainable) names.push_back(Json(n));
  settings["trainable"] = names;
  return settings;
}

// Weights, input image batch, model config and settings: all the peer starts from.
void write_peer_input(const std::string& path, VisionTransformer& teacher, const at::Tensor& images,
                      const ViTConfig& config, const Json& settings) {
  std::vector<std::pair<std::string, at::Tensor>> tensors;
  for (const auto& kv : teacher->named_parameters())
    tensors.emplace_back(kv.key(), kv.value().detach());
  tensors.emplace_back("input", images);
  write_safetensors(
      path, tensors,
      {{"adala.config", vit_config_to_json(config).dump()}, {"adala.peer", settings.dump()}});
}

// What the engine computed, to compare with the peer's outputs.
struct EngineOutputs {
  at::Tensor softmax_features, linear_features;
  double loss = 0;
  at::Tensor grads, updates, post_step_features;
};

// The engine's side: the softmax teacher and its linear student on the device, timed in rounds.
// Timings run twice, before and after the peer, so that a change in the machine's load during
// the comparison does not fall on one side only.
class EngineSide {
 public:
  EngineSide(VisionTransformer teacher, const at::Tensor& images, const PeerOptions& o,
             const c10::Device& device)
      : o_(o), device_(device), teacher_(std::move(teacher)) {
    teacher_->to(device);
    images_ = images.to(device);
    student_ = clone_model(teacher_, device);
    student_->set_attention_mode(AttentionMode::Linear);
    teacher_->set_attention_mode(AttentionMode::Softmax);
    teacher_->eval();
    student_->eval();
  }

  void inference_round(at::Tensor& softmax_out, at::Tensor& linear_out) {
    c10::InferenceMode inference;
    const bool was_training = student_->is_training();
    student_->eval();
    auto t = time_runs_ms([&] { softmax_out = teacher_->forward_features(images_); }, o_.warmup,
                          o_.repeats, device_);
    softmax_times_.insert(softmax_times_.end(), t.begin(), t.end());
    t = time_runs_ms([&] { linear_out = student_->forward_features(images_); }, o_.warmup,
                     o_.repeats, device_);
    linear_times_.insert(linear_times_.end(), t.begin(), t.end());
    if (was_training) student_->train();
  }

  // One Stage-2 step of the trainable parameters from the starting point the peer has too:
  // the loss, the gradients, the updates and the student's features after it.
  void first_training_step(const std::vector<std::string>& trainable, EngineOutputs& out) {
    for (auto& p : teacher_->parameters()) p.set_requires_grad(false);
    student_->train();
    {
      auto named = student_->named_parameters();
      for (const auto& n : trainable) params_.push_back(named[n]);
    }
    opt_ = std::make_unique<FusedAdamW>(
        params_, torch::optim::AdamWOptions(o_.lr).weight_decay(o_.weight_decay));
    std::vector<at::Tensor> before;
    for (const auto& p : params_) before.push_back(p.detach().clone());
    opt_->zero_grad();
    auto loss = stage2_loss();
    loss.backward();
    out.loss = loss.item<double>();
    std::vector<at::Tensor> grads;
    for (const auto& p : params_)
      grads.push_back(p.grad().defined() ? p.grad() : at::zeros_like(p));
    out.grads = flat(grads);
    opt_->step();
    std::vector<at::Tensor> updates;
    for (size_t i = 0; i < params_.size(); ++i) updates.push_back(params_[i].detach() - before[i]);
    out.updates = flat(updates);
    c10::InferenceMode inference;
    out.post_step_features = student_->forward_features(images_);
  }

  // More steps after the first, for the timing.
  void train_round() {
    auto t = time_runs_ms(
        [&] {
          opt_->zero_grad();
          auto l = stage2_loss();
          l.backward();
          opt_->step();
        },
        o_.warmup, o_.repeats, device_);
    train_times_.insert(train_times_.end(), t.begin(), t.end());
  }

  // Median and fastest run of every round so far.
  void report_times(PeerReport& rep) const {
    auto min_of = [](const std::vector<double>& v) {
      return *std::min_element(v.begin(), v.end());
    };
    rep.engine_softmax_ms = median(softmax_times_);
    rep.engine_linear_ms = median(linear_times_);
    rep.engine_train_ms = median(train_times_);
    rep.engine_softmax_min_ms = min_of(softmax_times_);
    rep.engine_linear_min_ms = min_of(linear_times_);
    rep.engine_train_min_ms = min_of(train_times_);
  }

 private:
  at::Tensor stage2_loss() {
    at::Tensor target;
    {
      torch::NoGradGuard no_grad;
      target = teacher_->forward_features(images_);
    }
    return torch::nn::functional::mse_loss(student_->forward_features(images_), target);
  }

  const PeerOptions& o_;
  c10::Device device_;
  VisionTransformer teacher_;
  VisionTransformer student_{nullptr};
  at::Tensor images_;
  std::vector<at::Tensor> params_;
  std::unique_ptr<FusedAdamW> opt_;
  std::vector<double> softmax_times_, linear_times_, train_times_;
};

// Runs the peer script on the input file, with the same thread pools as ours: OpenMP threads,
// OpenBLAS threads (configure_threads's choice unless the environment set it) and
// OMP_WAIT_POLICY, which the peer inherits.
void run_peer(const PeerOptions& o, int threads, const PeerFiles& files) {
  const std::string omp_threads = std::to_string(threads);
  const char* blas_env = std::getenv("OPENBLAS_NUM_THREADS");
  const std::string blas_threads =
      blas_env ? std::string(blas_env) : std::to_string(openblas_threads_for(threads));
  const int rc = run_process({o.python, o.script, "--input", files.input, "--output", files.output},
                             {"OPENBLAS_NUM_THREADS=" + blas_threads,
                              "OMP_NUM_THREADS=" + omp_threads, "MKL_NUM_THREADS=" + omp_threads},
                             files.log, o.timeout_s);
  if (rc != 0 || !file_exists(files.output))
    throw std::runtime_error("the peer (" + o.python + " " + o.script +
                             ") failed with exit status " + std::to_string(rc) + "; its output:\n" +
                             read_tail(files.log));
}

void write_engine_outputs(const std::string& path, const EngineOutputs& e) {
  write_safetensors(path, {{"softmax_features", e.softmax_features},
                           {"linear_features", e.linear_features},
                           {"loss", torch::tensor({e.loss}, torch::kFloat)},
                           {"grads", e.grads},
                           {"updates", e.updates},
                           {"post_step_features", e.post_step_features}});
}

// The relative differences between the engine's outputs and the peer's, on the CPU where the
// peer's are read.
void compare_outputs(EngineOutputs e, const SafetensorsReader& peer, PeerReport& rep) {
  for (auto* t :
       {&e.softmax_features, &e.linear_features, &e.grads, &e.updates, &e.post_step_features})
    *t = t->to(c10::kCPU);
  rep.softmax_features_rel = rel_diff(e.softmax_features, peer.load("softmax_features"));
  rep.linear_features_rel = rel_diff(e.linear_features, peer.load("linear_features"));
  rep.loss_peer = peer.load("loss").item<double>();
  rep.loss_rel = std::abs(rep.loss_engine - rep.loss_peer) / std::abs(rep.loss_peer);
  rep.grads_rel = rel_diff(e.grads, peer.load("grads"));
  const auto peer_updates = peer.load("updates");
  rep.updates_rel = rel_diff(e.updates, peer_updates);
  {
    const auto large = e.grads.abs() > 1e-6;  // 100 x AdamW's eps
    rep.small_grad_fraction = 1.0 - large.to(at::kDouble).mean().item<double>();
    rep.updates_rel_large_grads =
        rel_diff(e.updates.masked_select(large), peer_updates.masked_select(large));
  }
  rep.post_step_features_rel = rel_diff(e.post_step_features, peer.load("post_step_features"));
}

// The peer's timings and torch version, from its output's "peer.timings" metadata.
void read_peer_timings(const SafetensorsReader& peer, PeerReport& rep) {
  const auto& meta = peer.metadata();
  auto it = meta.find("peer.timings");
  if (it == meta.end()) throw std::runtime_error("peer output has no peer.timings metadata");
  const Json t = parse_json_strict(it->second);
  rep.peer_softmax_ms = t.at("softmax_ms").get<double>();
  rep.peer_linear_ms = t.at("linear_ms").get<double>();
  rep.peer_train_ms = t.at("train_ms").get<double>();
  rep.peer_softmax_min_ms = t.at("softmax_min_ms").get<double>();
  rep.peer_linear_min_ms = t.at("linear_min_ms").get<double>();
  rep.peer_train_min_ms = t.at("train_min_ms").get<double>();
  if (t.contains("torch")) rep.peer_torch_version = t.at("torch").get<std::string>();
}

bool every_difference_below_tolerance(const PeerReport& rep) {
  return rep.softmax_features_rel < rep.tolerance && rep.linear_features_rel < rep.tolerance &&
         rep.loss_rel < rep.tolerance && rep.grads_rel < rep.tolerance &&
         rep.updates_rel_large_grads < rep.tolerance && rep.post_step_features_rel < rep.tolerance;
}

}  // namespace

std::string find_peer_script() {
  std::vector<std::string> candidates;
  char exe[4096];
  const ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = '\0';
    std::string dir(exe);
    dir = dir.substr(0, dir.rfind('/'));
    candidates.push_back(dir + "/../../scripts/peer_vit.py");  // build/bin/adala
    candidates.push_back(dir + "/../scripts/peer_vit.py");
  }
  candidates.push_back("scripts/peer_vit.py");
  for (const auto& c : candidates)
    if (file_exists(c)) return c;
  throw std::runtime_error(
      "cannot find scripts/peer_vit.py (looked next to the executable and in the "
      "current directory); pass --script PATH");
}

PeerReport run_peer_comparison(const PeerOptions& o) {
  if (!file_exists(o.python)) throw std::runtime_error("no Python interpreter at " + o.python);
  if (!file_exists(o.script)) throw std::runtime_error("no peer script at " + o.script);
  PeerReport rep;
  rep.threads = at::get_num_threads();
  rep.work_dir = o.work_dir.empty() ? make_temp_dir() : o.work_dir;
  const PeerFiles files = peer_files(rep.work_dir);
  const c10::Device device(o.device);
  if (device.is_cuda()) {
    // float32 as the peer runs it: no TF32 in cuDNN's convolutions (cuBLAS has none by default)
    at::globalContext().setAllowTF32CuDNN(false);
    at::globalContext().setAllowTF32CuBLAS(false);
  }

  const ViTConfig config = vit_preset(o.preset);
  VisionTransformer teacher = make_teacher(config, o);
  const auto images = torch::randn({o.batch, config.in_chans, o.resolution, o.resolution});
  const std::vector<std::string> trainable = trainable_names(teacher);
  write_peer_input(files.input, teacher, images, config,
                   peer_settings(o, rep.threads, device, trainable));

  EngineSide engine(teacher, images, o, device);
  EngineOutputs outputs;
  engine.inference_round(outputs.softmax_features, outputs.linear_features);
  engine.first_training_step(trainable, outputs);
  rep.loss_engine = outputs.loss;
  engine.train_round();

  run_peer(o, rep.threads, files);
  {
    at::Tensor scratch_softmax, scratch_linear;
    engine.inference_round(scratch_softmax, scratch_linear);
    engine.train_round();
  }
  engine.report_times(rep);
  if (o.keep_files)  // the engine's side too, for a look with other tools
    write_engine_outputs(rep.work_dir + "/engine_output.safetensors", outputs);
  SafetensorsReader peer(files.output);
  compare_outputs(std::move(outputs), peer, rep);
  read_peer_timings(peer, rep);
  rep.agrees = every_difference_below_tolerance(rep);
  if (!o.keep_files && o.work_dir.empty()) {
    std::remove(files.input.c_str());
    std::remove(files.output.c_str());
    std::remove(files.log.c_str());
    ::rmdir(rep.work_dir.c_str());
  }
  return rep;
}

std::string format_peer_report(const PeerReport& r, const PeerOptions& o) {
  std::string out;
  auto add = [&](const char* format, auto... args) { out += fmt::sprintf(format, args...); };
  add("engine vs PyTorch peer (torch %s) on %s: %s, input %lldx%lld, batch %lld, %d threads "
      "(OpenBLAS 1), median of %d after %d warm-up (more until one no longer page-faults)\n",
      r.peer_torch_version.empty() ? "?" : r.peer_torch_version.c_str(), o.device.c_str(),
      o.preset.c_str(), (long long)o.resolution, (long long)o.resolution, (long long)o.batch,
      r.threads, o.repeats, o.warmup);
  out += "conditions at the end: " + machine_conditions() + "\n\n";
  add("%-44s %12s\n", "relative difference ||engine - peer|| / ||peer||", "");
  add("  %-42s %12.3e\n", "teacher features (softmax attention)", r.softmax_features_rel);
  add("  %-42s %12.3e\n", "student features (linear attention)", r.linear_features_rel);
  add("  %-42s %12.3e   (%.8g vs %.8g)\n", "Stage-2 loss", r.loss_rel, r.loss_engine, r.loss_peer);
  add("  %-42s %12.3e\n", "gradients (all trainable parameters)", r.grads_rel);
  add("  %-42s %12.3e\n", "AdamW updates, elements with |g| > 1e-6", r.updates_rel_large_grads);
  add("  %-42s %12.3e   (%.2f%% of elements have |g| <= 1e-6,\n  %-42s %12s    where "
      "lr*g/(|g|+eps) amplifies rounding)\n",
      "AdamW updates, all elements", r.updates_rel, 100.0 * r.small_grad_fraction, "", "");
  add("  %-42s %12.3e\n", "student features after the step", r.post_step_features_rel);
  add("\n%-30s %21s %10s %21s %10s\n", "time (ms)", "median: engine / peer", "ratio",
      "min: engine / peer", "ratio");
  auto row = [&](const char* what, double em, double pm, double en, double pn) {
    add("%-30s %10.2f %10.2f %9.3fx %10.2f %10.2f %9.3fx\n", what, em, pm, em / pm, en, pn,
        en / pn);
  };
  row("inference, softmax teacher", r.engine_softmax_ms, r.peer_softmax_ms, r.engine_softmax_min_ms,
      r.peer_softmax_min_ms);
  row("inference, linear student", r.engine_linear_ms, r.peer_linear_ms, r.engine_linear_min_ms,
      r.peer_linear_min_ms);
  row("Stage-2 training step", r.engine_train_ms, r.peer_train_ms, r.engine_train_min_ms,
      r.peer_train_min_ms);
  add("(engine: %d timed runs before the peer and %d after it; peer: %d)\n", o.repeats, o.repeats,
      o.repeats);
  add("\n%s: %s relative difference %s %.0e (all-element updates are informational)\n",
      r.agrees ? "AGREE" : "DISAGREE", r.agrees ? "every" : "not every", r.agrees ? "<" : "is",
      r.tolerance);
  return out;
}

}  // namespace adala
