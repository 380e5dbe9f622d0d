// Parallel and sharded runs, sweeps and reports, as users and CI see them: --jobs 2 equals
// --jobs 1, the merged shards equal the whole, a sweep is deterministic, the JUnit XML carries
// the required elements and a failure. (The HTML report is tested in report_page_test.cpp.)
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>

#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/sanitizers.h"
#include "scenarios/batch.h"
#include "scenarios/markup_escape.h"
#include "scenarios/sweep.h"
#include "tests/support/run_cli.h"

namespace contend {
namespace {

using testing::CliResult;
using testing::run_cli;
using testing::run_cli_in;
using testing::source_path;

using testing::read_file;

Scenario load(const char* relative) {
  ScenarioError error;
  auto s = load_scenario(source_path(relative), error);
  EXPECT_TRUE(s.has_value()) << error.message;
  return *s;
}

TEST(Batch, TwoJobsGiveExactlyWhatOneJobGives) {
  Scenario s = load("scenarios/queue.toml");
  BatchOptions one{SeedRange{1, 40}, Shard{}, 1, nullptr};
  BatchOptions two = one;
  two.jobs = 2;
  auto a = run_batch(s, one);
  auto b = run_batch(s, two);
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(batch_json(s, one.seeds, one.shard, a).dump(),
            batch_json(s, two.seeds, two.shard, b).dump());
}

TEST(Batch, ShardsPartitionTheSeedRange) {
  std::set<std::uint64_t> seen;
  for (std::uint64_t k = 1; k <= 3; ++k) {
    Shard shard{k, 3};
    for (std::uint64_t seed = 5; seed <= 17; ++seed) {
      if (shard.includes(seed, 5)) {
        EXPECT_TRUE(seen.insert(seed).second) << "seed " << seed << " twice";
      }
    }
  }
  EXPECT_EQ(seen.size(), 13u);
  std::string error;
  EXPECT_FALSE(parse_shard("0/3", error).has_value());
  EXPECT_FALSE(parse_shard("4/3", error).has_value());
  EXPECT_FALSE(parse_shard("x", error).has_value());
}

TEST(Batch, OutcomesComeInSeedOrderAndFewWaitForASlowerSeed) {
  Scenario s = load("scenarios/queue.toml");
  s.clients = 1;
  s.operations_per_client = 1;
  for (const int jobs : {1, 4}) {
    for (const Shard shard : {Shard{1, 1}, Shard{2, 3}}) {
      std::vector<std::uint64_t> seeds;
      const std::size_t waiting_most =
          for_each_seed_outcome(s, BatchOptions{SeedRange{7, 3006}, shard, jobs, nullptr},
                                [&](SeedOutcome&& r) { seeds.push_back(r.seed); });
      std::vector<std::uint64_t> expected;
      for (std::uint64_t seed = 7; seed <= 3006; ++seed)
        if (shard.includes(seed, 7)) expected.push_back(seed);
      EXPECT_EQ(seeds, expected) << jobs << " jobs, shard " << shard.index << "/" << shard.count;
      EXPECT_LE(waiting_most, kOutcomesWaitingMax);
      EXPECT_EQ(seeds_in_shard(SeedRange{7, 3006}, shard), expected.size());
    }
  }
}

TEST(Batch, SeedsInAShardAreTheSeedsItIncludes) {
  for (std::uint64_t first = 0; first < 3; ++first) {
    for (std::uint64_t last = first; last < first + 12; ++last) {
      for (std::uint64_t count = 1; count <= 14; ++count) {
        for (std::uint64_t index = 1; index <= count; ++index) {
          const Shard shard{index, count};
          std::uint64_t included = 0;
          for (std::uint64_t seed = first; seed <= last; ++seed)
            included += shard.includes(seed, first) ? 1 : 0;
          EXPECT_EQ(seeds_in_shard(SeedRange{first, last}, shard), included)
              << "seeds " << first << ".." << last << ", shard " << index << "/" << count;
        }
      }
    }
  }
  const SeedRange most{1, kMaxSeedsPerRun};
  EXPECT_EQ(seeds_in_shard(most, Shard{1, 1}), kMaxSeedsPerRun);
  EXPECT_EQ(seeds_in_shard(most, Shard{3, 7}), (kMaxSeedsPerRun - 2 + 6) / 7);
}

// What /proc says of process `pid`: its command name, and its resident memory in kilobytes.
std::string command_name_of(pid_t pid) {
  std::string name;
  std::getline(std::ifstream("/proc/" + std::to_string(pid) + "/comm"), name);
  return name;
}
long resident_kb_of(pid_t pid) {
  long pages = 0, resident = 0;
  std::ifstream("/proc/" + std::to_string(pid) + "/statm") >> pages >> resident;
  return resident * (::sysconf(_SC_PAGESIZE) / 1024);
}

// The most resident memory `contend ARGS` was seen to hold (sampled every 2 ms from /proc, only
// once it runs contend: a forked child holds its parent's pages until exec, and the rusage of a
// child counts them), in kilobytes; -1 when it did not exit 0 within a minute.
long peak_resident_kb_of_contend(const std::vector<std::string>& args) {
  const pid_t child = fork();
  if (child == 0) {
    const int null_fd = ::open("/dev/null", O_WRONLY);
    ::dup2(null_fd, 1);
    ::dup2(null_fd, 2);
    // AddressSanitizer keeps freed memory in quarantine (256 MB): what is measured is what the
    // run holds, so the quarantine is off.
    const char* asan = std::getenv("ASAN_OPTIONS");
    const std::string options = std::string(asan != nullptr ? asan : "") + ":quarantine_size_mb=0";
    ::setenv("ASAN_OPTIONS", options.c_str(), 1);
    std::vector<char*> argv{const_cast<char*>(CONTEND_BINARY)};
    for (const std::string& a : args)
      argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(CONTEND_BINARY, argv.data());
    ::_exit(127);
  }
  if (child < 0) return -1;
  long peak = 0;
  int status = 0;
  for (int sample = 0; sample < 30'000; ++sample) {  // 60 s
    if (::waitpid(child, &status, WNOHANG) == child) {
      return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? peak : -1;
    }
    if (command_name_of(child) == "contend") peak = std::max(peak, resident_kb_of(child));
    ::usleep(2000);
  }
  ::kill(child, SIGKILL);
  ::waitpid(child, &status, 0);
  return -1;
}

TEST(CliRun, ARunSweepOrMergeKeepsNoSeed) {
  // A run kept every seed's outcome until it ended, and its JSON report whole until written
  // (about 1.3 KB a seed without a report, 8 KB with one: 100,000,000 seeds, the most one run
  // takes, would have needed 130 GB); a run of 60,000 seeds with a JSON report took 450 MB more
  // than one of 2,000. It now keeps the seeds its judgement names and folds the others in.
  const std::string scenario = ::testing::TempDir() + "/one-operation.toml";
  std::ofstream(scenario) << "recipe = \"queue\"\nclients = 1\noperations_per_client = 1\n";
  const long few = peak_resident_kb_of_contend({"run", scenario, "--seeds", "1..2000"});
  ASSERT_GT(few, 0);
  // Two shards of 60,000 seeds, 30,000 each, with their reports.
  [[maybe_unused]] std::uintmax_t report_bytes = 0;  // said only where the bound holds
  std::vector<std::string> reports;
  for (const char* shard : {"1/2", "2/2"}) {
    reports.push_back(::testing::TempDir() + "/many-seeds-" + std::string(1, shard[0]) + ".json");
    const long many =
        peak_resident_kb_of_contend({"run", scenario, "--seeds", "1..60000", "--jobs", "2",
                                     "--shard", shard, "--report", "json=" + reports.back()});
    ASSERT_GT(many, 0);
    EXPECT_LT(many - few, 16 * 1024) << "2,000 seeds: " << few << " KB; 30,000: " << many << " KB";
    report_bytes += std::filesystem::file_size(reports.back());
  }
  // merge reads each report as a stream and writes the merged one from a temporary file, holding
  // one run at a time: its memory does not grow with the seeds. It held every run of its reports,
  // parsed, about five times their text (246 MB for these 48 MB of reports), and a million seeds
  // in each of ten shards would have needed some 50 GB.
  const std::string merged = ::testing::TempDir() + "/many-seeds-merged.json";
  const long merging =
      peak_resident_kb_of_contend({"merge", reports[0], reports[1], "--out", merged});
  ASSERT_GT(merging, 0);
#if !CONTEND_ADDRESS_SANITIZER  // AddressSanitizer's redzones grow every small allocation
  EXPECT_LT(merging - few, 16 * 1024) << "2,000 seeds run: " << few << " KB; merge of "
                                      << report_bytes << " bytes of reports: " << merging << " KB";
#endif
  // The merged report holds every seed, as each shard's run wrote them.
  std::ifstream in(merged);
  const nlohmann::json written = nlohmann::json::parse(in);
  ASSERT_EQ(written.at("runs").size(), 60000u);
  EXPECT_EQ(written.at("runs").back().at("seed"), 60000);
  EXPECT_EQ(written.at("result"), "as_expected");
  for (const std::string& file : {reports[0], reports[1], merged})
    std::filesystem::remove(file);
  // A sweep point the same (it kept its seeds until summarised: 81 MB for 100,000 of them).
  const long swept = peak_resident_kb_of_contend(
      {"sweep", scenario, "--vary", "clients=1", "--seeds", "1..60000", "--jobs", "2"});
  ASSERT_GT(swept, 0);
  EXPECT_LT(swept - few, 16 * 1024)
      << "2,000 seeds run: " << few << " KB; 60,000 swept: " << swept << " KB";
}

TEST(CliReports, TheJsonReportWrittenAsSeedsCompleteReadsAsTheWholeBatch) {
  const Scenario s = load("scenarios/first-cut-queue.toml");
  const std::string path = ::testing::TempDir() + "/streamed.json";
  for (const std::string shard : {"1/1", "2/3"}) {
    const CliResult r = run_cli("run " + s.file + " --seeds 1..9 --no-shrink --shard " + shard +
                                " --report json=" + path);
    ASSERT_NE(r.exit_code, 2) << r.output;
    std::string error;
    const Shard parsed = *parse_shard(shard, error);
    const SeedRange seeds{1, 9};
    const std::vector<SeedOutcome> outcomes = run_batch(s, BatchOptions{seeds, parsed, 1, nullptr});
    nlohmann::json whole = batch_json(s, seeds, parsed, outcomes);
    const BatchJudgement j = judge(s, outcomes, parsed.count == 1);
    whole["passed"] = j.passed;
    whole["result"] = batch_result(j);
    std::ifstream in(path);
    EXPECT_EQ(nlohmann::json::parse(in), whole) << "shard " << shard;
  }
  std::filesystem::remove(path);
}

TEST(CliShards, TheMergedShardsEqualTheUnshardedRun) {
  const std::string dir = ::testing::TempDir();
  const std::string scenario = source_path("scenarios/first-cut-queue.toml");
  ASSERT_EQ(
      run_cli("run " + scenario + " --seeds 1..12 --report json=" + dir + "/whole.json").exit_code,
      0);
  for (int k = 1; k <= 3; ++k) {
    auto r = run_cli("run " + scenario + " --seeds 1..12 --shard " + std::to_string(k) +
                     "/3 --report json=" + dir + "/shard" + std::to_string(k) + ".json");
    ASSERT_NE(r.exit_code, 2) << r.output;
  }
  auto merged = run_cli("merge " + dir + "/shard1.json " + dir + "/shard3.json " + dir +
                        "/shard2.json --out " + dir + "/merged.json");
  ASSERT_EQ(merged.exit_code, 0) << merged.output;
  EXPECT_EQ(read_file(dir + "/merged.json"), read_file(dir + "/whole.json"));
  const std::string elsewhere = dir + "/merge-to-stdout";
  std::filesystem::create_directories(elsewhere);
  std::filesystem::remove(elsewhere + "/-");  // an earlier run's
  auto to_stdout = run_cli_in(elsewhere, "merge " + dir + "/shard1.json " + dir + "/shard2.json " +
                                             dir + "/shard3.json --out -");
  ASSERT_EQ(to_stdout.exit_code, 0) << to_stdout.output;
  EXPECT_EQ(to_stdout.output, read_file(dir + "/whole.json")) << "--out - is stdout";
  EXPECT_FALSE(std::filesystem::exists(elsewhere + "/-")) << "--out - wrote a file named -";
  auto missing = run_cli("merge " + dir + "/shard1.json " + dir + "/shard2.json");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.output.find("a shard is missing"), std::string::npos) << missing.output;
}

// A shard of a scenario that expects a violation failed (exit 1, "no seed showed the expected
// ...") whenever the violating seed fell in another shard, so a CI matrix over a rare bug failed
// in most jobs and its merge job never ran. A shard is now judged on its own seeds only (it says
// it shows none, exit 0), a shard holding no seed says so instead of "every seed is
// linearizable", and merge judges the range, saying its verdict when the report goes to a file.
TEST(CliShards, AShardIsJudgedOnItsSeedsAndMergeJudgesTheRange) {
  const std::string dir = ::testing::TempDir() + "/shard-verdicts";
  std::filesystem::create_directories(dir);
  auto shards = [&](const std::string& scenario, const std::string& seeds, const std::string& tag) {
    std::vector<CliResult> out;
    std::string files;
    for (int k = 1; k <= 4; ++k) {
      const std::string file = dir + "/" + tag + std::to_string(k) + ".json";
      out.push_back(run_cli("run " + source_path("scenarios/" + scenario) + " --seeds " + seeds +
                            " --shard " + std::to_string(k) + "/4 --report json=" + file));
      files += " " + file;
    }
    out.push_back(run_cli("merge" + files + " --out " + dir + "/" + tag + "-merged.json"));
    return out;
  };
  // checked-dequeue-queue's duplicate delivery is rare: seeds 1..8 show none.
  std::vector<CliResult> rare = shards("checked-dequeue-queue.toml", "1..8", "rare");
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(rare[k].exit_code, 0) << rare[k].output;
    EXPECT_NE(rare[k].output.find("no seed of it shows duplicate_delivery"), std::string::npos)
        << rare[k].output;
  }
  EXPECT_EQ(rare[4].exit_code, 1) << rare[4].output;
  EXPECT_NE(rare[4].output.find("UNEXPECTED: no seed of 1..8 showed the expected "
                                "duplicate_delivery"),
            std::string::npos)
      << rare[4].output;
  // first-cut-queue over two seeds: shards 3 and 4 hold none.
  std::vector<CliResult> few = shards("first-cut-queue.toml", "5..6", "few");
  for (int k = 0; k < 4; ++k)
    EXPECT_EQ(few[k].exit_code, 0) << few[k].output;
  EXPECT_NE(few[2].output.find("nothing ran: shard 3/4 holds none of seeds 5..6"),
            std::string::npos)
      << few[2].output;
  EXPECT_EQ(few[2].output.find("every seed"), std::string::npos) << few[2].output;
  EXPECT_EQ(few[4].exit_code, 0) << few[4].output;
  EXPECT_NE(few[4].output.find("as expected: seed 5 shows lost"), std::string::npos)
      << few[4].output;
  // The merged report's "result" says what the exit code says.
  const auto result = [&](const std::string& tag) {
    return nlohmann::json::parse(read_file(dir + "/" + tag + "-merged.json")).value("result", "");
  };
  EXPECT_EQ(result("rare"), "unexpected");
  EXPECT_EQ(result("few"), "as_expected");
}

