// When the exhaustive search's checkpoint (scenarios/search_checkpoint.h) writes its file: every
// write rewrites all of it, so the runs between two writes grow with the file.
#include "scenarios/search_checkpoint.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace contend {
namespace {

std::string fresh_file(const std::string& name) {
  const std::string file = (std::filesystem::temp_directory_path() / name).string();
  std::remove(file.c_str());
  return file;
}

// The units the file holds as finished, in scope "s".
std::size_t finished_in_file(const std::string& file) {
  std::ifstream in(file);
  const nlohmann::json j = nlohmann::json::parse(in);
  return j.at("scopes").contains("s") ? j.at("scopes").at("s").size() : 0;
}

// A unit's result after `runs` executions, `resumed` of them taken over from the file.
UnitResult unit_result(bool exhausted, std::int64_t runs, std::int64_t resumed = 0) {
  UnitResult r;
  r.exhausted = exhausted;
  r.executions = runs;
  r.resumed = resumed;
  r.verdicts["linearizable"] = runs;
  return r;
}

UnitResult finished_unit(std::int64_t runs) {
  return unit_result(true, runs);
}

// Loads a checkpoint of a file that does not exist yet: no units, and the file written.
void load_fresh(Checkpoint& checkpoint) {
  std::map<std::size_t, UnitResult> done;
  std::map<std::size_t, UnitProgress> partial;
  std::string error;
  ASSERT_TRUE(checkpoint.load(done, partial, error)) << error;
  ASSERT_TRUE(done.empty() && partial.empty());
}

TEST(CheckpointWrites, ASmallFileIsWrittenEveryMinimumRunsALargeOneLessOften) {
  const std::string file = fresh_file("contend-checkpoint-cadence-test.json");
  Checkpoint checkpoint(file, "search", "s", /*write_every_min=*/10);
  ASSERT_NO_FATAL_FAILURE(load_fresh(checkpoint));

  // Small: units of 10 runs are each written as they end.
  std::size_t unit = 0;
  for (; unit < 3; ++unit) {
    checkpoint.finished(unit, finished_unit(10));
    EXPECT_EQ(finished_in_file(file), unit + 1) << "unit " << unit << " not written at once";
  }
  // Grow the file past what 10 runs cover (one run per kBytesPerRun bytes).
  while (std::filesystem::file_size(file) < 100 * Checkpoint::kBytesPerRun) {
    checkpoint.finished(unit++, finished_unit(1'000'000));
  }
  const auto bytes = static_cast<std::int64_t>(std::filesystem::file_size(file));
  const std::int64_t due = bytes / Checkpoint::kBytesPerRun;
  ASSERT_GT(due, 10);
  const std::size_t written = finished_in_file(file);
  ASSERT_EQ(written, unit);

  // Units of 10 runs now wait until the runs since the last write reach bytes / kBytesPerRun.
  std::int64_t unwritten = 0;
  while (unwritten + 10 < due) {
    checkpoint.finished(unit++, finished_unit(10));
    unwritten += 10;
    ASSERT_EQ(finished_in_file(file), written)
        << "written after " << unwritten << " runs, before the " << due << " due";
  }
  checkpoint.finished(unit++, finished_unit(10));
  EXPECT_EQ(finished_in_file(file), unit) << "not written once " << due << " runs were due";

  // flush() writes at once.
  checkpoint.finished(unit++, finished_unit(10));
  EXPECT_EQ(finished_in_file(file), unit - 1);
  checkpoint.flush();
  EXPECT_EQ(finished_in_file(file), unit);
  EXPECT_EQ(checkpoint.write_error(), "");
  std::remove(file.c_str());
}

bool progress_in_file(const std::string& file, std::size_t unit) {
  std::ifstream in(file);
  const nlohmann::json j = nlohmann::json::parse(in);
  return j.at("in_progress").contains("s") &&
         j.at("in_progress").at("s").contains(std::to_string(unit));
}

UnitResult going_unit(std::int64_t runs, std::int64_t resumed) {
  return unit_result(false, runs, resumed);
}

TEST(CheckpointWrites, AUnitsProgressCountsTheRunsItMadeSinceItLastCounted) {
  const std::string file = fresh_file("contend-checkpoint-progress-test.json");
  Checkpoint checkpoint(file, "search", "s", /*write_every_min=*/10);
  ASSERT_NO_FATAL_FAILURE(load_fresh(checkpoint));
  // 6, then 9 runs in all: 9 made, not 15, so no write is due yet.
  checkpoint.progressed(0, going_unit(6, 0), DporProgress{});
  checkpoint.progressed(0, going_unit(9, 0), DporProgress{});
  EXPECT_FALSE(progress_in_file(file, 0));
  // Runs taken over from the file (resumed) were not made here.
  checkpoint.progressed(1, going_unit(100, 100), DporProgress{});
  EXPECT_FALSE(progress_in_file(file, 1));
  // Not allowed to write, it does not, though 10 runs are due.
  checkpoint.progressed(0, going_unit(10, 0), DporProgress{}, /*may_write=*/false);
  EXPECT_FALSE(progress_in_file(file, 0));
  checkpoint.progressed(0, going_unit(11, 0), DporProgress{});
  EXPECT_TRUE(progress_in_file(file, 0));
  EXPECT_TRUE(progress_in_file(file, 1));
  std::remove(file.c_str());
}

std::string contents(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The text the checkpoint writes of the file `j`: "search" first (a file of another search is
// refused before the rest is read), then the other keys in the order a JSON document dumps them.
std::string as_written(const nlohmann::json& j) {
  nlohmann::json rest = j;
  rest.erase("search");
  std::string text = "{\"search\":" + j.at("search").dump();
  if (!rest.empty()) text += "," + rest.dump().substr(1);
  return text + "\n";
}

// The file is kept as text by part: a search of another scope reads it, adds its own units and
// writes back every other scope's parts as they were, in the order as_written gives.
TEST(CheckpointText, AnotherScopesSearchWritesTheFileBackWithItsOwnPartsAdded) {
  const std::string file = fresh_file("contend-checkpoint-text-test.json");
  {
    Checkpoint first(file, "search", "s", 1);
    ASSERT_NO_FATAL_FAILURE(load_fresh(first));
    first.finished(0, finished_unit(5));
    first.finished(10, finished_unit(7));
    DporProgress progress;
    progress.executions = 3;
    first.progressed(2, unit_result(false, 3), progress);
    first.flush();
  }
  const nlohmann::json before = nlohmann::json::parse(contents(file));
  Checkpoint second(file, "search", "t", 1);
  std::map<std::size_t, UnitResult> done;
  std::map<std::size_t, UnitProgress> partial;
  std::string error;
  ASSERT_TRUE(second.load(done, partial, error)) << error;
  EXPECT_TRUE(done.empty() && partial.empty()) << "scope t has nothing yet";
  second.finished(1, finished_unit(4));
  second.flush();
  const std::string after_text = contents(file);
  nlohmann::json expected = before;
  expected["scopes"]["t"]["1"] = nlohmann::json::parse(after_text)["scopes"]["t"]["1"];
  EXPECT_EQ(after_text, as_written(expected));
  EXPECT_EQ(expected["scopes"]["s"].size(), 2u);
  EXPECT_EQ(expected["in_progress"]["s"].size(), 1u);
  std::remove(file.c_str());
}

// The scopes of one search share the file as read once: a later scope's Checkpoint takes its units
// from what the first read (the file is not read again, nor written back, however large), and
// writes every scope's parts, the first's with the units it added since.
TEST(CheckpointText, TheScopesOfOneSearchReadTheFileOnce) {
  const std::string file = fresh_file("contend-checkpoint-shared-test.json");
  {
    Checkpoint writer(file, "search", "s", 1);
    ASSERT_NO_FATAL_FAILURE(load_fresh(writer));
    writer.finished(0, finished_unit(5));
    Checkpoint other_scope(file, "search", "t", 1);
    std::map<std::size_t, UnitResult> done;
    std::map<std::size_t, UnitProgress> partial;
    std::string error;
    ASSERT_TRUE(other_scope.load(done, partial, error)) << error;
    other_scope.finished(3, finished_unit(9));
  }
  const std::string saved = contents(file);
  const std::shared_ptr<CheckpointFile> shared = open_checkpoint_file(file, "search");
  std::map<std::size_t, UnitResult> done;
  std::map<std::size_t, UnitProgress> partial;
  std::string error;
  {
    Checkpoint first(shared, "s", 1);
    ASSERT_TRUE(first.load(done, partial, error)) << error;
    ASSERT_EQ(done.size(), 1u);
    EXPECT_EQ(done.at(0).executions, 5);
    first.finished(1, finished_unit(6));
    first.flush();
  }
  const std::string after_first = contents(file);
  EXPECT_NE(after_first, saved);
  std::ofstream(file, std::ios::trunc) << "not json";  // read again, it would be refused
  done.clear();
  Checkpoint second(shared, "t", 1);
  ASSERT_TRUE(second.load(done, partial, error)) << error;
  ASSERT_EQ(done.size(), 1u) << "scope t's unit from the file as first read";
  EXPECT_EQ(done.at(3).executions, 9);
  EXPECT_EQ(contents(file), "not json") << "the file was written back by a later scope's load";
  second.finished(4, finished_unit(2));
  second.flush();
  nlohmann::json expected = nlohmann::json::parse(after_first);
  expected["scopes"]["t"]["4"] = nlohmann::json::parse(contents(file))["scopes"]["t"]["4"];
  EXPECT_EQ(contents(file), as_written(expected));
  EXPECT_EQ(expected["scopes"]["s"].size(), 2u);
  std::remove(file.c_str());
}

// A scope's cut is read a unit at a time, and written back as it was saved: the same bytes, the
// same units.
// A cut of three units, unit k of plan k on thread k, of lineage 2 - k, with a path of k + 1
// nodes, after two sizing rounds.
SavedCut three_unit_cut() {
  SavedCut cut;
  for (int k = 0; k < 3; ++k) {
    Unit u;
    u.plan = static_cast<std::size_t>(k);
    u.thread = k;
    u.lineage = 2 - static_cast<std::size_t>(k);
    SearchNode node;
    node.enabled = 0b111;
    node.thread = k;
    node.footprints.resize(3);
    u.path.assign(static_cast<std::size_t>(k) + 1, node);
    cut.units.push_back(std::move(u));
  }
  cut.sizing_rounds = 2;
  cut.round_under_way = SizingRoundUnderWay{{2050, 0, 4096}, {true, false, true}};
  return cut;
}

TEST(CheckpointText, ASavedCutIsWrittenBackAsItWasAndReadAgainWhole) {
  const std::string file = fresh_file("contend-checkpoint-cut-test.json");
  const SavedCut cut = three_unit_cut();
  {
    Checkpoint sizing(file, "search", "s", 1);
    ASSERT_NO_FATAL_FAILURE(load_fresh(sizing));
    sizing.save_units(cut, {{1, finished_unit(4)}}, {});
  }
  const std::string saved = contents(file);
  ASSERT_NE(saved.find("\"cut\":[{"), std::string::npos) << saved;
  Checkpoint resumed(file, "search", "t", 1);
  std::map<std::size_t, UnitResult> done;
  std::map<std::size_t, UnitProgress> partial;
  std::string error;
  ASSERT_TRUE(resumed.load(done, partial, error)) << error;
  EXPECT_EQ(contents(file), saved) << "the load wrote the cut back otherwise";
  Checkpoint same_scope(file, "search", "s", 1);
  ASSERT_TRUE(same_scope.load(done, partial, error)) << error;
  std::optional<SavedCut> read;
  ASSERT_TRUE(same_scope.saved_units(read, error)) << error;
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(read->sizing_rounds, 2);
  EXPECT_FALSE(read->sizing_finished);
  ASSERT_TRUE(read->round_under_way.has_value());
  EXPECT_EQ(read->round_under_way->budgets, (std::vector<std::int64_t>{2050, 0, 4096}));
  EXPECT_EQ(read->round_under_way->cut, (std::vector<bool>{true, false, true}));
  ASSERT_EQ(read->units.size(), 3u);
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(read->units[k].plan, k) << "unit " << k;
    EXPECT_EQ(read->units[k].lineage, 2 - k) << "unit " << k;
    ASSERT_EQ(read->units[k].path.size(), k + 1) << "unit " << k;
    EXPECT_EQ(read->units[k].path.back().thread, static_cast<int>(k)) << "unit " << k;
  }
  std::remove(file.c_str());
}

// A file with a part the checkpoint never writes is not one of its files: refused, naming it.
TEST(CheckpointText, AFileWithAPartItNeverWritesIsRefusedNamingIt) {
  const std::string file = fresh_file("contend-checkpoint-foreign-test.json");
  std::ofstream(file) << R"({"in_progress":{},"scopes":{},"search":"search","extra":{}})";
  Checkpoint checkpoint(file, "search", "s", 1);
  std::map<std::size_t, UnitResult> done;
  std::map<std::size_t, UnitProgress> partial;
  std::string error;
  EXPECT_FALSE(checkpoint.load(done, partial, error));
  EXPECT_NE(error.find("unexpected \"extra\""), std::string::npos) << error;
  std::ofstream(file) << R"({"in_progress":{},"scopes":{"s":[]},"search":"search"})";
  Checkpoint array_scope(file, "search", "s", 1);
  EXPECT_FALSE(array_scope.load(done, partial, error));
  EXPECT_NE(error.find("not a contend checkpoint"), std::string::npos) << error;
  std::remove(file.c_str());
}

// Writes a file of search "search" holding, in scope "s", unit 7 finished with `finished` and
// unit 8 in progress after 3 executions; the file as written.
nlohmann::json written_units(const std::string& file, const UnitResult& finished) {
  Checkpoint writer(file, "search", "s", 1);
  std::map<std::size_t, UnitResult> done;
  std::map<std::size_t, UnitProgress> partial;
  std::string error;
  EXPECT_TRUE(writer.load(done, partial, error)) << error;
  writer.finished(7, finished);
  DporProgress progress;
  progress.executions = 3;
  writer.progressed(8, unit_result(false, 3), progress);
  writer.flush();
  return nlohmann::json::parse(contents(file));
}

// The file `text` loaded as one of search "search", scope "s": why it is refused ("" when it
// loads).
std::string refusal_of(const std::string& file, const std::string& text) {
  std::ofstream(file, std::ios::trunc) << text;
  Checkpoint checkpoint(file, "search", "s", 1);
  std::map<std::size_t, UnitResult> done;
  std::map<std::size_t, UnitProgress> partial;
  std::string error;
  return checkpoint.load(done, partial, error) ? std::string() : error;
}

// A key twice in one object, at any depth, is refused naming it — by a resumed search and by a
// shard dealt from the file alike; nlohmann kept the last one.
TEST(CheckpointText, AKeyTwiceInOneObjectIsRefusedNamingIt) {
  const std::string file = fresh_file("contend-checkpoint-key-twice-test.json");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"search":"search","scopes":{},"in_progress":{},"scopes":{}})", "scopes"},
      {R"({"search":"search","scopes":{"s":{"7":{"executions":1,"executions":2}}},)"
       R"("in_progress":{}})",
       "executions"},
  };
  for (const auto& [text, key] : cases) {
    const std::string why =
        file + ": not a contend checkpoint: key \"" + key + "\" appears twice in one object";
    EXPECT_EQ(refusal_of(file, text), why) << text;
    std::string error;
    EXPECT_EQ(parse_checkpoint_file(file, "search", Shard{}, error), nullptr) << text;
    EXPECT_EQ(error, why) << text;
  }
  std::remove(file.c_str());
}

