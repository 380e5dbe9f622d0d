// The exhaustive search's checkpoint file (explore --checkpoint): for each scope the search runs,
// the units searched to the end with their totals, and the units in progress with where their
// search stands (dpor_progress_json.h), so a stopped search — killed, or out of budget — goes on
// exactly where it was and ends with the totals of a search that never stopped.
//
// A file belongs to one search (search_identity in exhaustive.cpp) and is refused by any other,
// as soon as its "search" key is read: a write puts it first.
// A unit's progress is saved only while it has found no violation (a unit that found one runs
// again and finds it again). Writes go to FILE.tmp and are renamed over FILE, so a kill during a
// write leaves the previous file whole; a write that fails is reported, never passed over.
// Thread-safe: units running on several jobs save through one Checkpoint, and the Checkpoints of
// one file (a scope's each) hold its lock.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/input_file.h"
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

// A sizing round a stop cut short (search_sizing.h): the runs each unit may reach in it (0: it
// does not run) and, by lineage, whether the round cuts the units it stops. Saved with the cut and
// the units' progress as the stop left them, so that the resumed search ends the round as one
// never stopped would: a round chosen again from where the stop left the units would give them
// other budgets, and cut them otherwise.
struct SizingRoundUnderWay {
  std::vector<std::int64_t> budgets;  // by unit of the cut
  std::vector<bool> cut;              // by lineage
};

// The units a scope's search was cut into, as a checkpoint keeps them: after each sizing round
// (a search killed while sizing goes on sizing from there), at a stop asked for while a round
// runs (with that round), and once sizing has finished.
struct SavedCut {
  std::vector<Unit> units;
  int sizing_rounds = 0;         // sizing rounds the units are the result of
  bool sizing_finished = false;  // no more rounds: a resumed search takes the units as they are
  std::optional<SizingRoundUnderWay> round_under_way;  // never with sizing_finished
};

// A checkpoint file parsed once, for a search that only takes units from it (explore
// --deal-from): each scope's read-only Checkpoint reads it instead of parsing it again (a sized
// hc-queue 4 x 2 search's file is 368 MB, about 30 s to parse).
using ParsedCheckpoint = std::shared_ptr<const nlohmann::json>;
// The file parsed without what only the units `keep` leaves out need — their paths in the cut
// and their searches' progress (most of a sized file) — so a shard holds about its own part.
// Their results (runs, verdicts) stay. Null (and `error`, naming the file) when it cannot be
// read, is not JSON, or is the file of another search than `identity` (refused as soon as its
// "search" key is read). A stop asked for while it is read (`stop_requested`, when given: a
// signal during the half minute a file of hundreds of megabytes takes) ends the read at once:
// null, and an `error` that says so (reading_stopped).
ParsedCheckpoint parse_checkpoint_file(const std::string& path, const std::string& identity,
                                       Shard keep, std::string& error,
                                       const std::atomic<bool>* stop_requested = nullptr);
// The error of a read a stop ended, naming the file: it is as it was.
std::string reading_stopped(const std::string& path);

// One checkpoint file as the search holds it: every scope's parts as text (search_checkpoint.cpp),
// read from the file once and shared by the Checkpoint of each scope the search runs, so that a
// resumed search reads and writes back its file once, not once for each of its scopes (a sized
// hc-queue 4 x 2 search runs eight scopes, and its file holds some 500 MB). Opaque: only
// Checkpoint uses it.
struct CheckpointFile;
// `path` "" = no checkpoint. `identity`: the search the file belongs to (search_identity).
// `stop_requested`, when given, ends the file's read as it does parse_checkpoint_file's: the
// load fails with reading_stopped's error, before the file is written back.
std::shared_ptr<CheckpointFile> open_checkpoint_file(
    std::string path, std::string identity, const std::atomic<bool>* stop_requested = nullptr);

class Checkpoint {
 public:
  // JSON values by key, each dumped: the file is kept as text by part (a write puts the parts
  // together), not as a document, which took some 14 bytes of memory for each byte of the file:
  // hc-queue 3 x 3 (seed 1) searched whole with its 37 MB checkpoint peaked at 537 MB as a
  // document, 195 MB as text, and 49 MB without a checkpoint. Loading keeps each unit as text as
  // it parses it, so no more than one unit is ever a document.
  using TextByKey = std::map<std::string, std::string>;

