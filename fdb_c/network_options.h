// Network options of contend's libfdb_c: FoundationDB 7.3's table of them (code, name, whether
// the value is an Int, whether hidden) and the check of a value FoundationDB's NativeAPI makes.
// None has an effect on an in-process store (tracing, TLS, knobs, client libraries, buggify), but
// each is refused as FoundationDB's client refuses it, so a program whose options a real cluster
// would refuse at start-up is refused here too. The multi-version client's own options, whose
// answers depend on what was set before, are network_startup.h's.
#pragma once

#include <span>
#include <string_view>

#include "fdb_c/errors.h"
#include "sim/store/bytes.h"

namespace contend::fdb {

// The multi-version client's own options (MultiVersionApi::setNetworkOptionInternal, 7.3).
inline constexpr int kTraceShareAmongClientThreadsOption = 37;
inline constexpr int kDisableMultiVersionClientApiOption = 60;
inline constexpr int kCallbacksOnExternalThreadsOption = 61;
inline constexpr int kExternalClientLibraryOption = 62;
inline constexpr int kExternalClientDirectoryOption = 63;
inline constexpr int kDisableLocalClientOption = 64;
inline constexpr int kClientThreadsPerVersionOption = 65;
inline constexpr int kFutureVersionClientLibraryOption = 66;
inline constexpr int kRetainClientLibraryCopiesOption = 67;
inline constexpr int kIgnoreExternalClientFailuresOption = 68;
inline constexpr int kFailIncompatibleClientOption = 69;
inline constexpr int kDisableClientBypassOption = 72;
inline constexpr int kClientTmpDirOption = 91;
inline constexpr int kExternalClientOption = 1001;  // hidden: set on a library loaded externally

struct NetworkOptionInfo {
  int code = 0;
  std::string_view name;   // as FoundationDB's FDBOptionInfo has it: upper case
  bool takes_int = false;  // paramType Int: 8 bytes, little-endian
  bool hidden = false;     // set by the multi-version client itself, never from the environment
};

// Every network option FoundationDB 7.3 knows, ascending by code.
std::span<const NetworkOptionInfo> network_options();
// The option of `code`; nullptr for a code FoundationDB 7.3 does not know.
const NetworkOptionInfo* find_network_option(int code);

// What NativeAPI's setNetworkOption answers to option `code` with `value` (absent when
// !has_value): invalid_option for an unknown code, invalid_option_value for a value of the wrong
// shape (an Int not 8 bytes or out of its bounds, a trace format or tracer it does not name, a
// missing value where one is wanted, a non-empty one for a flag), else success.
fdb_error native_network_option_error(int code, BytesView value, bool has_value);

}  // namespace contend::fdb