// A shard's report is read only in the shape `run --report json` writes: a run without its
// as_expected once merged as a run that was not as expected (exit 1, a finding that was not one).
TEST(CliShards, ReportsOfAnotherShapeAreRefusedNamingTheField) {
  const std::string dir = ::testing::TempDir() + "/report-shapes";
  std::filesystem::create_directories(dir);
  const std::string scenario = source_path("scenarios/queue.toml");
  for (int k = 1; k <= 2; ++k) {
    auto r = run_cli("run " + scenario + " --seeds 1..4 --shard " + std::to_string(k) +
                     "/2 --report json=" + dir + "/" + std::to_string(k) + ".json");
    ASSERT_EQ(r.exit_code, 0) << r.output;
  }
  const nlohmann::json first = nlohmann::json::parse(read_file(dir + "/1.json"));
  const auto merge = [&](const nlohmann::json& edited) {
    std::ofstream(dir + "/edited.json", std::ios::trunc) << edited.dump();
    return run_cli("merge " + dir + "/edited.json " + dir + "/2.json --out " + dir + "/m.json");
  };
  ASSERT_EQ(merge(first).exit_code, 0);
  const std::vector<std::pair<std::function<void(nlohmann::json&)>, std::string>> edits = {
      {[](nlohmann::json& j) { j["runs"][0].erase("as_expected"); },
       R"(field "runs[0].as_expected" is missing)"},
      {[](nlohmann::json& j) { j["runs"][1]["verdict"] = 3; },
       R"(field "runs[1].verdict" is not a string)"},
      // A verdict merge does not know was merged as a pass (its as_expected taken on trust).
      {[](nlohmann::json& j) { j["runs"][1]["verdict"] = "linearisable"; },
       R"(field "runs[1].verdict" is not a verdict: linearizable, unknown, simulator_fault or )"
       R"("violation: KIND")"},
      {[](nlohmann::json& j) { j["runs"][0]["verdict"] = "violation: gone"; },
       R"(field "runs[0].verdict" is not a verdict)"},
      {[](nlohmann::json& j) { j["runs"][0]["verdict"] = "violation"; },
       R"(field "runs[0].verdict" is not a verdict)"},
      {[](nlohmann::json& j) { j.erase("expect"); }, R"(field "expect" is missing)"},
      {[](nlohmann::json& j) { j["clients"] = "4"; }, R"(field "clients" is not a count)"},
      {[](nlohmann::json& j) { j["seeds"]["first"] = 9; },
       R"(field "seeds" is not a range: its first seed is above its last)"},
      // merge interleaves the shards' runs as it writes them, each shard's in the seed order
      // contend run writes them (it sorted them all in memory).
      {[](nlohmann::json& j) { std::swap(j["runs"][0], j["runs"][1]); },
       R"(field "runs[1].seed" (1) is below the seed before it (3): a shard's runs are in seed )"
       R"(order, as contend run writes them)"},
      {[](nlohmann::json& j) { j["runs"].push_back(j["runs"][1]); },
       "seed 3 appears twice in its runs"}};
  for (const auto& [edit, said] : edits) {
    nlohmann::json edited = first;
    edit(edited);
    auto r = merge(edited);
    EXPECT_EQ(r.exit_code, 2) << said << "\n" << r.output;
    EXPECT_NE(r.output.find("contend merge: " + dir + "/edited.json: " + said), std::string::npos)
        << said << "\n"
        << r.output;
  }
  // A seed in two shards: the later one named.
  std::filesystem::copy_file(dir + "/1.json", dir + "/copy.json",
                             std::filesystem::copy_options::overwrite_existing);
  auto twice = run_cli("merge " + dir + "/1.json " + dir + "/2.json " + dir + "/copy.json");
  EXPECT_EQ(twice.exit_code, 2) << twice.output;
  EXPECT_NE(twice.output.find("contend merge: " + dir + "/copy.json: seed 1 appears in two shards"),
            std::string::npos)
      << twice.output;
}

