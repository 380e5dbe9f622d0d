// Writes checkpoint_fuzz's seed files into the directory it is given (a build directory: they are
// made, not kept): the checkpoints of checkpoint_search.h's search finished, stopped by its
// budget, stopped by a stop asked for while it sized its units (the file keeps the round under
// way), and sized only (the file shards are dealt from).
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <string>

#include "fuzz/checkpoint_search.h"

int main(int argc, char** argv) {
  using namespace contend;
  if (argc != 2) {
    std::fprintf(stderr, "usage: checkpoint_fuzz_seeds DIR\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  const Scenario s = fuzz::checkpoint_scenario();
  struct Seed {
    const char* name;
    std::int64_t runs;
    bool sizing_only;
    std::int64_t stop_at_run = 0;  // a stop asked for at this run; 0: none
  };
  for (const Seed& seed :
       {Seed{"finished.json", 100'000, false}, Seed{"stopped.json", 30, false},
        Seed{"interrupted.json", 100'000, false, 5}, Seed{"sized.json", 100'000, true}}) {
    ExhaustiveOptions o = fuzz::checkpoint_options(seed.runs);
    o.checkpoint_file = (dir / seed.name).string();
    o.sizing_only = seed.sizing_only;
    std::atomic<bool> stop{false};
    if (seed.stop_at_run > 0) {
      o.stop_requested = &stop;
      o.progress_every = 1;
      o.on_progress = [&](const ExhaustiveProgress& p) {
        if (p.runs >= seed.stop_at_run) stop = true;
      };
    }
    std::filesystem::remove(o.checkpoint_file);
    const ExhaustiveResult r = explore_exhaustively(s, o);
    if (!r.error.empty() || !r.checkpoint_error.empty()) {
      std::fprintf(stderr, "checkpoint_fuzz_seeds: %s: %s%s\n", seed.name, r.error.c_str(),
                   r.checkpoint_error.c_str());
      return 1;
    }
  }
  return 0;
}
