// ImmediateEnvironment: runs store operations inline, one client at a time, with a virtual clock
// that tests set by hand. Sleeps advance the clock. Faults come from optional hooks so tests can
// inject exactly the fault they mean; reads are logged (Environment::log_reads) when a test asks.
// The deterministic many-client scheduler lives in world.h.
#pragma once

#include <cassert>
#include <functional>

#include "sim/runtime/rng.h"
#include "sim/runtime/task.h"
#include "sim/store/environment.h"
#include "sim/store/retry.h"

namespace contend {

class ImmediateEnvironment : public Environment {
 public:
  explicit ImmediateEnvironment(std::uint64_t seed = 1) : rng_(seed) {}

  std::int64_t now_us() const override { return now_us_; }
  void set_now_us(std::int64_t t) { now_us_ = t; }
  void advance_us(std::int64_t dt) { now_us_ += dt; }

  std::coroutine_handle<> submit(PendingOp& op) override {
    if (op.kind == StepKind::sleep) now_us_ += op.delay_us;
    ++steps_;
    op.complete();
    return op.continuation;
  }
  std::uint64_t random_u64(ClientId) override { return rng_.next(); }
  ReadFault read_fault(ClientId client) override {
    return read_fault_hook ? read_fault_hook(client) : ReadFault::none;
  }
  CommitFault commit_fault(ClientId client) override {
    return commit_fault_hook ? commit_fault_hook(client) : CommitFault::none;
  }
  std::uint64_t steps() const { return steps_; }
  bool log_reads() const override { return log_reads_enabled; }

  bool log_reads_enabled = false;  // every read, snapshot reads too

  std::function<ReadFault(ClientId)> read_fault_hook;
  std::function<CommitFault(ClientId)> commit_fault_hook;

 private:
  std::int64_t now_us_ = 0;
  std::uint64_t steps_ = 0;
  Rng rng_;
};

// Runs a task that completes without deferral (all its steps inline) and returns its result.
template <class T>
T run_inline(Task<T> task) {
  task.start();
  assert(task.done() && "run_inline: the task suspended on a deferred step");
  return task.result();
}

// An attempt (retry.h) run to completion the same way.
template <class Fn>
ErrorOr<detail::body_value_t<Fn>> run_inline(detail::AttemptOp<Fn> op) {
  return run_inline(detail::await_attempt(std::move(op)));
}

}  // namespace contend
