#pragma once
// Measured operation counts: multiply-accumulates of the matmul and convolution operators that
// actually ran, read from their input shapes as the dispatcher calls them. Same convention as
// flop_model.h: 1 MAC = one multiply + one add; elementwise work (softmax, GELU, LayerNorm,
// the feature map, the normaliser division) is not counted, as fvcore does not.
//
// Mechanism: a thread-local at::RecordFunction observer with inputs (the hook the autograd
// profiler itself is built on). Only the outermost counted operator of a nest counts, so a
// composite that dispatches another counted operator is never counted twice. We do not rely
// on the legacy profiler's own with_flops figures because in LibTorch 1.13 it reports 0 for
// aten::conv2d (stride/padding are not among the recorded shapes); for the matmul operators
// profiler_matmul_flops() gives its figures so the two can be compared.
#include <cstdint>
#include <functional>
#include <map>
#include <string>

namespace adala {

struct OpStat {
  int64_t calls = 0;
  double macs = 0;
};

struct MeasuredOps {
  double macs = 0;                      // total over counted operators
  std::map<std::string, OpStat> by_op;  // "aten::addmm" -> calls, MACs
  int64_t operator_calls = 0;           // every operator the dispatcher ran (any kind, nested)
};

// Counts while alive, for work on the constructing thread and on worker threads that take its
// at::ThreadLocalState. One at a time per process.
class OpCounter {
 public:
  OpCounter();
  ~OpCounter();
  OpCounter(const OpCounter&) = delete;
  OpCounter& operator=(const OpCounter&) = delete;
  const MeasuredOps& result() const { return ops_; }

 private:
  MeasuredOps ops_;
  uint64_t handle_ = 0;
};

// Runs fn once under an OpCounter.
MeasuredOps count_ops(const std::function<void()>& fn);

// LibTorch's own figures: runs fn under the legacy autograd profiler (record_shapes,
// with_flops) and sums its FLOPs (2 per MAC) of aten::mm, aten::addmm, aten::bmm and
// aten::baddbmm events.
double profiler_matmul_flops(const std::function<void()>& fn);

}  // namespace adala
