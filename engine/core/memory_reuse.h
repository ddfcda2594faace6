#pragma once
// glibc serves blocks above its mmap threshold with fresh mappings and hands freed memory above
// its trim threshold back to the kernel. A loop that frees and allocates tensors of the same
// sizes every step (decoded images, per-sample crops, activations) then pays a page fault per
// 4 KB page and the kernel's zeroing of it, every time: on this project's VMs that was four
// times the JPEG decoding and resampling work of the data loader (`adala bench loader`: 400 ->
// 2,000 images/s on one thread). Called first thing by the programs (adala, the workbench).

namespace adala {

// Blocks up to 32 MB come from the heap and freed memory stays there for reuse (trimmed only
// above 1 GB). Does nothing when ADALA_MALLOC=default, or where malloc is not glibc's.
void keep_freed_memory_for_reuse();

}  // namespace adala
