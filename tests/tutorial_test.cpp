// docs/tutorial.md runs as written: every `$ contend ...` line of its console blocks is run from
// the repository root, must exit 0 (or the code a "(exit N)" line gives), and must print each
// line the tutorial shows after it.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "tests/support/run_cli.h"

namespace contend::testing {
namespace {

struct Step {
  std::string command;
  std::vector<std::string> expected;
  int line = 0;
  int exit_code = 0;  // a "(exit N)" line after the command changes it
};

std::vector<Step> tutorial_steps() {
  std::ifstream in(source_path("docs/tutorial.md"));
  std::vector<Step> steps;
  std::string text;
  bool in_console = false;
  int line = 0;
  while (std::getline(in, text)) {
    ++line;
    if (text.rfind("```", 0) == 0) {
      in_console = !in_console && text == "```console";
      continue;
    }
    if (!in_console) continue;
    if (text.rfind("$ contend ", 0) == 0) {
      steps.push_back(Step{text.substr(std::string("$ contend ").size()), {}, line});
    } else if (text.rfind("(exit ", 0) == 0 && !steps.empty()) {
      steps.back().exit_code = std::stoi(text.substr(6));
    } else if (!text.empty() && !steps.empty()) {
      auto first = text.find_first_not_of(' ');
      steps.back().expected.push_back(first == std::string::npos ? text : text.substr(first));
    }
  }
  return steps;
}

TEST(Tutorial, EveryCommandRunsAsWrittenAndPrintsWhatTheTextSays) {
  std::vector<Step> steps = tutorial_steps();
  ASSERT_GE(steps.size(), 15u) << "the tutorial lost its commands?";
  for (const Step& step : steps) {
    CliResult r = run_cli_in(source_path(""), step.command);
    EXPECT_EQ(r.exit_code, step.exit_code)
        << "docs/tutorial.md:" << step.line << ": contend " << step.command << "\n"
        << r.output;
    for (const std::string& want : step.expected) {
      EXPECT_NE(r.output.find(want), std::string::npos)
          << "docs/tutorial.md:" << step.line << ": contend " << step.command
          << "\ndid not print: " << want;
    }
  }
}

}  // namespace
}  // namespace contend::testing
