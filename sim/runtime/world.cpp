#include "sim/runtime/world.h"

#include <algorithm>
#include <cassert>

namespace contend {

World::World(WorldOptions options, std::shared_ptr<Strategy> strategy)
    : options_(options),
      strategy_(std::move(strategy)),
      latency_rng_(Rng(options.seed).child("latency")),
      fault_rng_(Rng(options.seed).child("faults")),
      schedule_rng_(Rng(options.seed).child("schedule")) {
  assert(strategy_ != nullptr);
}

World::~World() {
  // Destroy client frames before the store they reference.
  for (auto& c : clients_)
    c->body.reset();
}

Rng& World::client_rng(ClientId client) {
  assert(client >= 0 && static_cast<std::size_t>(client) < clients_.size());
  return clients_[static_cast<std::size_t>(client)]->rng;
}

ClientId World::spawn(Task<void> body) {
  auto id = static_cast<ClientId>(clients_.size());
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
  assert(op.client >= 0 && static_cast<std::size_t>(op.client) < clients_.size());
  Client& c = *clients_[static_cast<std::size_t>(op.client)];
  assert(c.pending == nullptr && "a client has at most one step in flight");
  std::int64_t delay = op.kind == StepKind::sleep
                           ? op.delay_us
                           : options_.latency.draw(op.kind, op.needs_read_version, latency_rng_);
  if (options_.faults.pause > 0 && fault_rng_.chance(options_.faults.pause)) {
    delay += options_.faults.pause_us;
  }
  c.pending = &op;
  c.due_us = now_us_ + delay;
  c.sequence = ++sequence_;
  if (strategy_->earliest_first()) queue_.push(QueueEntry{c.due_us, op.client, c.sequence});
  return std::noop_coroutine();
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
  candidates_.clear();
  for (std::size_t i = 0; i < clients_.size(); ++i) {
    const Client& c = *clients_[i];
    if (c.pending != nullptr) {
      candidates_.push_back(Candidate{static_cast<ClientId>(i), c.due_us, c.pending->kind});
    }
  }
  if (candidates_.empty()) return std::nullopt;
  std::sort(candidates_.begin(), candidates_.end(), [](const Candidate& a, const Candidate& b) {
    return a.due_us != b.due_us ? a.due_us < b.due_us : a.client < b.client;
  });
  std::size_t choice = 0;
  if (candidates_.size() > 1) {
    choice = strategy_->choose(candidates_);
    assert(choice < candidates_.size());
    choices_.push_back(static_cast<std::uint32_t>(choice));
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
  start_new_clients();
  while (!over_bounds()) {
    std::optional<ClientId> next = pick_next();
    if (!next) break;
    run_step(*next);
  }
  running_ = false;
}

void World::run_step(ClientId id) {
  Client& c = *clients_[static_cast<std::size_t>(id)];
  PendingOp& op = *std::exchange(c.pending, nullptr);
  now_us_ = std::max(now_us_, c.due_us);
  ++steps_;
  if (options_.faults.crash > 0 && fault_rng_.chance(options_.faults.crash)) {
    // A commit may reach the resolver before the client dies: then it applied, unseen.
    if (op.kind == StepKind::commit && fault_rng_.chance(0.5)) op.complete();
    crash(id, op);
    return;
  }
  op.complete();
  op.continuation.resume();
}

void World::crash(ClientId id, PendingOp&) {
  Client& c = *clients_[static_cast<std::size_t>(id)];
  c.body.reset();  // destroys every frame the client held, the pending step included
  if (on_crash) on_crash(id);
}

ReadFault World::read_fault(ClientId) {
  const FaultKnobs& f = options_.faults;
  if (f.read_too_old > 0 && fault_rng_.chance(f.read_too_old)) {
    return ReadFault::transaction_too_old;
  }
  if (f.read_future_version > 0 && fault_rng_.chance(f.read_future_version)) {
    return ReadFault::future_version;
  }
  return ReadFault::none;
}

CommitFault World::commit_fault(ClientId) {
  const FaultKnobs& f = options_.faults;
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

void World::on_attempt_end(const Transaction& tr, ErrorCode outcome) {
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
    committed_.push_back(
        CommittedTransaction{tr.client(), tr.id(), tr.read_version().value_or(kInvalidVersion),
                             tr.committed_version(), tr.read_log(), copy_of(tr.mutations())});
  }
  if (!options_.record_attempts) return;
  AttemptRecord r;
  r.client = tr.client();
  r.transaction_id = tr.id();
  r.end_us = now_us_;
  r.read_version = tr.read_version().value_or(kInvalidVersion);
  r.commit_version = tr.committed_version();
  r.outcome = outcome;
  r.read_ranges = copy_of(tr.read_conflict_ranges());
  r.reads = tr.read_log();
  r.mutations = copy_of(tr.mutations());
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