// A shard's "shard" was never read: "x", 5 or none merged, and so did a report saying "2/2" that
// held shard 1/2's seeds. It is read as K/N, and each run's seed must be of that shard of the
// range. Merge asks no more: shards of different N that hold each seed once are one run.
TEST(CliShards, EachRunIsOfTheShardItsReportSays) {
  const std::string dir = ::testing::TempDir() + "/report-shard-field";
  std::filesystem::create_directories(dir);
  const std::string scenario = source_path("scenarios/queue.toml");
  for (const char* shard : {"1/2", "2/2", "2/4", "4/4"}) {
    const std::string name = std::string(shard).replace(1, 1, "-");
    auto r = run_cli("run " + scenario + " --seeds 1..4 --shard " + shard +
                     " --report json=" + dir + "/" + name + ".json");
    ASSERT_EQ(r.exit_code, 0) << r.output;
  }
  const std::string others = " " + dir + "/2-2.json --out " + dir + "/m.json";
  const nlohmann::json first = nlohmann::json::parse(read_file(dir + "/1-2.json"));
  const std::vector<std::pair<nlohmann::json, std::string>> edits = {
      {"x", R"(field "shard" is not K/N (1 <= K <= N))"},
      {"3/2", R"(field "shard" is not K/N (1 <= K <= N))"},
      {5, R"(field "shard" is not a string)"},
      {nullptr, R"(field "shard" is missing)"},
      {"2/2",
       "seed 1 is not of its shard 2/2 of the seeds 1..4 (those whose offset from 1 is 1 "
       "modulo 2)"},
      {"1/4", "seed 3 is not of its shard 1/4 of the seeds 1..4"}};
  for (const auto& [shard, said] : edits) {
    nlohmann::json edited = first;
    if (shard.is_null()) {
      edited.erase("shard");
    } else {
      edited["shard"] = shard;
    }
    std::ofstream(dir + "/edited.json", std::ios::trunc) << edited.dump();
    auto r = run_cli("merge " + dir + "/edited.json" + others);
    EXPECT_EQ(r.exit_code, 2) << said << "\n" << r.output;
    EXPECT_NE(r.output.find("contend merge: " + dir + "/edited.json: " + said), std::string::npos)
        << said << "\n"
        << r.output;
  }
  auto mixed = run_cli("merge " + dir + "/1-2.json " + dir + "/2-4.json " + dir + "/4-4.json");
  EXPECT_EQ(mixed.exit_code, 0) << mixed.output;
}

