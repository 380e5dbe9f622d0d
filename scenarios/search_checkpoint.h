// The exhaustive search's checkpoint file (explore --checkpoint): for each scope the search runs,
// the units searched to the end with their totals, and the units in progress with where their
// search stands (dpor_progress_json.h), so a stopped search — killed, or out of budget — goes on
// exactly where it was and ends with the totals of a search that never stopped.
//
// A file belongs to one search (search_identity in exhaustive.cpp) and is refused by any other.
// A unit's progress is saved only while it has found no violation (a unit that found one runs
// again and finds it again). Writes go to FILE.tmp and are renamed over FILE, so a kill during a
// write leaves the previous file whole. Thread-safe: units running on several jobs save through
// one Checkpoint.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>

#include "scenarios/exhaustive.h"
#include "sim/runtime/dpor.h"

namespace contend {

// What one unit's search found: counts, verdicts by summary, distinct outcomes, the first
// violation.
struct UnitResult {
  bool exhausted = false;
  std::int64_t executions = 0;
  std::int64_t blocked = 0;
  std::int64_t bound_hits = 0;
  std::int64_t seeded_draws = 0;
  std::map<std::string, std::int64_t> verdicts;
  std::set<std::string> outcomes;
  std::optional<ExhaustiveFinding> violation;
  std::int64_t resumed =
      0;  // of the executions and abandoned, those the checkpoint held (not saved)
};

// A unit stopped on the way: what it found so far and where its search stands.
struct UnitProgress {
  UnitResult result;
  DporProgress explorer;
};

class Checkpoint {
 public:
  // `path` "" = no checkpoint: every call does nothing.
  Checkpoint(std::string path, std::string identity, std::string scope)
      : path_(std::move(path)), identity_(std::move(identity)), scope_(std::move(scope)) {}

  // Loads this scope's finished units and units in progress; false (and `error`, naming the file)
  // when the file is another search's or not a checkpoint.
  bool load(std::map<std::size_t, UnitResult>& done, std::map<std::size_t, UnitProgress>& partial,
            std::string& error);
  // Records a unit that ended: searched to the end (kept), or stopped at a violation or a budget
  // (its progress, if any, is kept instead).
  void finished(std::size_t unit, const UnitResult& result);
  // Records a unit's progress. REQUIRES: no violation found in it.
  void progressed(std::size_t unit, const UnitResult& result, const DporProgress& progress);

 private:
  void write_locked();
  std::mutex mutex_;
  std::string path_;
  std::string identity_;
  std::string scope_;
  nlohmann::json file_ = nlohmann::json::object();
};

}  // namespace contend