  // This scope's part of `file` (open_checkpoint_file), which the Checkpoints of other scopes may
  // share, one at a time. A path of "" = no checkpoint: every call does nothing. A write rewrites
  // the whole file, so the units' ends and progress are written together once the runs made since
  // the last write reach write_every(): at least `write_every_min`, and one run for every
  // kBytesPerRun bytes the last write wrote, so that writing stays a small part of the search
  // however large the file grows (resumed from a sized hc-queue 4 x 2 search's 500 MB file, two
  // jobs made 20,900 runs a second writing it every 100,000 runs, 46,700 writing it every 4
  // million). A killed search loses the runs since the last write; flush() writes at once (at a
  // budget stop, at each round's end).
  Checkpoint(std::shared_ptr<CheckpointFile> file, std::string scope, std::int64_t write_every_min);
  // Over a file no other Checkpoint shares.
  Checkpoint(std::string path, std::string identity, std::string scope,
             std::int64_t write_every_min)
      : Checkpoint(open_checkpoint_file(std::move(path), std::move(identity)), std::move(scope),
                   write_every_min) {}

  // Read-only, over a file parsed once (`path` names it in messages): only load_read_only and
  // saved_units may be called.
  Checkpoint(ParsedCheckpoint parsed, std::string path, std::string identity, std::string scope);
  Checkpoint(const Checkpoint&) = delete;
  Checkpoint& operator=(const Checkpoint&) = delete;

  // Loads this scope's finished units and units in progress, reading the file first (and writing
  // it back, so a path that cannot be written is refused now, not after the search) unless
  // another scope's Checkpoint did; false (and `error`, naming the file) when the file is another
  // search's, not a checkpoint, or cannot be written.
  bool load(std::map<std::size_t, UnitResult>& done, std::map<std::size_t, UnitProgress>& partial,
            std::string& error);
  // load() without taking a scope's units: reads the file (and writes it back) unless a
  // Checkpoint sharing it did, so that a file that cannot be taken is refused before the search
  // starts; false (and `error`) as load().
  bool read(std::string& error);
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
  // stopped at a budget (its progress, if any, is kept instead). Writes the file when a write is
  // due.
  void finished(std::size_t unit, const UnitResult& result);
  // Records a unit's progress; writes the file when a write is due and `may_write`.
  // REQUIRES: no violation found in it.
  void progressed(std::size_t unit, const UnitResult& result, const DporProgress& progress,
                  bool may_write = true);
  // Writes what is not written yet.
  void flush();
  // The first write that failed, naming the file ("" when none did).
  std::string write_error() const;
  // The scope whose parts this Checkpoint reads and writes ("3x2|faults=0").
  const std::string& scope() const { return scope_; }
  // Bytes of the file for each run between two writes (write_every): writing a byte costs some
  // 10 ns and a run of hc-queue 3 x 3 some 40 us, so writing costs about 3% of the search.
  static constexpr std::int64_t kBytesPerRun = 128;

 private:
  // read() and load()'s read: nothing when done already.
  bool read_once_locked(std::string& error);
  // Every scope's parts as text, from the file, after checking it is this search's and that its
  // bound (kCheckpointBytesMax) did not cut it short. Throws on a file of the wrong shape.
  bool read_file_locked(InputFile& in, std::string& error);
  // This scope's units from the parts read. Throws on a unit of the wrong shape.
  void take_scope_locked(std::map<std::size_t, UnitResult>& done,
                         std::map<std::size_t, UnitProgress>& partial) const;
  // This scope's units from a parsed file, after checking it is this search's.
  // Throws on a file of the wrong shape.
  bool read_scope(const nlohmann::json& file, std::map<std::size_t, UnitResult>& done,
                  std::map<std::size_t, UnitProgress>& partial, std::string& error) const;
  // Whether the file's "search" is this one's (else `error`). Throws when the file is not an
  // object or its "search" is missing or not a string.
  bool is_this_search(const nlohmann::json& file, std::string& error) const;
  // A unit of this scope as messages name it: "12 (scope 3x2|faults=0)".
  std::string named(const std::string& unit) const { return unit + " (scope " + scope_ + ")"; }
  void write_locked();
  void finished_locked(std::size_t unit, const UnitResult& result);
  void progressed_locked(std::size_t unit, const UnitResult& result, const DporProgress& progress);
  // Adds the runs `unit` made here since they were last counted to those not written yet.
  void count_runs_locked(std::size_t unit, const UnitResult& result);
  // Runs between two writes (see the constructor).
  std::int64_t write_every() const;
  std::shared_ptr<CheckpointFile> file_;  // its mutex guards this Checkpoint's state too
  std::string scope_;
  std::int64_t write_every_min_;
  // By unit: its runs (made here) already counted in the file's unwritten runs or written. A
  // sizing round numbers its units afresh, and save_units starts them again.
  std::map<std::size_t, std::int64_t> runs_counted_;
  ParsedCheckpoint parsed_;  // read-only: the file, parsed once
};

}  // namespace contend
