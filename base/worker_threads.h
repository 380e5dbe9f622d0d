// Running one piece of work on several threads at once (run's and sweep's seeds, explore's units).
// This header is the bottom layer (base/): it includes nothing of ours.
#pragma once

#include <atomic>
#include <cstdio>
#include <exception>
#include <functional>
#include <system_error>
#include <thread>
#include <vector>

namespace contend {

// Runs `work` on `jobs` threads, this one among them, and returns once each has returned: the
// number of threads that ran it. A thread the system does not start (std::system_error: a limit
// on processes or on memory, as a container sets) is not asked for again, and the work runs on
// those that started — for callers whose results do not depend on the threads — with a note on
// stderr naming `what` ("--jobs"), the first time a process meets it. The threads started are
// always joined, the error's unwinding included.
inline int run_on_threads(int jobs, const std::function<void()>& work, const char* what) {
  std::vector<std::thread> threads;
  try {
    for (int j = 1; j < jobs; ++j)
      threads.emplace_back(work);
  } catch (const std::system_error& e) {
    static std::atomic<bool> said{false};  // once a process: explore runs threads for each scope
    if (!said.exchange(true))
      std::fprintf(stderr,
                   "contend: %s %d: the system started %zu thread(s) of %d (%s); the work runs on "
                   "%zu, with the same results\n",
                   what, jobs, threads.size() + 1, jobs, e.what(), threads.size() + 1);
  }
  work();
  for (std::thread& t : threads)
    t.join();
  return static_cast<int>(threads.size()) + 1;
}

}  // namespace contend
