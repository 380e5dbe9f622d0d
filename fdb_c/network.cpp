#include "fdb_c/network.h"

#include <algorithm>
#include <iterator>

#include "base/invariant.h"
#include "base/splitmix.h"

namespace contend::fdb {

std::int64_t Network::real_now_us() const {
  return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - epoch_).count();
}

std::int64_t Network::now_us() const {
  return deterministic_ ? virtual_us_.load() : real_now_us();
}

void Network::set_deterministic(std::uint64_t seed, std::int64_t quiet_us) {
  std::lock_guard lock(mutex_);
  CONTEND_ASSERT(!running_, "the delivery order is chosen before the network runs");
  CONTEND_ASSERT(quiet_us > 0, "a deterministic network waits for a quiet client");
  deterministic_ = true;
  quiet_us_ = quiet_us;
  order_state_ = seed;
}

void Network::note_client_call() {
  if (deterministic_) last_activity_us_.store(real_now_us());
}

bool Network::post(Task task, std::int64_t delay_us) {
  return post_cancellable(std::move(task), delay_us).has_value();
}

std::optional<Network::TaskId> Network::post_cancellable(Task task, std::int64_t delay_us) {
  CONTEND_ASSERT(delay_us >= 0, "tasks are posted for now or later");
  TaskId id;
  {
    std::lock_guard lock(mutex_);
    if (tasks_.size() >= kQueuedTasksMax) return std::nullopt;
    id = TaskId{now_us() + delay_us, posted_++};
    tasks_.emplace(id, std::move(task));
  }
  changed_.notify_all();
  return id;
}

void Network::cancel(TaskId id) {
  Task dropped;  // destroyed without the network's lock
  {
    std::lock_guard lock(mutex_);
    auto it = tasks_.find(id);
    if (it == tasks_.end()) return;
    dropped = std::move(it->second);
    tasks_.erase(it);
  }
  changed_.notify_all();
}

void Network::run() {
  std::unique_lock lock(mutex_);
  running_ = true;
  if (deterministic_) {
    run_in_seeded_order(lock);
  } else {
    run_in_order(lock);
  }
  running_ = false;
}

void Network::run_in_order(std::unique_lock<std::mutex>& lock) {
  while (!stopping_) {
    if (tasks_.empty()) {
      changed_.wait(lock);
      continue;
    }
    auto first = tasks_.begin();
    const std::int64_t wait_us = first->first.first - now_us();
    if (wait_us > 0) {
      changed_.wait_for(lock, std::chrono::microseconds(wait_us));
      continue;
    }
    Task task = std::move(first->second);
    tasks_.erase(first);
    lock.unlock();
    task();
    task = nullptr;  // what it holds (a transaction's last reference) goes without our lock
    lock.lock();
  }
}

void Network::run_in_seeded_order(std::unique_lock<std::mutex>& lock) {
  while (!stopping_) {
    const std::int64_t quiet_for_us = real_now_us() - last_activity_us_.load();
    const bool consumed = unconsumed_.load() <= 0 || quiet_for_us >= kConsumeWaitMaxUs;
    if (tasks_.empty() || quiet_for_us < quiet_us_ || !consumed) {
      const std::int64_t wait_us =
          tasks_.empty() || quiet_for_us >= quiet_us_ ? quiet_us_ : quiet_us_ - quiet_for_us;
      changed_.wait_for(lock, std::chrono::microseconds(wait_us));
      continue;
    }
    // splitmix64 over the seed: which queued task runs next.
    const std::uint64_t z = splitmix64(order_state_);
    auto chosen = std::next(tasks_.begin(), static_cast<std::ptrdiff_t>(z % tasks_.size()));
    const std::int64_t due_us = chosen->first.first;
    virtual_us_.store(std::max(virtual_us_.load() + 1, due_us));
    Task task = std::move(chosen->second);
    tasks_.erase(chosen);
    lock.unlock();
    task();
    task = nullptr;  // what it holds (a transaction's last reference) goes without our lock
    last_activity_us_.store(real_now_us());
    lock.lock();
  }
}

void Network::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
}

bool Network::running() const {
  std::lock_guard lock(mutex_);
  return running_;
}

}  // namespace contend::fdb
