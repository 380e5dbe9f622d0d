#include "fdb_c/network_startup.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string_view>
#include <system_error>
#include <utility>

#include "fdb_c/network_options.h"
#include "fdb_c/options.h"

namespace contend::fdb {
namespace {

constexpr std::string_view kEnvironmentPrefix = "FDB_NETWORK_OPTION_";
constexpr char kValueSeparator = ':';  // FoundationDB's ENV_VAR_PATH_SEPARATOR off Windows
constexpr std::string_view kDynamicLibraryExtension = ".so";
constexpr std::int64_t kClientThreadsMax = 1024;

// An Int option's value from the environment, as FoundationDB reads it: std::stoll (leading
// white space, a sign, decimal digits, within int64) and nothing after it; as the 8 bytes
// fdb_network_set_option takes, in the host's order.
std::optional<Bytes> environment_int(std::string_view text) {
  std::size_t at = 0;
  while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at])) != 0)
    ++at;
  if (at < text.size() && text[at] == '+') {
    ++at;
    if (at == text.size() || std::isdigit(static_cast<unsigned char>(text[at])) == 0)
      return std::nullopt;  // "+-1" is not a number to std::stoll
  }
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [stop, error] = std::from_chars(text.data() + at, end, value);
  if (error != std::errc() || stop != end) return std::nullopt;
  Bytes bytes(sizeof value, '\0');
  std::copy_n(reinterpret_cast<const char*>(&value), sizeof value, bytes.begin());
  return bytes;
}

// FoundationDB's fileExists: the file opens for reading.
bool file_opens(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return false;
  std::fclose(file);
  return true;
}

// A flag of the multi-version client: no value or an empty one (validateOption(value, false,
// true)).
bool is_flag_value(BytesView value) {
  return value.empty();
}

}  // namespace

std::optional<std::vector<std::string>> environment_option_values(std::string_view variable) {
  std::vector<std::string> values;
  std::string current;
  std::size_t at = 0;
  while (true) {  // each turn consumes at least one character, or ends
    const std::size_t special = variable.find_first_of("\\:", at);
    if (special == std::string_view::npos) {
      current.append(variable.substr(at));
      values.push_back(std::move(current));
      return values;
    }
    current.append(variable.substr(at, special - at));
    if (variable[special] == kValueSeparator) {
      values.push_back(std::move(current));
      current.clear();
      at = special + 1;
      continue;
    }
    if (special + 1 == variable.size()) return std::nullopt;  // a '\' at the end
    const char escaped = variable[special + 1];
    if (escaped != '\\' && escaped != kValueSeparator) return std::nullopt;
    current.push_back(escaped);
    at = special + 2;
  }
}

bool NetworkStartup::is_set_up() const {
  std::lock_guard lock(mutex_);
  return set_up_;
}

bool NetworkStartup::uses_multi_version_client() const {
  std::lock_guard lock(mutex_);
  return !multi_version_bypassed_ && (bypass_disabled_ || !external_libraries_.empty());
}

fdb_error NetworkStartup::add_completion_hook(void (*hook)(void*), void* parameter) {
  std::lock_guard lock(mutex_);
  if (!set_up_) return kNetworkNotSetup;
  if (hook == nullptr) return kClientInvalidOperation;
  completion_hooks_.push_back({hook, parameter});
  return kSuccess;
}

void NetworkStartup::run_completion_hooks() {
  std::vector<CompletionHook> hooks;
  {
    std::lock_guard lock(mutex_);
    hooks.swap(completion_hooks_);
  }
  for (const CompletionHook& h : hooks)
    h.hook(h.parameter);
}

fdb_error NetworkStartup::set_option(int code, BytesView value, bool has_value) {
  std::lock_guard lock(mutex_);
  if (code != kExternalClientOption && !external_client_) {
    if (fdb_error e = load_environment(); e != kSuccess) return e;
  }
  return apply(code, value, has_value);
}

fdb_error NetworkStartup::set_up() {
  std::lock_guard lock(mutex_);
  if (!external_client_) {
    if (fdb_error e = load_environment(); e != kSuccess) return e;
  }
  if (set_up_begun_) return kNetworkAlreadySetup;
  if (client_threads_ > 1) {  // implies DISABLE_LOCAL_CLIENT
    if (multi_version_bypassed_) return kInvalidOption;
    local_client_disabled_ = true;
  }
  set_up_begun_ = true;
  // FoundationDB: "Local client is disabled and no external clients configured".
  if (local_client_disabled_ && external_libraries_.empty()) return kNoExternalClientProvided;
  set_up_ = true;
  return kSuccess;
}

