#pragma once
// One copy of a hot element-wise loop per instruction set, the best chosen when the program
// loads (GCC's target_clones). The clones are named by feature ("avx2"), not by CPU ("arch=
// haswell"): an "arch=" clone is dispatched by __builtin_cpu_is, i.e. by the CPU's model, so
// "arch=haswell" never runs on an AMD EPYC or any newer Intel core, and the scalar default ran
// there instead (the fused training kernel spent half its time in scalar exp).
#define ADALA_VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
