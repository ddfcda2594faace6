#pragma once
// Which linear-attention computation training runs (process-wide, like the thread count):
// the fused autograd kernel (linear_attention_autograd.h, the default) or the batched formula
// under autograd (linear_attention in attention_ops.h), which training ran before the fused
// kernel existed; kept selectable so that before / after profiles and benchmarks
// (`adala run --linear-kernel`, `adala bench scaling --linear-kernel`) come from one binary.
#include <string>

namespace adala {

enum class LinearTrainingKernel { Fused, Batched };

void set_linear_training_kernel(LinearTrainingKernel kernel);
LinearTrainingKernel linear_training_kernel();

// "fused" / "batched"; the parser throws std::invalid_argument naming the accepted values.
LinearTrainingKernel parse_linear_training_kernel(const std::string& name);
const char* linear_training_kernel_name(LinearTrainingKernel kernel);

}  // namespace adala
