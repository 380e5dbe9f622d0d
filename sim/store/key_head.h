// A key's first sixteen bytes as two big-endian numbers (zero-padded), for ordered structures
// whose descents compare many keys: where two heads differ they order the keys without reading
// the keys' bytes; where they are equal and either key is no longer than the head, the shorter
// key is a prefix of the other. Recipe keys share their first eight bytes (subspace, type codes),
// hence two words. The store's key map and the conflict history's boundaries both use it.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>

#include "sim/store/bytes.h"

namespace contend {

struct KeyHead {
  static constexpr std::size_t kWords = 2;
  static constexpr std::size_t kBytes = kWords * sizeof(std::uint64_t);

  std::array<std::uint64_t, kWords> words{};

  static KeyHead of(BytesView key) {
    static_assert(kWords == 2);
    constexpr std::size_t kWordBytes = sizeof(std::uint64_t);
    const std::size_t n = key.size();
    KeyHead head;
    head.words[0] = load_big_endian_prefix(key.data(), std::min(n, kWordBytes));
    if (n > kWordBytes)
      head.words[1] =
          load_big_endian_prefix(key.data() + kWordBytes, std::min(n - kWordBytes, kWordBytes));
    return head;
  }
};

// <0, 0 or >0 as the heads order; 0 when equal (then see compare_past_heads).
inline int compare_heads(const KeyHead& a, const KeyHead& b) {
  for (std::size_t i = 0; i < KeyHead::kWords; ++i) {
    if (a.words[i] != b.words[i]) return a.words[i] < b.words[i] ? -1 : 1;
  }
  return 0;
}

// The order of two keys whose heads are equal, given their sizes; the bytes past the heads are
// read (through `a_bytes()` and `b_bytes()`) only when both keys are longer than the head.
template <class BytesA, class BytesB>
int compare_past_heads(std::size_t a_size, BytesA a_bytes, std::size_t b_size, BytesB b_bytes) {
  if (std::min(a_size, b_size) <= KeyHead::kBytes) {
    return a_size < b_size ? -1 : (a_size > b_size ? 1 : 0);
  }
  return compare_bytes(a_bytes().substr(KeyHead::kBytes), b_bytes().substr(KeyHead::kBytes));
}

// A key with its head: what a map of keys stores, and what a lookup probes with.
struct HeadedKey {
  KeyHead head;
  Bytes bytes;

  HeadedKey() = default;
  explicit HeadedKey(BytesView key) : head(KeyHead::of(key)), bytes(key) {}
  void assign(BytesView key) {
    head = KeyHead::of(key);
    bytes.assign(key);
  }
};
struct KeyProbe {
  KeyHead head;
  BytesView bytes;

  explicit KeyProbe(BytesView key) : head(KeyHead::of(key)), bytes(key) {}
};

// The key order over HeadedKey and KeyProbe, for ordered containers (transparent).
struct HeadedKeyLess {
  using is_transparent = void;
  template <class A, class B>
  bool operator()(const A& a, const B& b) const {
    if (const int order = compare_heads(a.head, b.head); order != 0) return order < 0;
    return compare_past_heads(
               a.bytes.size(), [&] { return BytesView(a.bytes); }, b.bytes.size(),
               [&] { return BytesView(b.bytes); }) < 0;
  }
};

}  // namespace contend
