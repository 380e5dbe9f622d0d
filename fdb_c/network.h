// The network thread of contend's libfdb_c: the thread the client runs fdb_run_network on. It
// delivers futures (runs their callbacks) and runs commits and timers (on_error's backoff), in
// order of due time, then of posting. Nothing else calls callbacks except a callback set on an
// already ready future, which runs at once on the caller's thread (FoundationDB's rule).
// Deterministic mode (set_deterministic): time is virtual, and the network thread waits until
// the client has been quiet — no API call and no task run for quiet_us of real time — then runs
// ONE queued task, chosen by the seeded generator regardless of its due time, and advances virtual
// time to that task's due time (or by 1 us); it also waits until the futures it called back have
// been destroyed (note_consumed). A client whose reactions to each callback all happen
// within quiet_us (one JavaScript event loop, no timers inside transactions) then makes the same
// calls in the same order on every run with that seed.
// Invariants: a task runs once, on the network thread, with no lock of this library held, and is
// destroyed before the network's lock is taken again (a task may hold a transaction's last
// reference, whose destructor takes the world's lock; lock order: world, then network); after
// stop() run() returns once the task being run has returned; the queue is bounded
// (kQueuedTasksMax) and a post beyond it is refused, never blocking; virtual time never goes
// back.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <utility>

namespace contend::fdb {

class Network {
 public:
  static constexpr std::size_t kQueuedTasksMax = 1'000'000;
  using Task = std::function<void()>;

  // Microseconds since this network was made (the clock the store's versions follow); virtual
  // time in deterministic mode.
  std::int64_t now_us() const;
  // Before run(): deliver one task at a time in an order drawn from `seed`, after quiet_us of
  // real time without client calls.
  void set_deterministic(std::uint64_t seed, std::int64_t quiet_us);
  bool deterministic() const { return deterministic_; }
  // Every API call notes itself, so that a deterministic network waits for the client.
  void note_client_call();
  // A callback was run for a future / that future was destroyed: a deterministic network waits
  // (up to kConsumeWaitMaxUs) until every future whose callback it ran has been destroyed, which
  // a binding does once it has taken the value (the Node.js binding does it in the callback's
  // continuation on its event loop).
  void note_callback_run() { unconsumed_.fetch_add(1); }
  void note_consumed() { unconsumed_.fetch_sub(1); }
  static constexpr std::int64_t kConsumeWaitMaxUs = 1'000'000;

  // A queued task's key: (due time, posting order).
  using TaskId = std::pair<std::int64_t, std::uint64_t>;
  // Runs `task` on the network thread after delay_us. False when the queue is full.
  bool post(Task task, std::int64_t delay_us = 0);
  // As post(), answering the task's id for cancel() (a timer, as a transaction's timeout);
  // nullopt when the queue is full.
  std::optional<TaskId> post_cancellable(Task task, std::int64_t delay_us);
  // Drops the queued task `id` (a timer no longer wanted); nothing once it has run.
  void cancel(TaskId id);
  // Runs tasks until stop(); returns at once when stop() came first.
  void run();
  void stop();
  bool running() const;

 private:
  using Clock = std::chrono::steady_clock;
  const Clock::time_point epoch_ = Clock::now();
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  // Keyed by (due time, posting order): one order for every run.
  std::map<TaskId, Task> tasks_;
  std::uint64_t posted_ = 0;
  bool stopping_ = false;
  bool running_ = false;
  // Deterministic mode.
  bool deterministic_ = false;
  std::int64_t quiet_us_ = 0;
  std::uint64_t order_state_ = 0;
  std::atomic<std::int64_t> virtual_us_{0};
  std::atomic<std::int64_t> last_activity_us_{0};  // real time of the last call or task
  std::atomic<std::int64_t> unconsumed_{0};        // futures called back, not yet destroyed

  std::int64_t real_now_us() const;
  void run_in_order(std::unique_lock<std::mutex>& lock);
  void run_in_seeded_order(std::unique_lock<std::mutex>& lock);
};

}  // namespace contend::fdb