// An empty file (made beforehand, as by mktemp) is not a search's start: refused, saying where a
// search does start its checkpoint, by a resumed search and by a shard dealt from it alike. The
// file is left empty.
TEST(CheckpointText, AnEmptyFileIsRefusedSayingWhereASearchStarts) {
  const std::string file = fresh_file("contend-checkpoint-empty-test.json");
  const std::string why = file +
                          ": empty, so not a contend checkpoint; a search starts its checkpoint "
                          "at a path where no file is yet (remove it)";
  EXPECT_EQ(refusal_of(file, ""), why);
  std::string error;
  EXPECT_EQ(parse_checkpoint_file(file, "search", Shard{}, error), nullptr);
  EXPECT_EQ(error, why);
  EXPECT_EQ(contents(file), "");
  std::remove(file.c_str());
}

// A file that is not an object, or whose "search" is missing or not a string, is refused naming
// what is wrong — by a resumed search and by a shard dealt from it alike.
TEST(CheckpointText, AFileWithoutASearchOfTextIsRefusedNamingIt) {
  const std::string file = fresh_file("contend-checkpoint-search-kind-test.json");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"search":5,"scopes":{},"in_progress":{}})", "field \"search\" is not a string"},
      {R"({"search":{"a":1},"scopes":{},"in_progress":{}})", "field \"search\" is not a string"},
      {R"({"scopes":{},"in_progress":{}})", "field \"search\" is missing"},
      {R"([1,2])", "not an object"},
  };
  for (const auto& [text, problem] : cases) {
    EXPECT_EQ(refusal_of(file, text), file + ": not a contend checkpoint: " + problem) << text;
    std::string error;
    const ParsedCheckpoint parsed = parse_checkpoint_file(file, "search", Shard{}, error);
    ASSERT_NE(parsed, nullptr) << error;
    Checkpoint dealt(parsed, file, "search", "s");
    std::map<std::size_t, UnitResult> done;
    std::map<std::size_t, UnitProgress> partial;
    EXPECT_FALSE(dealt.load_read_only(done, partial, error));
    EXPECT_EQ(error, file + ": not a contend checkpoint: " + problem) << text;
  }
  std::remove(file.c_str());
}

