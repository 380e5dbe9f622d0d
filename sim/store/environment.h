// What the simulated store needs from the world around it: virtual time, a way to suspend a
// client at a scheduling point, randomness, and fault decisions. The deterministic runtime
// (sim/runtime) implements it for many interleaved clients; ImmediateEnvironment (below) runs one
// client inline for unit tests.
//
// Every store call a client awaits (read version, read, commit, on_error's backoff sleep) becomes
// a PendingOp handed to Environment::submit. The environment later calls complete() at the
// virtual instant the operation takes effect and then resumes op.continuation — which complete()
// may redirect (a failed read resumes the enclosing transaction attempt instead of the reader).
// Invariant: a client has at most one PendingOp outstanding; the op lives in the client's
// coroutine frame, so an environment that destroys a client must first forget its op.
#pragma once

#include <coroutine>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/digest128.h"
#include "sim/store/bytes.h"
#include "sim/store/error.h"

namespace contend {

using ClientId = std::int32_t;
class Transaction;

enum class StepKind : std::uint8_t {
  read_version,  // get_read_version
  read,          // get / get_range (takes a read version first when the transaction has none)
  commit,        // commit: resolved and applied when it completes
  sleep,         // on_error backoff or a recipe's polling delay
};

inline const char* to_string(StepKind kind) {
  switch (kind) {
    case StepKind::read_version:
      return "read version";
    case StepKind::read:
      return "read";
    case StepKind::commit:
      return "commit";
    case StepKind::sleep:
      return "sleep";
  }
  return "?";
}

struct PendingOp {
  StepKind kind = StepKind::read;
  ClientId client = 0;
  // For sleeps: the virtual delay. For other steps the environment draws a latency.
  std::int64_t delay_us = 0;
  // Whether a read step must also take a read version (adds the GRV latency).
  bool needs_read_version = false;
  // Whether the step touches nothing another client can see or be seen by: a read at a read
  // version its transaction holds already, a sleep, or a commit that never reaches the store (it
  // writes nothing, or its transaction failed before). An exhaustive world runs such a step
  // inside the step before it (World: WorldOptions::split_inert_steps).
  bool inert = false;
  std::coroutine_handle<> continuation;

  // Performs the operation at the instant it takes effect. May redirect `continuation`.
  virtual void complete() = 0;
  // After complete(): adds everything the operation returned to its client (a value, rows, an
  // error, a version) to `into`. A search that caches states takes a client's future to depend
  // on nothing else its store steps gave it; an operation that returns nothing adds nothing.
  virtual void add_observed(Digest128& /*into*/) const {}

 protected:
  ~PendingOp() = default;
};

// Faults the environment may inject into one store step (all off unless a scenario enables them).
enum class ReadFault : std::uint8_t { none, transaction_too_old, future_version };
enum class CommitFault : std::uint8_t {
  none,
  not_committed_before,       // spurious not_committed; nothing applied
  unknown_result_applied,     // commit applied, client told commit_unknown_result
  unknown_result_not_applied  // commit not applied, client told commit_unknown_result
};

// What one step did to the shared store, for an exhaustive search that must know which steps
// can be reordered without changing any outcome (sim/runtime/footprint.h). Told only when
// Environment::records_footprints() is true, so ordinary runs pay one branch per hook.
class FootprintSink {
 public:
  virtual ~FootprintSink() = default;
  // `tr` took its read version in the step being run.
  virtual void on_read_version(const Transaction& tr) = 0;
  // `tr` read the database at its read version: `asked` is the range it asked for, whole, and
  // `decided` the keys whose values decided the answer (for a read its limit stopped, up to the
  // last row returned; where that row lies depends on the data, so in another order the same
  // read decides on other keys).
  virtual void on_database_read(const Transaction& tr, KeyRangeRef asked, KeyRangeRef decided) = 0;
  // `tr` submitted a commit that reaches the store: the attempt reads nothing more, and its read
  // conflict ranges are what the commit will check. (The step that resolves it comes later.)
  virtual void on_commit_submitted(const Transaction& tr) = 0;
  // `tr`'s commit was resolved against the writes after its read version (and applied when
  // `applied`; refused because one of them met its read conflict ranges when `conflicted`).
  virtual void on_commit_resolved(const Transaction& tr, bool applied, bool conflicted) = 0;
};

class Environment {
 public:
  virtual ~Environment() = default;
  // Virtual time in microseconds; never the wall clock.
  virtual std::int64_t now_us() const = 0;
  // The time the store is told for read versions, commits and the MVCC window. An exhaustive
  // search holds it at 0 so that versions count commits and do not depend on when steps ran.
  virtual std::int64_t store_time_us() const { return now_us(); }
  // Where the footprint hooks go, or null (the default: nothing records them).
  FootprintSink* footprints() const { return footprints_; }
  // Suspends at a scheduling point. Returns the coroutine to transfer to: op.continuation when
  // the environment completes the op inline, std::noop_coroutine() when it defers it.
  virtual std::coroutine_handle<> submit(PendingOp& op) = 0;
  // Deterministic randomness for a client (on_error jitter, recipes' random key suffixes).
  virtual std::uint64_t random_u64(ClientId client) = 0;
  // A random suffix of n bytes for a key whose bytes before it are `group`, where only the
  // order of the suffixes drawn under one group can matter (the recipes' os.urandom(20) after an
  // index). The default draws it from the client's stream; an exhaustive world that explores
  // draws chooses instead where it sorts among the group's earlier suffixes (suffix_draws.h).
  virtual std::string random_suffix(ClientId client, std::string_view /*group*/, std::size_t n) {
    return random_bytes(client, n);
  }
  // n bytes from the client's stream, eight to a draw of random_u64, low byte first.
  std::string random_bytes(ClientId client, std::size_t n) {
    std::string out(n, '\0');
    for (std::size_t i = 0; i < n; i += 8) {
      std::uint64_t word = random_u64(client);
      for (std::size_t j = i; j < n && j < i + 8; ++j) {
        out[j] = static_cast<char>(word & 0xff);
        word >>= 8;
      }
    }
    return out;
  }
  virtual ReadFault read_fault(ClientId client) = 0;
  virtual CommitFault commit_fault(ClientId client) = 0;
  // Whether a recipe may park a client at a wait that made no progress (park(), below): an
  // exhaustive search does, since it represents each execution with such a round by the same
  // execution without it. Ordinary runs never park.
  virtual bool parks_unproductive_waits() const { return false; }
  // Ends the client's part in the run for good: it is never scheduled again and its operation
  // never completes; the run is no evidence and the search does not judge it.
  // REQUIRES: parks_unproductive_waits(), and the client has no PendingOp outstanding.
  virtual void park(ClientId /*client*/) {}
  // Whether transactions should log their reads and results: for the serializability replay,
  // which evaluates the non-snapshot reads again, and for traces, which show every read.
  virtual bool log_reads() const { return false; }
  // Whether the log (log_reads) holds snapshot reads too.
  virtual bool log_snapshot_reads() const { return log_reads(); }
  // Told when a transaction attempt ends: at commit (with its outcome) or when a read fails. The
  // attempt's buffers are cleared next, so an environment may take its read log
  // (Transaction::take_read_log) rather than copy it.
  virtual void on_attempt_end(Transaction& /*tr*/, ErrorCode /*outcome*/) {}

  // A uniform double in [0, 1) from random_u64 (53 bits; no std:: distributions).
  double random01(ClientId client) {
    return static_cast<double>(random_u64(client) >> 11) * 0x1.0p-53;
  }

 protected:
  FootprintSink* footprints_ = nullptr;
};

}  // namespace contend
