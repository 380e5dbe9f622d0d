// Byte strings for keys and values, and the key arithmetic FoundationDB uses.
//
// Keys and values are arbitrary bytes held in std::string (ordered by unsigned byte, which is how
// std::string compares char_traits<char> on every platform we build for: it uses memcmp).
// Invariants: a KeyRange is half-open [begin, end); an empty range has begin >= end.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/invariant.h"

namespace contend {

using Bytes = std::string;
using BytesView = std::string_view;

// Versions are int64 and advance 1,000,000 per virtual second.
using Version = std::int64_t;
inline constexpr Version kVersionsPerSecond = 1'000'000;
inline constexpr Version kInvalidVersion = -1;
inline constexpr Version kMaxVersion = INT64_MAX;  // a client may set any positive read version

// The eight bytes at p as a big-endian number: numeric order of such words is byte order.
inline std::uint64_t load_big_endian(const char* p) {
  std::uint64_t w;
  std::memcpy(&w, p, sizeof w);
  return __builtin_bswap64(w);
}

// The first n (<= 8) bytes at p as the high bytes of a big-endian number, zero-padded: what
// load_big_endian gives for eight bytes, without reading past p + n. Inline loads, no memcpy call.
inline std::uint64_t load_big_endian_prefix(const char* p, std::size_t n) {
  if (n >= 8) return load_big_endian(p);
  auto byte_at = [&](std::size_t i) {
    return static_cast<std::uint64_t>(static_cast<unsigned char>(p[i])) << (56 - 8 * i);
  };
  if (n >= 4) {  // two four-byte loads, the second ending exactly at n (they may overlap)
    auto load32 = [](const char* q) {
      std::uint32_t w;
      std::memcpy(&w, q, sizeof w);
      return static_cast<std::uint64_t>(__builtin_bswap32(w));
    };
    return (load32(p) << 32) | (load32(p + n - 4) << (64 - 8 * n));
  }
  std::uint64_t w = 0;  // at most three bytes, each at a fixed place
  if (n > 0) w |= byte_at(0);
  if (n > 1) w |= byte_at(1);
  if (n > 2) w |= byte_at(2);
  return w;
}

// Copies n bytes from `from` to `to` (not overlapping), inline: keys and values are mostly a few
// dozen bytes, where a call to memcpy costs more than the copy. Longer runs go to memcpy.
inline void copy_bytes(char* to, const char* from, std::size_t n) {
  auto move_word = [&](std::size_t at, auto word) {
    std::memcpy(&word, from + at, sizeof word);  // fixed size: compiled to one load and store
    std::memcpy(to + at, &word, sizeof word);
  };
  if (n >= 8 && n <= 32) {  // words from the front, and one ending exactly at n
    for (std::size_t i = 0; i + 8 < n; i += 8)
      move_word(i, std::uint64_t{});
    move_word(n - 8, std::uint64_t{});
  } else if (n >= 4 && n < 8) {
    move_word(0, std::uint32_t{});
    move_word(n - 4, std::uint32_t{});
  } else if (n < 4) {
    for (std::size_t i = 0; i < n; ++i)
      to[i] = from[i];
  } else {
    std::memcpy(to, from, n);
  }
}

// to = from, reusing to's storage: a store overwriting a value with one of the same size (a
// counter, a queue slot) copies the bytes inline instead of going through string::assign.
// REQUIRES: `from` does not view `to`'s bytes.
inline void assign_bytes(Bytes& to, std::string_view from) {
  CONTEND_DEBUG_ASSERT(from.empty() || to.empty() || from.data() >= to.data() + to.size() ||
                           to.data() >= from.data() + from.size(),
                       "assign_bytes: the source does not view the target");
  if (from.size() != to.size()) {
    to.assign(from);
    return;
  }
  copy_bytes(to.data(), from.data(), from.size());
}

// <0, 0 or >0 as `a` orders before, equal to or after `b` in unsigned byte order (what
// BytesView::compare answers), eight bytes at a time and inline: keys share long prefixes (a
// subspace, a tuple's type codes), where a call to memcmp per comparison dominated the store.
inline int compare_bytes(BytesView a, BytesView b) {
  const std::size_t n = std::min(a.size(), b.size());
  auto word_at = [](BytesView s, std::size_t i) { return load_big_endian(s.data() + i); };
  if (n >= 8) {
    for (std::size_t i = 0; i + 8 <= n; i += 8) {
      const std::uint64_t x = word_at(a, i), y = word_at(b, i);
      if (x != y) return x < y ? -1 : 1;
    }
    // The last, possibly overlapping, word: the bytes it shares with earlier words are equal.
    const std::uint64_t x = word_at(a, n - 8), y = word_at(b, n - 8);
    if (x != y) return x < y ? -1 : 1;
  } else {
    for (std::size_t i = 0; i < n; ++i) {
      const auto x = static_cast<unsigned char>(a[i]), y = static_cast<unsigned char>(b[i]);
      if (x != y) return x < y ? -1 : 1;
    }
  }
  return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
}

// Whether `a` and `b` hold the same bytes: compare_bytes' word loop, for the equality tests of
// the store's hot paths (a key found by lower_bound, a boundary that may be key + '\x00').
inline bool equal_bytes(BytesView a, BytesView b) {
  return a.size() == b.size() && compare_bytes(a, b) == 0;
}

// The key order as a transparent comparator for ordered containers of Bytes.
struct KeyLess {
  using is_transparent = void;
  bool operator()(BytesView a, BytesView b) const { return compare_bytes(a, b) < 0; }
};

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

// A key range viewing bytes held elsewhere (a transaction's arena, a KeyRange).
struct KeyRangeRef {
  BytesView begin;
  BytesView end;