// A unit's saved result that no search gives — a count out of range, verdicts that are not one
// per execution, a finished unit not exhausted — is refused, naming the unit, its scope and what
// is wrong; the same result unedited loads.
TEST(CheckpointText, ASavedResultNoSearchGivesIsRefusedNamingTheUnit) {
  const std::string file = fresh_file("contend-checkpoint-result-test.json");
  UnitResult saved = finished_unit(4);
  saved.blocked = 2;
  saved.parked = 1;
  saved.seeded_draws = 4;
  saved.coverage["enqueue ok"] = 3;
  saved.outcomes = {"a", "b"};
  const nlohmann::json written = written_units(file, saved);
  ASSERT_EQ(refusal_of(file, written.dump()), "");
  const std::vector<std::pair<std::string, nlohmann::json>> finished_edits = {
      {"executions", -1},
      {"parked", 3},
      {"seeded_draws", 5},
      {"exhausted", false},
      {"verdicts", {{"linearizable", 3}}},
      {"verdicts", {{"violation: lost_item", 4}}},
      {"coverage", {{"enqueue ok", 5}}},
      {"outcomes", {"a", "b", "c", "d", "e"}},
  };
  for (const auto& [field, value] : finished_edits) {
    nlohmann::json edited = written;
    edited["scopes"]["s"]["7"][field] = value;
    const std::string error = refusal_of(file, edited.dump());
    EXPECT_NE(error.find("not a contend checkpoint: unit 7 (scope s): "), std::string::npos)
        << field << " = " << value.dump() << ": " << error;
  }
  nlohmann::json exhausted_in_progress = written;
  exhausted_in_progress["in_progress"]["s"]["8"]["result"]["exhausted"] = true;
  const std::string error = refusal_of(file, exhausted_in_progress.dump());
  EXPECT_NE(error.find("unit 8 (scope s): a unit in progress that is exhausted"), std::string::npos)
      << error;
  std::remove(file.c_str());
}

