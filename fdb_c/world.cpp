#include "fdb_c/world.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "base/invariant.h"
#include "base/splitmix.h"

namespace contend::fdb {

std::int64_t ClientEnvironment::now_us() const {
  last_now_us_ = std::max(last_now_us_, kFirstVersionUs + network_.now_us());
  return last_now_us_;
}

std::coroutine_handle<> ClientEnvironment::submit(PendingOp&) {
  CONTEND_ASSERT(false, "libfdb_c completes store steps itself; nothing is submitted");
  return std::noop_coroutine();
}

std::uint64_t ClientEnvironment::random_u64(ClientId) {
  return splitmix64(random_state_);
}

ReadFault ClientEnvironment::read_fault(ClientId client) {
  if (config_.read_too_old == 0.0 && config_.read_future_version == 0.0) return ReadFault::none;
  if (in_read_call_ && read_call_fault_drawn_) return ReadFault::none;
  read_call_fault_drawn_ = in_read_call_;
  const double u = random01(client);
  if (u < config_.read_too_old) return ReadFault::transaction_too_old;
  if (u < config_.read_too_old + config_.read_future_version) return ReadFault::future_version;
  return ReadFault::none;
}

CommitFault ClientEnvironment::commit_fault(ClientId client) {
  const double applied = config_.unknown_result_applied;
  const double not_applied = config_.unknown_result_not_applied;
  if (config_.not_committed == 0.0 && applied == 0.0 && not_applied == 0.0)
    return CommitFault::none;
  const double u = random01(client);
  if (u < config_.not_committed) return CommitFault::not_committed_before;
  if (u < config_.not_committed + applied) return CommitFault::unknown_result_applied;
  if (u < config_.not_committed + applied + not_applied)
    return CommitFault::unknown_result_not_applied;
  return CommitFault::none;
}

std::int64_t ClientEnvironment::draw_us(const Latency& latency) {
  if (latency.mean_us == 0) return latency.min_us;
  const double u = random01(0);
  return latency.min_us +
         static_cast<std::int64_t>(-std::log1p(-u) * static_cast<double>(latency.mean_us));
}

namespace {
// The configuration from the environment, and why it was refused (printed once, to stderr).
Config load_config(std::string& error) {
  ConfigOrError loaded = config_from_environment();
  if (loaded.config) return *loaded.config;
  error = loaded.error;
  std::fprintf(stderr, "contend libfdb_c: %s\n", error.c_str());
  return Config{};
}
}  // namespace

World::World() : config(load_config(config_error)) {
  store.set_observer(&watches);  // the watches learn what each applied commit wrote
  if (config.deterministic) network.set_deterministic(config.seed, config.quiet_us);
  if (!config_error.empty() || config.log_path.empty()) return;
  std::string error;
  if (!log.open(config.log_path, error)) {
    config_error = error;
    std::fprintf(stderr, "contend libfdb_c: %s\n", error.c_str());
  }
}

World& World::get() {
  // Never destroyed: the network thread and late callbacks may outlive static destruction.
  static World* world = new World;
  return *world;
}

void World::check_watches(std::vector<Future*>& fired) {
  watches.check(store, readable_version(), fired);
}

void deliver_later(World& world, Future* future, std::int64_t delay_us) {
  const bool posted = world.network.post(
      [future] {
        future->deliver();
        future->release();
      },
      delay_us);
  if (!posted) {
    future->deliver();
    future->release();
  }
}

Future* ready_later(World& world, fdb_error_t error, FutureValue value, std::int64_t delay_us) {
  auto* future = new Future;
  future->set(error, std::move(value));
  future->retain();
  deliver_later(world, future, delay_us);
  return future;
}

}  // namespace contend::fdb
