#include "engine/kernels/memory_reuse.h"

#include <cstdlib>
#include <cstring>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace adala {

void keep_freed_memory_for_reuse() {
  const char* choice = std::getenv("ADALA_MALLOC");
  if (choice && std::strcmp(choice, "default") == 0) return;
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);  // glibc's largest; also stops its auto-tuning
  mallopt(M_TRIM_THRESHOLD, 1024 * 1024 * 1024);
#endif
}

void share_one_malloc_arena() {
#if defined(__GLIBC__)
  mallopt(M_ARENA_MAX, 1);
#endif
}

}  // namespace adala