// A saved result's field of another kind than a write gives it, or missing, is refused naming the
// unit, its scope and the field — in a finished unit and in a unit in progress alike.
TEST(CheckpointText, AResultFieldOfAnotherKindIsRefusedNamingTheUnitAndTheField) {
  const std::string file = fresh_file("contend-checkpoint-kind-test.json");
  const nlohmann::json written = written_units(file, finished_unit(4));
  auto refusal = [&](const nlohmann::json& edited) { return refusal_of(file, edited.dump()); };
  ASSERT_EQ(refusal(written), "");
  struct Edit {
    std::string field;
    nlohmann::json value;  // null: the field is left out
    std::string problem;
  };
  const std::vector<Edit> edits = {
      {"executions", "4", "is not a count"},
      {"executions", 4.5, "is not a count"},
      {"blocked", -1, "is not a count"},
      {"exhausted", 1, "is not true or false"},
      {"verdicts", {{"linearizable", "4"}}, "is not an object of counts"},
      {"verdicts", nlohmann::json::array(), "is not an object of counts"},
      {"coverage", {{"enqueue ok", -2}}, "is not an object of counts"},
      {"outcomes", {1, 2}, "is not an array of strings"},
      {"seeded_draws", nullptr, "is missing"},
  };
  for (const Edit& e : edits) {
    for (const auto& [place, unit] :
         {std::pair<const char*, const char*>{"scopes", "7"}, {"in_progress", "8"}}) {
      nlohmann::json edited = written;
      nlohmann::json& result = place == std::string("scopes") ? edited[place]["s"][unit]
                                                              : edited[place]["s"][unit]["result"];
      if (e.value.is_null()) {
        result.erase(e.field);
      } else {
        result[e.field] = e.value;
      }
      const std::string expected = file + ": not a contend checkpoint: unit " + unit +
                                   " (scope s): field \"" + e.field + "\" " + e.problem;
      EXPECT_EQ(refusal(edited).rfind(expected, 0), 0u)
          << place << " " << e.field << " = " << e.value.dump() << ": " << refusal(edited);
    }
  }
  nlohmann::json without_result = written;
  without_result["in_progress"]["s"]["8"].erase("result");
  EXPECT_EQ(refusal(without_result),
            file + ": not a contend checkpoint: unit 8 (scope s): field \"result\" is missing");
  nlohmann::json number_unit = written;
  number_unit["scopes"]["s"]["7"] = 4;
  EXPECT_EQ(refusal(number_unit),
            file + ": not a contend checkpoint: unit 7 (scope s): not an object");
  std::remove(file.c_str());
}

