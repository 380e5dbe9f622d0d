// The tuple layer: FoundationDB's test vectors, round trips, order, malformed input.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <limits>

#include "sim/store/subspace.h"
#include "sim/store/tuple.h"
#include "tests/support/tuple_gen.h"

namespace contend {
namespace {

using testing::gen_tuple;

Bytes hex(const std::string& h) {
  Bytes out;
  for (std::size_t i = 0; i + 1 < h.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(h.substr(i, 2), nullptr, 16)));
  }
  return out;
}

void expect_vector(const Tuple& t, const std::string& expected_hex) {
  EXPECT_EQ(to_hex(pack(t)), expected_hex);
  UnpackResult r = unpack(hex(expected_hex));
  ASSERT_TRUE(r.ok()) << r.error.to_string();
  EXPECT_EQ(*r.tuple, t) << expected_hex;
}

TEST(Tuple, FoundationDBVectors) {
  expect_vector(Tuple{TupleBytes{Bytes("foo\0bar", 7)}}, "01666f6f00ff62617200");
  expect_vector(Tuple{std::string("F\xc3\x94O\0bar", 8)}, "0246c3944f00ff62617200");
  // One nested tuple as the only element: Tuple{inner} would copy `inner` (list-initialization
  // from one element of the class's own type; clang does, g++ 12 takes the initializer list).
  expect_vector(Tuple{TupleElement{Tuple{TupleBytes{Bytes("foo\0bar", 7)}, TupleNull{}, Tuple{}}}},
                "0501666f6f00ff6261720000ff050000");
  expect_vector(Tuple{std::int64_t{-5551212}}, "11ab4b93");
  expect_vector(Tuple{-42.0f}, "203dd7ffff");
  expect_vector(Tuple{TupleNull{}, true, false, 0, 1, -1, 255, -255, 256},
                "00272614150113fe15ff1300160100");
  expect_vector(Tuple{3.14}, "21c0091eb851eb851f");
  expect_vector(Tuple{-0.0}, "217fffffffffffffff");
  expect_vector(Tuple{std::numeric_limits<double>::infinity()}, "21fff0000000000000");
  expect_vector(Tuple{std::numeric_limits<std::int64_t>::min()}, "0c7fffffffffffffff");
  expect_vector(Tuple{std::numeric_limits<std::int64_t>::min() + 1}, "0c8000000000000000");
  Versionstamp v;
  for (std::uint8_t i = 0; i < 10; ++i)
    v.transaction[i] = static_cast<std::uint8_t>(i + 1);
  v.user_version = 657;
  expect_vector(Tuple{v}, "330102030405060708090a0291");
}

