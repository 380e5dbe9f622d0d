// Byte helpers: compare_bytes (eight bytes at a time) must agree with std::string's byte order;
// the inline copies and loads must match memcpy's bytes for every size.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "sim/store/bytes.h"
#include "sim/store/key_head.h"

namespace contend {
namespace {

int sign(int x) {
  return (x > 0) - (x < 0);
}

// Bytes from a small alphabet, so that random pairs share long prefixes and tie often, with the
// bytes where signed and unsigned order disagree.
rc::Gen<Bytes> key_bytes() {
  return rc::gen::map(rc::gen::container<std::vector<char>>(
                          rc::gen::element('\x00', '\x01', '\x7f', '\x80', '\xff')),
                      [](const std::vector<char>& v) { return Bytes(v.begin(), v.end()); });
}

RC_GTEST_PROP(KeyOrder, CompareBytesAgreesWithStringCompare, ()) {
  const Bytes a = *key_bytes();
  // Half the time b is a copy of a with one byte changed or cut: a difference at any position.
  Bytes b = *key_bytes();
  if (*rc::gen::arbitrary<bool>() && !a.empty()) {
    b = a;
    const auto at = *rc::gen::inRange<std::size_t>(0, a.size());
    if (*rc::gen::arbitrary<bool>()) {
      b[at] = *rc::gen::element('\x00', '\x80', '\xff');
    } else {
      b.resize(at);
    }
  }
  RC_ASSERT(sign(compare_bytes(a, b)) == sign(a.compare(b)));
  RC_ASSERT(KeyLess()(a, b) == (a < b));
  RC_ASSERT(equal_bytes(a, b) == (a == b));
  RC_ASSERT(equal_bytes(a, a));
}

TEST(KeyOrder, DifferencesAtEveryPositionAroundTheWordEdges) {
  for (std::size_t size = 0; size <= 24; ++size) {
    const Bytes base(size, '\x41');
    for (std::size_t at = 0; at < size; ++at) {
      Bytes high = base, low = base;
      high[at] = '\xff';
      low[at] = '\x00';
      EXPECT_LT(compare_bytes(low, high), 0) << "size " << size << ", differing byte " << at;
      EXPECT_GT(compare_bytes(high, base), 0) << "size " << size << ", differing byte " << at;
      EXPECT_LT(compare_bytes(low, base), 0) << "size " << size << ", differing byte " << at;
    }
    EXPECT_EQ(compare_bytes(base, base), 0) << "size " << size;
    EXPECT_LT(compare_bytes(base, base + '\x00'), 0) << "a prefix orders first, size " << size;
    EXPECT_GT(compare_bytes(base + '\x00', base), 0) << "size " << size;
  }
}

}  // namespace
}  // namespace contend

namespace contend {
namespace {

TEST(CopyBytes, CopiesExactlyNBytesForEverySize) {
  std::string from(100, '\0');
  for (std::size_t i = 0; i < from.size(); ++i)
    from[i] = static_cast<char>(i * 31 + 7);
  for (std::size_t n = 0; n <= 80; ++n) {
    std::string to(100, '#');  // guard bytes around the copy must stay untouched
    copy_bytes(to.data() + 5, from.data() + 3, n);
    EXPECT_EQ(to.substr(5, n), from.substr(3, n)) << "size " << n;
    EXPECT_EQ(to.substr(0, 5), "#####") << "size " << n << " wrote before the destination";
    EXPECT_EQ(to.substr(5 + n), std::string(95 - n, '#')) << "size " << n << " wrote past it";
  }
}

TEST(AssignBytes, LeavesExactlyTheNewBytesWhateverTheSizes) {
  for (std::size_t from_size = 0; from_size <= 40; from_size += 3) {
    for (std::size_t to_size : {std::size_t{0}, from_size, from_size + 5}) {
      std::string to(to_size, 'x');
      std::string from(from_size, '\0');
      for (std::size_t i = 0; i < from_size; ++i)
        from[i] = static_cast<char>('a' + i % 26);
      assign_bytes(to, from);
      EXPECT_EQ(to, from) << "from " << from_size << " bytes onto " << to_size;
    }
  }
}

TEST(LoadBigEndianPrefix, IsTheZeroPaddedWordForEverySize) {
  // The bytes sit at the very end of a heap buffer, so ASan catches a read past them.
  for (std::size_t n = 0; n <= 8; ++n) {
    for (int pattern = 0; pattern < 4; ++pattern) {
      auto bytes = std::make_unique<char[]>(n + 1);
      char padded[8] = {};
      for (std::size_t i = 0; i < n; ++i) {
        bytes[i] = static_cast<char>(pattern == 0 ? 0xff : (i + 1) * (37 + pattern * 50));
        padded[i] = bytes[i];
      }
      EXPECT_EQ(load_big_endian_prefix(bytes.get(), n), load_big_endian(padded))
          << "size " << n << ", pattern " << pattern;
    }
  }
}

TEST(KeyHead, OrdersKeysAsTheirFirstSixteenBytesZeroPadded) {
  std::string key;
  for (std::size_t n = 0; n <= 20; ++n) {
    const KeyHead head = KeyHead::of(key);
    char padded[16] = {};
    std::memcpy(padded, key.data(), std::min<std::size_t>(n, 16));
    EXPECT_EQ(head.words[0], load_big_endian(padded)) << "size " << n;
    EXPECT_EQ(head.words[1], load_big_endian(padded + 8)) << "size " << n;
    key.push_back(static_cast<char>(0xf0 - n * 3));
  }
}

}  // namespace
}  // namespace contend
