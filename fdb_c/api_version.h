// The API version a program selects (fdb_select_api_version_impl) and the behaviours of
// FoundationDB 7.3's client that depend on it: its runtime version decides what the library
// answers (DatabaseContext::apiVersionAtLeast), its header version only which legacy symbols
// work. contend serves runtime versions 610 to 730; below 610, onError's failure resets a
// transaction rather than cancel it, which this library does not model.
// Invariants: a version is selected at most once per process and never changes after; a
// behaviour is asked about only once one is selected (no handle exists before).
#pragma once

namespace contend::fdb {

inline constexpr int kApiVersionMin = 610;
inline constexpr int kApiVersionMax = 730;

// What changes at each version this library models (ApiVersion's features and the
// apiVersionAtLeast checks of NativeAPI, ReadYourWrites and DatabaseContext, 7.3):
// - 630: reads of \xff\xff go to the special key space (its modules registered); below, they are
//   reads past the legal range. get_addresses_for_key names the port without
//   INCLUDE_PORT_IN_ADDRESS.
inline constexpr int kApiSpecialKeySpace = 630;
inline constexpr int kApiAddressesIncludePort = 630;
// - 700: writes of \xff\xff go to the special key space (below, past the legal range), and
//   DatabaseContext registers its management, configuration, error message, global
//   configuration, tracing and actor modules. A commit no longer resets NativeAPI's transaction:
//   below, the read version is gone once the commit is answered.
inline constexpr int kApiSpecialKeyWrites = 700;
inline constexpr int kApiCommitKeepsReadVersion = 700;
// - 710: the multi-version client makes each cluster's shared state for its databases.
inline constexpr int kApiClusterSharedState = 710;
// - 720: USE_GRV_CACHE wants that shared state (invalid_option without it); the profiling
//   management keys are no longer registered.
inline constexpr int kApiGrvCacheNeedsSharedState = 720;

// The selected runtime version and the header version it was selected with; 0 before.
int selected_runtime_api_version();
int selected_header_api_version();

// fdb_select_api_version_impl's choice, once its checks passed: false when a version was
// selected already (by another thread, between the check and this call).
bool select_api_version(int runtime_version, int header_version);

// Whether the selected runtime version is at least `version`.
bool api_version_at_least(int version);

}  // namespace contend::fdb
