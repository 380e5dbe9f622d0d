// base/shell_quote.h: a word the shell reads back as itself, quoted only when it needs to be.
#include "base/shell_quote.h"

#include <gtest/gtest.h>

namespace contend {
namespace {

TEST(ShellQuote, APlainWordIsLeftAsItIs) {
  EXPECT_EQ(shell_quoted("scenarios/queue.toml"), "scenarios/queue.toml");
  EXPECT_EQ(shell_quoted("--seed=7,a+b@c:%d"), "--seed=7,a+b@c:%d");
}

TEST(ShellQuote, AnyOtherWordIsSingleQuotedWithItsQuotesWrittenOut) {
  EXPECT_EQ(shell_quoted("/tmp/my dir/q.toml"), "'/tmp/my dir/q.toml'");
  EXPECT_EQ(shell_quoted("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_quoted("$HOME*"), "'$HOME*'");
  EXPECT_EQ(shell_quoted(""), "''");
}

TEST(ShellQuote, APathBeginningWithADashIsWrittenFromTheCurrentDirectory) {
  EXPECT_EQ(shell_quoted_path("-lost.toml"), "./-lost.toml");
  EXPECT_EQ(shell_quoted_path("-my q.toml"), "'./-my q.toml'");
  EXPECT_EQ(shell_quoted_path("scenarios/-q.toml"), "scenarios/-q.toml");
  EXPECT_EQ(shell_quoted_path("/tmp/q.toml"), "/tmp/q.toml");
}

}  // namespace
}  // namespace contend
