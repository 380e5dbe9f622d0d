// The exhaustive search's checkpoint file (explore --checkpoint): for each scope the search runs,
// the units searched to the end with their totals, and the units in progress with where their
// search stands (dpor_progress_json.h), so a stopped search — killed, or out of budget — goes on
// exactly where it was and ends with the totals of a search that never stopped.
//
// A file belongs to one search (search_identity in exhaustive.cpp) and is refused by any other.
// A unit's progress is saved only while it has found no violation (a unit that found one runs
// again and finds it again). Writes go to FILE.tmp and are renamed over FILE, so a kill during a
// write leaves the previous file whole; a write that fails is reported, never passed over.
// Thread-safe: units running on several jobs save through one Checkpoint.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "scenarios/exhaustive.h"
#include "scenarios/search_units.h"
#include "sim/runtime/dpor.h"

namespace contend {

// What one unit's search found: counts, verdicts by summary, distinct outcomes, the first
// violation.
struct UnitResult {
  bool exhausted = false;
  std::int64_t executions = 0;
  std::int64_t blocked = 0;
  std::int64_t parked = 0;  // of blocked: parked at a wait that made no progress
  std::int64_t bound_hits = 0;
  std::int64_t seeded_draws = 0;
  std::map<std::string, std::int64_t> verdicts;
  Coverage coverage;  // of the executions (coverage.h)
  std::set<std::string> outcomes;
  std::optional<ExhaustiveFinding> violation;
  std::int64_t resumed =
      0;  // of the executions and abandoned, those the checkpoint held (not saved)
  // States cached (reduction states) when the unit's run here ended, and whether its cache filled
  // (it searched on without pruning at new states). Not saved: a resumed unit starts a new cache.
  std::int64_t states_cached = 0;
  bool state_cache_full = false;
  // Where the unit's budget stopped it, to go on from when unused budget is shared out (kept in
  // memory; the file has its own copy through Checkpoint::progressed).
  std::optional<DporProgress> stopped_at;
};

// A unit stopped on the way: what it found so far and where its search stands.
struct UnitProgress {
  UnitResult result;
  DporProgress explorer;
};

// The units a scope's search was cut into, as a checkpoint keeps them: after each sizing round
// (a search killed while sizing goes on sizing from there), and once sizing has finished.
struct SavedCut {
  std::vector<Unit> units;
  int sizing_rounds = 0;         // sizing rounds the units are the result of
  bool sizing_finished = false;  // no more rounds: a resumed search takes the units as they are
};

// A checkpoint file parsed once, for a search that only takes units from it (explore
// --deal-from): each scope's read-only Checkpoint reads it instead of parsing it again (a sized
// hc-queue 4 x 2 search's file is 368 MB, about 30 s to parse).
using ParsedCheckpoint = std::shared_ptr<const nlohmann::json>;
// The file parsed without what only the units `keep` leaves out need — their paths in the cut
// and their searches' progress (most of a sized file) — so a shard holds about its own part.
// Their results (runs, verdicts) stay. Null (and `error`, naming the file) when it cannot be
// read or is not JSON.
ParsedCheckpoint parse_checkpoint_file(const std::string& path, Shard keep, std::string& error);

class Checkpoint {
 public:
  // `path` "" = no checkpoint: every call does nothing. Finished units are written together once
  // they hold `flush_every` executions (rewriting the whole file per unit would cost a search of
  // thousands of small units more than its own work); a unit's progress is written at once.
  Checkpoint(std::string path, std::string identity, std::string scope, std::int64_t flush_every)
      : path_(std::move(path)),
        identity_(std::move(identity)),
        scope_(std::move(scope)),
        flush_every_(flush_every) {}

  // Read-only, over a file parsed once (`path` names it in messages): only load_read_only and
  // saved_units may be called.
  Checkpoint(ParsedCheckpoint parsed, std::string path, std::string identity, std::string scope)
      : path_(std::move(path)),
        identity_(std::move(identity)),
        scope_(std::move(scope)),
        flush_every_(1),
        parsed_(std::move(parsed)) {}

  // Loads this scope's finished units and units in progress, and writes the file back (so a path
  // that cannot be written is refused now, not after the search); false (and `error`, naming the
  // file) when the file is another search's, not a checkpoint, or cannot be written.
  bool load(std::map<std::size_t, UnitResult>& done, std::map<std::size_t, UnitProgress>& partial,
            std::string& error);
  // The same for the parsed file this search only takes units from (explore --deal-from: the
  // checkpoint of the whole search, after its sizing), which it never writes.
  // REQUIRES: made from a ParsedCheckpoint.
  bool load_read_only(std::map<std::size_t, UnitResult>& done,
                      std::map<std::size_t, UnitProgress>& partial, std::string& error);
  // The units this scope's search was cut into by the last sizing round saved (sizing cuts them
  // by the runs they take, so a search resumed with another budget must take them from here):
  // nothing when the file holds none; false (and `error`) when they are malformed.
  // REQUIRES: load().
  bool saved_units(std::optional<SavedCut>& cut, std::string& error) const;
  // Keeps the units the search was cut into, with what sizing found of them (finished units as
  // finished() keeps them, the others' progress), in one write: it replaces every unit this
  // scope's file held, since a sizing round numbers its units afresh.
  void save_units(const SavedCut& cut, const std::map<std::size_t, UnitResult>& done,
                  const std::map<std::size_t, UnitProgress>& partial);
  // Records a unit that ended: searched to the end without a violation (kept), or with one, or
  // stopped at a budget (its progress, if any, is kept instead).
  void finished(std::size_t unit, const UnitResult& result);
  // Records a unit's progress, written at once or with the next write (`now` false).
  // REQUIRES: no violation found in it.
  void progressed(std::size_t unit, const UnitResult& result, const DporProgress& progress,
                  bool now = true);
  // Writes what finished() has not written yet.
  void flush();
  // The first write that failed, naming the file ("" when none did).
  std::string write_error() const;

 private:
  bool read_locked(std::istream& in, std::map<std::size_t, UnitResult>& done,
                   std::map<std::size_t, UnitProgress>& partial, std::string& error);
  // This scope's units from a parsed file, after checking it is this search's.
  // Throws on a file of the wrong shape.
  bool read_scope(const nlohmann::json& file, std::map<std::size_t, UnitResult>& done,
                  std::map<std::size_t, UnitProgress>& partial, std::string& error) const;
  void write_locked();
  void finished_locked(std::size_t unit, const UnitResult& result);
  void progressed_locked(std::size_t unit, const UnitResult& result, const DporProgress& progress);
  mutable std::mutex mutex_;
  std::string path_;
  std::string identity_;
  std::string scope_;
  std::int64_t flush_every_;
  std::int64_t unwritten_executions_ = 0;
  bool unwritten_ = false;
  std::string write_error_;
  nlohmann::json file_ = nlohmann::json::object();  // all but the units
  // Every scope's units (save_units), and their text: a search cut finely has megabytes of them.
  nlohmann::json units_ = nlohmann::json::object();
  std::string units_dump_;
  ParsedCheckpoint parsed_;  // read-only: the file, parsed once
};

}  // namespace contend
