#include "sim/store/error.h"

namespace contend {

std::string_view error_name(ErrorCode e) {
  switch (e) {
    case ErrorCode::success:
      return "success";
    case ErrorCode::transaction_too_old:
      return "transaction_too_old";
    case ErrorCode::future_version:
      return "future_version";
    case ErrorCode::not_committed:
      return "not_committed";
    case ErrorCode::commit_unknown_result:
      return "commit_unknown_result";
    case ErrorCode::transaction_cancelled:
      return "transaction_cancelled";
    case ErrorCode::transaction_timed_out:
      return "transaction_timed_out";
    case ErrorCode::accessed_unreadable:
      return "accessed_unreadable";
    case ErrorCode::client_invalid_operation:
      return "client_invalid_operation";
    case ErrorCode::key_outside_legal_range:
      return "key_outside_legal_range";
    case ErrorCode::inverted_range:
      return "inverted_range";
    case ErrorCode::used_during_commit:
      return "used_during_commit";
    case ErrorCode::no_commit_version:
      return "no_commit_version";
    case ErrorCode::transaction_too_large:
      return "transaction_too_large";
    case ErrorCode::key_too_large:
      return "key_too_large";
    case ErrorCode::value_too_large:
      return "value_too_large";
    case ErrorCode::process_behind:
      return "process_behind";
    case ErrorCode::database_locked:
      return "database_locked";
    case ErrorCode::cluster_version_changed:
      return "cluster_version_changed";
    case ErrorCode::commit_proxy_memory_limit_exceeded:
      return "commit_proxy_memory_limit_exceeded";
    case ErrorCode::batch_transaction_throttled:
      return "batch_transaction_throttled";
    case ErrorCode::grv_proxy_memory_limit_exceeded:
      return "grv_proxy_memory_limit_exceeded";
    case ErrorCode::blob_granule_request_failed:
      return "blob_granule_request_failed";
    case ErrorCode::tag_throttled:
      return "tag_throttled";
    case ErrorCode::proxy_tag_throttled:
      return "proxy_tag_throttled";
    case ErrorCode::transaction_throttled_hot_shard:
      return "transaction_throttled_hot_shard";
  }
  return "unknown_error";
}

bool maybe_committed(ErrorCode e) {
  return e == ErrorCode::commit_unknown_result || e == ErrorCode::cluster_version_changed;
}

bool retryable_not_committed(ErrorCode e) {
  switch (e) {
    case ErrorCode::not_committed:
    case ErrorCode::transaction_too_old:
    case ErrorCode::future_version:
    case ErrorCode::process_behind:
    case ErrorCode::database_locked:
    case ErrorCode::commit_proxy_memory_limit_exceeded:
    case ErrorCode::batch_transaction_throttled:
    case ErrorCode::grv_proxy_memory_limit_exceeded:
    case ErrorCode::tag_throttled:
    case ErrorCode::proxy_tag_throttled:
    case ErrorCode::transaction_throttled_hot_shard:
      return true;
    default:
      return false;
  }
}

}  // namespace contend
