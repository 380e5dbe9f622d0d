#include "fdb_c/errors.h"

#include <array>

namespace contend::fdb {

namespace {
struct Described {
  fdb_error code;
  const char* description;
};

// FoundationDB's descriptions (error_definitions.h) of the codes this library can return, and of
// the codes on_error retries though the store never answers them.
constexpr std::array kDescriptions{
    Described{1000, "Operation failed"},
    Described{1007, "Transaction is too old to perform reads or be committed"},
    Described{1009, "Request for future version"},
    Described{1020, "Transaction not committed due to conflict with another transaction"},
    Described{1021, "Transaction may or may not have committed"},
    Described{1025, "Operation aborted because the transaction was cancelled"},
    Described{1031, "Operation aborted because the transaction timed out"},
    Described{1032, "Too many watches currently set"},
    Described{1034, "Watches cannot be set if read your writes is disabled"},
    Described{1036, "Read or wrote an unreadable key"},
    Described{1037, "Storage process does not have recent mutations"},
    Described{1038, "Database is locked"},
    Described{1039, "The protocol version of the cluster has changed"},
    Described{1042, "CommitProxy commit memory limit exceeded"},
    Described{1051, "Batch GRV request rate limit exceeded"},
    Described{1078, "GetReadVersion proxy memory limit exceeded"},
    Described{1079, "BlobGranule request failed"},
    Described{1101, "Asynchronous operation cancelled"},
    Described{1102, "The future has been released"},
    Described{1213, "Transaction tag is being throttled"},
    Described{1223, "Exceeded maximum proxy tag throttling duration"},
    Described{1235, "Transaction throttled due to hot shard"},
    Described{1511, "File not found"},
    Described{2000, "Invalid API call"},
    Described{2004, "Key outside legal range"},
    Described{2005, "Range begin key larger than end key"},
    Described{2006, "Option set with an invalid value"},
    Described{2007, "Option not valid in this context"},
    Described{2008, "Action not possible before the network is configured"},
    Described{2009, "Network can be configured only once"},
    Described{2010, "Transaction already has a read version set"},
    Described{2011, "Version not valid"},
    Described{2012, "Range limits not valid"},
    Described{2015, "Future not ready"},
    Described{2017, "Operation issued while a commit was outstanding"},
    Described{2018, "Unrecognized atomic mutation type"},
    Described{2020, "Transaction does not have a valid commit version"},
    Described{2021, "Transaction is read-only and therefore does not have a commit version"},
    Described{2022, "Environment variable network option could not be set"},
    Described{2023, "Attempted to commit a transaction specified as read-only"},
    Described{2025, "Network can only be started once"},
    Described{2030, "The index in K[] or V[] is not a valid number or out of range"},
    Described{2032, "\"{...}\" must be the last element of the mapper tuple"},
    Described{2033, "One of the mapped range queries is too large"},
    Described{2039,
              "getMappedRange tries to read data that were previously written in the transaction"},
    Described{2041, "The key cannot be parsed as a tuple"},
    Described{2042, "The value cannot be parsed as a tuple"},
    Described{2043, "The mapper cannot be parsed as a tuple"},
    Described{2101, "Transaction exceeds byte limit"},
    Described{2102, "Key length exceeds limit"},
    Described{2103, "Value length exceeds limit"},
    Described{2104, "Connection string invalid"},
    Described{2108, "Operation is not supported"},
    Described{2109, "Too many tags set on transaction"},
    Described{2110, "Tag set on transaction is too long"},
    Described{2112,
              "Special key space range read crosses modules. Refer to the "
              "`special_key_space_relaxed' transaction option for more details."},
    Described{2113,
              "Special key space range read does not intersect a module. Refer to the "
              "`special_key_space_relaxed' transaction option for more details."},
    Described{2114,
              "Special Key space is not allowed to write by default. Refer to the "
              "`special_key_space_enable_writes` transaction option for more details."},
    Described{2123, "No external client library provided."},
    Described{2136, "Tenants have been disabled in the cluster"},
    Described{2200, "API version is not set"},
    Described{2201, "API version may be set only once"},
    Described{2202, "API version not valid"},
    Described{2203, "API version not supported"},
    Described{2210, "EXACT streaming mode requires limits, but none were given"},
    Described{4000, "An unknown error occurred"},
    Described{4100, "An internal error occurred"},
};
}  // namespace

fdb_error validated_error(fdb_error code) {
  constexpr fdb_error kLargestCode = 30'000;
  return code < 0 || code > kLargestCode ? kUnknownError : code;
}

const char* error_description(fdb_error code) {
  if (code == kSuccess) return "Success";
  for (const Described& d : kDescriptions) {
    if (d.code == code) return d.description;
  }
  return "Unknown error";
}

bool error_predicate(int predicate, fdb_error code) {
  const auto e = static_cast<ErrorCode>(code);
  switch (predicate) {
    case 50000:  // FDB_ERROR_PREDICATE_RETRYABLE
      return retryable(e);
    case 50001:  // FDB_ERROR_PREDICATE_MAYBE_COMMITTED
      return maybe_committed(e);
    case 50002:  // FDB_ERROR_PREDICATE_RETRYABLE_NOT_COMMITTED
      return retryable_not_committed(e);
    default:
      return false;
  }
}

}  // namespace contend::fdb
