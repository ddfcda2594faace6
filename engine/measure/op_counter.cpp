#include "engine/measure/op_counter.h"

#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

#include <ATen/record_function.h>
#include <torch/csrc/autograd/profiler_legacy.h>

namespace adala {

namespace {

// The observer is a thread-local callback, so it fires on the counter's thread and on the
// workers that take that thread's at::ThreadLocalState (as our head-parallel kernels do); they
// all add into the one active counter.
std::mutex g_mutex;
OpCounter* g_active = nullptr;  // guarded by g_mutex
MeasuredOps* g_ops = nullptr;   // guarded by g_mutex
thread_local int t_depth = 0;   // counted operators currently open on this thread

std::vector<int64_t> sizes_of(const c10::IValue& v) {
  if (v.isTensor()) {
    const auto& t = v.toTensor();
    if (t.defined()) return t.sizes().vec();
  }
  return {};
}

std::vector<int64_t> ints_of(const c10::IValue& v) {
  if (v.isIntList()) return v.toIntVector();
  if (v.isInt()) return {v.toInt()};
  return {};
}

double product(const std::vector<int64_t>& s, size_t from = 0) {
  double p = 1;
  for (size_t i = from; i < s.size(); ++i) p *= double(s[i]);
  return p;
}

// aten::convolution(input, weight, bias, stride, padding, dilation, transposed,
//                   output_padding, groups)
double convolution_macs(c10::ArrayRef<const c10::IValue> in) {
  if (in.size() < 9) return 0;
  const auto x = sizes_of(in[0]), w = sizes_of(in[1]);
  if (x.size() < 3 || w.size() != x.size()) return 0;
  const size_t spatial = x.size() - 2;
  auto stride = ints_of(in[3]), padding = ints_of(in[4]), dilation = ints_of(in[5]);
  auto out_pad = ints_of(in[7]);
  const bool transposed = in[6].isBool() && in[6].toBool();
  const int64_t groups = in[8].isInt() ? in[8].toInt() : 1;
  auto at_or = [](const std::vector<int64_t>& v, size_t i, int64_t dflt) {
    if (v.empty()) return dflt;
    return v.size() == 1 ? v[0] : (i < v.size() ? v[i] : dflt);
  };
  const double kernel = product(w, 2);
  if (transposed) {
    // weight (C_in, C_out / groups, k...): every input element scatters into C_out/groups * k.
    return product(x) * double(w[1]) * kernel;
  }
  double out_positions = double(x[0]) * double(w[0]);  // batch * C_out
  for (size_t i = 0; i < spatial; ++i) {
    const int64_t s = at_or(stride, i, 1), p = at_or(padding, i, 0), d = at_or(dilation, i, 1);
    const int64_t o = (x[2 + i] + 2 * p - d * (w[2 + i] - 1) - 1) / s + 1;
    (void)out_pad;
    out_positions *= double(std::max<int64_t>(o, 0));
  }
  return out_positions * double(x[1] / groups) * kernel;
}

double macs_of(const char* op, c10::ArrayRef<const c10::IValue> in) {
  // In-place variants (addmm_ etc.) take the same inputs as their functional forms.
  std::string base(op);
  if (!base.empty() && base.back() == '_') base.pop_back();
  const char* name = base.c_str();
  auto is = [name](const char* n) { return std::strcmp(name, n) == 0; };
  if (is("aten::mm")) {
    if (in.size() < 2) return 0;
    const auto a = sizes_of(in[0]), b = sizes_of(in[1]);
    return a.size() == 2 && b.size() == 2 ? double(a[0]) * double(a[1]) * double(b[1]) : 0;
  }
  if (is("aten::addmm")) {
    if (in.size() < 3) return 0;
    const auto a = sizes_of(in[1]), b = sizes_of(in[2]);
    return a.size() == 2 && b.size() == 2 ? double(a[0]) * double(a[1]) * double(b[1]) : 0;
  }
  if (is("aten::bmm") || is("aten::baddbmm") || is("aten::addbmm")) {
    const size_t first = is("aten::bmm") ? 0 : 1;
    if (in.size() < first + 2) return 0;
    const auto a = sizes_of(in[first]), b = sizes_of(in[first + 1]);
    return a.size() == 3 && b.size() == 3
               ? double(a[0]) * double(a[1]) * double(a[2]) * double(b[2])
               : 0;
  }
  if (is("aten::mv") || is("aten::addmv")) {
    const size_t first = is("aten::mv") ? 0 : 1;
    if (in.size() < first + 1) return 0;
    const auto a = sizes_of(in[first]);
    return a.size() == 2 ? double(a[0]) * double(a[1]) : 0;
  }
  if (is("aten::dot") || is("aten::vdot")) {
    if (in.empty()) return 0;
    const auto a = sizes_of(in[0]);
    return a.size() == 1 ? double(a[0]) : 0;
  }
  if (is("aten::convolution")) return convolution_macs(in);
  return -1;  // not a counted operator
}

bool is_counted(const char* name) {
  static const char* const names[] = {
      "aten::mm",       "aten::addmm",  "aten::addmm_",  "aten::bmm",        "aten::baddbmm",
      "aten::baddbmm_", "aten::addbmm", "aten::addbmm_", "aten::mv",         "aten::addmv",
      "aten::addmv_",   "aten::dot",    "aten::vdot",    "aten::convolution"};
  for (const char* n : names)
    if (std::strcmp(name, n) == 0) return true;
  return false;
}

struct CountedMarker : at::ObserverContext {};

std::unique_ptr<at::ObserverContext> on_start(const at::RecordFunction& fn) {
  const char* name = fn.name();
  const bool counted = is_counted(name);
  const bool outermost = counted && t_depth == 0;
  const double m = outermost ? macs_of(name, fn.inputs()) : 0;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (!g_ops) return nullptr;
    ++g_ops->operator_calls;
    if (outermost) {
      auto& stat = g_ops->by_op[name];
      ++stat.calls;
      if (m > 0) {
        stat.macs += m;
        g_ops->macs += m;
      }
    }
  }
  if (!counted) return nullptr;
  ++t_depth;
  return std::make_unique<CountedMarker>();
}

void on_end(const at::RecordFunction& /*fn*/, at::ObserverContext* ctx) {
  if (ctx && t_depth > 0) --t_depth;
}

}  // namespace

