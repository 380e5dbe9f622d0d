// Seed ranges as the CLI spells them: "N" or "A..B" (inclusive).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace contend {

struct SeedRange {
  std::uint64_t first = 1;
  std::uint64_t last = 1;
  std::uint64_t count() const { return last - first + 1; }
};

// The largest seed: a scenario file holds its seeds (and a counterexample file the seed that shows
// it) as TOML integers, which are signed 64-bit, so a larger seed could not be written back.
inline constexpr std::uint64_t kSeedMax = 9'223'372'036'854'775'807ULL;  // 2^63 - 1

// The most seeds one run takes (a bound, like every loop's): run larger searches as several ranges.
inline constexpr std::uint64_t kMaxSeedsPerRun = 100'000'000;

// What to say of a seed past kSeedMax.
std::string past_largest_seed(const std::string& seed);

// Parses "N" or "A..B" with A <= B and at most kMaxSeedsPerRun seeds. Returns nothing (and sets
// `error`) otherwise.
std::optional<SeedRange> parse_seed_range(const std::string& text, std::string& error);

}  // namespace contend
