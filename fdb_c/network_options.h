// Network options of contend's libfdb_c: what fdb_network_set_option answers. None has an effect
// on an in-process store (tracing, TLS, knobs, client libraries, buggify), but each is refused as
// FoundationDB's client refuses it, so a program whose options a real cluster would refuse at
// start-up is refused here too: a code FoundationDB 7.3 does not know (invalid_option), a value of
// the wrong shape (invalid_option_value), an option that must precede fdb_setup_network set after
// it (invalid_option).
#pragma once

#include "fdb_c/errors.h"
#include "sim/store/bytes.h"

namespace contend::fdb {

// What FoundationDB's MultiVersionApi::setNetworkOptionInternal and NativeAPI's setNetworkOption
// answer to network option `code` with `value` (absent when !has_value), the network set up or
// not.
fdb_error network_option_error(int code, BytesView value, bool has_value, bool network_set_up);

}  // namespace contend::fdb
