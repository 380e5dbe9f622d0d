#include "scenarios/seed_range.h"

#include <string_view>

#include "base/decimal.h"

namespace contend {

std::string past_largest_seed(const std::string& seed) {
  return "seed " + seed + " is past the largest seed, " + std::to_string(kSeedMax) +
         " (a scenario file holds seeds as TOML's signed 64-bit integers)";
}

std::optional<SeedRange> parse_seed_range(const std::string& text, std::string& error) {
  auto dots = text.find("..");
  if (dots == std::string::npos) {
    auto seed = parse_decimal<std::uint64_t>(text);
    if (!seed) {
      error = "'" + text + "' is not a seed (expected a non-negative integer or A..B)";
      return std::nullopt;
    }
    if (*seed > kSeedMax) {
      error = past_largest_seed(text);
      return std::nullopt;
    }
    return SeedRange{*seed, *seed};
  }
  auto first = parse_decimal<std::uint64_t>(std::string_view(text).substr(0, dots));
  auto last = parse_decimal<std::uint64_t>(std::string_view(text).substr(dots + 2));
  if (!first || !last) {
    error = "'" + text + "' is not a seed range (expected A..B with non-negative integers)";
    return std::nullopt;
  }
  if (*last > kSeedMax) {
    error = past_largest_seed(std::to_string(*last));
    return std::nullopt;
  }
  if (*last < *first) {
    error = "seed range '" + text + "' is empty: the last seed is below the first";
    return std::nullopt;
  }
  if (*last - *first >= kMaxSeedsPerRun) {
    error = "seed range '" + text + "' holds more than " + std::to_string(kMaxSeedsPerRun) +
            " seeds; run it as several smaller ranges";
    return std::nullopt;
  }
  return SeedRange{*first, *last};
}

}  // namespace contend
