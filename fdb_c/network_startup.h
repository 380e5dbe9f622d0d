// The network's start-up as FoundationDB's multi-version client (MultiVersionApi, 7.3) keeps it:
// what fdb_network_set_option and fdb_setup_network answer, given what was set before them.
//
// - Options from the environment: before the first option a program sets (other than the hidden
//   EXTERNAL_CLIENT) and before the network is set up, every non-hidden option named by a
//   variable FDB_NETWORK_OPTION_<NAME> is set with the variable's values: separated by ':', with
//   `\:` and `\\` for a literal ':' and '\'; an Int option's value is a decimal integer, as
//   std::stoll reads it, the whole value. A value that does not parse or that the option refuses
//   makes the call answer environment_variable_network_option_failed (2022) — the program's own
//   option is not set — and the next call tries again, setting only the values not yet set.
//   Once every variable is set they are not read again.
// - The multi-version client's own options (7.3): DISABLE_MULTI_VERSION_CLIENT_API,
//   CALLBACKS_ON_EXTERNAL_THREADS, DISABLE_LOCAL_CLIENT, CLIENT_THREADS_PER_VERSION, the external
//   and future-version client libraries and the client directory are invalid_option once
//   fdb_setup_network has begun; the client API cannot be disabled with the local client disabled
//   or the bypass disabled, nor the local client or the bypass once the API is; a client library
//   must name a file that exists (file_not_found, 1511); CLIENT_TMP_DIR wants a value and the
//   flags (TRACE_SHARE_AMONG_CLIENT_THREADS, RETAIN_CLIENT_LIBRARY_COPIES,
//   IGNORE_EXTERNAL_CLIENT_FAILURES, FAIL_INCOMPATIBLE_CLIENT) none. contend serves every database
//   itself: external clients are counted, never loaded.
// - fdb_setup_network: more than one client thread disables the local client; then the set-up
//   has begun, and with the local client disabled and no external client library it ends there
//   (no_external_client_provided, 2123): a second call is network_already_setup, and
//   fdb_run_network network_not_setup.
//
// Invariants: every answer is given under one mutex, so concurrent callers see the calls in some
// order; a set-up begins at most once; an environment variable's value is set at most once.
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "fdb_c/errors.h"
#include "sim/store/bytes.h"

namespace contend::fdb {

// The values of an FDB_NETWORK_OPTION_ variable, split at unescaped ':' (one value, maybe empty,
// for a variable without one); nullopt for a '\' that does not escape ':' or '\'.
std::optional<std::vector<std::string>> environment_option_values(std::string_view variable);

class NetworkStartup {
 public:
  // fdb_network_set_option's answer; an accepted option is remembered.
  fdb_error set_option(int code, BytesView value, bool has_value);
  // fdb_setup_network's answer; success sets the network up.
  fdb_error set_up();
  // Whether fdb_setup_network succeeded.
  bool is_set_up() const;
  // Whether databases go through the multi-version client (MultiVersionApi's
  // !bypassMultiClientApi once set up): its API not disabled, and an external client given or
  // DISABLE_CLIENT_BYPASS set.
  bool uses_multi_version_client() const;
  // fdb_add_network_thread_completion_hook: network_not_setup before the set-up, as
  // MultiVersionApi's; a null hook is client_invalid_operation.
  fdb_error add_completion_hook(void (*hook)(void*), void* parameter);
  // Runs each hook added, in order, once: the network thread calls it when its run loop ends.
  void run_completion_hooks();

 private:
  // Each with the mutex held. load_environment: the variables, unless all were set already.
  // apply: MultiVersionApi::setNetworkOptionInternal, then NativeAPI's check of the value.
  fdb_error load_environment();
  fdb_error apply(int code, BytesView value, bool has_value);
  fdb_error add_external_library(BytesView path);  // also a future-version one
  fdb_error add_external_directory(BytesView path);

  mutable std::mutex mutex_;
  bool set_up_begun_ = false;  // MultiVersionApi's networkStartSetup
  bool set_up_ = false;        // its networkSetup
  bool environment_loaded_ = false;
  std::map<int, std::set<Bytes>> environment_values_set_;
  bool external_client_ = false;  // EXTERNAL_CLIENT: options are not read from the environment
  bool multi_version_bypassed_ = false;  // DISABLE_MULTI_VERSION_CLIENT_API (or EXTERNAL_CLIENT)
  bool local_client_disabled_ = false;
  bool bypass_disabled_ = false;              // DISABLE_CLIENT_BYPASS
  int client_threads_ = 0;                    // per version; 0 until an option asks for one
  std::set<std::string> external_libraries_;  // by file name, as FoundationDB keys them
  struct CompletionHook {
    void (*hook)(void*);
    void* parameter;
  };
  std::vector<CompletionHook> completion_hooks_;
};

}  // namespace contend::fdb
