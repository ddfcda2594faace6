#pragma once
// What a training job tells the world. Plain C++ (no torch, no Qt) so the run database, the
// CLI progress bar and the GUI controller can all consume it.
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <variant>
#include <vector>

namespace adala {

struct StepMetrics {
  std::string stage;
  int64_t step = 0;  // 1-based index of the optimiser step just taken
  int64_t total_steps = 0;
  int64_t epoch = 0;
  double loss = 0.0;
  std::vector<double> per_block_mse;  // Stage 1: attention MSE; Stage 2: hidden-state MSE
  double lr = 0.0;
  double images_per_second = 0.0;
  double eta_seconds = 0.0;
  double data_wait_share = 0.0;  // of the step time since the previous report, waiting for data
  std::map<std::string, double> extra;  // e.g. train accuracy
  // Per-block values by key (numerical health: "health.min_normaliser", ...); index = block,
  // NaN where a block was not measured.
  std::map<std::string, std::vector<double>> per_block;
};

struct EvalMetrics {
  std::string stage;
  std::string key;  // "top1", "val_loss", ...
  double value = 0.0;
  int64_t step = 0;
};

struct StageEvent {
  enum class Kind { Started, Finished, Cancelled, Failed };
  std::string stage;
  Kind kind = Kind::Started;
  int64_t total_steps = 0;
  int64_t step = 0;  // resume point (Started) or last step reached
  double seconds = 0.0;
  std::string message;
};

struct ArtifactEvent {
  std::string stage;
  std::string kind;  // "checkpoint", "weights", "report", ...
  std::string path;
};

struct LogEvent {
  enum class Level { Info, Warning, Error };
  Level level = Level::Info;
  std::string message;
};

using Event = std::variant<StepMetrics, EvalMetrics, StageEvent, ArtifactEvent, LogEvent>;

class EventSink {
 public:
  virtual ~EventSink() = default;
  virtual void on_event(const Event& event) = 0;
};

// Forwards every event to each sink in order.
class FanOutSink : public EventSink {
 public:
  void add(std::shared_ptr<EventSink> sink) { sinks_.push_back(std::move(sink)); }
  // A sink the caller keeps alive for as long as this one is used (not owned).
  void add(EventSink& sink) { sinks_.emplace_back(std::shared_ptr<EventSink>(), &sink); }
  void on_event(const Event& event) override {
    for (auto& s : sinks_) s->on_event(event);
  }

 private:
  std::vector<std::shared_ptr<EventSink>> sinks_;
};

// Keeps everything (tests, ablation curves).
class RecordingSink : public EventSink {
 public:
  void on_event(const Event& event) override {
    std::lock_guard<std::mutex> lock(mutex_);
    events_.push_back(event);
  }
  std::vector<Event> events() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return events_;
  }
  std::vector<StepMetrics> steps(const std::string& stage) const;

 private:
  mutable std::mutex mutex_;
  std::vector<Event> events_;
};

class NullSink : public EventSink {
 public:
  void on_event(const Event&) override {}
};

}  // namespace adala