// A saved cut's field of another kind, or missing, is refused naming the scope, the unit of the
// cut and the field: read from the text (a resumed search) and from a file parsed once (a shard
// dealt units) alike.
TEST(CheckpointText, ACutFieldOfAnotherKindIsRefusedNamingTheCutUnitAndTheField) {
  const std::string file = fresh_file("contend-checkpoint-cut-kind-test.json");
  {
    Checkpoint sizing(file, "search", "s", 1);
    ASSERT_NO_FATAL_FAILURE(load_fresh(sizing));
    sizing.save_units(three_unit_cut(), {}, {});
  }
  const nlohmann::json written = nlohmann::json::parse(contents(file));
  // Why the cut of `edited` is refused, read either way ("" when it is read). Read from the text,
  // a cut unit of the wrong shape is refused as the file loads, the cut's other fields when its
  // units are taken.
  auto refusals = [&](const nlohmann::json& edited) {
    std::ofstream(file, std::ios::trunc) << edited.dump();
    std::map<std::size_t, UnitResult> done;
    std::map<std::size_t, UnitProgress> partial;
    std::optional<SavedCut> cut;
    std::string from_text;
    Checkpoint resumed(file, "search", "s", 1);
    if (resumed.load(done, partial, from_text)) resumed.saved_units(cut, from_text);
    std::string from_parsed;
    ParsedCheckpoint parsed = parse_checkpoint_file(file, "search", Shard{}, from_parsed);
    if (parsed == nullptr) return std::pair{from_text, from_parsed};
    Checkpoint dealt(parsed, file, "search", "s");
    if (dealt.load_read_only(done, partial, from_parsed)) dealt.saved_units(cut, from_parsed);
    return std::pair{from_text, from_parsed};
  };
  ASSERT_EQ(refusals(written), std::pair(std::string(), std::string()));
  const std::string prefix = file + ": the units of scope s are not a contend checkpoint's: ";
  struct Edit {
    std::function<void(nlohmann::json&)> apply;  // to the scope's saved cut
    std::string problem;
  };
  const std::vector<Edit> edits = {
      {[](nlohmann::json& c) { c["cut"][1]["plan"] = "1"; },
       "cut unit 1: field \"plan\" is not a count"},
      {[](nlohmann::json& c) { c["cut"][2]["thread"] = -1; },
       "cut unit 2: field \"thread\" is not a count below 2^31"},
      {[](nlohmann::json& c) { c["cut"][0].erase("lineage"); },
       "cut unit 0: field \"lineage\" is missing"},
      {[](nlohmann::json& c) { c["cut"][0]["path"] = nlohmann::json::array(); },
       "cut unit 0: field \"path\" is not an object"},
      {[](nlohmann::json& c) { c["cut"][1] = "unit"; }, "cut unit 1: not an object"},
      {[](nlohmann::json& c) { c["sizing_rounds"] = -2; },
       "field \"sizing_rounds\" is not a count below 2^31"},
      {[](nlohmann::json& c) { c["sizing_finished"] = "no"; },
       "field \"sizing_finished\" is not true or false"},
      {[](nlohmann::json& c) { c.erase("sizing_finished"); },
       "field \"sizing_finished\" is missing"},
      {[](nlohmann::json& c) { c["cut"] = 3; }, "field \"cut\" is not an array"},
      {[](nlohmann::json& c) { c["round_under_way"] = 5; },
       "field \"round_under_way\" is not an object"},
      {[](nlohmann::json& c) { c["round_under_way"]["budgets"][1] = -1; },
       "round_under_way: field \"budgets\" is not an array of counts"},
      {[](nlohmann::json& c) { c["round_under_way"]["cut"][0] = 1; },
       "round_under_way: field \"cut\" is not an array of true and false"},
      {[](nlohmann::json& c) { c["round_under_way"].erase("cut"); },
       "round_under_way: field \"cut\" is missing"},
      {[](nlohmann::json& c) { c["round_under_way"]["budgets"].erase(2); },
       "round_under_way: 2 budgets for a cut of 3 units"},
      {[](nlohmann::json& c) { c["sizing_finished"] = true; },
       "a finished sizing has no round under way"},
  };
  for (const Edit& e : edits) {
    nlohmann::json edited = written;
    e.apply(edited["units"]["s"]);
    const auto [from_text, from_parsed] = refusals(edited);
    EXPECT_EQ(from_text.rfind(prefix + e.problem, 0), 0u) << from_text;
    EXPECT_EQ(from_parsed.rfind(prefix + e.problem, 0), 0u) << from_parsed;
  }
  std::remove(file.c_str());
}