fdb_error NetworkStartup::load_environment() {
  if (environment_loaded_) return kSuccess;
  for (const NetworkOptionInfo& option : network_options()) {
    if (option.hidden) continue;
    const std::string name = std::string(kEnvironmentPrefix) + std::string(option.name);
    const char* variable = std::getenv(name.c_str());
    if (variable == nullptr) continue;
    const std::optional<std::vector<std::string>> values = environment_option_values(variable);
    if (!values) return kEnvironmentVariableNetworkOptionFailed;
    std::set<Bytes>& set_already = environment_values_set_[option.code];
    for (const std::string& text : *values) {
      std::optional<Bytes> value = option.takes_int ? environment_int(text) : Bytes(text);
      if (!value) return kEnvironmentVariableNetworkOptionFailed;
      if (set_already.contains(*value)) continue;
      if (apply(option.code, *value, true) != kSuccess) {
        return kEnvironmentVariableNetworkOptionFailed;
      }
      set_already.insert(std::move(*value));
    }
  }
  environment_loaded_ = true;
  return kSuccess;
}

fdb_error NetworkStartup::apply(int code, BytesView value, bool has_value) {
  switch (code) {
    case kDisableMultiVersionClientApiOption:
      if (!is_flag_value(value)) return kInvalidOptionValue;
      if (set_up_begun_ || local_client_disabled_ || bypass_disabled_) return kInvalidOption;
      multi_version_bypassed_ = true;
      return kSuccess;
    case kCallbacksOnExternalThreadsOption:
      if (!is_flag_value(value)) return kInvalidOptionValue;
      return set_up_begun_ ? kInvalidOption : kSuccess;
    case kExternalClientLibraryOption:
    case kFutureVersionClientLibraryOption:
      return add_external_library(value);
    case kExternalClientDirectoryOption:
      return add_external_directory(value);
    case kDisableLocalClientOption:
      if (!is_flag_value(value)) return kInvalidOptionValue;
      if (set_up_begun_ || multi_version_bypassed_) return kInvalidOption;
      client_threads_ = std::max(client_threads_, 1);
      local_client_disabled_ = true;
      return kSuccess;
    case kDisableClientBypassOption:
      // FoundationDB asserts the set-up has not begun (the process stops); its value is not read.
      if (set_up_begun_ || multi_version_bypassed_) return kInvalidOption;
      bypass_disabled_ = true;
      return kSuccess;
    case kClientThreadsPerVersionOption: {
      if (value.empty()) return kInvalidOptionValue;
      if (set_up_begun_) return kInvalidOption;
      if (!int_option_within(value, has_value, 1, kClientThreadsMax)) return kInvalidOptionValue;
      client_threads_ = static_cast<int>(*int_option(value, has_value));
      return kSuccess;
    }
    case kClientTmpDirOption:
      return value.empty() ? kInvalidOptionValue : kSuccess;
    case kTraceShareAmongClientThreadsOption:
    case kRetainClientLibraryCopiesOption:
    case kIgnoreExternalClientFailuresOption:
    case kFailIncompatibleClientOption:
      return is_flag_value(value) ? kSuccess : kInvalidOptionValue;
    case kExternalClientOption:  // FoundationDB asserts it has no value; any is taken here
      external_client_ = true;
      multi_version_bypassed_ = true;
      return kSuccess;
    default:
      return native_network_option_error(code, value, has_value);
  }
}

fdb_error NetworkStartup::add_external_library(BytesView path) {
  if (path.empty()) return kInvalidOptionValue;
  std::error_code error;
  const std::filesystem::path absolute = std::filesystem::absolute(std::string(path), error);
  const std::string file_name = error ? std::string() : absolute.filename().string();
  if (file_name.empty() || !file_opens(absolute.string())) return kFileNotFound;
  if (set_up_begun_) return kInvalidOption;
  client_threads_ = std::max(client_threads_, 1);
  external_libraries_.insert(file_name);
  return kSuccess;
}

fdb_error NetworkStartup::add_external_directory(BytesView path) {
  if (path.empty()) return kInvalidOptionValue;
  // FoundationDB's platform::listFiles: the entries other than directories whose names end in
  // the dynamic library extension; none for a directory that does not open.
  std::vector<std::string> libraries;
  std::error_code error;
  for (std::filesystem::directory_iterator it(std::string(path), error), end; !error && it != end;
       it.increment(error)) {
    const std::string name = it->path().filename().string();
    std::error_code kind_error;
    if (!it->is_directory(kind_error) && name.ends_with(kDynamicLibraryExtension))
      libraries.push_back(name);
  }
  if (set_up_begun_) return kInvalidOption;
  client_threads_ = std::max(client_threads_, 1);
  external_libraries_.insert(libraries.begin(), libraries.end());
  return kSuccess;
}

}  // namespace contend::fdb
