// The World: one deterministic simulation run. It owns the store, the virtual clock, the seeded
// random streams and the clients (coroutines), and it is the Environment the store suspends in:
// every store step a client awaits is queued with a virtual due time (from the latency model),
// and the scheduling loop repeatedly lets the strategy pick which queued step happens next (an
// exhaustive world runs a step that touches nothing shared at once: split_inert_steps below).
//
// Invariants:
// - single-threaded; nothing depends on the wall clock; all randomness comes from child streams
//   of the seed (latency, faults, per-client), so a (seed, strategy choices) pair reproduces a run
//   byte for byte;
// - each client has at most one queued step; the clock never moves backwards;
// - the loop is bounded by max_steps and max_virtual_us: hitting either ends the run with
//   `bound_hit` set, never a hang.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <queue>
#include <string>
#include <vector>

#include "sim/runtime/faults.h"
#include "sim/runtime/footprint.h"
#include "sim/runtime/latency.h"
#include "sim/runtime/rng.h"
#include "sim/runtime/strategy.h"
#include "sim/runtime/suffix_draws.h"
#include "sim/runtime/task.h"
#include "sim/store/store.h"
#include "sim/store/transaction.h"

namespace contend {

struct WorldOptions {
  std::uint64_t seed = 1;
  LatencyModel latency;
  FaultKnobs faults;
  std::int64_t max_steps = 50'000'000;
  std::int64_t max_virtual_us = 24LL * 3600 * 1'000'000;
  bool record_attempts = false;   // keep an AttemptRecord per transaction attempt (traces)
  int retry_limit = 1000;         // per run() loop
  bool log_transactions = false;  // keep every committed transaction's reads and writes
  // Exhaustive search (dpor): the store sees time 0, so versions count commits and never depend
  // on when a step ran; every scheduled store step takes kExhaustiveStepUs (one run inside
  // another takes no time: split_inert_steps); faults are the strategy's choices among those the
  // knobs enable (a knob > 0 enables its fault, its value is ignored), never coin flips, and
  // pauses are off; the main phase records every step's footprint.
  bool exhaustive = false;
  // Exhaustive only: random key suffixes (Environment::random_suffix) are the strategy's choices
  // of where each sorts under its key prefix (suffix_draws.h), not the seed's bytes.
  bool explore_draws = false;
  // Exhaustive only: a recipe may park a client at a wait that made no progress
  // (Environment::park); the reduced search sets it, the full search it is checked against not.
  bool park_unproductive_waits = false;
  // Exhaustive only: every store step is a scheduling point of its own. Otherwise an inert step
  // (PendingOp::inert: a read at the read version its transaction holds already, a sleep, a
  // commit that never reaches the store) runs at once, inside the step of its client that
  // submitted it, at most kInertStepsInlineMax in a row. An inert step commutes with every step
  // of another client (footprint.h), so every schedule is equivalent to the one that runs it
  // right after its client's step before it: a search of those schedules reaches every outcome,
  // over far fewer scheduling points. The world splits them all the same where that argument
  // does not hold: with explored key suffixes (code after an inert step may draw, and draws are
  // ordered) and with crash faults (every step may crash before it runs). A search that
  // schedules the real-time order of operations sets it (a completion is ordered then).
  bool split_inert_steps = false;
};

inline constexpr std::int64_t kExhaustiveStepUs = 1'000;
// Inert steps one step may run inside it (WorldOptions::split_inert_steps); the next is split.
inline constexpr int kInertStepsInlineMax = 256;

// Counters the world keeps about transaction attempts.
struct AttemptStats {
  std::int64_t attempts = 0;
  std::int64_t committed = 0;  // commit() returned success (read-only included)
  std::int64_t conflicts = 0;  // not_committed from the resolver
  std::int64_t injected_not_committed = 0;
  std::int64_t unknown_results = 0;  // commit_unknown_result
  std::int64_t too_old = 0;
  std::int64_t future_version = 0;
  std::int64_t other_errors = 0;
  std::map<std::string, std::int64_t> conflicts_by_step;  // recipe step label -> count
};

// One transaction attempt, for traces and conflict explanations.
struct AttemptRecord {
  ClientId client = 0;
  std::uint64_t transaction_id = 0;
  std::int64_t end_us = 0;
  // The history events recorded before it ended (note_operation_event): it comes after event
  // events_before - 1 and before event events_before, where times alone may tie (an exhaustive
  // world's steps run many store operations at one time).
  std::int64_t events_before = 0;
  Version read_version = kInvalidVersion;
  Version commit_version = kInvalidVersion;
  ErrorCode outcome = ErrorCode::success;
  std::vector<KeyRange> read_ranges;  // the read conflict ranges it sent
  std::vector<ReadRecord> reads;      // every read, snapshot or not, with what it returned
  std::vector<Mutation> mutations;
  std::optional<ConflictCause> conflict;
  std::string conflict_step;
};

// A committed transaction, as the serializability replay needs it.
struct CommittedTransaction {
  ClientId client = 0;
  std::uint64_t transaction_id = 0;
  Version read_version = kInvalidVersion;
  Version commit_version = kInvalidVersion;  // kInvalidVersion: read-only
  std::vector<ReadRecord> reads;
  std::vector<Mutation> mutations;
};

// `stopped`: the strategy ended the run (an exhaustive search found the rest redundant).
enum class BoundHit : std::uint8_t { none, steps, virtual_time, stopped };

class World final : public Environment, private FootprintSink {
 public:
  World(WorldOptions options, std::shared_ptr<Strategy> strategy);
  ~World() override;
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  Store& store() { return store_; }
  Database database(ClientId client) {
    return Database{&store_, this, client, options_.retry_limit};
  }
  const WorldOptions& options() const { return options_; }
  Rng& client_rng(ClientId client);

