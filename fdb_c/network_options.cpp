#include "fdb_c/network_options.h"

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "fdb_c/options.h"

namespace contend::fdb {
namespace {

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

// Whether the value has the shape NativeAPI's setNetworkOption (validateOptionValuePresent,
// validateOptionValueNotPresent, extractIntOption, the trace and tracer names) wants.
bool native_value_is_valid(int code, BytesView value, bool has_value) {
  constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
  switch (code) {
    case kTraceRollSize:
    case kTraceMaxLogsSize:
      return int_option_within(value, has_value, 0, kInt64Max);
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
      return int_option_within(value, has_value, 0, 100);
    case kDistributedClientTracer:
      return has_value && (value == "none" || value == "disabled" || value == "logfile" ||
                           value == "file" || value == "log_file" || value == "network_lossy");
    default:
      return true;
  }
}

}  // namespace

// FoundationDB 7.3's network options (fdb.options' NetworkOption scope), ascending by code as its
// FDBNetworkOptions::optionInfo map holds them: local address and cluster file (deprecated),
// tracing (30-39), knobs, TLS (41-55), the multi-version client (60-69), statistics, profiling
// and bypass (70-72), client buggify (80-83), the distributed tracer, the temporary directory, and
// the hidden ones the multi-version client sets itself. Code 71 has two names; the map keeps the
// later, ENABLE_RUN_LOOP_PROFILING.
constexpr NetworkOptionInfo kNetworkOptions[] = {
    {10, "LOCAL_ADDRESS"},
    {20, "CLUSTER_FILE"},
    {30, "TRACE_ENABLE"},
    {31, "TRACE_ROLL_SIZE", true},
    {32, "TRACE_MAX_LOGS_SIZE", true},
    {33, "TRACE_LOG_GROUP"},
    {34, "TRACE_FORMAT"},
    {35, "TRACE_CLOCK_SOURCE"},
    {36, "TRACE_FILE_IDENTIFIER"},
    {37, "TRACE_SHARE_AMONG_CLIENT_THREADS"},
    {38, "TRACE_INITIALIZE_ON_SETUP"},
    {39, "TRACE_PARTIAL_FILE_SUFFIX"},
    {40, "KNOB"},
    {41, "TLS_PLUGIN"},
    {42, "TLS_CERT_BYTES"},
    {43, "TLS_CERT_PATH"},
    {45, "TLS_KEY_BYTES"},
    {46, "TLS_KEY_PATH"},
    {47, "TLS_VERIFY_PEERS"},
    {48, "BUGGIFY_ENABLE"},
    {49, "BUGGIFY_DISABLE"},
    {50, "BUGGIFY_SECTION_ACTIVATED_PROBABILITY", true},
    {51, "BUGGIFY_SECTION_FIRED_PROBABILITY", true},
    {52, "TLS_CA_BYTES"},
    {53, "TLS_CA_PATH"},
    {54, "TLS_PASSWORD"},
    {55, "TLS_DISABLE_PLAINTEXT_CONNECTION"},
    {60, "DISABLE_MULTI_VERSION_CLIENT_API"},
    {61, "CALLBACKS_ON_EXTERNAL_THREADS"},
    {62, "EXTERNAL_CLIENT_LIBRARY"},
    {63, "EXTERNAL_CLIENT_DIRECTORY"},
    {64, "DISABLE_LOCAL_CLIENT"},
    {65, "CLIENT_THREADS_PER_VERSION", true},
    {66, "FUTURE_VERSION_CLIENT_LIBRARY"},
    {67, "RETAIN_CLIENT_LIBRARY_COPIES"},
    {68, "IGNORE_EXTERNAL_CLIENT_FAILURES"},
    {69, "FAIL_INCOMPATIBLE_CLIENT"},
    {70, "DISABLE_CLIENT_STATISTICS_LOGGING"},
    {71, "ENABLE_RUN_LOOP_PROFILING"},
    {72, "DISABLE_CLIENT_BYPASS"},
    {80, "CLIENT_BUGGIFY_ENABLE"},
    {81, "CLIENT_BUGGIFY_DISABLE"},
    {82, "CLIENT_BUGGIFY_SECTION_ACTIVATED_PROBABILITY", true},
    {83, "CLIENT_BUGGIFY_SECTION_FIRED_PROBABILITY", true},
    {90, "DISTRIBUTED_CLIENT_TRACER"},
    {91, "CLIENT_TMP_DIR"},
    {1000, "SUPPORTED_CLIENT_VERSIONS", false, true},
    {1001, "EXTERNAL_CLIENT", false, true},
    {1002, "EXTERNAL_CLIENT_TRANSPORT_ID", true, true},
};

constexpr bool ascending_known_codes() {
  int previous = 0;
  for (const NetworkOptionInfo& option : kNetworkOptions) {
    if (option.code <= previous || option.name.empty()) return false;
    previous = option.code;
  }
  return true;
}
static_assert(ascending_known_codes(), "each option once, named, ascending by code");

std::span<const NetworkOptionInfo> network_options() {
  return kNetworkOptions;
}

const NetworkOptionInfo* find_network_option(int code) {
  auto it = std::find_if(std::begin(kNetworkOptions), std::end(kNetworkOptions),
                         [code](const NetworkOptionInfo& o) { return o.code == code; });
  return it == std::end(kNetworkOptions) ? nullptr : &*it;
}

fdb_error native_network_option_error(int code, BytesView value, bool has_value) {
  if (find_network_option(code) == nullptr) return kInvalidOption;
  return native_value_is_valid(code, value, has_value) ? kSuccess : kInvalidOptionValue;
}

}  // namespace contend::fdb
