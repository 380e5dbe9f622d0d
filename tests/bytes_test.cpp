// Key order: compare_bytes (eight bytes at a time) must agree with std::string's byte order.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

#include "sim/store/bytes.h"

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

}  // namespace
}  // namespace contend
