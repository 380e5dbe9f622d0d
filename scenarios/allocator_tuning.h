// Allocator settings for a process that runs many worlds one after another (a seed range, a
// sweep, an exploration, a benchmark). Each world allocates a few megabytes (the store, the
// conflict history, the history) and frees them when it ends; by default glibc hands freed
// memory at the top of the heap back to the kernel and serves large blocks with fresh mmaps, so
// the next world pays a page fault for every page it touches again — measured at 15-20% of a
// 64-client run. Keeping freed memory in the process removes that cost. It never affects results.
#pragma once

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace contend {

inline void keep_freed_memory_for_reuse() {
#if defined(__GLIBC__)
  constexpr int kTrimThresholdBytes = 256 << 20;  // return memory only past 256 MiB free at top
  constexpr int kMmapThresholdBytes = 32 << 20;   // blocks below 32 MiB come from the heap
  mallopt(M_TRIM_THRESHOLD, kTrimThresholdBytes);
  mallopt(M_MMAP_THRESHOLD, kMmapThresholdBytes);
#endif
}

}  // namespace contend
