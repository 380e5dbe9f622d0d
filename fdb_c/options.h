// Transaction options of contend's libfdb_c: which FoundationDB option codes act, which are
// refused because they would change semantics contend does not model, and which are accepted
// with no effect (tracing, priorities, tags, durability: nothing an in-process store can honour
// or needs to). Integer options are 8-byte little-endian, as FoundationDB passes them.
// Invariants: a refused or malformed option leaves the options unchanged.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "fdb_c/errors.h"
#include "sim/store/bytes.h"

namespace contend::fdb {

// Refused once the transaction has read or written (transaction.cpp), as FoundationDB does.
inline constexpr int kReadYourWritesDisableOption = 51;
// INITIALIZE_NEW_DATABASE: the transaction reads at version 0 (transaction.cpp).
inline constexpr int kInitializeNewDatabase = 300;

struct TransactionOptions {
  bool read_your_writes_disabled = false;  // READ_YOUR_WRITES_DISABLE (51)
  std::int64_t timeout_ms = 0;             // TIMEOUT (500): 0 = none
  int retry_limit = -1;                    // RETRY_LIMIT (501): -1 = none
  std::int64_t max_retry_delay_ms = -1;    // MAX_RETRY_DELAY (502): -1 = FoundationDB's 1 s
  std::int64_t size_limit_bytes = 0;       // SIZE_LIMIT (503): 0 = FoundationDB's 10 MB
  bool report_conflicting_keys = false;    // REPORT_CONFLICTING_KEYS (712)
  bool special_key_space_relaxed = false;  // SPECIAL_KEY_SPACE_RELAXED (713)
  bool include_port_in_address = false;    // INCLUDE_PORT_IN_ADDRESS (23): below API 630
  // NativeAPI's lockAware and readOnly: LOCK_AWARE (700) sets the first and clears the second,
  // READ_LOCK_AWARE (702) sets both unless the transaction is lock aware already. A read-only
  // transaction's commit with writes answers transaction_read_only (2023). (No database is locked
  // here: lock awareness has no other effect.)
  bool lock_aware = false;
  bool read_only = false;
  // USED_DURING_COMMIT_PROTECTION_DISABLE (701): a use during the commit still answers
  // used_during_commit, but no longer ends the attempt (RYW's checkUsedDuringCommit).
  bool used_during_commit_protection_disabled = false;
  // DEBUG_TRANSACTION_IDENTIFIER (403, or TRANSACTION_LOGGING_ENABLE, 402): LOG_TRANSACTION (404)
  // wants one, and a second may not differ (NativeAPI's trLogInfo identifier). Empty: none.
  Bytes debug_identifier;
  std::vector<Bytes> tags;  // TAG (800) and AUTO_THROTTLE_TAG (801), each once: at most 5
  // RYW's snapshotRywEnabled: SNAPSHOT_RYW_ENABLE (600) adds one, SNAPSHOT_RYW_DISABLE (601) takes
  // one away, and while it is 0 or less a snapshot read does not see this transaction's writes
  // (RYW's readWithConflictRangeSnapshot). It starts from the database's
  // (DatabaseOptions::snapshot_ryw_enabled) at the transaction's creation, reset and retry:
  // neither option is persistent.
  std::int64_t snapshot_ryw_enabled = 1;
  // NEXT_WRITE_NO_WRITE_CONFLICT_RANGE (30), RYW's nextWriteDisableConflictRange: the next set,
  // clear or atomic operation RYW runs takes it (getAndResetWriteConflictDisabled) and gives its
  // keys no write conflict range. Not persistent.
  bool next_write_no_write_conflict_range = false;
};

// Applies option `code` with `value` (absent when !has_value): success, invalid_option for a
// code contend refuses or does not know, invalid_option_value for a malformed value.
fdb_error apply_option(TransactionOptions& options, int code, BytesView value, bool has_value);

// One transaction option as a database holds it for the transactions it creates.
struct OptionSetting {
  int code = 0;
  Bytes value;
  bool has_value = false;
};

// A database's transaction defaults, as FoundationDB's DatabaseContext::transactionDefaults: the
// database options that set a transaction option for every transaction (TRANSACTION_TIMEOUT,
// TRANSACTION_RETRY_LIMIT, ...), one setting per transaction option, in the order last set.
// A transaction takes them when it is created and again at each reset (RYW's constructor and
// reset() copy them into its persistent options), and a retry (on_error) applies them again.
// Invariant: each setting applies to a fresh TransactionOptions without error.
using TransactionDefaults = std::vector<OptionSetting>;

// FoundationDB's bounds of a database's outstanding watches (MAX_WATCHES): its client knobs
// DEFAULT_MAX_OUTSTANDING_WATCHES and ABSOLUTE_MAX_WATCHES.
inline constexpr std::int64_t kMaxWatchesDefault = 10'000;
inline constexpr std::int64_t kMaxWatchesAbsolute = 1'000'000;

// What a database's options set: its transactions' defaults, and the most watches it lets be
// outstanding at once (DatabaseContext::maxOutstandingWatches).
struct DatabaseOptions {
  TransactionDefaults transaction_defaults;
  std::int64_t max_watches = kMaxWatchesDefault;
  // DatabaseContext::snapshotRywEnabled, where a transaction's count starts: 1 (from API 300),
  // SNAPSHOT_RYW_ENABLE (26) adds one and SNAPSHOT_RYW_DISABLE (27) takes one away each time it is
  // set. fdb.options gives them no defaultFor, so that repeated calls add up.
  std::int64_t snapshot_ryw_enabled = 1;
};

// Applies database option `code`: a default is validated (as the transaction option it sets) and
// recorded in the transaction defaults; MAX_WATCHES (20) takes an integer in [0, 1,000,000]
// (invalid_option_value else: a lower limit cancels no watch); SNAPSHOT_RYW_ENABLE (26) and
// _DISABLE (27) count snapshot_ryw_enabled up and down (a value is invalid_option_value); an
// option FoundationDB's database takes for its own (location cache, machine and datacenter ids,
// configuration database, causal-read testing) is accepted with no effect. invalid_option for a
// code FoundationDB does not know and for a default of an option contend refuses
// (AUTOMATIC_IDEMPOTENCY, BYPASS_UNREADABLE); the transaction option's error for a malformed
// default. A refused option leaves `options` as they were.
fdb_error apply_database_option(DatabaseOptions& options, int code, BytesView value,
                                bool has_value);

// An Int option's value, as FoundationDB's extractIntOption reads it: 8 bytes, little-endian;
// none when it is absent or of another length (invalid_option_value).
std::optional<std::int64_t> int_option(BytesView value, bool has_value);
// Whether int_option reads a value in [min, max] (extractIntOption(value, min, max) succeeds).
bool int_option_within(BytesView value, bool has_value, std::int64_t min, std::int64_t max);

// Fresh options with `defaults` applied, in their order and TIMEOUT last (as RYW's
// applyPersistentOptions, so that the last timeout set is the one that counts), counting snapshot
// RYW from the database's `snapshot_ryw_enabled` as it is now (RYW's options.reset reads it).
TransactionOptions options_with_defaults(const TransactionDefaults& defaults,
                                         std::int64_t snapshot_ryw_enabled);

// What a retry (on_error) leaves: the defaults applied afresh, under the persistent options of
// `options` (RYW's resetRyow applies its persistent options, which hold the defaults first).
// FoundationDB's persistent options are TIMEOUT, RETRY_LIMIT and MAX_RETRY_DELAY; the rest
// (READ_YOUR_WRITES_DISABLE, SIZE_LIMIT, tags, ...) go back to the defaults and are set again by a
// retry loop that wants them. The debug identifier stays too, so that a retry loop's
// LOG_TRANSACTION never fails where FoundationDB's might not.
TransactionOptions options_after_retry(const TransactionOptions& options,
                                       const TransactionDefaults& defaults,
                                       std::int64_t snapshot_ryw_enabled);

}  // namespace contend::fdb