// Shards run while the scenario file changed between them are not one run: merge compared only
// the name, file, scope and range, trusted each shard's as_expected, and said "every seed of 1..10
// is linearizable" of a merged report whose first-cut-queue runs show "violation: lost".
TEST(CliShards, ShardsOfAnotherScenarioAreRefusedNamingTheFieldAndBothFilesWhateverItsPath) {
  const std::string dir = ::testing::TempDir() + "/edited-between-shards";
  std::filesystem::create_directories(dir);
  const std::string scenario = dir + "/s.toml";
  // Shard k of 1..10 of s.toml holding `toml`, its report written to `tag`.json.
  const auto shard = [&](int k, const std::string& toml, const std::string& tag) {
    std::ofstream(scenario, std::ios::trunc) << "name = \"s\"\n" << toml;
    const std::string report = dir + "/" + tag + ".json";
    auto r = run_cli("run " + scenario + " --seeds 1..10 --shard " + std::to_string(k) +
                     "/2 --report json=" + report);
    EXPECT_NE(r.exit_code, 2) << r.output;
    return report;
  };
  const std::string queue = shard(1, "recipe = \"queue\"\n", "queue");
  const std::string other_half = shard(2, "recipe = \"queue\"\n", "other-half");
  const std::string first_cut =
      shard(2, "recipe = \"first-cut-queue\"\nexpect = \"lost\"\n", "first-cut");
  const std::string expects_lost =
      shard(2, "recipe = \"queue\"\nexpect = \"lost\"\n", "expects-lost");
  // The same recipe, scope and expectation, a scenario edited between the shards (its mix):
  // merged, the report would judge seeds of two scenarios as one range.
  const std::string edited = shard(2, "recipe = \"queue\"\n[mix]\nenqueue = 3.0\n", "edited");
  ASSERT_EQ(run_cli("merge " + queue + " " + other_half + " --out " + dir + "/m.json").exit_code,
            0);
  // The same scenario read by another path (another working directory, another machine's
  // checkout) is the same run: shards are matched by the scenario's contents, not its path.
  std::ofstream(scenario, std::ios::trunc) << "name = \"s\"\nrecipe = \"queue\"\n";
  const CliResult relative = run_cli_in(
      dir, "run s.toml --seeds 1..10 --shard 2/2 --report json=" + dir + "/relative.json");
  ASSERT_EQ(relative.exit_code, 0) << relative.output;
  const CliResult merged_across_paths =
      run_cli("merge " + queue + " " + dir + "/relative.json --out " + dir + "/m.json");
  EXPECT_EQ(merged_across_paths.exit_code, 0) << merged_across_paths.output;
  {
    const CliResult r = run_cli("merge " + queue + " " + edited + " --out " + dir + "/m.json");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("contend merge: " + edited + R"(: field "scenario_contents")"),
              std::string::npos)
        << r.output;
  }
  const std::pair<std::string, std::string> refused[] = {
      {first_cut,
       R"(field "recipe" ("first-cut-queue") differs from )" + queue + R"('s ("queue"))"},
      {expects_lost,
       R"(field "expect" ("lost") differs from )" + queue + R"('s ("linearizable"))"}};
  for (const auto& [other, said] : refused) {
    auto r = run_cli("merge " + queue + " " + other + " --out " + dir + "/m.json");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("contend merge: " + other + ": " + said), std::string::npos)
        << r.output;
    EXPECT_EQ(r.output.find("as expected"), std::string::npos) << r.output;
  }
}