  // Adds a client running `body`. It starts on the next scheduling step (or at once inside run()).
  ClientId spawn(Task<void> body);
  // Called after a crashed client's coroutines were destroyed (the workload records the
  // operation as indeterminate and may spawn a replacement).
  std::function<void(ClientId)> on_crash;
  // Called as a client's step begins, before it takes effect (exhaustive runs record an
  // operation's invocation here: as late as it can have been, just before its first step).
  std::function<void(ClientId)> on_step_start;

  // Runs until every client finished, or a bound is hit.
  void run();
  // Starts the clients not yet started, each running to its first scheduling point (run() does
  // this itself; benchmarks use it to measure suspended clients).
  void start_clients() { start_new_clients(); }

  // ---- Environment ----
  std::int64_t now_us() const override { return now_us_; }
  std::int64_t store_time_us() const override { return options_.exhaustive ? 0 : now_us_; }
  std::coroutine_handle<> submit(PendingOp& op) override;
  std::uint64_t random_u64(ClientId client) override {
    ++random_draws_;
    Rng& rng = client_rng(client);
    ++clients_[static_cast<std::size_t>(client)]->draws;
    return rng.next();
  }
  std::string random_suffix(ClientId client, std::string_view group, std::size_t n) override;
  ReadFault read_fault(ClientId client) override;
  CommitFault commit_fault(ClientId client) override;
  void on_attempt_end(Transaction& tr, ErrorCode outcome) override;
  bool log_reads() const override { return options_.log_transactions || options_.record_attempts; }
  // The replay skips snapshot reads; only attempt records (traces) show them.
  bool log_snapshot_reads() const override { return options_.record_attempts; }
  bool parks_unproductive_waits() const override {
    return options_.exhaustive && options_.park_unproductive_waits;
  }
  void park(ClientId client) override;

  // Whether the next note_operation_event reads its `event` digest: a world whose strategy caches
  // states, in a step of its main phase. (The reduced search's millions of runs skip digesting.)
  bool digests_events() const { return recording() && digesting(); }
  // The workload tells the world of each history event it records (its index in the history,
  // whether it invokes an operation or completes one ok), so an exhaustive run's footprints know
  // which step each event belongs to and which steps the real-time order depends on.
  // `event` digests the event as the history holds it (what a state digest needs of it: whatever
  // the history check and the outcome read, save its time, which the world adds as "the same as
  // the event before or not"); it is read only when digests_events() (zero otherwise).
  void note_operation_event(std::int64_t event_index, bool invoke, bool completes_ok,
                            const Digest128::Value& event);
  // Exhaustive worlds whose strategy caches states: a digest of everything the rest of the run
  // depends on. The store (Store::add_state); the operation events so far, in order, with which
  // of them share a time; and per client, whether it started, its thread, its pending step's kind
  // and how far its due time lies ahead, its random draws, and what its store steps returned since
  // its current operation began (PendingOp::add_observed). A client's code is deterministic, so
  // those observations fix where it stands in its operation and what it holds; between
  // operations it holds nothing but its place in its plan (its events). Time itself is left out:
  // in an exhaustive world it only dates events and sets no choice.
  Digest128::Value state_digest() const;
  // Tests only: the same, without the operation events (a wrong notion of state).
  Digest128::Value state_digest_without_history() const;