// A file of another search is refused at its "search" key, before the rest is read: here the
// rest is not even JSON. A file written before "search" came first is refused there too.
TEST(CheckpointText, AFileOfAnotherSearchIsRefusedBeforeItsUnitsAreRead) {
  const std::string file = fresh_file("contend-checkpoint-other-search-test.json");
  {
    Checkpoint written(file, "search", "s", 1);
    ASSERT_NO_FATAL_FAILURE(load_fresh(written));
  }
  EXPECT_EQ(contents(file).rfind("{\"search\":\"search\",", 0), 0u) << contents(file);
  const std::string broken_units = R"("units":{"s":{"cut":[{"plan":)";
  for (const std::string& text :
       {R"({"search":"another","in_progress":{},)" + broken_units,
        R"({"in_progress":{},"scopes":{},"search":"another",)" + broken_units}) {
    EXPECT_EQ(refusal_of(file, text),
              file + ": checkpoint of another search (another); remove it or name another file");
    EXPECT_EQ(contents(file), text) << "a file of another search was written over";
    std::string error;
    const ParsedCheckpoint parsed = parse_checkpoint_file(file, "search", Shard{}, error);
    EXPECT_EQ(parsed, nullptr);
    EXPECT_NE(error.find("checkpoint of another search (another)"), std::string::npos) << error;
  }
  std::remove(file.c_str());
}

