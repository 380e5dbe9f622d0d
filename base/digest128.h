// A 128-bit digest of a stream of bytes: two 64-bit lanes of multiply-xorshift over the stream's
// 8-byte little-endian words, the last word padded and tagged with its length. Used where a search
// keeps millions of values it only compares for equality (distinct outcomes, explored states).
//
// Invariants: the same stream gives the same digest on every platform and build type (bytes are
// assembled into words explicitly, never by reinterpreting memory); a value read with finish()
// leaves the digest as it was, so a stream may be read and then extended. Not cryptographic: two
// different streams collide with probability about 2^-128 each, about n^2 / 2^129 among n.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace contend {

class Digest128 {
 public:
  using Value = std::array<std::uint64_t, 2>;

  // Adds raw bytes: a caller that adds fields of varying length adds each length first.
  void add_raw(std::string_view bytes) {
    if (pending_bytes_ == 0) {  // whole words at a time while the stream is at a word boundary
      while (bytes.size() >= 8) {
        std::uint64_t w = 0;
        for (std::size_t i = 0; i < 8; ++i)
          w |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[i])) << (8 * i);
        word(w);
        bytes.remove_prefix(8);
      }
    }
    for (char c : bytes) {
      pending_ |= static_cast<std::uint64_t>(static_cast<unsigned char>(c)) << (8 * pending_bytes_);
      if (++pending_bytes_ == 8) {
        word(pending_);
        pending_ = 0;
        pending_bytes_ = 0;
      }
    }
  }
  // Adds a number as its 8 bytes, least significant first.
  void add_u64(std::uint64_t n) {
    char bytes[8];
    for (std::size_t i = 0; i < 8; ++i)
      bytes[i] = static_cast<char>(static_cast<unsigned char>(n >> (8 * i)));
    add_raw(std::string_view(bytes, sizeof bytes));
  }
  void add_i64(std::int64_t n) { add_u64(static_cast<std::uint64_t>(n)); }
  // Adds bytes behind their length, so that field boundaries are part of what is digested.
  void add_field(std::string_view bytes) {
    add_u64(bytes.size());
    add_raw(bytes);
  }
  void add_value(const Value& v) {
    add_u64(v[0]);
    add_u64(v[1]);
  }

  Value finish() const {
    Digest128 end = *this;
    end.word(pending_ ^ (static_cast<std::uint64_t>(pending_bytes_) << 56));
    const std::uint64_t length = end.words_;
    return {mix(end.a_ ^ length), mix(end.b_ + mix(length))};
  }

 private:
  static std::uint64_t mix(std::uint64_t h) {
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebULL;
    return h ^ (h >> 31);
  }
  void word(std::uint64_t w) {
    a_ = mix(a_ ^ w) * 0x9e3779b97f4a7c15ULL;
    b_ = mix(b_ + w + 0x632be59bd9b4e019ULL) ^ (b_ >> 17);
    ++words_;
  }

  std::uint64_t a_ = 0x243f6a8885a308d3ULL;
  std::uint64_t b_ = 0x13198a2e03707344ULL;
  std::uint64_t pending_ = 0;
  unsigned pending_bytes_ = 0;
  std::uint64_t words_ = 0;
};

}  // namespace contend
