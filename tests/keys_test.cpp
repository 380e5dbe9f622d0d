// The recipes' key and value helpers: what they decode is what the general tuple layer decodes.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>

#include "sim/recipes/keys.h"
#include "sim/store/tuple.h"

namespace contend {
namespace {

// decode_value by its definition: unpack(bytes) is exactly one element, a string.
std::optional<std::string> decode_by_unpack(BytesView bytes) {
  UnpackResult r = unpack(bytes);
  if (!r.ok() || r.tuple->size() != 1) return std::nullopt;
  const auto* s = std::get_if<std::string>(&(*r.tuple)[0].value);
  return s ? std::optional<std::string>(*s) : std::nullopt;
}

TEST(Keys, DecodeValueHandlesEscapesAndUnicodeLikeUnpack) {
  const std::string cases[] = {"v17", "", std::string("a\0b", 3), "caf\xc3\xa9", "x\x7f"};
  for (const std::string& s : cases) {
    EXPECT_EQ(keys::decode_value(keys::encode_value(s)), s) << printable(s);
  }
  EXPECT_EQ(keys::decode_value(BytesView("\x02"
                                         "ab",
                                         3)),
            std::nullopt)
      << "unterminated";
  EXPECT_EQ(keys::decode_value(BytesView("\x02\xc3\x28\x00", 4)), std::nullopt) << "bad UTF-8";
  EXPECT_EQ(keys::decode_value(BytesView("\x02"
                                         "a\x00\x02"
                                         "b\x00",
                                         6)),
            std::nullopt)
      << "two elements";
  EXPECT_EQ(keys::decode_value(BytesView("\x01"
                                         "a\x00",
                                         3)),
            std::nullopt)
      << "bytes, not text";
}

RC_GTEST_PROP(Keys, DecodeValueAgreesWithUnpackOnAnyBytes, ()) {
  // Mostly near-valid encodings: a string element's framing around arbitrary bytes.
  const auto inner = *rc::gen::container<std::string>(rc::gen::arbitrary<char>());
  const bool framed = *rc::gen::arbitrary<bool>();
  const std::string bytes = framed ? "\x02" + inner + std::string(1, '\0') : inner;
  RC_ASSERT(keys::decode_value(bytes) == decode_by_unpack(bytes));
}

}  // namespace
}  // namespace contend
