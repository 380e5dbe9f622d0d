#include "scenarios/search_estimate.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include <fmt/format.h>

#include "base/invariant.h"

namespace contend {

namespace {

// A node's choices: those finished before the current one, and all known.
struct Choices {
  double finished = 0;
  double known = 1;
};

// A node of the fixed path below runs_from_depth was cut there after the search began some of
// its choices: those not taken yet went to units of their own.
Choices choices_at(const SearchNode& n, int max_faults, bool fixed) {
  if (!n.schedules()) {
    const double choice = n.choice;
    const bool more = !fixed && n.has_next_choice(max_faults);
    return {choice, more ? static_cast<double>(n.options) : choice + 1};
  }
  // `done` holds the current thread and the finished ones; advance() tries these next.
  const std::uint64_t to_try = fixed ? 0 : n.backtrack & n.enabled & ~n.done & ~n.sleep;
  const int taken = std::popcount(n.done);
  CONTEND_ASSERT(taken >= 1, "a node on the path has taken its thread");
  return {static_cast<double>(taken - 1), static_cast<double>(taken + std::popcount(to_try))};
}

// Two significant digits (a whole number from 10 up): 240, 5.2, 0.43.
std::string two_digits(double x) {
  if (x <= 0) return "0";
  const double scale = std::pow(10.0, std::floor(std::log10(x)) - 1);
  const double rounded = std::round(x / scale) * scale;
  return rounded >= 10 ? fmt::format("{:.0f}", rounded)
                       : fmt::format("{:.{}f}", rounded, std::lround(-std::log10(scale)));
}

}  // namespace

double passed_fraction(const DporProgress& progress, int max_faults) {
  CONTEND_ASSERT(progress.runs_from_depth <= progress.fixed_depth &&
                     progress.fixed_depth <= progress.nodes.size(),
                 "a search's runs were made below its first fixed depth");
  double fraction = 0;
  double weight = 1;  // the share of the unit's tree below the current node
  for (std::size_t d = progress.runs_from_depth; d < progress.nodes.size(); ++d) {
    const Choices c = choices_at(progress.nodes[d], max_faults, d < progress.fixed_depth);
    fraction += weight * c.finished / c.known;
    weight /= c.known;
  }
  CONTEND_ASSERT(fraction >= 0 && fraction <= 1 + 1e-9, "a passed fraction lies in [0, 1]");
  return std::min(fraction, 1.0);
}

UnitSize size_of(const UnitResult& r, int max_faults) {
  UnitSize size{static_cast<double>(r.executions + r.blocked), std::nullopt};
  if (r.exhausted) {
    size.whole = size.made;
  } else if (r.stopped_at) {
    size.whole = size_of(*r.stopped_at, size.made, max_faults).whole;
  }
  return size;
}

UnitSize size_of(const DporProgress& progress, double made, int max_faults) {
  const double fraction = passed_fraction(progress, max_faults);
  if (fraction <= 0) return {made, std::nullopt};
  return {made, std::min(made / fraction, kRunsEstimateMax)};
}

std::optional<std::int64_t> combine_unit_sizes(const std::vector<std::size_t>& plan_of,
                                               const std::vector<UnitSize>& sizes) {
  CONTEND_ASSERT(plan_of.size() == sizes.size(), "a size for every unit");
  std::size_t plans = 0;
  for (std::size_t plan : plan_of)
    plans = std::max(plans, plan + 1);
  std::vector<double> sized_runs(plans, 0);  // by plan: the units with a size, and their runs
  std::vector<double> sized_units(plans, 0);
  double total = 0;
  for (std::size_t index = 0; index < sizes.size(); ++index) {
    const UnitSize& size = sizes[index];
    CONTEND_ASSERT(!size.whole || *size.whole + 0.5 >= size.made, "a unit's size below its runs");
    total += size.whole.value_or(size.made);
    if (!size.whole) continue;
    sized_runs[plan_of[index]] += *size.whole;
    sized_units[plan_of[index]] += 1;
  }
  double all_runs = 0;
  double all_units = 0;
  for (std::size_t p = 0; p < plans; ++p) {
    all_runs += sized_runs[p];
    all_units += sized_units[p];
  }
  if (all_units == 0) return std::nullopt;
  for (std::size_t index = 0; index < sizes.size(); ++index) {
    if (sizes[index].whole) continue;
    const std::size_t p = plan_of[index];
    const double mean = sized_units[p] > 0 ? sized_runs[p] / sized_units[p] : all_runs / all_units;
    total += std::max(mean - sizes[index].made, 0.0);  // its runs so far are counted already
  }
  return static_cast<std::int64_t>(std::llround(std::min(total, kRunsEstimateMax)));
}

std::optional<std::int64_t> estimate_runs(const std::vector<Unit>& units,
                                          const std::map<std::size_t, UnitResult>& done,
                                          int max_faults) {
  std::vector<std::size_t> plan_of;
  std::vector<UnitSize> sizes;
  for (std::size_t index = 0; index < units.size(); ++index) {
    plan_of.push_back(units[index].plan);
    auto it = done.find(index);
    sizes.push_back(it == done.end() ? UnitSize{} : size_of(it->second, max_faults));
  }
  return combine_unit_sizes(plan_of, sizes);
}

std::string about_count(double n) {
  if (n >= 1e12) return two_digits(n / 1e12) + " trillion";
  if (n >= 1e9) return two_digits(n / 1e9) + " billion";
  if (n >= 1e6) return two_digits(n / 1e6) + " million";
  return two_digits(n);
}

std::string percent(double fraction) {
  return fraction < 1e-4 ? std::string("under 0.01%") : two_digits(100 * fraction) + "%";
}

std::string about_duration(double seconds) {
  if (seconds < 10) return fmt::format("{:.1f} s", seconds);
  if (seconds < 120) return fmt::format("{:.0f} s", seconds);
  if (seconds < 7200) return fmt::format("{:.0f} min", seconds / 60);
  if (seconds < 2 * 86400) return fmt::format("{:.1f} h", seconds / 3600);
  constexpr double kYear = 365.25 * 86400;
  if (seconds < 2 * kYear) return fmt::format("{:.0f} days", seconds / 86400);
  return about_count(seconds / kYear) + " years";
}

}  // namespace contend
