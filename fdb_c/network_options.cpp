#include "fdb_c/network_options.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "fdb_c/options.h"

namespace contend::fdb {
namespace {

// FoundationDB 7.3's network options (fdb.options' NetworkOption scope): local address and
// cluster file (deprecated), tracing (30-39), knobs, TLS (41-55), the multi-version client
// (60-69), statistics, profiling and bypass (70-72), client buggify (80-83), the distributed
// tracer, the temporary directory, and the hidden ones set by the multi-version client itself.
constexpr std::array kNetworkOptions{10, 20, 30, 31, 32, 33, 34, 35,   36,   37,  38, 39, 40,
                                     41, 42, 43, 45, 46, 47, 48, 49,   50,   51,  52, 53, 54,
                                     55, 60, 61, 62, 63, 64, 65, 66,   67,   68,  69, 70, 71,
                                     72, 80, 81, 82, 83, 90, 91, 1000, 1001, 1002};

enum NetworkOption : int {
  kTraceRollSize = 31,
  kTraceMaxLogsSize = 32,
  kTraceFormat = 34,
  kTraceClockSource = 35,
  kTraceFileIdentifier = 36,
  kTracePartialFileSuffix = 39,
  kKnob = 40,
  kTlsPlugin = 41,
  kTlsCertBytes = 42,
  kTlsCertPath = 43,
  kTlsKeyBytes = 45,
  kTlsKeyPath = 46,
  kTlsVerifyPeers = 47,
  kTlsCaBytes = 52,
  kTlsCaPath = 53,
  kTlsPassword = 54,
  kDisableMultiVersionClientApi = 60,
  kCallbacksOnExternalThreads = 61,
  kExternalClientLibrary = 62,
  kExternalClientDirectory = 63,
  kDisableLocalClient = 64,
  kClientThreadsPerVersion = 65,
  kDisableClientStatisticsLogging = 70,
  kEnableRunLoopProfiling = 71,
  kClientBuggifySectionActivatedProbability = 82,
  kClientBuggifySectionFiredProbability = 83,
  kDistributedClientTracer = 90,
};

// ClientKnobs' TRACE_LOG_FILE_IDENTIFIER_MAX_LENGTH.
constexpr std::size_t kTraceFileIdentifierBytesMax = 50;

// Whether `value`, lowered (ASCII), is one of `words` (FoundationDB lowers trace format and clock
// source names before it compares them).
bool is_one_of_ignoring_case(BytesView value, std::initializer_list<std::string_view> words) {
  std::string lower(value);
  for (char& c : lower)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return std::find(words.begin(), words.end(), lower) != words.end();
}

// FoundationDB's ^[a-zA-Z0-9_]*$, in ASCII whatever the locale.
bool is_identifier(BytesView value) {
  auto identifier_char = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  };
  return std::all_of(value.begin(), value.end(), identifier_char);
}

bool is_int_within(BytesView value, bool has_value, std::int64_t min, std::int64_t max) {
  const std::optional<std::int64_t> v = int_option(value, has_value);
  return v && *v >= min && *v <= max;
}

// Whether the value has the shape NativeAPI's setNetworkOption (validateOptionValuePresent,
// validateOptionValueNotPresent, extractIntOption, the trace and tracer names) wants.
bool native_value_is_valid(int code, BytesView value, bool has_value) {
  constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
  switch (code) {
    case kTraceRollSize:
    case kTraceMaxLogsSize:
      return is_int_within(value, has_value, 0, kInt64Max);
    case kTraceFormat:
      return has_value && is_one_of_ignoring_case(value, {"xml", "json"});
    case kTraceClockSource:
      return has_value && is_one_of_ignoring_case(value, {"now", "realtime"});
    case kTraceFileIdentifier:
      return has_value && value.size() <= kTraceFileIdentifierBytesMax && is_identifier(value);
    case kKnob:
      return has_value && value.find('=') != BytesView::npos;
    case kTracePartialFileSuffix:
    case kTlsPlugin:
    case kTlsCertBytes:
    case kTlsCertPath:
    case kTlsKeyBytes:
    case kTlsKeyPath:
    case kTlsVerifyPeers:
    case kTlsCaBytes:
    case kTlsCaPath:
    case kTlsPassword:
      return has_value;
    case kDisableClientStatisticsLogging:
    case kEnableRunLoopProfiling:
      return value.empty();
    case kClientBuggifySectionActivatedProbability:
    case kClientBuggifySectionFiredProbability:
      return is_int_within(value, has_value, 0, 100);
    case kDistributedClientTracer:
      return has_value && (value == "none" || value == "disabled" || value == "logfile" ||
                           value == "file" || value == "log_file" || value == "network_lossy");
    default:
      return true;
  }
}

}  // namespace

fdb_error network_option_error(int code, BytesView value, bool has_value, bool network_set_up) {
  if (std::find(kNetworkOptions.begin(), kNetworkOptions.end(), code) == kNetworkOptions.end())
    return kInvalidOption;
  // The multi-version client's own options, checked before NativeAPI sees any (validateOption).
  switch (code) {
    case kDisableMultiVersionClientApi:
    case kCallbacksOnExternalThreads:
      return value.empty() ? kSuccess : kInvalidOptionValue;
    case kDisableLocalClient:
      if (!value.empty()) return kInvalidOptionValue;
      return network_set_up ? kInvalidOption : kSuccess;
    case kExternalClientLibrary:
    case kExternalClientDirectory:
      return !value.empty() ? kSuccess : kInvalidOptionValue;
    case kClientThreadsPerVersion:
      if (value.empty()) return kInvalidOptionValue;
      if (network_set_up) return kInvalidOption;
      return is_int_within(value, has_value, 1, 1024) ? kSuccess : kInvalidOptionValue;
    default:
      return native_value_is_valid(code, value, has_value) ? kSuccess : kInvalidOptionValue;
  }
}

}  // namespace contend::fdb
