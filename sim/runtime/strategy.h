// Scheduling strategies: at every scheduling point with more than one client ready, the world
// asks its strategy which one runs next. Strategies see only the candidates (client, due time,
// step kind), never recipes or the store, so new ones (PCT, exhaustive search) plug in here.
//
// Candidates are sorted by (due time, client id). Index 0 is the step that is due first: the
// `random` strategy always takes it — its randomness is the seeded latency of every step, which
// keeps virtual time meaningful for throughput and latency figures. Other strategies may pick any
// candidate; the clock then moves to max(now, due).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "sim/runtime/rng.h"
#include "sim/store/environment.h"

namespace contend {

struct StepLog;  // footprint.h

struct Candidate {
  ClientId client = 0;
  std::int64_t due_us = 0;
  StepKind kind = StepKind::read;
  int thread = 0;  // the client's slot: a crashed client's replacement keeps its thread
};

// Where an exhaustive world lets its strategy place a fault (FaultKnobs say which are enabled).
enum class FaultSite : std::uint8_t {
  step,    // the client crashes at this step (a commit: before or after the resolver saw it)
  read,    // the read fails with transaction_too_old or future_version
  commit,  // not_committed, or commit_unknown_result applied / not applied
};

class Strategy {
 public:
  virtual ~Strategy() = default;
  virtual std::string name() const = 0;
  // REQUIRES: candidates.size() >= 2. Returns an index into candidates.
  virtual std::size_t choose(std::span<const Candidate> candidates) = 0;
  // Told which client's step runs next, whether or not there was a choice to make.
  virtual void on_step(ClientId /*client*/) {}
  // True when choose() always returns 0: the world then skips building candidate lists.
  virtual bool earliest_first() const { return false; }
  // True when the strategy wants choose() at every step of an exhaustive world's main phase,
  // even with one candidate (it follows the whole execution, not only its choices).
  virtual bool chooses_every_step() const { return false; }
  // Exhaustive worlds: which of `options` fault outcomes happens at this site (0 = no fault).
  virtual std::uint32_t choose_fault(ClientId /*client*/, FaultSite /*site*/,
                                     std::uint32_t /*options*/) {
    return 0;
  }
  // Exhaustive worlds that explore draws: where a random key suffix sorts among the `options - 1`
  // drawn under its key prefix before it (0: above them all; suffix_draws.h).
  virtual std::uint32_t choose_draw(ClientId /*client*/, std::uint32_t /*options*/) { return 0; }
  // Exhaustive worlds hand the strategy their step log, which holds every finished step.
  virtual void watch(const StepLog* /*log*/) {}
  // Exhaustive worlds: whether the strategy caches states. A world whose strategy does keeps what
  // makes up its state (World::state_digest) as it runs, and before each choice of the main
  // phase that the strategy wants the state at (wants_state) gives it to arrive(): false ends
  // the run there (its continuations were explored from an equal state).
  virtual bool caches_states() const { return false; }
  virtual bool wants_state() const { return false; }
  virtual bool arrive(const Digest128::Value& /*state*/) { return true; }
  // Tests only: the state leaves out the operation events so far (a wrong notion of state, which
  // the soundness comparison must catch).
  virtual bool states_without_history() const { return false; }
  // Tests only: a read's footprint is the keys that decided its answer, not the range it asked
  // for (footprint.h: a relation that depends on the order it judges, which the soundness
  // comparison must catch).
  virtual bool reads_as_decided() const { return false; }
  // Tests only: a read that takes its transaction's read version runs inside the step before it,
  // like an inert step (WorldOptions::split_inert_steps), though it is ordered against commits
  // (what the soundness comparison must catch).
  virtual bool fetches_inline() const { return false; }
  // What choose() returns to end the run at once (the rest of the execution is redundant).
  static constexpr std::size_t kStop = static_cast<std::size_t>(-1);
};

// Earliest-due first: the interleaving follows the seeded latencies.
class RandomStrategy : public Strategy {
 public:
  std::string name() const override { return "random"; }
  std::size_t choose(std::span<const Candidate>) override { return 0; }
  bool earliest_first() const override { return true; }
};

// Replays a recorded sequence of choices; past its end (a shrunk schedule) it takes the earliest.
// A recorded index beyond the candidates is clamped, and counted as a divergence.
class ReplayStrategy : public Strategy {
 public:
  explicit ReplayStrategy(std::vector<std::uint32_t> choices) : choices_(std::move(choices)) {}
  std::string name() const override { return "replay"; }
  std::size_t choose(std::span<const Candidate> candidates) override {
    if (next_ >= choices_.size()) return 0;
    std::size_t choice = choices_[next_++];
    if (choice >= candidates.size()) {
      ++divergences_;
      return candidates.size() - 1;
    }
    return choice;
  }
  std::size_t divergences() const { return divergences_; }

 private:
  std::vector<std::uint32_t> choices_;
  std::size_t next_ = 0;
  std::size_t divergences_ = 0;
};

}  // namespace contend
