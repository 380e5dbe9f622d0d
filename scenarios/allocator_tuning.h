// Allocator settings for a process that runs many worlds one after another (a seed range, a
// sweep, an exploration, a benchmark). Each world allocates a few megabytes (the store, the
// conflict history, the history) and frees them when it ends; by default glibc hands freed
// memory at the top of the heap back to the kernel and serves large blocks with fresh mmaps, so
// the next world pays a page fault for every page it touches again — measured at 15-20% of a
// 64-client run. Keeping freed memory in the process removes that cost. It never affects results.
//
// The second setting is glibc's per-thread cache: it keeps at most 7 freed blocks of each size,
// and a world frees thousands of small blocks of a few sizes when it ends; the rest go to the
// shared bins, and the next world's allocations take malloc's slow path (sorting and merging
// bins). perf, priority-queue 3 x 2, every plan: 52% of the time in malloc and free, 20% with a
// cache of 1000 (explore_bench: queue 3 x 2 every plan 1.18x faster, on two jobs 1.32x). The
// count can only be raised by a tunable glibc reads once, at start-up, from GLIBC_TUNABLES, so a
// process that wants it starts itself again, once, with the tunable added. A GLIBC_TUNABLES that
// already sets glibc.malloc.tcache_count is left as it is (that is also how to opt out).
//
// The restart execs this program's own path, not /proc/self/exe: the kernel names a process after
// the file it was started from, and a process started as /proc/self/exe is named "exe" in ps, top,
// pgrep and /proc/PID/comm (and a tool that looks for it by name does not find it).
//
// A program linked with mimalloc (CONTEND_MIMALLOC, scenarios/CMakeLists.txt) needs neither:
// both functions do nothing there.
#pragma once

#include <string>

#if defined(__GLIBC__)
#include <malloc.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>
#endif

namespace contend {

// Blocks of each size the thread cache keeps (glibc's default: 7).
inline constexpr const char* kThreadCacheTunable = "glibc.malloc.tcache_count=1000";

#if defined(__GLIBC__) && defined(__linux__)
// The path this very program was started from, or /proc/self/exe when no path names it any more
// (its file deleted or replaced since it started: /proc/self/exe still starts this one).
inline std::string own_executable_path() {
  std::error_code failed;
  const std::filesystem::path path = std::filesystem::read_symlink("/proc/self/exe", failed);
  struct stat running {};
  struct stat named {};
  if (failed || ::stat("/proc/self/exe", &running) != 0 || ::stat(path.c_str(), &named) != 0 ||
      running.st_dev != named.st_dev || running.st_ino != named.st_ino) {
    return "/proc/self/exe";
  }
  return path.string();
}
#endif

// Starts this program again (same arguments, same environment plus the tunable) unless the
// tunable is set; returns only when it is set already or the restart failed (then the process
// goes on with glibc's default: slower, the same results). Call first thing in main.
inline void restart_with_larger_thread_cache([[maybe_unused]] char** argv) {
#if defined(__GLIBC__) && defined(__linux__) && !CONTEND_MIMALLOC
  const char* current = std::getenv("GLIBC_TUNABLES");
  std::string tunables = current != nullptr ? current : "";
  if (tunables.find("glibc.malloc.tcache_count") != std::string::npos) return;
  if (!tunables.empty()) tunables += ':';
  tunables += kThreadCacheTunable;
  if (setenv("GLIBC_TUNABLES", tunables.c_str(), 1) != 0) return;
  execv(own_executable_path().c_str(), argv);
#endif
}

inline void keep_freed_memory_for_reuse() {
#if defined(__GLIBC__) && !CONTEND_MIMALLOC
  constexpr int kTrimThresholdBytes = 256 << 20;  // return memory only past 256 MiB free at top
  constexpr int kMmapThresholdBytes = 32 << 20;   // blocks below 32 MiB come from the heap
  mallopt(M_TRIM_THRESHOLD, kTrimThresholdBytes);
  mallopt(M_MMAP_THRESHOLD, kMmapThresholdBytes);
#endif
}

}  // namespace contend
