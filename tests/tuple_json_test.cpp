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

}  // namespace
}  // namespace contend::testing
