// base/input_file.h's bound on what a file is read to: a stream cut at the bound ends there and
// says so, while one that ends at or before it is read whole and is not cut short.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "base/input_file.h"

namespace contend {
namespace {

// What a stream of `text` bounded at `bytes_max` gives, and whether the bound cut it short.
std::pair<std::string, bool> read_bounded(const std::string& text, std::uint64_t bytes_max) {
  std::istringstream source(text);
  InputFile in(nullptr, source.rdbuf(), InputKind{"a test file", bytes_max});
  std::ostringstream read;
  read << in.stream().rdbuf();
  return {read.str(), in.cut_short()};
}

TEST(InputFile, AStreamWithinTheBoundIsReadWholeAndNotCutShort) {
  EXPECT_EQ(read_bounded("abc", 3), std::make_pair(std::string("abc"), false));
  EXPECT_EQ(read_bounded("abc", 4), std::make_pair(std::string("abc"), false));
  EXPECT_EQ(read_bounded("", 0), std::make_pair(std::string(), false));
}

TEST(InputFile, AStreamPastTheBoundEndsThereAndIsCutShort) {
  EXPECT_EQ(read_bounded("abcd", 3), std::make_pair(std::string("abc"), true));
  const std::string big(300000, 'x');  // past the buffer's 64 KiB, several times
  const auto [read, cut_short] = read_bounded(big, 200000);
  EXPECT_EQ(read, big.substr(0, 200000));
  EXPECT_TRUE(cut_short);
}

TEST(InputFile, ABoundIsNamedInWholeUnits) {
  EXPECT_EQ(over_bound_reason(kScenarioInput),
            "it holds more than 1 MiB, the most contend reads of a scenario");
  EXPECT_EQ(over_bound_reason(kCheckpointInput),
            "it holds more than 4 GiB, the most contend reads of a checkpoint");
  EXPECT_EQ(bytes_text(1000), "1000 bytes");
}

}  // namespace
}  // namespace contend
