#include "fdb_c/options.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <optional>

#include "base/invariant.h"

namespace contend::fdb {

namespace {

constexpr int kTimeout = 500;
constexpr int kRetryLimit = 501;
constexpr int kMaxRetryDelay = 502;
constexpr int kSizeLimit = 503;
constexpr int kReportConflictingKeys = 712, kSpecialKeySpaceRelaxed = 713;
constexpr int kSnapshotRywEnable = 600, kSnapshotRywDisable = 601;
constexpr int kDatabaseSnapshotRywEnable = 26, kDatabaseSnapshotRywDisable = 27;
constexpr int kIncludePortInAddress = 23;
constexpr int kNextWriteNoWriteConflictRange = 30;
constexpr int kLockAware = 700, kUsedDuringCommitProtectionDisable = 701, kReadLockAware = 702;
constexpr int kTransactionLoggingEnable = 402, kDebugTransactionIdentifier = 403;
constexpr int kLogTransaction = 404, kTag = 800, kAutoThrottleTag = 801;

// Options whose meaning the store does not model: accepting them would silently change what a
// program's transactions do (ACCESS_SYSTEM_KEYS, READ_SYSTEM_KEYS, RAW_ACCESS, IDEMPOTENCY_ID,
// AUTOMATIC_IDEMPOTENCY, SPECIAL_KEY_SPACE_ENABLE_WRITES, BYPASS_UNREADABLE).
constexpr std::array kRefused{301, 302, 303, 504, 505, 714, 1100};

// Options accepted with no effect but REPORT_CONFLICTING_KEYS (712: the transaction module serves
// the conflicting read ranges of a failed commit), SPECIAL_KEY_SPACE_RELAXED (713:
// special_keys.h) and INCLUDE_PORT_IN_ADDRESS (23: addresses name their port below API 630),
// USE_GRV_CACHE (1101), which from API 720 wants the multi-version client (transaction.cpp),
// LOCK_AWARE (700) and READ_LOCK_AWARE (702: read-only), USED_DURING_COMMIT_PROTECTION_DISABLE
// (701), and INITIALIZE_NEW_DATABASE (300: read version 0, transaction.cpp): causality and
// durability knobs, priorities, tracing and logging, tags, GRV caching, authorization,
// SNAPSHOT_RYW_ENABLE and _DISABLE (600 and 601: TransactionOptions::snapshot_ryw_enabled),
// and NEXT_WRITE_NO_WRITE_CONFLICT_RANGE (30: its next_write_no_write_conflict_range).
constexpr std::array kAcceptedNoEffect{10,  20,  21,  23,   30,   40,   50,  52,  110, 120,
                                       130, 200, 201, 300,  400,  401,  402, 403, 404, 405,
                                       406, 600, 601, 700,  701,  702,  710, 711, 712, 713,
                                       800, 801, 900, 1000, 1101, 1102, 2000};

// Of those, the ones FoundationDB's setOption (NativeAPI's or RYW's) takes without a value:
// validateOptionValueNotPresent refuses a non-empty one.
constexpr std::array kFlags{10,  20,  23,  30,  40,  50,  52,  200, 201, 300,  400,  404, 406,
                            600, 601, 700, 701, 702, 710, 711, 712, 713, 1000, 1101, 1102};

bool contains(const auto& codes, int code) {
  return std::find(codes.begin(), codes.end(), code) != codes.end();
}

// What NativeAPI's or RYW's setOption answers to the value of an option accepted with no effect:
// one that takes a value wants one (validateOptionValuePresent) — TRANSACTION_LOGGING_ENABLE and
// DEBUG_TRANSACTION_IDENTIFIER of 1 to 100 bytes, TRANSACTION_LOGGING_MAX_FIELD_LENGTH an integer
// in [-1, INT32_MAX] but 0, SPAN_PARENT of 33 bytes, TAG and AUTO_THROTTLE_TAG of at most 16
// (TagSet::addTag: tag_too_long) — and a flag takes none (validateOptionValueNotPresent).
fdb_error value_error(int code, BytesView value, bool has_value) {
  constexpr std::size_t kMaxIdentifierBytes = 100, kMaxTagBytes = 16, kSpanContextBytes = 33;
  const bool wanted =
      code == 402 || code == 403 || code == 405 || code == 800 || code == 801 || code == 900;
  if (wanted && !has_value) return kInvalidOptionValue;
  bool valid = true;
  switch (code) {
    case 402:
    case 403:
      valid = !value.empty() && value.size() <= kMaxIdentifierBytes;
      break;
    case 405: {
      const std::optional<std::int64_t> v = int_option(value, has_value);
      valid = v && *v >= -1 && *v <= std::numeric_limits<std::int32_t>::max() && *v != 0;
      break;
    }
    case 800:
    case 801:
      return value.size() <= kMaxTagBytes ? kSuccess : kTagTooLong;
    case 900:
      valid = value.size() == kSpanContextBytes;
      break;
    default:
      valid = !contains(kFlags, code) || value.empty();
  }
  return valid ? kSuccess : kInvalidOptionValue;
}

// Once its value is valid, what NativeAPI's setOption answers to a logging or tag option, and
// what it keeps: DEBUG_TRANSACTION_IDENTIFIER refuses an identifier other than the one set
// (client_invalid_operation), LOG_TRANSACTION one not set (the same), TRANSACTION_LOGGING_ENABLE
// is both; TagSet::addTag refuses a sixth tag (too_many_tags), a repeated one too.
fdb_error logging_or_tag_error(TransactionOptions& options, int code, BytesView value) {
  constexpr std::size_t kMaxTagsPerTransaction = 5;
  Bytes& identifier = options.debug_identifier;
  if (code == kTransactionLoggingEnable || code == kDebugTransactionIdentifier) {
    if (!identifier.empty() && BytesView(identifier) != value) return kClientInvalidOperation;
    identifier = Bytes(value);
  } else if (code == kLogTransaction && identifier.empty()) {
    return kClientInvalidOperation;
  } else if (code == kTag || code == kAutoThrottleTag) {
    std::vector<Bytes>& tags = options.tags;
    if (tags.size() >= kMaxTagsPerTransaction) return kTooManyTags;
    if (std::find(tags.begin(), tags.end(), value) == tags.end()) tags.emplace_back(value);
  }
  return kSuccess;
}

// The transaction option each database option sets for every transaction (fdb.options's
// defaultFor): TRANSACTION_LOGGING_MAX_FIELD_LENGTH,
// TRANSACTION_TIMEOUT, _RETRY_LIMIT, _MAX_RETRY_DELAY, _SIZE_LIMIT, _CAUSAL_READ_RISKY,
// _INCLUDE_PORT_IN_ADDRESS, _AUTOMATIC_IDEMPOTENCY, _BYPASS_UNREADABLE,
// _USED_DURING_COMMIT_PROTECTION_DISABLE and _REPORT_CONFLICTING_KEYS.
struct DefaultFor {
  int database_option;
  int transaction_option;
};
constexpr std::array<DefaultFor, 11> kDefaultsFor{{{405, 405},
                                                   {500, kTimeout},
                                                   {501, kRetryLimit},
                                                   {502, kMaxRetryDelay},
                                                   {503, kSizeLimit},
                                                   {504, 20},
                                                   {505, 23},
                                                   {506, 505},
                                                   {700, 1100},
                                                   {701, 701},
                                                   {702, kReportConflictingKeys}}};

// The transaction option database option `code` is the default of, or 0 for none.
int defaulted_transaction_option(int code) {
  for (const DefaultFor& d : kDefaultsFor) {
    if (d.database_option == code) return d.transaction_option;
  }
  return 0;
}

// The database options FoundationDB 7.3 knows that are the database's own, but MAX_WATCHES:
// LOCATION_CACHE_SIZE, MACHINE_ID, DATACENTER_ID, USE_CONFIG_DATABASE, TEST_CAUSAL_READ_RISKY.
constexpr int kMaxWatches = 20;
constexpr std::array kDatabaseOwnOptions{10, 21, 22, 800, 900};

// DatabaseContext::setOption's MAX_WATCHES: extractIntOption(value, 0, ABSOLUTE_MAX_WATCHES).
fdb_error apply_max_watches(DatabaseOptions& options, BytesView value, bool has_value) {
  if (!int_option_within(value, has_value, 0, kMaxWatchesAbsolute)) return kInvalidOptionValue;
  options.max_watches = *int_option(value, has_value);
  return kSuccess;
}

}  // namespace

std::optional<std::int64_t> int_option(BytesView value, bool has_value) {
  std::int64_t v = 0;
  if (!has_value || value.size() != sizeof v) return std::nullopt;
  std::memcpy(&v, value.data(), sizeof v);
  return v;
}

bool int_option_within(BytesView value, bool has_value, std::int64_t min, std::int64_t max) {
  const std::optional<std::int64_t> v = int_option(value, has_value);
  return v && *v >= min && *v <= max;
}

fdb_error apply_option(TransactionOptions& options, int code, BytesView value, bool has_value) {
  if (code == kReadYourWritesDisableOption) {
    options.read_your_writes_disabled = true;
    return kSuccess;
  }
  const bool int_valued =
      code == kTimeout || code == kRetryLimit || code == kMaxRetryDelay || code == kSizeLimit;
  if (int_valued) {
    const std::optional<std::int64_t> read = int_option(value, has_value);
    if (!read) return kInvalidOptionValue;
    const std::int64_t v = *read;
    // FoundationDB's ranges: TIMEOUT and MAX_RETRY_DELAY [0, INT_MAX] ms, RETRY_LIMIT
    // [-1, INT_MAX]; outside them invalid_option_value. (A larger TIMEOUT overflowed its
    // conversion to microseconds and timed the transaction out at once; a larger delay aborted
    // the process on the network's check.)
    constexpr std::int64_t kIntMax = std::numeric_limits<int>::max();
    if (code == kTimeout) {
      if (v < 0 || v > kIntMax) return kInvalidOptionValue;
      options.timeout_ms = v;
    } else if (code == kRetryLimit) {
      if (v < -1 || v > kIntMax) return kInvalidOptionValue;
      options.retry_limit = static_cast<int>(v);
    } else if (code == kMaxRetryDelay) {
      if (v < 0 || v > kIntMax) return kInvalidOptionValue;
      options.max_retry_delay_ms = v;
    } else {
      if (v < 32 || v > 10'000'000) return kInvalidOptionValue;  // FoundationDB's bounds
      options.size_limit_bytes = v;
    }
    return kSuccess;
  }
  if (contains(kRefused, code) || !contains(kAcceptedNoEffect, code)) return kInvalidOption;
  if (const fdb_error e = value_error(code, value, has_value)) return e;
  if (code == kReportConflictingKeys) options.report_conflicting_keys = true;
  if (code == kSpecialKeySpaceRelaxed) options.special_key_space_relaxed = true;
  if (code == kIncludePortInAddress) options.include_port_in_address = true;
  if (code == kSnapshotRywEnable) ++options.snapshot_ryw_enabled;
  if (code == kSnapshotRywDisable) --options.snapshot_ryw_enabled;
  if (code == kNextWriteNoWriteConflictRange) options.next_write_no_write_conflict_range = true;
  if (code == kUsedDuringCommitProtectionDisable)
    options.used_during_commit_protection_disabled = true;
  if (code == kLockAware) {
    options.lock_aware = true;
    options.read_only = false;
  }
  if (code == kReadLockAware && !options.lock_aware) {
    options.lock_aware = true;
    options.read_only = true;
  }
  return logging_or_tag_error(options, code, value);
}

fdb_error apply_database_option(DatabaseOptions& options, int code, BytesView value,
                                bool has_value) {
  if (code == kMaxWatches) return apply_max_watches(options, value, has_value);
  if (code == kDatabaseSnapshotRywEnable || code == kDatabaseSnapshotRywDisable) {
    if (const fdb_error e = value_error(kSnapshotRywEnable, value, has_value)) return e;
    options.snapshot_ryw_enabled += code == kDatabaseSnapshotRywEnable ? 1 : -1;
    return kSuccess;
  }
  const int option = defaulted_transaction_option(code);
  if (option == 0) return contains(kDatabaseOwnOptions, code) ? kSuccess : kInvalidOption;
  TransactionOptions scratch;
  if (const fdb_error e = apply_option(scratch, option, value, has_value)) return e;
  // UniqueOrderedOptionList::addOption: a setting replaces the option's earlier one, and goes last.
  TransactionDefaults& defaults = options.transaction_defaults;
  std::erase_if(defaults, [&](const OptionSetting& s) { return s.code == option; });
  defaults.push_back(OptionSetting{option, Bytes(value), has_value});
  return kSuccess;
}

TransactionOptions options_with_defaults(const TransactionDefaults& defaults,
                                         std::int64_t snapshot_ryw_enabled) {
  TransactionOptions options;
  options.snapshot_ryw_enabled = snapshot_ryw_enabled;
  const OptionSetting* timeout = nullptr;
  for (const OptionSetting& s : defaults) {
    if (s.code == kTimeout) {
      timeout = &s;
      continue;
    }
    const fdb_error e = apply_option(options, s.code, s.value, s.has_value);
    CONTEND_ASSERT(e == kSuccess, "a database's default was validated when it was set");
  }
  if (timeout != nullptr) {
    const fdb_error e = apply_option(options, kTimeout, timeout->value, timeout->has_value);
    CONTEND_ASSERT(e == kSuccess, "a database's default was validated when it was set");
  }
  return options;
}

TransactionOptions options_after_retry(const TransactionOptions& options,
                                       const TransactionDefaults& defaults,
                                       std::int64_t snapshot_ryw_enabled) {
  TransactionOptions after = options_with_defaults(defaults, snapshot_ryw_enabled);
  after.timeout_ms = options.timeout_ms;
  after.retry_limit = options.retry_limit;
  after.max_retry_delay_ms = options.max_retry_delay_ms;
  after.debug_identifier = options.debug_identifier;
  return after;
}

}  // namespace contend::fdb