  bool empty() const { return compare_bytes(begin, end) >= 0; }
  bool contains(BytesView key) const {
    return compare_bytes(begin, key) <= 0 && compare_bytes(key, end) < 0;
  }
  bool intersects(KeyRangeRef other) const {
    return compare_bytes(begin, other.end) < 0 && compare_bytes(other.begin, end) < 0 && !empty() &&
           !other.empty();
  }
  friend bool operator==(KeyRangeRef a, KeyRangeRef b) {
    return a.begin == b.begin && a.end == b.end;
  }
};

struct KeyRange {
  Bytes begin;
  Bytes end;

  bool empty() const { return KeyRangeRef(*this).empty(); }
  bool contains(BytesView key) const { return KeyRangeRef(*this).contains(key); }
  bool intersects(const KeyRange& other) const { return KeyRangeRef(*this).intersects(other); }
  // A view of this range (valid while it lives and is not modified), as string to string_view.
  operator KeyRangeRef() const { return KeyRangeRef{begin, end}; }
  friend bool operator==(const KeyRange&, const KeyRange&) = default;
};

// An owned copy of a viewed range, and of a run of them.
inline KeyRange copy_of(KeyRangeRef range) {
  return KeyRange{Bytes(range.begin), Bytes(range.end)};
}
inline std::vector<KeyRange> copy_of(std::span<const KeyRangeRef> ranges) {
  std::vector<KeyRange> out;
  out.reserve(ranges.size());
  for (KeyRangeRef r : ranges)
    out.push_back(copy_of(r));
  return out;
}

// Whether `candidate` is key + '\x00', the key right after `key`.
inline bool is_key_after(BytesView candidate, BytesView key) {
  const std::size_t n = key.size();
  return candidate.size() == n + 1 && candidate.back() == '\0' &&
         equal_bytes(candidate.substr(0, n), key);
}

// Whether `range` is [k, k + '\x00'): exactly the one key range.begin.
inline bool is_single_key_range(KeyRangeRef range) {
  return is_key_after(range.end, range.begin);
}

// A range covering exactly one key: [key, key + '\x00').
inline KeyRange single_key_range(BytesView key) {
  return KeyRange{Bytes(key), key_after(key)};
}

// Lowercase hex of bytes, and printable form with \xNN escapes for logs and traces.
std::string to_hex(BytesView bytes);
// to_hex's inverse (either case); nothing, and `error` naming the offset, on an odd length or a
// non-hex digit.
std::optional<Bytes> from_hex(std::string_view hex, std::string& error);
std::string printable(BytesView bytes);

}  // namespace contend