TEST(Tuple, IntegerBoundariesUseTheEightByteForms) {
  expect_vector(Tuple{std::numeric_limits<std::int64_t>::max()}, "1c7fffffffffffffff");
  expect_vector(Tuple{std::numeric_limits<std::uint64_t>::max()}, "1cffffffffffffffff");
  expect_vector(Tuple{65535}, "16ffff");
  expect_vector(Tuple{-65535}, "120000");
  expect_vector(Tuple{-256}, "12feff");
  // The Python long form of 2^64-1 (1d 08 ff..) is read as the same value.
  UnpackResult r = unpack(hex("1d08ffffffffffffffff"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r.tuple, Tuple{std::numeric_limits<std::uint64_t>::max()});
}

TEST(Tuple, PackWithVersionstampAppendsTheLittleEndianOffset) {
  std::string error;
  auto packed = pack_with_versionstamp(Tuple{"x", Versionstamp::incomplete()}, error);
  ASSERT_TRUE(packed.has_value()) << error;
  EXPECT_EQ(to_hex(*packed),
            "027800"
            "33ffffffffffffffffffff0000"
            "04000000");
  EXPECT_FALSE(pack_with_versionstamp(Tuple{"x"}, error).has_value());
  EXPECT_FALSE(
      pack_with_versionstamp(Tuple{Versionstamp::incomplete(), Versionstamp::incomplete()}, error));
}

struct Malformed {
  const char* name;
  std::string hex;
  std::size_t offset;
  const char* words;
};

TEST(Tuple, MalformedBytesAreRejectedWithTheirOffset) {
  const Malformed cases[] = {
      {"truncated integer",
       "1501"
       "16ff",
       2, "truncated integer"},
      {"truncated double", "21c009", 0, "truncated double"},
      {"truncated uuid",
       "30"
       "0102",
       0, "truncated UUID"},
      {"truncated versionstamp",
       "33"
       "01",
       0, "truncated versionstamp"},
      {"unterminated string", "02616263", 0, "unterminated string"},
      {"unterminated bytes", "0161", 0, "unterminated byte string"},
      {"unknown type code", "1440", 1, "unknown type code 0x40"},
      {"escape byte as type", "00ff", 1, "0xff is the escape byte"},
      {"invalid utf-8",
       "02c328"
       "00",
       0, "invalid UTF-8"},
      {"overlong utf-8", "02c0af00", 0, "invalid UTF-8"},
      {"unterminated nested", "0514", 0, "unterminated nested tuple"},
      {"wide integer", "1d09010000000000000000", 0, "wider than 64 bits"},
      {"trailing garbage after a value",
       "14"
       "fe",
       1, "unknown type code 0xfe"},
  };
  for (const Malformed& c : cases) {
    UnpackResult r = unpack(hex(c.hex));
    ASSERT_FALSE(r.ok()) << c.name;
    EXPECT_EQ(r.error.offset, c.offset) << c.name << ": " << r.error.to_string();
    EXPECT_NE(r.error.message.find(c.words), std::string::npos)
        << c.name << ": " << r.error.message;
  }
}

TEST(Subspace, RangeExcludesThePrefixAndContainsItsKeys) {
  Subspace q(Tuple{"Q"});
  KeyRange r = q.range();
  EXPECT_EQ(r.begin, q.key() + '\0');
  EXPECT_EQ(r.end, q.key() + '\xff');
  EXPECT_FALSE(r.contains(q.key()));
  Bytes k = q.pack(Tuple{1, TupleBytes{"r"}});
  EXPECT_TRUE(r.contains(k));
  EXPECT_TRUE(q.contains(k));
  EXPECT_EQ(*q.unpack(k).tuple, (Tuple{1, TupleBytes{"r"}}));
  EXPECT_FALSE(q.unpack(Subspace(Tuple{"P"}).pack(Tuple{1})).ok());
  EXPECT_EQ(q.subspace(Tuple{7}).key(), q.pack(Tuple{7}));
}

// ---- properties ----

RC_GTEST_PROP(Tuple, UnpackOfPackIsIdentity, ()) {
  Tuple t = *gen_tuple(2);
  UnpackResult r = unpack(pack(t));
  RC_ASSERT(r.ok());
  RC_ASSERT(*r.tuple == t);
}

RC_GTEST_PROP(Tuple, ByteOrderOfEncodingsIsTupleOrder, ()) {
  Tuple a = *gen_tuple(2);
  Tuple b = *gen_tuple(2);
  int by_bytes = pack(a) < pack(b) ? -1 : (pack(b) < pack(a) ? 1 : 0);
  RC_ASSERT(compare(a, b) == by_bytes);
}

RC_GTEST_PROP(Tuple, ElementEncodersWriteWhatPackWrites, ()) {
  const auto a = *rc::gen::arbitrary<std::int64_t>();
  const auto b = *rc::gen::arbitrary<std::int64_t>();
  const Bytes bytes = *rc::gen::container<std::string>(rc::gen::arbitrary<char>());
  const std::string text = *rc::gen::container<std::string>(rc::gen::inRange<char>(1, 127));
  Bytes out = "prefix";
  pack_int(out, a);
  pack_int(out, b);
  pack_bytes(out, bytes);
  pack_string(out, text);
  RC_ASSERT(out == "prefix" + pack(Tuple{a, b, TupleBytes{bytes}, text}));
}

RC_GTEST_PROP(Tuple, ArbitraryBytesNeverCrashTheDecoder, ()) {
  Bytes junk = *rc::gen::string<std::string>();
  UnpackResult r = unpack(junk);
  if (!r.ok()) RC_ASSERT(r.error.offset <= junk.size());
}

RC_GTEST_PROP(Tuple, ElementByElementReadsWhatUnpackReads, ()) {
  const Tuple t = *gen_tuple(2);
  const Bytes packed = pack(t);
  std::size_t pos = 0;
  Tuple read;
  while (auto element = unpack_element(packed, pos))
    read.items.push_back(*element);
  RC_ASSERT(pos == packed.size());
  RC_ASSERT(read == t);
}

TEST(Tuple, ElementReadStopsAtTheEndAndOnMalformedBytes) {
  std::size_t pos = 0;
  EXPECT_FALSE(unpack_element(Bytes{}, pos).has_value());
  const Bytes truncated = hex("1601");  // a two-byte int whose second byte is missing
  pos = 0;
  EXPECT_FALSE(unpack_element(truncated, pos).has_value());
  const Bytes unknown_code = hex("1501ee");
  pos = 0;
  ASSERT_TRUE(unpack_element(unknown_code, pos).has_value());
  EXPECT_EQ(pos, 2u);
  EXPECT_FALSE(unpack_element(unknown_code, pos).has_value());
}

}  // namespace
}  // namespace contend
