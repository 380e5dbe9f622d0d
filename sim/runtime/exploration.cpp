#include "sim/runtime/exploration.h"

#include <algorithm>
#include <cmath>

#include "base/invariant.h"

namespace contend {

PctStrategy::PctStrategy(std::uint64_t seed, int depth, std::int64_t steps_estimate)
    : rng_(Rng(seed).child("pct")), depth_(depth) {
  CONTEND_ASSERT(depth >= 1 && steps_estimate >= 1, "PCT needs a depth and a step estimate");
  for (int i = 0; i + 1 < depth; ++i)
    change_points_.push_back(rng_.range(1, steps_estimate));
  std::sort(change_points_.begin(), change_points_.end());
}

std::int64_t PctStrategy::priority_of(ClientId client) {
  auto index = static_cast<std::size_t>(client);
  if (priorities_.size() <= index) priorities_.resize(index + 1, 0);
  if (priorities_[index] == 0) {
    // Distinct random priorities above depth: a random 62-bit draw keeps collisions negligible,
    // and the client id breaks any tie deterministically.
    priorities_[index] = depth_ + 1 + static_cast<std::int64_t>(rng_.next() >> 2);
  }
  return priorities_[index];
}

std::size_t PctStrategy::choose(std::span<const Candidate> candidates) {
  CONTEND_ASSERT(!candidates.empty(), "a choice among no candidates");
  ++choices_made_;
  std::size_t best = 0;
  for (std::size_t i = 1; i < candidates.size(); ++i) {
    if (priority_of(candidates[i].client) > priority_of(candidates[best].client)) best = i;
  }
  while (next_change_ < change_points_.size() && change_points_[next_change_] <= choices_made_) {
    // The running client drops below every initial priority; the next one takes over.
    priorities_[static_cast<std::size_t>(candidates[best].client)] =
        static_cast<std::int64_t>(depth_ - 1 - next_change_);
    ++next_change_;
    best = 0;
    for (std::size_t i = 1; i < candidates.size(); ++i) {
      if (priority_of(candidates[i].client) > priority_of(candidates[best].client)) best = i;
    }
  }
  CONTEND_ASSERT(best < candidates.size(), "PCT chooses a ready client");
  return best;
}

double PctStrategy::probability_bound(std::int64_t clients, std::int64_t steps, int depth) {
  CONTEND_ASSERT(clients >= 1 && steps >= 1 && depth >= 1, "PCT's bound needs a positive scope");
  return 1.0 / (static_cast<double>(clients) * std::pow(static_cast<double>(steps), depth - 1));
}

std::size_t DfsStrategy::choose(std::span<const Candidate> candidates) {
  CONTEND_ASSERT(!candidates.empty(), "a choice among no candidates");
  Point p;
  p.options = static_cast<std::uint32_t>(candidates.size());
  p.previous = last_ran_;
  for (const Candidate& c : candidates)
    p.clients.push_back(c.client);
  const std::size_t at = points_.size();
  p.choice = at < prefix_.size() ? std::min(prefix_[at], p.options - 1) : 0;
  CONTEND_ASSERT(p.choice < p.options, "DFS chooses a ready client");
  points_.push_back(p);
  return p.choice;
}

bool DfsExplorer::preempts(const DfsStrategy::Point& p, std::uint32_t choice) {
  CONTEND_ASSERT(choice < p.options, "a choice among the point's options");
  if (p.previous < 0) return false;
  bool previous_ready =
      std::find(p.clients.begin(), p.clients.end(), p.previous) != p.clients.end();
  return previous_ready && p.clients[choice] != p.previous;
}

std::optional<std::vector<std::uint32_t>> DfsExplorer::next_prefix() {
  if (schedules_ >= max_schedules_) return std::nullopt;
  if (!started_) {
    started_ = true;
    ++schedules_;
    return std::vector<std::uint32_t>{};
  }
  // Backtrack: the deepest point with an untried alternative within the preemption bound.
  std::vector<int> preemptions_before(last_.size() + 1, 0);
  for (std::size_t i = 0; i < last_.size(); ++i) {
    preemptions_before[i + 1] =
        preemptions_before[i] + (preempts(last_[i], last_[i].choice) ? 1 : 0);
  }
  for (std::size_t i = last_.size(); i-- > 0;) {
    for (std::uint32_t alt = last_[i].choice + 1; alt < last_[i].options; ++alt) {
      if (preemptions_before[i] + (preempts(last_[i], alt) ? 1 : 0) > max_preemptions_) continue;
      std::vector<std::uint32_t> prefix;
      for (std::size_t j = 0; j < i; ++j)
        prefix.push_back(last_[j].choice);
      prefix.push_back(alt);
      ++schedules_;
      CONTEND_ASSERT(prefix.size() == i + 1 && schedules_ <= max_schedules_,
                     "a new prefix diverges at its last point, within the schedule budget");
      return prefix;
    }
  }
  exhausted_ = true;
  return std::nullopt;
}

void DfsExplorer::record(const std::vector<DfsStrategy::Point>& points) {
  last_ = points;
}

}  // namespace contend
