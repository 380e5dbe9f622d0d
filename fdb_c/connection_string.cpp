#include "fdb_c/connection_string.h"

#include <arpa/inet.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>

namespace contend::fdb {

namespace {

// The string with ' ', '\t', '\n' and '\r' dropped, and each '#' comment with the line break
// ending it (MonitorLeader's trim()).
std::string trimmed(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '#') {
      while (i + 1 < text.size() && text[i + 1] != '\n' && text[i + 1] != '\r')
        ++i;
      ++i;  // the line break, if any
    } else if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
      out += c;
    }
  }
  return out;
}

bool ascii_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
bool ascii_digit(char c) {
  return c >= '0' && c <= '9';
}

// parseKey: `description:id`, the description of [A-Za-z0-9_], the id of [A-Za-z0-9]; either
// may be empty.
bool valid_key(std::string_view key) {
  const std::size_t colon = key.find(':');
  if (colon == std::string_view::npos) return false;
  for (char c : key.substr(0, colon))
    if (!ascii_alnum(c) && c != '_') return false;
  for (char c : key.substr(colon + 1))
    if (!ascii_alnum(c)) return false;
  return true;
}

constexpr std::string_view kTls = ":tls";

// Whether `host` is runs of characters `in_run` takes, each followed by at most one '.' (it
// neither starts with a dot nor holds two in a row); `in_run` sees every other character.
template <class InRun>
bool dotted_runs(std::string_view host, InRun in_run) {
  if (host.empty() || host.front() == '.') return false;
  for (std::size_t i = 0; i < host.size(); ++i) {
    if (host[i] == '.' ? host[i - 1] == '.' : !in_run(host[i])) return false;
  }
  return true;
}

// A hostname's host as the regex ([\w\-]+\.?)+ takes it.
bool hostname_host(std::string_view host) {
  return dotted_runs(host, [](char c) { return ascii_alnum(c) || c == '_' || c == '-'; });
}

// Whether the host is what the address regex ([\d]{1,3}\.?){4,} takes: digits in dotted runs,
// at least four of them (each digit may be a group of its own).
bool address_like_host(std::string_view host) {
  int digits = 0;
  const bool runs = dotted_runs(host, [&](char c) {
    if (!ascii_digit(c)) return false;
    ++digits;
    return true;
  });
  return runs && digits >= 4;
}

// A coordinator named by host, as Hostname compares them: (tls, host, port) as written.
using HostnameKey = std::tuple<bool, std::string, std::string>;

// Hostname::isHostname's `host:digits` with an optional ":tls", not address-like; its key.
bool as_hostname(std::string_view piece, HostnameKey& key) {
  bool tls = false;
  const std::size_t colon = piece.find(':');
  if (colon == std::string_view::npos) return false;
  std::string_view port = piece.substr(colon + 1);
  if (port.size() > kTls.size() && port.ends_with(kTls)) {
    port.remove_suffix(kTls.size());
    tls = true;
  }
  if (port.empty()) return false;
  for (char c : port)
    if (!ascii_digit(c)) return false;
  const std::string_view host = piece.substr(0, colon);
  if (!hostname_host(host) || address_like_host(host)) return false;
  key = HostnameKey{tls, std::string(host), std::string(port)};
  return true;
}

// A coordinator named by address, as NetworkAddress compares them: (tls, ip, port), the ip as
// its family ('4' or '6') and its bytes in network order.
using AddressKey = std::tuple<bool, std::string, std::uint16_t>;

AddressKey address_key(bool tls, char family, const unsigned char* bytes, std::size_t length,
                       int port) {
  return AddressKey{tls, family + std::string(bytes, bytes + length),
                    static_cast<std::uint16_t>(port)};
}