// A stop asked for while a checkpoint is read (a signal during the half minute a file of hundreds
// of megabytes takes) ends the read: nothing is taken from the file, and it is not written back.
TEST(CheckpointText, AStopAskedForWhileTheFileIsReadEndsTheReadLeavingTheFileAsItWas) {
  const std::string file = fresh_file("contend-checkpoint-stopped-read-test.json");
  {
    Checkpoint written(file, "search", "s", 1);
    ASSERT_NO_FATAL_FAILURE(load_fresh(written));
    for (std::size_t unit = 0; unit < 3; ++unit)
      written.finished(unit, finished_unit(10));
    written.flush();
  }
  const std::string before = contents(file);
  ASSERT_EQ(finished_in_file(file), 3u);

  std::atomic<bool> stop{true};
  Checkpoint stopped(open_checkpoint_file(file, "search", &stop), "s", 1);
  std::map<std::size_t, UnitResult> done;
  std::map<std::size_t, UnitProgress> partial;
  std::string error;
  EXPECT_FALSE(stopped.load(done, partial, error));
  EXPECT_EQ(error, reading_stopped(file));
  EXPECT_NE(error.find("nothing was searched, and the file is as it was"), std::string::npos);
  EXPECT_TRUE(done.empty() && partial.empty()) << "units taken from a read that was stopped";
  EXPECT_EQ(contents(file), before) << "a read a stop ended wrote the file";
  error.clear();
  EXPECT_EQ(parse_checkpoint_file(file, "search", Shard{}, error, &stop), nullptr);
  EXPECT_EQ(error, reading_stopped(file));

  // Without a stop, the same file loads whole.
  stop = false;
  Checkpoint resumed(open_checkpoint_file(file, "search", &stop), "s", 1);
  error.clear();
  ASSERT_TRUE(resumed.load(done, partial, error)) << error;
  EXPECT_EQ(done.size(), 3u);
  EXPECT_NE(parse_checkpoint_file(file, "search", Shard{}, error, &stop), nullptr) << error;
  std::remove(file.c_str());
}

