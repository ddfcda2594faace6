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

// Every thread allocates from the one main heap. A thread's own malloc arena keeps its memory
// in heaps of at most 64 MB that glibc unmaps as soon as they are empty, whatever the
// thresholds above, so blocks of tens of MB freed and allocated again on such a thread come
// from fresh pages each time. The benchmarks measure on such a thread (a forked child runs
// each point on a new thread, child_process.h): the fused attention kernel at N = 16384 faulted
// 12k pages a run there, 60-78 ms against 47-50 ms on the main thread. Takes effect only
// before the program's second thread first allocates (glibc fixes the arena count then):
// `adala bench` calls it first thing. Does nothing where malloc is not glibc's.
void share_one_malloc_arena();

}  // namespace adala
