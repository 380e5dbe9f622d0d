// Transaction options of contend's libfdb_c: which FoundationDB option codes act, which are
// refused because they would change semantics contend does not model, and which are accepted
// with no effect (tracing, priorities, tags, durability: nothing an in-process store can honour
// or needs to). Integer options are 8-byte little-endian, as FoundationDB passes them.
// Invariants: a refused or malformed option leaves the options unchanged.
#pragma once

#include <cstdint>
#include <vector>

#include "fdb_c/errors.h"
#include "sim/store/bytes.h"

namespace contend::fdb {

// Refused once the transaction has read or written (transaction.cpp), as FoundationDB does.
inline constexpr int kReadYourWritesDisableOption = 51;

struct TransactionOptions {
  bool read_your_writes_disabled = false;  // READ_YOUR_WRITES_DISABLE (51)
  std::int64_t timeout_ms = 0;             // TIMEOUT (500): 0 = none
  int retry_limit = -1;                    // RETRY_LIMIT (501): -1 = none
  std::int64_t max_retry_delay_ms = -1;    // MAX_RETRY_DELAY (502): -1 = FoundationDB's 1 s
  std::int64_t size_limit_bytes = 0;       // SIZE_LIMIT (503): 0 = FoundationDB's 10 MB
  bool report_conflicting_keys = false;    // REPORT_CONFLICTING_KEYS (712)
  bool special_key_space_relaxed = false;  // SPECIAL_KEY_SPACE_RELAXED (713)
  // DEBUG_TRANSACTION_IDENTIFIER (403, or TRANSACTION_LOGGING_ENABLE, 402): LOG_TRANSACTION (404)
  // wants one, and a second may not differ (NativeAPI's trLogInfo identifier). Empty: none.
  Bytes debug_identifier;
  std::vector<Bytes> tags;  // TAG (800) and AUTO_THROTTLE_TAG (801), each once: at most 5
};

// What a retry (on_error) keeps, as FoundationDB's persistent options: TIMEOUT, RETRY_LIMIT and
// MAX_RETRY_DELAY stay; READ_YOUR_WRITES_DISABLE and SIZE_LIMIT go back to their defaults and are
// set again by a retry loop that wants them, and so do tags. The debug identifier stays, so that a
// retry loop's LOG_TRANSACTION never fails where FoundationDB's might not.
TransactionOptions persistent_options(const TransactionOptions& options);

// Applies option `code` with `value` (absent when !has_value): success, invalid_option for a
// code contend refuses or does not know, invalid_option_value for a malformed value.
fdb_error apply_option(TransactionOptions& options, int code, BytesView value, bool has_value);

}  // namespace contend::fdb