// A shard holding no seed of its range (more shards than seeds) wrote an HTML report of seed 1,
// outside the range, as if it were one of its runs, and left --history unwritten without a word
// (a file of an earlier run there passed for this one's). Every output says it ran no seed.
TEST(CliShards, AShardThatHoldsNoSeedSaysSoInEveryReportAndItsHistory) {
  const std::string dir = ::testing::TempDir() + "/empty-shard";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/h.jsonl", std::ios::trunc) << "an earlier run's history\n";
  auto r = run_cli("run " + source_path("scenarios/queue.toml") +
                   " --seeds 5..5 --shard 2/2 --history " + dir + "/h.jsonl --report html=" + dir +
                   "/r.html --report json=" + dir + "/r.json --report junit=" + dir + "/r.xml");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string none = "shard 2/2 holds none of seeds 5..5";
  EXPECT_NE(r.output.find("wrote an empty history " + dir + "/h.jsonl: " + none), std::string::npos)
      << r.output;
  EXPECT_EQ(read_file(dir + "/h.jsonl"), "");
  const std::string html = read_file(dir + "/r.html");
  EXPECT_NE(html.find("<p id=\"verdict\" class=\"undecided\">No seed ran: " + none),
            std::string::npos)
      << html;
  EXPECT_EQ(html.find("seed 1 "), std::string::npos) << "a page of seed 1, outside 5..5";
  EXPECT_EQ(html.find("<script"), std::string::npos) << "a page of a run";
  EXPECT_EQ(nlohmann::json::parse(read_file(dir + "/r.json")).at("runs"), nlohmann::json::array());
  // JUnit: a testcase that passed counted a pass in a CI test view for a shard that checked
  // nothing. It is skipped, saying why.
  const std::string junit = read_file(dir + "/r.xml");
  EXPECT_NE(junit.find("name=\"seeds_run\" value=\"0\""), std::string::npos) << junit;
  EXPECT_NE(junit.find("errors=\"0\" skipped=\"1\""), std::string::npos) << junit;
  EXPECT_NE(junit.find("<skipped message=\"no seed ran: " + none + " (more shards than seeds)"),
            std::string::npos)
      << junit;
  auto ran = run_cli("run " + source_path("scenarios/queue.toml") +
                     " --seeds 5..6 --shard 2/2 --report junit=" + dir + "/ran.xml");
  ASSERT_EQ(ran.exit_code, 0) << ran.output;
  const std::string junit_ran = read_file(dir + "/ran.xml");
  EXPECT_NE(junit_ran.find("skipped=\"0\""), std::string::npos) << junit_ran;
  EXPECT_EQ(junit_ran.find("<skipped"), std::string::npos) << junit_ran;
}

