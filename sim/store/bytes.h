// Byte strings for keys and values, and the key arithmetic FoundationDB uses.
//
// Keys and values are arbitrary bytes held in std::string (ordered by unsigned byte, which is how
// std::string compares char_traits<char> on every platform we build for: it uses memcmp).
// Invariants: a KeyRange is half-open [begin, end); an empty range has begin >= end.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace contend {

using Bytes = std::string;
using BytesView = std::string_view;

// Versions are int64 and advance 1,000,000 per virtual second.
using Version = std::int64_t;
inline constexpr Version kVersionsPerSecond = 1'000'000;
inline constexpr Version kInvalidVersion = -1;

// The first key after `key` in byte order: key + '\x00'.
inline Bytes key_after(BytesView key) {
  Bytes out;
  out.reserve(key.size() + 1);
  out.append(key);
  out.push_back('\0');
  return out;
}

// The first key not prefixed by `prefix` (FoundationDB's strinc): strip trailing 0xff bytes and
// increment the last byte. Requires a prefix with at least one byte below 0xff.
Bytes strinc(BytesView prefix);

struct KeyRange {
  Bytes begin;
  Bytes end;

  bool empty() const { return !(begin < end); }
  bool contains(BytesView key) const { return BytesView(begin) <= key && key < BytesView(end); }
  bool intersects(const KeyRange& other) const {
    return begin < other.end && other.begin < end && !empty() && !other.empty();
  }
  friend bool operator==(const KeyRange&, const KeyRange&) = default;
};

// A range covering exactly one key: [key, key + '\x00').
inline KeyRange single_key_range(BytesView key) {
  return KeyRange{Bytes(key), key_after(key)};
}

// Lowercase hex of bytes, and printable form with \xNN escapes for logs and traces.
std::string to_hex(BytesView bytes);
std::string printable(BytesView bytes);

}  // namespace contend