OpCounter::OpCounter() {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_active) throw std::logic_error("OpCounter: another counter is active");
    g_active = this;
    g_ops = &ops_;
  }
  t_depth = 0;
  handle_ = at::addThreadLocalCallback(at::RecordFunctionCallback(&on_start, &on_end)
                                           .needsInputs(true)
                                           .scopes({at::RecordScope::FUNCTION}));
}

OpCounter::~OpCounter() {
  at::removeCallback(handle_);
  std::lock_guard<std::mutex> lock(g_mutex);
  g_active = nullptr;
  g_ops = nullptr;
  t_depth = 0;
}

MeasuredOps count_ops(const std::function<void()>& fn) {
  OpCounter counter;
  fn();
  return counter.result();
}

double profiler_matmul_flops(const std::function<void()>& fn) {
  namespace prof = torch::autograd::profiler;
  prof::ProfilerConfig config(prof::ProfilerState::CPU, /*report_input_shapes=*/true,
                              /*profile_memory=*/false, /*with_stack=*/false, /*with_flops=*/true);
  prof::enableProfilerLegacy(config);
  try {
    fn();
  } catch (...) {
    prof::disableProfilerLegacy();
    throw;
  }
  auto lists = prof::disableProfilerLegacy();
  double flops = 0;
  for (auto& list : lists)
    for (auto& ev : list) {
      if (ev.kindStr() != "push") continue;
      const char* n = ev.name();
      if (!std::strcmp(n, "aten::mm") || !std::strcmp(n, "aten::addmm") ||
          !std::strcmp(n, "aten::bmm") || !std::strcmp(n, "aten::baddbmm"))
        flops += double(ev.flops());
    }
  return flops;
}

}  // namespace adala