// The shards of a CI matrix each wrote a testcase named "queue seeds 1..4": a test view that keys
// test cases by name showed one of them, or counted them as reruns of one test.
TEST(CliShards, EachShardsJUnitTestcaseIsNamedWithItsShard) {
  const std::string dir = ::testing::TempDir() + "/junit-shards";
  std::filesystem::create_directories(dir);
  const std::string queue = source_path("scenarios/queue.toml");
  for (const std::string shard : {"1/2", "2/2"}) {
    const std::string file = dir + "/shard-" + shard.substr(0, 1) + ".xml";
    auto r = run_cli("run " + queue + " --seeds 1..4 --shard " + shard + " --report junit=" + file);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const std::string junit = read_file(file);
    EXPECT_NE(junit.find("<testcase classname=\"contend.queue\" name=\"queue seeds 1..4 shard " +
                         shard + "\""),
              std::string::npos)
        << junit;
  }
  auto whole = run_cli("run " + queue + " --seeds 1..4 --report junit=" + dir + "/whole.xml");
  ASSERT_EQ(whole.exit_code, 0) << whole.output;
  const std::string junit = read_file(dir + "/whole.xml");
  EXPECT_NE(junit.find("name=\"queue seeds 1..4\" time="), std::string::npos) << junit;
}

