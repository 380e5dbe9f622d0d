// The one in-process database behind every FDBDatabase of a process: the store, the environment
// its transactions see (time from the network's clock; faults, latencies and on_error's jitter
// drawn from the configured seed, config.h), the network thread's queue, the registered watches
// and the transaction log.
// Invariants: `mutex` is held by whoever touches the store, the environment, the watches or any
// transaction's state, and by no one who runs a callback; the store's time never goes back.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "fdb_c/config.h"
#include "fdb_c/future.h"
#include "fdb_c/network.h"
#include "fdb_c/options.h"
#include "fdb_c/transaction_log.h"
#include "fdb_c/watches.h"
#include "sim/store/environment.h"
#include "sim/store/store.h"

namespace contend::fdb {

// Store versions start here (in microseconds), so version 0 is outside the MVCC window from
// the first transaction on, as it is on a real cluster.
inline constexpr std::int64_t kFirstVersionUs = 100'000'000;
// How far ahead of the storage's version a read's may be (FoundationDB's storage server waits
// FUTURE_VERSION_DELAY, 1 s, for it before answering future_version); versions are microseconds.
inline constexpr std::int64_t kFutureVersionDelayUs = 1'000'000;

// The one in-process store's address and its IP alone: the cluster's coordinator, proxies and
// storage server, whatever a cluster file or connection string names.
inline constexpr std::string_view kStoreAddress = "127.0.0.1:4500";
inline constexpr std::string_view kStoreIp = kStoreAddress.substr(0, kStoreAddress.find(':'));

class ClientEnvironment final : public Environment {
 public:
  ClientEnvironment(const Network& network, const Config& config, const TransactionLog& log)
      : network_(network), config_(config), log_(log), random_state_(config.seed) {}
  std::int64_t now_us() const override;
  // The C API drives each store step itself (transaction.cpp); nothing is ever submitted.
  std::coroutine_handle<> submit(PendingOp& op) override;
  // One stream for the process, from the configured seed (splitmix64).
  std::uint64_t random_u64(ClientId client) override;
  // Outside a read call, each store read draws; inside one, only the first does.
  ReadFault read_fault(ClientId client) override;
  CommitFault commit_fault(ClientId client) override;
  // A C API read call is one request to the database, however many store reads answer it
  // (selectors resolved, a byte limit measured): between these two, one read fault is drawn.
  void begin_read_call() { read_call_fault_drawn_ = false, in_read_call_ = true; }
  void end_read_call() { in_read_call_ = false; }
  // Reads are logged for the transaction log, when there is one.
  bool log_reads() const override { return log_.is_open(); }
  // A delay drawn from `latency`: min_us + an exponential with mean mean_us.
  std::int64_t draw_us(const Latency& latency);

 private:
  const Network& network_;
  const Config& config_;
  const TransactionLog& log_;
  mutable std::int64_t last_now_us_ = 0;
  std::uint64_t random_state_;
  bool in_read_call_ = false;
  bool read_call_fault_drawn_ = false;
};

// One C API read call, under the world's mutex: one read fault drawn however many store reads
// answer it.
class ReadCall {
 public:
  explicit ReadCall(ClientEnvironment& env) : env_(env) { env_.begin_read_call(); }
  ~ReadCall() { env_.end_read_call(); }
  ReadCall(const ReadCall&) = delete;
  ReadCall& operator=(const ReadCall&) = delete;

 private:
  ClientEnvironment& env_;
};

struct World {
  static World& get();
  World();

  std::mutex mutex;
  // Why the configuration was refused (then no database opens), else empty.
  std::string config_error;
  Config config;
  TransactionLog log;
  Network network;
  Store store;
  ClientEnvironment env{network, config, log};
  ClientId next_client = 0;
  WatchList watches;

  // Under `mutex`: a version at which every commit so far is visible (granted like a read
  // version, as the store requires of every version it is read at).
  Version readable_version() { return store.grant_read_version(env.store_time_us()); }
  // Under `mutex`, after a commit: the watches whose value changed leave the list, as do the
  // cancelled ones the check meets (WatchList); the futures to deliver once the mutex is released
  // are appended to `fired`.
  void check_watches(std::vector<Future*>& fired);
};

// Makes `future` (already set) ready from the network thread, releasing the reference the
// delivery held; inline when the queue is full.
void deliver_later(World& world, Future* future, std::int64_t delay_us = 0);
// A new future with the given outcome, delivered later.
Future* ready_later(World& world, fdb_error_t error, FutureValue value = NoValue{},
                    std::int64_t delay_us = 0);

}  // namespace contend::fdb