// NetworkAddress::parse: `a.b.c.d:port` as sscanf reads it, or `[ip]:port` (the ip as boost's
// make_address reads it, the port as std::stoi), each with an optional ":tls"; what follows
// "(fromHostname)" is dropped.
fdb_error as_address(std::string piece, AddressKey& key) {
  if (piece.empty()) return kConnectionStringInvalid;
  if (const std::size_t marker = piece.find("(fromHostname)"); marker != std::string::npos)
    piece.resize(marker);
  bool tls = false;
  if (piece.size() > kTls.size() && std::string_view(piece).ends_with(kTls)) {
    piece.resize(piece.size() - kTls.size());
    tls = true;
  }
  if (!piece.empty() && piece.front() == '[') {
    const std::size_t close = piece.find(']');
    if (close == std::string::npos || close + 1 >= piece.size() || piece[close + 1] != ':')
      return kConnectionStringInvalid;
    int port = 0;
    try {
      port = std::stoi(piece.substr(close + 2));
    } catch (const std::logic_error&) {  // no number, or one out of range
      return kUnknownError;
    }
    const std::string ip = piece.substr(1, close - 1);
    // boost's make_address tries IPv6 first, where its inet_pton drops a scope id ("%eth0", any
    // text) before the system's inet_pton reads the address; NetworkAddress keeps no scope.
    const std::string ip_v6 = ip.substr(0, ip.find('%'));
    std::array<unsigned char, 16> bytes{};
    if (inet_pton(AF_INET6, ip_v6.c_str(), bytes.data()) == 1) {
      key = address_key(tls, '6', bytes.data(), 16, port);
    } else if (inet_pton(AF_INET, ip.c_str(), bytes.data()) == 1) {
      key = address_key(tls, '4', bytes.data(), 4, port);
    } else {
      return kConnectionStringInvalid;
    }
    return kSuccess;
  }
  int a = 0, b = 0, c = 0, d = 0, port = 0, used = 0;
  if (std::sscanf(piece.c_str(), "%d.%d.%d.%d:%d%n", &a, &b, &c, &d, &port, &used) < 5 ||
      static_cast<std::size_t>(used) != piece.size())
    return kConnectionStringInvalid;
  // (a << 24) + (b << 16) + (c << 8) + d, no octet checked: as the bracketed form's bytes.
  const std::uint32_t ip = (static_cast<std::uint32_t>(a) << 24) +
                           (static_cast<std::uint32_t>(b) << 16) +
                           (static_cast<std::uint32_t>(c) << 8) + static_cast<std::uint32_t>(d);
  const std::array<unsigned char, 4> bytes{
      static_cast<unsigned char>(ip >> 24), static_cast<unsigned char>(ip >> 16),
      static_cast<unsigned char>(ip >> 8), static_cast<unsigned char>(ip)};
  key = address_key(tls, '4', bytes.data(), bytes.size(), port);
  return kSuccess;
}

}  // namespace

fdb_error connection_string_error(std::string_view text) {
  const std::string t = trimmed(text);
  const std::size_t at = t.find('@');
  if (at == std::string::npos || !valid_key(std::string_view(t).substr(0, at)))
    return kConnectionStringInvalid;
  std::set<HostnameKey> hostnames;
  std::set<AddressKey> addresses;
  const std::string coordinators = t.substr(at + 1);
  std::size_t from = 0;
  while (true) {  // every piece between commas, empty ones too
    std::size_t comma = coordinators.find(',', from);
    if (comma == std::string::npos) comma = coordinators.size();
    const std::string piece = coordinators.substr(from, comma - from);
    HostnameKey host;
    AddressKey address;
    if (as_hostname(piece, host)) {
      if (!hostnames.insert(host).second) return kConnectionStringInvalid;
    } else if (const fdb_error e = as_address(piece, address)) {
      return e;
    } else if (!addresses.insert(address).second) {
      return kConnectionStringInvalid;
    }
    if (comma == coordinators.size()) return kSuccess;
    from = comma + 1;
  }
}

}  // namespace contend::fdb