  // ---- results ----
  // Exhaustive worlds: every step of the main phase, in order, with what it touched.
  const StepLog& step_log() const { return step_log_; }
  StepLog take_step_log() { return std::move(step_log_); }
  BoundHit bound_hit() const { return bound_hit_; }
  std::int64_t steps() const { return steps_; }
  const AttemptStats& stats() const { return stats_; }
  std::int64_t attempts_of(ClientId client) const;
  // Draws clients made from their random streams (key suffixes, jitter): an exhaustive search
  // covers the draws of its seed only.
  std::int64_t random_draws() const { return random_draws_; }
  const std::vector<std::uint32_t>& choices() const { return choices_; }
  const std::vector<AttemptRecord>& attempt_records() const { return attempt_records_; }
  std::vector<CommittedTransaction> take_committed_transactions() { return std::move(committed_); }
  std::size_t live_clients() const;
  // Clients a recipe parked (Environment::park): a run with any is no evidence.
  int parked_clients() const { return parked_clients_; }
  // A final draw from the scheduling stream: equal across reruns of the same seed, or the run
  // was not deterministic (FoundationDB's "unseed" check).
  std::uint64_t unseed();

 private:
  struct Client {
    Task<void> body;
    PendingOp* pending = nullptr;
    std::int64_t due_us = 0;
    std::uint64_t sequence = 0;  // submission order, for stable ordering of equal due times
    bool started = false;
    bool parked = false;
    std::int64_t attempts = 0;
    Rng rng;
    std::int64_t draws = 0;
    std::uint32_t suffixes = 0;  // explored suffix draws (tags them: suffix_draws.h)
    Digest128 observed;          // states: what its steps returned since its operation began
  };
  struct QueueEntry {
    std::int64_t due_us;
    ClientId client;
    std::uint64_t sequence;
    bool operator>(const QueueEntry& o) const {
      if (due_us != o.due_us) return due_us > o.due_us;
      return client > o.client;
    }
  };

  // ---- FootprintSink (exhaustive main phase) ----
  void on_read_version(const Transaction& tr) override;
  void on_database_read(const Transaction& tr, KeyRangeRef asked, KeyRangeRef decided) override;
  void on_commit_submitted(const Transaction& tr) override;
  void on_commit_resolved(const Transaction& tr, bool applied, bool conflicted) override;
  // The attempt's reads once its commit is submitted: its read conflict ranges join them, and a
  // versionstamp it writes makes it version-sensitive.
  void finish_reads(AttemptFootprint& attempt, const Transaction& tr);
  bool recording() const { return footprints_ != nullptr && stepping_ >= 0; }
  // Whether the main phase keeps the state (state_digest) for a strategy that caches states.
  bool digesting() const { return footprints_ != nullptr && digest_states_; }
  Digest128::Value digest_state(bool history) const;
  // Asks the strategy which of the outcomes named (names[0]: no fault) happens, and notes it.
  std::uint32_t fault_choice(ClientId client, FaultSite site, std::span<const char* const> names);

  void start_new_clients();
  std::optional<ClientId> pick_next();
  void run_step(ClientId id);
  // Performs `op` (a scheduled step's or one run inside it), and for a world that caches states
  // adds what it returned to its client's observations.
  void complete(Client& c, PendingOp& op);
  void crash(ClientId id, PendingOp& op);
  bool over_bounds();

  WorldOptions options_;
  std::shared_ptr<Strategy> strategy_;
  Store store_;
  Rng latency_rng_;
  Rng fault_rng_;
  Rng schedule_rng_;
  std::vector<std::unique_ptr<Client>> clients_;
  std::priority_queue<QueueEntry, std::vector<QueueEntry>, std::greater<>> queue_;
  std::vector<Candidate> candidates_;
  std::vector<std::uint32_t> choices_;
  SuffixDraws suffix_draws_;  // explore_draws: every suffix drawn so far, by key prefix
  std::vector<AttemptRecord> attempt_records_;
  std::vector<CommittedTransaction> committed_;
  AttemptStats stats_;
  std::int64_t now_us_ = 0;
  std::int64_t events_noted_ = 0;  // history events the workload told of (note_operation_event)
  std::int64_t steps_ = 0;
  std::int64_t random_draws_ = 0;
  int parked_clients_ = 0;
  std::uint64_t sequence_ = 0;
  BoundHit bound_hit_ = BoundHit::none;
  bool running_ = false;
  int runs_ = 0;                 // run() calls so far: the first is the main phase
  ClientId stepping_ = -1;       // the client whose step is running, or -1
  bool digest_states_ = false;   // the strategy caches states (fixed at construction)
  bool record_decided_ = false;  // tests only: the footprints read as the reads decided
  bool inline_inert_ = false;    // inert steps run inside the step before (split_inert_steps)
  int inert_steps_inline_ = 0;   // inert steps the running step ran inside it so far
  bool inline_fetches_ = false;  // tests only: Strategy::fetches_inline
  Digest128 history_events_;     // states: every operation event of the main phase so far
  std::int64_t last_event_us_ = -1;
  std::vector<int> thread_of_;  // by client
  int threads_ = 0;
  static constexpr std::size_t kStepsReserved = 64;  // an exhaustive run's steps, mostly fewer
  StepLog step_log_;
};

}  // namespace contend
