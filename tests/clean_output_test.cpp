// No command writes a file the user did not ask for (issue 16, design §9): `run` and `explore`
// print a counterexample and write its scenario file only into the directory --out names.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/support/run_cli.h"

namespace contend::testing {
namespace {

namespace fs = std::filesystem;

// A fresh, empty directory under the test's temporary directory.
std::string empty_dir(const std::string& name) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("clean-output-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& entry : fs::directory_iterator(dir))
    out.push_back(entry.path().filename().string());
  return out;
}

// A scenario that expects a clean run of a recipe that is not: `run` exits 1 with a violation.
// Each test names its own directory: CTest runs the tests at once, and a directory two of them
// shared was emptied by one while the other listed it.
std::string unexpected_scenario(const std::string& test) {
  const std::string path = empty_dir("scenario-" + test) + "/expects-clean.toml";
  std::ofstream(path)
      << "recipe = \"snapshot-dequeue-queue\"\nclients = 6\noperations_per_client = 10\n"
         "[seeds]\nfirst = 1\nlast = 20\n";
  return path;
}

TEST(CleanOutput, AnUnexpectedRunWritesNothingWithoutOut) {
  const std::string scenario = unexpected_scenario("unexpected-run");
  for (const char* flags : {"", " --no-shrink"}) {
    const std::string cwd = empty_dir("run-cwd");
    CliResult r = run_cli_in(cwd, "run " + scenario + flags);
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find("reproduce: contend replay " + scenario + " --seed "),
              std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("not written: add --out DIR to write it as "
                            "DIR/expects-clean-counterexample.toml"),
              std::string::npos)
        << r.output;
    EXPECT_EQ(files_in(cwd), std::vector<std::string>{}) << flags;
    EXPECT_EQ(files_in(fs::path(scenario).parent_path().string()),
              std::vector<std::string>{"expects-clean.toml"});
  }
}

TEST(CleanOutput, ExploreWritesTheShrunkScenarioOnlyUnderOut) {
  const std::string scenario = source_path("scenarios/first-cut-queue.toml");
  const std::string cwd = empty_dir("explore-cwd");
  CliResult printed = run_cli_in(cwd, "explore " + scenario + " --strategy random");
  EXPECT_EQ(printed.exit_code, 0) << printed.output;
  EXPECT_NE(printed.output.find("counterexample: "), std::string::npos) << printed.output;
  EXPECT_NE(printed.output.find("reproduce: contend replay " + scenario + " --seed "),
            std::string::npos)
      << printed.output;
  EXPECT_EQ(files_in(cwd), std::vector<std::string>{});

  const std::string out = empty_dir("explore-out");
  CliResult written = run_cli_in(cwd, "explore " + scenario + " --strategy random --out " + out);
  EXPECT_EQ(written.exit_code, 0) << written.output;
  EXPECT_EQ(files_in(cwd), std::vector<std::string>{});
  ASSERT_EQ(files_in(out), std::vector<std::string>{"first-cut-queue-counterexample.toml"});
  const std::string file = out + "/first-cut-queue-counterexample.toml";
  const std::string replay = "reproduce: contend replay " + file + " --seed ";
  const auto at = written.output.find(replay);
  ASSERT_NE(at, std::string::npos) << written.output;
  const std::string rest = written.output.substr(at + std::string("reproduce: contend ").size());
  CliResult replayed = run_cli_in(cwd, rest.substr(0, rest.find('\n')) + " --quiet");
  EXPECT_EQ(replayed.exit_code, 0) << replayed.output;
  EXPECT_EQ(files_in(cwd), std::vector<std::string>{});
}

TEST(CleanOutput, OutMustBeAnExistingDirectory) {
  CliResult r =
      run_cli("run " + unexpected_scenario("out-missing") + " --out /nonexistent/contend-out");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--out"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace contend::testing
