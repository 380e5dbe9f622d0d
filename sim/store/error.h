// FoundationDB error codes the simulated store produces, and the predicates the retry loop uses.
//
// Expected outcomes (a conflict, a too-old read, an unknown commit result) travel as ErrorCode
// values, never as exceptions. Numbers and retryable sets follow FoundationDB
// (flow/error_definitions.h and fdb_error_predicate in bindings/c/fdb_c.cpp).
#pragma once

#include <string_view>

namespace contend {

enum class ErrorCode : int {
  success = 0,
  transaction_too_old = 1007,
  future_version = 1009,
  not_committed = 1020,
  commit_unknown_result = 1021,
  transaction_cancelled = 1025,
  transaction_timed_out = 1031,
  accessed_unreadable = 1036,
  client_invalid_operation = 2000,
  key_outside_legal_range = 2004,
  inverted_range = 2005,
  used_during_commit = 2017,
  no_commit_version = 2021,
  transaction_too_large = 2101,
  key_too_large = 2102,
  value_too_large = 2103,
  // Never answered by the store, but named by FoundationDB's retry predicates or retried by its
  // onError, so that a client of contend's libfdb_c that passes one to on_error or
  // fdb_error_predicate gets FoundationDB's answer (a retry; "maybe committed" for
  // cluster_version_changed).
  process_behind = 1037,
  database_locked = 1038,
  cluster_version_changed = 1039,
  commit_proxy_memory_limit_exceeded = 1042,
  batch_transaction_throttled = 1051,
  grv_proxy_memory_limit_exceeded = 1078,
  blob_granule_request_failed = 1079,
  tag_throttled = 1213,
  proxy_tag_throttled = 1223,
  transaction_throttled_hot_shard = 1235,
};

inline constexpr bool ok(ErrorCode e) {
  return e == ErrorCode::success;
}

// FoundationDB's snake_case name for the code ("not_committed"), or "unknown_error".
std::string_view error_name(ErrorCode e);

// fdb_error_predicate(MAYBE_COMMITTED): the transaction may or may not have been applied.
bool maybe_committed(ErrorCode e);
// fdb_error_predicate(RETRYABLE_NOT_COMMITTED): known not committed, safe to retry.
bool retryable_not_committed(ErrorCode e);
// fdb_error_predicate(RETRYABLE): the codes a retry loop passes to on_error.
inline bool retryable(ErrorCode e) {
  return maybe_committed(e) || retryable_not_committed(e);
}
// What FoundationDB's onError retries: the RETRYABLE codes, and blob_granule_request_failed,
// which NativeAPI's Transaction::onError backs off and retries though no predicate names it.
inline bool retried_by_on_error(ErrorCode e) {
  return retryable(e) || e == ErrorCode::blob_granule_request_failed;
}

}  // namespace contend
