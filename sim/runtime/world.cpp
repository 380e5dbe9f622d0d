#include "sim/runtime/world.h"

#include <algorithm>

#include "base/invariant.h"
#include "sim/store/transaction.h"

namespace contend {

namespace {
// The keys a commit changed: its write conflict ranges, and the keys of the mutations that took
// none (WriteConflict::none), which changed the database all the same. A versionstamped key always
// has its range among the write conflict ranges.
RangeSet written_by(const Transaction& tr) {
  std::vector<KeyRange> written = copy_of(tr.write_conflict_ranges());
  if (!tr.wrote_without_conflict_range()) return RangeSet(std::move(written));
  for (const MutationRef& m : tr.mutations())
    if (std::optional<KeyRange> keys = keys_changed(m)) written.push_back(std::move(*keys));
  return RangeSet(std::move(written));
}
}  // namespace

World::World(WorldOptions options, std::shared_ptr<Strategy> strategy)
    : options_(options),
      strategy_(std::move(strategy)),
      latency_rng_(Rng(options.seed).child("latency")),
      fault_rng_(Rng(options.seed).child("faults")),
      schedule_rng_(Rng(options.seed).child("schedule")) {
  CONTEND_ASSERT(strategy_ != nullptr, "a world needs a strategy");
  if (options_.exhaustive) {
    strategy_->watch(&step_log_);
    step_log_.steps.reserve(kStepsReserved);
    digest_states_ = strategy_->caches_states();
    record_decided_ = strategy_->reads_as_decided();
    inline_inert_ =
        !options_.split_inert_steps && !options_.explore_draws && options_.faults.crash <= 0;
    inline_fetches_ = inline_inert_ && strategy_->fetches_inline();
  }
}

World::~World() {
  // Destroy client frames before the store they reference.
  for (auto& c : clients_)
    c->body.reset();
}

Rng& World::client_rng(ClientId client) {
  CONTEND_ASSERT(client >= 0 && static_cast<std::size_t>(client) < clients_.size(),
                 "a client id the world never handed out");
  return clients_[static_cast<std::size_t>(client)]->rng;
}

ClientId World::spawn(Task<void> body) {
  auto id = static_cast<ClientId>(clients_.size());
  // A client spawned inside a step (a crashed client's replacement) continues that thread.
  thread_of_.push_back(stepping_ >= 0 ? thread_of_[static_cast<std::size_t>(stepping_)]
                                      : threads_++);
  auto client = std::make_unique<Client>();
  client->body = std::move(body);
  client->rng = Rng(options_.seed).child(0xc11e47ULL + static_cast<std::uint64_t>(id));
  clients_.push_back(std::move(client));
  if (running_) start_new_clients();
  return id;
}

void World::start_new_clients() {
  for (auto& c : clients_) {
    if (c->started) continue;
    c->started = true;
    c->body.start();  // runs to its first scheduling point (or to completion)
  }
}

std::coroutine_handle<> World::submit(PendingOp& op) {
  CONTEND_ASSERT(op.client >= 0 && static_cast<std::size_t>(op.client) < clients_.size(),
                 "a step of a client the world never handed out");
  Client& c = *clients_[static_cast<std::size_t>(op.client)];
  CONTEND_ASSERT(c.pending == nullptr, "a client has at most one step in flight");
  const bool inert = op.inert || (inline_fetches_ && op.kind == StepKind::read);
  if (inert && inline_inert_ && stepping_ == op.client &&
      inert_steps_inline_ < kInertStepsInlineMax) {
    ++inert_steps_inline_;
    complete(c, op);
    return op.continuation;  // resumed at once, inside the step that submitted it
  }
  std::int64_t delay = op.kind == StepKind::sleep ? op.delay_us
                       : options_.exhaustive
                           ? kExhaustiveStepUs
                           : options_.latency.draw(op.kind, op.needs_read_version, latency_rng_);
  if (!options_.exhaustive && options_.faults.pause > 0 &&
      fault_rng_.chance(options_.faults.pause)) {
    delay += options_.faults.pause_us;
  }
  c.pending = &op;
  c.due_us = now_us_ + delay;
  c.sequence = ++sequence_;
  if (strategy_->earliest_first()) queue_.push(QueueEntry{c.due_us, op.client, c.sequence});
  return std::noop_coroutine();
}

void World::park(ClientId client) {
  CONTEND_ASSERT(parks_unproductive_waits(), "only a world that parks may park a client");
  CONTEND_ASSERT(client >= 0 && static_cast<std::size_t>(client) < clients_.size(),
                 "a client the world handed out parks");
  Client& c = *clients_[static_cast<std::size_t>(client)];
  CONTEND_ASSERT(c.pending == nullptr && !c.parked, "a client parks once, with no step in flight");
  c.parked = true;
  ++parked_clients_;
}

std::optional<ClientId> World::pick_next() {
  if (strategy_->earliest_first()) {
    while (!queue_.empty()) {
      QueueEntry top = queue_.top();
      queue_.pop();
      const Client& c = *clients_[static_cast<std::size_t>(top.client)];
      if (c.pending != nullptr && c.sequence == top.sequence) return top.client;
    }
    return std::nullopt;
  }
  if (digesting() && strategy_->wants_state() &&
      !strategy_->arrive(strategy_->states_without_history() ? state_digest_without_history()
                                                             : state_digest())) {
    bound_hit_ = BoundHit::stopped;  // explored from an equal state before
    return std::nullopt;
  }
  candidates_.clear();
  for (std::size_t i = 0; i < clients_.size(); ++i) {
    const Client& c = *clients_[i];
    if (c.pending != nullptr) {
      candidates_.push_back(
          Candidate{static_cast<ClientId>(i), c.due_us, c.pending->kind, thread_of_[i]});
    }
  }
  if (candidates_.empty()) return std::nullopt;
  std::sort(candidates_.begin(), candidates_.end(), [](const Candidate& a, const Candidate& b) {
    return a.due_us != b.due_us ? a.due_us < b.due_us : a.client < b.client;
  });
  std::size_t choice = 0;
  const bool every_step = footprints_ != nullptr && strategy_->chooses_every_step();
  if (candidates_.size() > 1 || every_step) {
    choice = strategy_->choose(candidates_);
    if (choice == Strategy::kStop) {
      bound_hit_ = BoundHit::stopped;
      return std::nullopt;
    }
    CONTEND_ASSERT(choice < candidates_.size(), "a strategy chose a step that is not ready");
    if (candidates_.size() > 1) choices_.push_back(static_cast<std::uint32_t>(choice));
  }
  strategy_->on_step(candidates_[choice].client);
  return candidates_[choice].client;
}

bool World::over_bounds() {
  if (steps_ >= options_.max_steps) {
    bound_hit_ = BoundHit::steps;
  } else if (now_us_ > options_.max_virtual_us) {
    bound_hit_ = BoundHit::virtual_time;
  }
  return bound_hit_ != BoundHit::none;
}

void World::run() {
  running_ = true;
  // Footprints are kept for the main phase: the drain that may follow runs alone.
  footprints_ = options_.exhaustive && ++runs_ == 1 ? this : nullptr;
  start_new_clients();
  while (!over_bounds()) {
    std::optional<ClientId> next = pick_next();
    if (!next) break;
    run_step(*next);
  }
  running_ = false;
  footprints_ = nullptr;
}

void World::run_step(ClientId id) {
  Client& c = *clients_[static_cast<std::size_t>(id)];
  PendingOp& op = *std::exchange(c.pending, nullptr);
  now_us_ = std::max(now_us_, c.due_us);
  ++steps_;
  stepping_ = id;
  inert_steps_inline_ = 0;
  if (footprints_ != nullptr) {
    StepFootprint& step = step_log_.steps.emplace_back();
    step.thread = thread_of_[static_cast<std::size_t>(id)];
    step.client = id;
    step.kind = op.kind;
  }
  if (on_step_start) on_step_start(id);
  // Crash: none, or (a commit) before / after the resolver saw it: then it applied, unseen.
  enum : std::uint32_t { kNoCrash, kCrash, kCrashAfterCommit };
  std::uint32_t crash_choice = kNoCrash;
  if (options_.exhaustive) {
    if (footprints_ != nullptr && options_.faults.crash > 0) {
      static constexpr const char* kCrashes[] = {"", "crash before the step",
                                                 "crash after the commit reached the resolver"};
      const std::size_t options = op.kind == StepKind::commit ? 3 : 2;
      crash_choice = fault_choice(id, FaultSite::step, {kCrashes, options});
    }
  } else if (options_.faults.crash > 0 && fault_rng_.chance(options_.faults.crash)) {
    crash_choice =
        op.kind == StepKind::commit && fault_rng_.chance(0.5) ? kCrashAfterCommit : kCrash;
  }
  if (crash_choice != kNoCrash) {
    if (crash_choice == kCrashAfterCommit) op.complete();
    crash(id, op);
  } else {
    complete(c, op);
    op.continuation.resume();
  }
  stepping_ = -1;
}

void World::complete(Client& c, PendingOp& op) {
  op.complete();
  if (digesting()) op.add_observed(c.observed);
}

std::uint32_t World::fault_choice(ClientId client, FaultSite site,
                                  std::span<const char* const> names) {
  const auto options = static_cast<std::uint32_t>(names.size());
  const std::uint32_t choice = strategy_->choose_fault(client, site, options);
  CONTEND_ASSERT(choice < options, "a strategy chose a fault outcome that does not exist");
  if (recording()) {
    StepFootprint& step = step_log_.steps.back();
    step.faults.push_back(choice);
    if (choice != 0) step.fault_notes.emplace_back(names[choice]);
  }
  return choice;
}

std::string World::random_suffix(ClientId client, std::string_view group, std::size_t n) {
  if (!options_.exhaustive || !options_.explore_draws) return random_bytes(client, n);
  Client& c = *clients_[static_cast<std::size_t>(client)];
  // Outside the main phase's steps (the drain) a suffix sorts above its prefix's earlier ones.
  const std::uint32_t places = suffix_draws_.places(group);
  std::uint32_t choice = 0;
  if (recording()) {
    StepFootprint& step = step_log_.steps.back();
    if (places > 1) {
      choice = strategy_->choose_draw(client, places);
      CONTEND_ASSERT(choice < places, "a strategy chose a place for a suffix that does not exist");
      step.draws_placed.push_back(DrawPlaced{Bytes(group), places, choice});
    }
    step.draw_groups.push_back(SuffixDraws::group_id(group));
  }
  const std::uint64_t tag = (static_cast<std::uint64_t>(client) << 32) | c.suffixes++;
  return suffix_draws_.draw(group, n, choice, tag);
}

void World::note_operation_event(std::int64_t event_index, bool invoke, bool completes_ok,
                                 const Digest128::Value& event) {
  events_noted_ = event_index + 1;
  if (!recording()) return;
  if (digesting()) {
    history_events_.add_value(event);
    history_events_.add_u64(now_us_ == last_event_us_ ? 1 : 0);
    last_event_us_ = now_us_;
    // The client begins an operation (its observations from here are that operation's) or ends
    // one (it holds nothing of it but what the event says).
    clients_[static_cast<std::size_t>(stepping_)]->observed = Digest128{};
  }
  StepFootprint& step = step_log_.steps.back();
  step.events.push_back(event_index);
  step.invokes |= invoke;
  step.completes |= completes_ok;
}

Digest128::Value World::state_digest() const {
  return digest_state(/*history=*/true);
}

Digest128::Value World::state_digest_without_history() const {
  return digest_state(/*history=*/false);
}

Digest128::Value World::digest_state(bool history) const {
  Digest128 d;
  store_.add_state(d);
  if (history) d.add_value(history_events_.finish());
  d.add_u64(now_us_ == last_event_us_ ? 1 : 0);
  d.add_u64(clients_.size());
  for (std::size_t i = 0; i < clients_.size(); ++i) {
    const Client& c = *clients_[i];
    d.add_u64(c.started ? 1 : 0);
    d.add_u64(c.parked ? 1 : 0);
    d.add_u64(static_cast<std::uint64_t>(thread_of_[i]));
    d.add_u64(c.pending != nullptr ? static_cast<std::uint64_t>(c.pending->kind) + 1 : 0);
    if (c.pending != nullptr) d.add_i64(std::max<std::int64_t>(0, c.due_us - now_us_));
    d.add_i64(c.draws);
    d.add_u64(c.suffixes);
    d.add_value(c.observed.finish());
  }
  suffix_draws_.add_state(d);
  return d.finish();
}

void World::on_read_version(const Transaction& tr) {
  if (!recording()) return;
  step_log_.steps.back().snapshot_attempt = tr.id();
  step_log_.attempts[tr.id()];
}

void World::on_database_read(const Transaction& tr, KeyRangeRef asked, KeyRangeRef decided) {
  if (!recording()) return;
  AttemptFootprint& attempt = step_log_.attempts[tr.id()];
  CONTEND_ASSERT(!attempt.reads_final, "an attempt reads after submitting its commit");
  add_read(attempt, record_decided_ ? decided : asked);
}

void World::on_commit_submitted(const Transaction& tr) {
  if (!recording()) return;
  finish_reads(step_log_.attempts[tr.id()], tr);
}

void World::finish_reads(AttemptFootprint& attempt, const Transaction& tr) {
  for (KeyRangeRef r : tr.read_conflict_ranges())
    add_read(attempt, r);
  for (const MutationRef& m : tr.mutations()) {
    if (m.type == MutationType::set_versionstamped_key ||
        m.type == MutationType::set_versionstamped_value) {
      attempt.version_sensitive = true;
    }
  }
  attempt.reads_final = true;
}

void World::on_commit_resolved(const Transaction& tr, bool applied, bool conflicted) {
  if (!recording()) return;
  StepFootprint& step = step_log_.steps.back();
  step.commit_attempt = tr.id();
  step.applied = applied;
  step.conflicted = conflicted;
  step.checked = RangeSet(copy_of(tr.read_conflict_ranges()));
  (applied ? step.written : step.refused_writes) = written_by(tr);
  // Final when the commit was submitted inside a step; a commit a client submitted as it
  // started (a blind write, its first step) was submitted outside every step.
  AttemptFootprint& attempt = step_log_.attempts[tr.id()];
  if (!attempt.reads_final) finish_reads(attempt, tr);
}

void World::crash(ClientId id, PendingOp&) {
  Client& c = *clients_[static_cast<std::size_t>(id)];
  c.body.reset();  // destroys every frame the client held, the pending step included
  if (on_crash) on_crash(id);
}

ReadFault World::read_fault(ClientId client) {
  const FaultKnobs& f = options_.faults;
  if (options_.exhaustive) {
    if (footprints_ == nullptr) return ReadFault::none;  // the drain phase only observes
    ReadFault outcomes[3] = {ReadFault::none};
    const char* names[3] = {""};
    std::size_t n = 1;
    if (f.read_too_old > 0) {
      names[n] = "read fails: transaction_too_old";
      outcomes[n++] = ReadFault::transaction_too_old;
    }
    if (f.read_future_version > 0) {
      names[n] = "read fails: future_version";
      outcomes[n++] = ReadFault::future_version;
    }
    return n == 1 ? ReadFault::none : outcomes[fault_choice(client, FaultSite::read, {names, n})];
  }
  if (f.read_too_old > 0 && fault_rng_.chance(f.read_too_old)) {
    return ReadFault::transaction_too_old;
  }
  if (f.read_future_version > 0 && fault_rng_.chance(f.read_future_version)) {
    return ReadFault::future_version;
  }
  return ReadFault::none;
}

CommitFault World::commit_fault(ClientId client) {
  const FaultKnobs& f = options_.faults;
  if (options_.exhaustive) {
    if (footprints_ == nullptr) return CommitFault::none;
    CommitFault outcomes[4] = {CommitFault::none};
    const char* names[4] = {""};
    std::size_t n = 1;
    if (f.not_committed > 0) {
      names[n] = "commit fails: not_committed (nothing applied)";
      outcomes[n++] = CommitFault::not_committed_before;
    }
    if (f.unknown_result_applied > 0) {
      names[n] = "commit_unknown_result, and the commit applied";
      outcomes[n++] = CommitFault::unknown_result_applied;
    }
    if (f.unknown_result_not_applied > 0) {
      names[n] = "commit_unknown_result, and the commit did not apply";
      outcomes[n++] = CommitFault::unknown_result_not_applied;
    }
    return n == 1 ? CommitFault::none
                  : outcomes[fault_choice(client, FaultSite::commit, {names, n})];
  }
  if (f.not_committed > 0 && fault_rng_.chance(f.not_committed)) {
    return CommitFault::not_committed_before;
  }
  if (f.unknown_result_applied > 0 && fault_rng_.chance(f.unknown_result_applied)) {
    return CommitFault::unknown_result_applied;
  }
  if (f.unknown_result_not_applied > 0 && fault_rng_.chance(f.unknown_result_not_applied)) {
    return CommitFault::unknown_result_not_applied;
  }
  return CommitFault::none;
}

void World::on_attempt_end(Transaction& tr, ErrorCode outcome) {
  if (recording()) {
    CONTEND_ASSERT(!step_log_.steps.empty(), "an attempt ends inside a step");
    AttemptFootprint& attempt = step_log_.attempts[tr.id()];
    attempt.ended = true;
    attempt.ended_in_step = step_log_.steps.size() - 1;
  }
  ++stats_.attempts;
  ++clients_[static_cast<std::size_t>(tr.client())]->attempts;
  switch (outcome) {
    case ErrorCode::success:
      ++stats_.committed;
      break;
    case ErrorCode::not_committed:
      if (tr.last_conflict()) {
        ++stats_.conflicts;
        std::string step(tr.last_conflict_step());
        ++stats_.conflicts_by_step[step.empty() ? "unlabelled" : step];
      } else {
        ++stats_.injected_not_committed;
      }
      break;
    case ErrorCode::commit_unknown_result:
      ++stats_.unknown_results;
      break;
    case ErrorCode::transaction_too_old:
      ++stats_.too_old;
      break;
    case ErrorCode::future_version:
      ++stats_.future_version;
      break;
    default:
      ++stats_.other_errors;
      break;
  }
  // Every commit that applied: successes, and commit_unknown_result after a commit that did.
  const bool applied =
      outcome == ErrorCode::success ||
      (outcome == ErrorCode::commit_unknown_result && tr.committed_version() != kInvalidVersion);
  if (options_.log_transactions && applied) {
    // The attempt record below copies the log; otherwise nothing reads it after this.
    committed_.push_back(CommittedTransaction{
        tr.client(), tr.id(), tr.read_version().value_or(kInvalidVersion), tr.committed_version(),
        options_.record_attempts ? tr.read_log() : tr.take_read_log(), copy_of(tr.mutations())});
  }
  if (!options_.record_attempts) return;
  AttemptRecord r;
  r.client = tr.client();
  r.transaction_id = tr.id();
  r.end_us = now_us_;
  r.events_before = events_noted_;
  r.read_version = tr.read_version().value_or(kInvalidVersion);
  r.commit_version = tr.committed_version();
  r.outcome = outcome;
  r.read_ranges = copy_of(tr.read_conflict_ranges());
  r.reads = tr.read_log();
  // A commit's versionstamped keys and values as the store wrote them; unfilled when it did not.
  r.mutations = r.commit_version == kInvalidVersion
                    ? copy_of(tr.mutations())
                    : as_committed(tr.mutations(), r.commit_version);
  r.conflict = tr.last_conflict();
  r.conflict_step = std::string(tr.last_conflict_step());
  attempt_records_.push_back(std::move(r));
}

std::int64_t World::attempts_of(ClientId client) const {
  return clients_[static_cast<std::size_t>(client)]->attempts;
}

std::size_t World::live_clients() const {
  return static_cast<std::size_t>(
      std::count_if(clients_.begin(), clients_.end(),
                    [](const auto& c) { return c->body.valid() && !c->body.done(); }));
}

std::uint64_t World::unseed() {
  return schedule_rng_.next() ^ latency_rng_.next() ^ fault_rng_.next();
}

}  // namespace contend
