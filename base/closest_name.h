// The name a mistyped word was most likely meant to be, for "did you mean ...?" in messages that
// refuse an unknown key or command. Pure functions of their arguments; no allocation beyond one
// row of the edit-distance table.
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace contend {

// Levenshtein distance: the fewest insertions, deletions and substitutions from a to b.
inline std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// The first of `names` nearest to `word` within fewer than `distance_limit` edits, or nothing.
template <typename Names>
std::optional<std::string_view> closest_name(std::string_view word, const Names& names,
                                             std::size_t distance_limit = 3) {
  std::optional<std::string_view> best;
  std::size_t best_distance = distance_limit;
  for (std::string_view name : names) {
    const std::size_t d = edit_distance(word, name);
    if (d < best_distance) best = name, best_distance = d;
  }
  return best;
}

}  // namespace contend