TEST(Sweep, TheTableIsDeterministicForASeedRange) {
  Scenario s = load("scenarios/queue.toml");
  std::string error;
  std::vector<Variation> vary = {*parse_variation("clients=1,4,16", error),
                                 *parse_variation("recipe=queue,hc-queue", error)};
  SweepResult a = run_sweep(s, vary, SeedRange{1, 6}, 1);
  SweepResult b = run_sweep(s, vary, SeedRange{1, 6}, 2);
  EXPECT_EQ(sweep_csv(a), sweep_csv(b));
  EXPECT_EQ(a.points.size(), 6u);
  EXPECT_GT(a.points.back().conflict_rate, a.points.front().conflict_rate)
      << "16 clients must conflict more than 1";
  std::string svg = sweep_svg(a);
  EXPECT_NE(svg.find("ok operations per virtual second"), std::string::npos);
  EXPECT_NE(svg.find("recipe=hc-queue"), std::string::npos) << "the legend names each series";
  EXPECT_FALSE(parse_variation("colour=red", error).has_value());
  EXPECT_NE(error.find("expected KEY=V1,V2"), std::string::npos);
}

// "clients=1,,2" swept 1 and 2 without a word about the slip, and "clients=2,2" ran the point
// twice and printed its row twice.
TEST(Sweep, AnEmptyOrRepeatedValueIsRefusedNamingTheItem) {
  const std::pair<std::string, std::string> refused[] = {
      {"clients=1,,2", "'clients=1,,2': item 2 is empty"},
      {"clients=1,2,", "'clients=1,2,': item 3 is empty"},
      {"clients=,1", "'clients=,1': item 1 is empty"},
      {"clients=", "'clients=': no values"},
      {"recipe=queue,hc-queue,queue", "item 3, queue, is already in the list"},
      // One value spelt two ways ran its grid point twice, as two rows.
      {"faults.crash=0.1,0.5,0.10", "item 3, 0.10, is already in the list as 0.1"},
      {"faults.pause=0,0.0", "item 2, 0.0, is already in the list as 0"},
      {"clients=2,02", "item 2, 02, is already in the list as 2"},
  };
  for (const auto& [text, said] : refused) {
    std::string error;
    EXPECT_FALSE(parse_variation(text, error).has_value()) << text;
    EXPECT_NE(error.find(said), std::string::npos) << text << ": " << error;
  }
  std::string error;
  // Items that do not read as values are no repeats: the grid check names what they should be.
  ASSERT_TRUE(parse_variation("clients=x,y", error).has_value()) << error;
  auto ok = parse_variation("faults.not_committed=0,0.5,1", error);
  ASSERT_TRUE(ok.has_value()) << error;
  EXPECT_EQ(ok->values, (std::vector<std::string>{"0", "0.5", "1"}));
  auto r =
      run_cli("sweep " + source_path("scenarios/queue.toml") + " --vary clients=2,2 --seeds 1..2");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("contend sweep: --vary 'clients=2,2': item 2, 2, is already in the list"),
            std::string::npos)
      << r.output;
}

