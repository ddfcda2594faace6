#include "engine/analysis/peer_comparison.h"

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
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

#include <ATen/Parallel.h>
#include <c10/core/InferenceMode.h>
#include <torch/autograd.h>
#include <torch/nn/functional/loss.h>
#include <torch/optim/adamw.h>

#include "engine/analysis/bench_common.h"
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
  const std::string in_path = rep.work_dir + "/peer_input.safetensors";
  const std::string out_path = rep.work_dir + "/peer_output.safetensors";
  const std::string log_path = rep.work_dir + "/peer.log";
  const c10::Device device(o.device);
  if (device.is_cuda()) {
    // float32 as the peer runs it: no TF32 in cuDNN's convolutions (cuBLAS has none by default)
    at::globalContext().setAllowTF32CuDNN(false);
    at::globalContext().setAllowTF32CuBLAS(false);
  }

  ViTConfig config = vit_preset(o.preset);
  torch::manual_seed(o.seed);
  VisionTransformer teacher(config);
  {
    torch::NoGradGuard no_grad;
    for (auto& kv : teacher->named_parameters())
      if (kv.key().find(".attn.linear.") != std::string::npos)
        kv.value().add_(torch::randn_like(kv.value()) * o.linear_noise);
  }
  auto images = torch::randn({o.batch, config.in_chans, o.resolution, o.resolution});

  // Inputs for the peer.
  std::vector<std::string> trainable;
  for (const auto& kv : teacher->named_parameters())
    if (is_trainable(kv.key(), true)) trainable.push_back(kv.key());
  {
    std::vector<std::pair<std::string, at::Tensor>> tensors;
    for (const auto& kv : teacher->named_parameters())
      tensors.emplace_back(kv.key(), kv.value().detach());
    tensors.emplace_back("input", images);
    Json settings = Json::object();
    settings["batch"] = Json(o.batch);
    settings["resolution"] = Json(o.resolution);
    settings["repeats"] = Json(int64_t(o.repeats));
    settings["warmup"] = Json(int64_t(o.warmup));
    settings["threads"] = Json(int64_t(rep.threads));
    settings["device"] = Json(device.str());
    settings["lr"] = Json(o.lr);
    settings["weight_decay"] = Json(o.weight_decay);
    Json names = Json::array();
    for (const auto& n : trainable) names.push_back(Json(n));
    settings["trainable"] = names;
    write_safetensors(
        in_path, tensors,
        {{"adala.config", vit_config_to_json(config).dump()}, {"adala.peer", settings.dump()}});
  }

  // The engine: inference.
  teacher->to(device);
  images = images.to(device);
  auto student = clone_model(teacher, device);
  student->set_attention_mode(AttentionMode::Linear);
  teacher->set_attention_mode(AttentionMode::Softmax);
  teacher->eval();
  student->eval();
  // Timings run twice, before and after the peer, so that a change in the machine's load
  // during the comparison does not fall on one side only.
  std::vector<double> softmax_times, linear_times, train_times;
  at::Tensor softmax_features, linear_features;
  auto inference_round = [&](at::Tensor& softmax_out, at::Tensor& linear_out) {
    c10::InferenceMode inference;
    const bool was_training = student->is_training();
    student->eval();
    auto t = time_runs_ms([&] { softmax_out = teacher->forward_features(images); }, o.warmup,
                          o.repeats, device);
    softmax_times.insert(softmax_times.end(), t.begin(), t.end());
    t = time_runs_ms([&] { linear_out = student->forward_features(images); }, o.warmup, o.repeats,
                     device);
    linear_times.insert(linear_times.end(), t.begin(), t.end());
    if (was_training) student->train();
  };
  inference_round(softmax_features, linear_features);

  // The engine: one Stage-2 step from the same starting point, then more for the timing.
  for (auto& p : teacher->parameters()) p.set_requires_grad(false);
  student->train();
  std::vector<at::Tensor> params;
  {
    auto named = student->named_parameters();
    for (const auto& n : trainable) params.push_back(named[n]);
  }
  FusedAdamW opt(params, torch::optim::AdamWOptions(o.lr).weight_decay(o.weight_decay));
  auto stage2_loss = [&] {
    at::Tensor target;
    {
      torch::NoGradGuard no_grad;
      target = teacher->forward_features(images);
    }
    return torch::nn::functional::mse_loss(student->forward_features(images), target);
  };
  std::vector<at::Tensor> before;
  for (const auto& p : params) before.push_back(p.detach().clone());
  opt.zero_grad();
  auto loss = stage2_loss();
  loss.backward();
  rep.loss_engine = loss.item<double>();
  std::vector<at::Tensor> grads;
  for (const auto& p : params) grads.push_back(p.grad().defined() ? p.grad() : at::zeros_like(p));
  auto engine_grads = flat(grads);
  opt.step();
  std::vector<at::Tensor> updates;
  for (size_t i = 0; i < params.size(); ++i) updates.push_back(params[i].detach() - before[i]);
  auto engine_updates = flat(updates);
  at::Tensor post_features;
  {
    c10::InferenceMode inference;
    post_features = student->forward_features(images);
  }
  auto train_round = [&] {
    auto t = time_runs_ms(
        [&] {
          opt.zero_grad();
          auto l = stage2_loss();
          l.backward();
          opt.step();
        },
        o.warmup, o.repeats, device);
    train_times.insert(train_times.end(), t.begin(), t.end());
  };
  train_round();

  // The peer.
  // The same pools as ours: OpenMP threads, OpenBLAS threads (configure_threads's choice
  // unless the environment set it) and OMP_WAIT_POLICY, which the peer inherits.
  const std::string threads = std::to_string(rep.threads);
  const char* blas_env = std::getenv("OPENBLAS_NUM_THREADS");
  const std::string blas_threads =
      blas_env ? std::string(blas_env) : std::to_string(openblas_threads_for(rep.threads));
  const int rc = run_process({o.python, o.script, "--input", in_path, "--output", out_path},
                             {"OPENBLAS_NUM_THREADS=" + blas_threads, "OMP_NUM_THREADS=" + threads,
                              "MKL_NUM_THREADS=" + threads},
                             log_path, o.timeout_s);
  if (rc != 0 || !file_exists(out_path))
    throw std::runtime_error("the peer (" + o.python + " " + o.script +
                             ") failed with exit status " + std::to_string(rc) + "; its output:\n" +
                             read_tail(log_path));
  {
    at::Tensor scratch_softmax, scratch_linear;
    inference_round(scratch_softmax, scratch_linear);
    train_round();
  }
  auto min_of = [](const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); };
  rep.engine_softmax_ms = median(softmax_times);
  rep.engine_linear_ms = median(linear_times);
  rep.engine_train_ms = median(train_times);
  rep.engine_softmax_min_ms = min_of(softmax_times);
  rep.engine_linear_min_ms = min_of(linear_times);
  rep.engine_train_min_ms = min_of(train_times);
  if (o.keep_files)  // the engine's side too, for a look with other tools
    write_safetensors(rep.work_dir + "/engine_output.safetensors",
                      {{"softmax_features", softmax_features},
                       {"linear_features", linear_features},
                       {"loss", torch::tensor({rep.loss_engine}, torch::kFloat)},
                       {"grads", engine_grads},
                       {"updates", engine_updates},
                       {"post_step_features", post_features}});
  // The comparisons run on the CPU, where the peer's outputs are read.
  for (auto* t :
       {&softmax_features, &linear_features, &engine_grads, &engine_updates, &post_features})
    *t = t->to(c10::kCPU);
  SafetensorsReader peer(out_path);
  rep.softmax_features_rel = rel_diff(softmax_features, peer.load("softmax_features"));
  rep.linear_features_rel = rel_diff(linear_features, peer.load("linear_features"));
  rep.loss_peer = peer.load("loss").item<double>();
  rep.loss_rel = std::abs(rep.loss_engine - rep.loss_peer) / std::abs(rep.loss_peer);
  rep.grads_rel = rel_diff(engine_grads, peer.load("grads"));
  const auto peer_updates = peer.load("updates");
  rep.updates_rel = rel_diff(engine_updates, peer_updates);
  {
    const auto large = engine_grads.abs() > 1e-6;  // 100 x AdamW's eps
    rep.small_grad_fraction = 1.0 - large.to(at::kDouble).mean().item<double>();
    rep.updates_rel_large_grads =
        rel_diff(engine_updates.masked_select(large), peer_updates.masked_select(large));
  }
  rep.post_step_features_rel = rel_diff(post_features, peer.load("post_step_features"));
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
  rep.agrees = rep.softmax_features_rel < rep.tolerance &&
               rep.linear_features_rel < rep.tolerance && rep.loss_rel < rep.tolerance &&
               rep.grads_rel < rep.tolerance && rep.updates_rel_large_grads < rep.tolerance &&
               rep.post_step_features_rel < rep.tolerance;
  if (!o.keep_files && o.work_dir.empty()) {
    std::remove(in_path.c_str());
    std::remove(out_path.c_str());
    std::remove(log_path.c_str());
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
