// Schedule exploration behind the Strategy interface.
//
// PctStrategy — probabilistic concurrency testing (Burckhardt, Kothari, Musuvathi, Nagarakatte,
// ASPLOS 2010): every client gets a random distinct priority >= depth; depth - 1 change points
// are drawn uniformly over the first `steps_estimate` choices; the highest-priority ready client
// always runs, and at the i-th change point the running client drops to priority i. A bug of
// depth d is found in one run with probability >= 1 / (n * k^(d-1)).
//
// DfsExplorer — bounded exhaustive search over scheduling choices by stateless re-execution:
// each run follows a prefix of choices, then takes the earliest step; afterwards the deepest
// choice point with an untried alternative is advanced. Bounded by the number of preemptions per
// schedule (switching away from a client that could have continued) and a schedule budget;
// reports whether the space was exhausted.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "sim/runtime/rng.h"
#include "sim/runtime/strategy.h"

namespace contend {

class PctStrategy : public Strategy {
 public:
  PctStrategy(std::uint64_t seed, int depth, std::int64_t steps_estimate);
  std::string name() const override { return "pct"; }
  std::size_t choose(std::span<const Candidate> candidates) override;
  // The guaranteed lower bound on finding a depth-d bug per run.
  static double probability_bound(std::int64_t clients, std::int64_t steps, int depth);

 private:
  std::int64_t priority_of(ClientId client);
  Rng rng_;
  int depth_;
  std::vector<std::int64_t> change_points_;  // sorted choice numbers
  std::vector<std::int64_t> priorities_;     // by client; 0 = not yet assigned
  std::int64_t choices_made_ = 0;
  std::size_t next_change_ = 0;
};

// One schedule of a DFS: follows `prefix`, then index 0; records what it saw.
class DfsStrategy : public Strategy {
 public:
  struct Point {
    std::uint32_t choice = 0;
    std::uint32_t options = 1;
    ClientId previous = -1;         // the client that ran just before this point
    std::vector<ClientId> clients;  // candidates in order, to count preemptions
  };
  explicit DfsStrategy(std::vector<std::uint32_t> prefix) : prefix_(std::move(prefix)) {}
  std::string name() const override { return "dfs"; }
  std::size_t choose(std::span<const Candidate> candidates) override;
  const std::vector<Point>& points() const { return points_; }
  void on_step(ClientId client) override { last_ran_ = client; }

 private:
  std::vector<std::uint32_t> prefix_;
  std::vector<Point> points_;
  ClientId last_ran_ = -1;
};

// Drives a DFS across runs: next_prefix() gives the schedule for the next run, record() takes
// what that run saw. Preemptions are counted along the prefix and pruned beyond the bound.
class DfsExplorer {
 public:
  DfsExplorer(int max_preemptions, std::int64_t max_schedules)
      : max_preemptions_(max_preemptions), max_schedules_(max_schedules) {}
  // The next schedule to run, or nothing when the space (within the bounds) is exhausted or
  // the schedule budget is spent.
  std::optional<std::vector<std::uint32_t>> next_prefix();
  void record(const std::vector<DfsStrategy::Point>& points);
  std::int64_t schedules() const { return schedules_; }
  bool exhausted() const { return exhausted_; }

 private:
  static bool preempts(const DfsStrategy::Point& p, std::uint32_t choice);
  int max_preemptions_;
  std::int64_t max_schedules_;
  std::int64_t schedules_ = 0;
  bool started_ = false;
  bool exhausted_ = false;
  std::vector<DfsStrategy::Point> last_;
};

}  // namespace contend