// A control character in a scenario's name (TOML lets "\u0001" through) reached the JUnit file as
// a raw byte, which XML 1.0 forbids even as a reference: the file did not parse.
TEST(MarkupEscape, ControlCharactersXmlCannotHoldBecomeVisibleText) {
  EXPECT_EQ(markup_escape(std::string("a\x01<b>\t&\"\n\r\x1f\x7f\xc3\xa9")),
            "a\\x01&lt;b&gt;\t&amp;&quot;\n\r\\x1f\\x7f\xc3\xa9");
  const std::string dir = ::testing::TempDir();
  const std::string scenario = dir + "/control-name.toml";
  std::ofstream(scenario) << "name = \"q\\u0001x\"\nrecipe = \"queue\"\nclients = 2\n";
  auto r = run_cli("run " + scenario + " --seeds 1..2 --report junit=" + dir + "/control.xml");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const std::string xml = read_file(dir + "/control.xml");
  EXPECT_NE(xml.find("name=\"q\\x01x seeds 1..2\""), std::string::npos) << xml;
  for (char c : xml) {
    const auto byte = static_cast<unsigned char>(c);
    EXPECT_FALSE((byte < 0x20 && c != '\n') || byte == 0x7f) << "byte " << int(byte) << " in\n"
                                                             << xml;
  }
}

TEST(CliReports, JUnitCarriesTheRequiredElementsAndAFailureForAFailingScenario) {
  const std::string dir = ::testing::TempDir();
  const std::string failing = dir + "/expects-clean.toml";
  std::ofstream(failing)
      << "recipe = \"snapshot-dequeue-queue\"\nclients = 6\noperations_per_client = 10\n"
         "[seeds]\nfirst = 1\nlast = 10\n";
  auto r = run_cli("run " + failing + " --no-shrink --report junit=" + dir + "/fail.xml");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  std::string xml = read_file(dir + "/fail.xml");
  for (const char* element : {"<?xml", "<testsuites", "<testsuite ", "<testcase ",
                              "classname=\"contend.snapshot-dequeue-queue\"", "failures=\"1\"",
                              "<failure ", "reproduce: contend replay "}) {
    EXPECT_NE(xml.find(element), std::string::npos) << element << "\n" << xml;
  }
  auto ok = run_cli("run " + source_path("scenarios/queue.toml") +
                    " --seeds 1..3 --report junit=" + dir + "/ok.xml");
  EXPECT_EQ(ok.exit_code, 0);
  std::string passing = read_file(dir + "/ok.xml");
  EXPECT_NE(passing.find("failures=\"0\""), std::string::npos);
  EXPECT_EQ(passing.find("<failure"), std::string::npos);
}

}  // namespace
}  // namespace contend
