// Starts itself again with glibc's larger thread cache, as contend and the benchmarks do when they
// are built without mimalloc, then prints what the restarted process is: the name the kernel gave
// it (what ps and pgrep show), the tunables it runs with, and the arguments it was given.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "scenarios/allocator_tuning.h"

int main(int argc, char** argv) {
  contend::restart_with_larger_thread_cache(argv);
  std::string name;
  std::getline(std::ifstream("/proc/self/comm"), name);
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  std::printf("name: %s\ntunables: %s\narguments:", name.c_str(),
              tunables != nullptr ? tunables : "");
  for (int i = 1; i < argc; ++i)
    std::printf(" %s", argv[i]);
  std::printf("\n");
  return 0;
}
