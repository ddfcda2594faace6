#pragma once
// Where a training step's time goes: LibTorch's operator profiler over a window of steps,
// reduced to (a) the step's phases, the scopes the training loop and the stages name with
// RECORD_USER_SCOPE ("step: backward", "stage 2: teacher forward", ...), inclusive time, and
// (b) the operators by self time (their time minus the operators they called), on the thread
// that runs the step. Work that operators hand to other threads (at::parallel_for, the fused
// linear-attention kernel's head workers) is inside the calling operator's time; the other
// threads' own totals are reported apart. Profiling adds a few microseconds per operator.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace adala {

struct ProfiledScope {
  std::string name;
  double calls_per_step = 0;
  double ms_per_step = 0;  // phases: inclusive; operators: self
};

struct StepProfile {
  std::string stage;
  int64_t first_step = 0;  // 1-based, as the logs count
  int64_t steps = 0;
  double wall_ms_per_step = 0;           // measured around the steps, profiler on
  std::vector<ProfiledScope> phases;     // in the order they first ran
  std::vector<ProfiledScope> operators;  // by self time, largest first
  double other_threads_ms_per_step = 0;  // operators run on helper threads, summed
};

// Profiles steps [first, first + count) (0-based indices) of one stage: call before_step and
// after_step around every step; after the window's last step result() holds the profile.
class StepProfiler {
 public:
  StepProfiler(std::string stage, int64_t first, int64_t count);
  ~StepProfiler();
  StepProfiler(const StepProfiler&) = delete;
  StepProfiler& operator=(const StepProfiler&) = delete;

  void before_step(int64_t step);
  // True once the window's last step has ended (result() is then filled).
  bool after_step(int64_t step);
  const StepProfile& result() const { return result_; }

 private:
  struct Session;
  std::string stage_;
  int64_t first_, count_;
  std::unique_ptr<Session> session_;
  StepProfile result_;
};

// The profile as Markdown: the phases with their share of the step, then the top operators.
std::string format_step_profile(const StepProfile& profile, size_t top_operators = 15);

}  // namespace adala
