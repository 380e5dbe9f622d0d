// A cluster connection string as FoundationDB 7.3's client reads one
// (ClusterConnectionString's constructor, NetworkAddress::parse, Hostname::isHostname):
// `description:id@coordinator,coordinator,...`, each coordinator `a.b.c.d:port`, `[ip]:port` or
// `hostname:port`, with an optional `:tls`. The one database answers every string; a string
// FoundationDB's client would not parse gives that database the error its parse throws.
#pragma once

#include <string_view>

#include "fdb_c/errors.h"

namespace contend::fdb {

inline constexpr fdb_error kConnectionStringInvalid = 2104;

// What parsing `text` throws in FoundationDB 7.3's client: success; connection_string_invalid
// (2104) for a string without '@', a key without ':', a description of other than [A-Za-z0-9_]
// or an id of other than [A-Za-z0-9], an empty coordinator (an empty list, a stray comma), one
// that is neither a hostname nor an address, or one given twice; unknown_error (4000) for a
// bracketed address whose port is not a number (std::stoi's exception, caught by
// ThreadSafeDatabase as unknown). Spaces, tabs and line breaks are dropped wherever they are,
// and '#' starts a comment to the end of its line.
fdb_error connection_string_error(std::string_view text);

}  // namespace contend::fdb