// A file nested far deeper than contend writes one (12 levels) is refused naming the file, by a
// resume and by --deal-from's parse. Nested 300,000 deep, it crashed both (a stack overflow in
// the recursive dump and destruction of the value it was in), found by an input made by hand
// for fuzz/checkpoint_fuzz: byte mutations do not nest that deep.
TEST(CheckpointText, AFileNestedDeeperThanAnyCheckpointIsRefusedNotACrash) {
  const std::string file = fresh_file("contend-checkpoint-deep-test.json");
  const std::string deep = std::string(300'000, '[') + std::string(300'000, ']');
  for (const std::string& text :
       {R"({"search":"search","in_progress":{"s":{"0":)" + deep + "}}}",
        R"({"search":"search","in_progress":{},"scopes":{},"units":{"s":{"cut":[{"path":)" + deep +
            "}]}}}"}) {
    EXPECT_EQ(refusal_of(file, text),
              file + ": not a contend checkpoint: nested deeper than 100 levels");
    EXPECT_EQ(contents(file), text) << "a refused file was written over";
    std::string error;
    EXPECT_EQ(parse_checkpoint_file(file, "search", Shard{}, error), nullptr);
    EXPECT_EQ(error, file + ": not a contend checkpoint: nested deeper than 100 levels");
  }
  std::remove(file.c_str());
}

}  // namespace
}  // namespace contend
