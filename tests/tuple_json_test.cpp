// The JSON form of tuples that `contend tuple` reads and prints (scenarios/cli/tuple_json.h).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "scenarios/cli/tuple_json.h"
#include "tests/support/tuple_gen.h"

namespace contend::testing {
namespace {

// The JSON `contend tuple unpack` prints is what `contend tuple pack` reads back to the same tuple,
// through text as a user copies it, non-finite floats and doubles included (JSON numbers have none;
// a float infinity printed as null). NaNs compare by kind: JSON names one NaN.
RC_GTEST_PROP(TupleJson, PrintedJsonPacksBackToTheTuple, ()) {
  Tuple t = *gen_tuple(2);
  const double non_finite = *rc::gen::element(std::numeric_limits<double>::infinity(),
                                              -std::numeric_limits<double>::infinity(),
                                              std::numeric_limits<double>::quiet_NaN());
  t.items.push_back(non_finite);
  t.items.push_back(static_cast<float>(non_finite));
  const std::string printed = cli::tuple_to_json(t).dump();
  std::string error;
  std::optional<nlohmann::json> read = cli::parse_tuple_json(printed, error);
  RC_ASSERT(read.has_value());
  std::optional<Tuple> back = cli::tuple_from_json(*read, error);
  RC_ASSERT(back.has_value());
  RC_ASSERT(cli::tuple_to_json(*back).dump() == printed);
}

// The smallest magnitudes pack as themselves, and zeros as zeros; only a nonzero literal that
// would round to zero is refused, in a double and in a float.
TEST(TupleJson, OnlyANonzeroNumberThatWouldPackAsZeroIsRefused) {
  for (const char* text : {"[5e-324]", "[-5e-324]", "[0.0e-999]", "[-0.0]", "[0e7]",
                           R"([{"float": 1.5e-45}])", R"([{"float": -0.0}])"}) {
    std::string error;
    std::optional<nlohmann::json> read = cli::parse_tuple_json(text, error);
    ASSERT_TRUE(read.has_value()) << text << ": " << error;
    EXPECT_TRUE(cli::tuple_from_json(*read, error).has_value()) << text << ": " << error;
  }
  for (const char* text : {"[1e-400]", "[-2.5e-330]", "[[0.1e-323]]"}) {
    std::string error;
    EXPECT_FALSE(cli::parse_tuple_json(text, error).has_value()) << text;
    EXPECT_NE(error.find("below a double's smallest magnitude"), std::string::npos) << error;
  }
  std::string error;
  std::optional<nlohmann::json> read = cli::parse_tuple_json(R"([{"float": 7e-46}])", error);
  ASSERT_TRUE(read.has_value()) << error;
  EXPECT_FALSE(cli::tuple_from_json(*read, error).has_value());
  EXPECT_NE(error.find("below a 32-bit float's smallest magnitude"), std::string::npos) << error;
}

}  // namespace
}  // namespace contend::testing
