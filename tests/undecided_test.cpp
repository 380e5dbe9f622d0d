// A verdict no checker could decide (unknown: the search spent its step budget) is neither a pass
// nor a finding: an exhaustive search of executions none of which could be judged is no proof.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/run_cli.h"

namespace contend::testing {
namespace {

std::string scratch(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("contend-undecided-" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

// The queue recipe judged by the search alone, with a budget of one step: no seed can be judged.
std::string starved_search(const std::string& dir, int clients, int operations) {
  const std::string path = dir + "/starved.toml";
  std::ofstream(path) << "recipe = \"queue\"\nclients = " << clients
                      << "\noperations_per_client = " << operations
                      << "\nchecks = [\"search\"]\n[limits]\nsearch_budget = 1\n";
  return path;
}

bool says(const CliResult& r, const std::string& text) {
  return r.output.find(text) != std::string::npos;
}

// Before: dpor exhausted its space, printed "NOT VERIFIED ... could not be judged" and exited 0,
// because every execution had the one verdict "unknown".
TEST(Undecided, AnExhaustedSearchOfUnjudgedExecutionsIsNotVerified) {
  const std::string dir = scratch("dpor");
  CliResult r = run_cli("explore " + starved_search(dir, 2, 2) + " --strategy dpor");
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_TRUE(says(r, "NOT VERIFIED: every execution of")) << r.output;
  EXPECT_TRUE(says(r, "of them could not be judged")) << r.output;
  EXPECT_FALSE(says(r, "\nVERIFIED")) << r.output;
}

}  // namespace
}  // namespace contend::testing
