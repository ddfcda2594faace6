#pragma once
// Which linear-attention computation training runs (process-wide, like the thread count):
// the fused autograd kernel (linear_attention_autograd.h, the default; off CPU it runs the
// padded form), the batched formula under autograd (linear_attention in attention_ops.h),
// which training ran before the fused kernel existed, or the padded form
// (linear_attention_padded.h, CUDA's path) on any device; kept selectable so that before /
// after profiles and benchmarks (`adala run --linear-kernel`, `adala bench scaling
// --linear-kernel`) come from one binary.
#include <string>
#include <vector>

namespace adala {

enum class LinearTrainingKernel { Fused, Batched, Padded };

void set_linear_training_kernel(LinearTrainingKernel kernel);
LinearTrainingKernel linear_training_kernel();

// "fused" / "batched" / "padded"; the parser throws std::invalid_argument naming the accepted
// values.
LinearTrainingKernel parse_linear_training_kernel(const std::string& name);
const char* linear_training_kernel_name(LinearTrainingKernel kernel);
// Every kernel's name, in the enum's order.
const std::vector<std::string>& linear_training_kernel_names();

}  // namespace adala
