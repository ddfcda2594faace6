#pragma once
// One measurement per fresh process: peak memory figures of a point must not include what an
// earlier point left in the allocator, and a point that runs out of memory must not take the
// benchmark down with it.
#include <functional>
#include <string>

namespace adala {

struct ChildOutcome {
  bool ok = false;      // fn returned normally and its result came back
  std::string payload;  // fn's return value
  std::string error;    // otherwise: fn's exception text, the signal, or the timeout
  int term_signal = 0;  // signal that ended the child (9 is also what the OOM killer sends)
  bool timed_out = false;
};

// Runs fn in a fork()ed child and returns what it returned (any bytes). In the child, fn runs
// on a fresh thread with the caller's intra-op thread count: GNU OpenMP's worker pool belongs
// to the thread that created it and does not survive fork(), so a parallel region on the
// forking thread would wait forever for workers that no longer exist, while a new thread
// builds a new pool. fn starts with a fresh thread-local state (grad mode, inference mode,
// profiler), so it sets whatever it needs itself. CPU only: a process that has initialised
// CUDA cannot use it in a forked child. timeout_s <= 0: no time limit.
ChildOutcome run_in_child(const std::function<std::string()>& fn, double timeout_s = 0);

}  // namespace adala
