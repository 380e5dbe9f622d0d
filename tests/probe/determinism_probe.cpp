// Prints "<scenario> <seed> <run hash>" for seeds 1..5 of each scenario given. Built a second
// time with -O0 and assertions on, so a test can compare its hashes with the optimised build's.
#include <cstdio>

#include "scenarios/runner.h"

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    contend::ScenarioError error;
    auto scenario = contend::load_scenario(argv[i], error);
    if (!scenario) {
      std::fprintf(stderr, "%s\n", error.message.c_str());
      return 2;
    }
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      auto run = contend::run_seed(*scenario, seed);
      std::printf("%s %llu %016llx\n", argv[i], static_cast<unsigned long long>(seed),
                  static_cast<unsigned long long>(run.metrics.run_hash));
    }
  }
  return 0;
}
