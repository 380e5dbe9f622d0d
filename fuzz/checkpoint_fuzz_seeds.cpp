// Writes checkpoint_fuzz's seed files into the directory it is given (a build directory: they are
// made, not kept): the checkpoints of checkpoint_search.h's search finished, stopped by its
// budget, and sized only (the file shards are dealt from).
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
  };
  for (const Seed& seed : {Seed{"finished.json", 100'000, false}, Seed{"stopped.json", 30, false},
                           Seed{"sized.json", 100'000, true}}) {
    ExhaustiveOptions o = fuzz::checkpoint_options(seed.runs);
    o.checkpoint_file = (dir / seed.name).string();
    o.sizing_only = seed.sizing_only;
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
