#include "scenarios/search_checkpoint.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <ostream>
#include <span>
#include <stdexcept>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "base/decimal.h"
#include "base/input_file.h"
#include "base/invariant.h"
#include "base/json_run_bound.h"
#include "model/history_json.h"
#include "model/json_keys.h"
#include "model/verdict.h"
#include "scenarios/dpor_progress_json.h"
#include "scenarios/json_shape.h"

namespace contend {

namespace {

using nlohmann::json;

// Throws (`whose`: the message's start, "unit 7 (scope 3x2|faults=0): ") unless `j` is an object
// whose `required` fields are there and, with its `optional` ones, each of the kind a write gives
// it: what is read after is read without a default and without a JSON exception to name.
void require_shape(const json& j, std::span<const JsonField> required,
                   std::span<const JsonField> optional, const std::string& whose) {
  if (!j.is_object()) throw std::invalid_argument(whose + "not an object");
  std::optional<std::string> problem = shape_problem(j, required, "");
  if (!problem) problem = kind_problem(j, optional, "");
  if (problem) throw std::invalid_argument(whose + *problem);
}

json to_json(const UnitResult& r) {
  json j;
  j["exhausted"] = r.exhausted;
  j["executions"] = r.executions;
  j["blocked"] = r.blocked;
  j["parked"] = r.parked;
  j["bound_hits"] = r.bound_hits;
  j["seeded_draws"] = r.seeded_draws;
  j["verdicts"] = r.verdicts;
  j["coverage"] = r.coverage;
  j["outcomes"] = r.outcomes;
  return j;
}

// Throws unless `r` has the shape a search gives a unit it saves (one that found no violation):
// counts (read as counts: none negative) that agree with each other, a verdict per execution.
void check_saved_result(const UnitResult& r, bool finished) {
  auto refuse = [](const std::string& why) { throw std::invalid_argument(why); };
  if (r.exhausted != finished) {
    refuse(finished ? "a finished unit that is not exhausted"
                    : "a unit in progress that is exhausted");
  }
  if (r.parked > r.blocked) refuse("more runs parked than abandoned");
  if (r.bound_hits > r.executions || r.seeded_draws > r.executions) {
    refuse("bound_hits or seeded_draws above its executions");
  }
  // Every verdict kind but a violation: a unit that found one is never saved.
  auto saved_kind = [](const std::string& verdict) {
    using model::VerdictKind;
    for (VerdictKind kind :
         {VerdictKind::linearizable, VerdictKind::unknown, VerdictKind::simulator_fault}) {
      if (verdict == model::to_string(kind)) return true;
    }
    return false;
  };
  std::int64_t judged = 0;
  for (const auto& [verdict, count] : r.verdicts) {
    if (!saved_kind(verdict)) refuse("verdict \"" + verdict + "\" is not one a saved unit has");
    if (count <= 0) refuse("verdict \"" + verdict + "\" counted " + std::to_string(count));
    judged += count;
  }
  if (judged != r.executions) refuse("verdicts for other than its executions");
  for (const auto& [kind, count] : r.coverage) {
    if (count < 0 || count > r.executions) refuse("coverage of \"" + kind + "\" out of range");
  }
  if (static_cast<std::int64_t>(r.outcomes.size()) > r.executions) {
    refuse("more outcomes than executions");
  }
}

// A saved unit's result (finished: searched to the end; else in progress). Throws, naming the
// unit, when malformed.
UnitResult unit_from_json(const json& j, bool finished, const std::string& unit) {
  static constexpr JsonField kFields[] = {
      {"exhausted", &kBoolean},     {"executions", &kCount},      {"blocked", &kCount},
      {"parked", &kCount},          {"bound_hits", &kCount},      {"seeded_draws", &kCount},
      {"verdicts", &kCountsByName}, {"coverage", &kCountsByName}, {"outcomes", &kTextList}};
  require_shape(j, kFields, {}, "unit " + unit + ": ");
  UnitResult r;
  r.exhausted = j.at("exhausted").get<bool>();
  r.executions = j.at("executions").get<std::int64_t>();
  r.blocked = j.at("blocked").get<std::int64_t>();
  r.parked = j.at("parked").get<std::int64_t>();
  r.bound_hits = j.at("bound_hits").get<std::int64_t>();
  r.seeded_draws = j.at("seeded_draws").get<std::int64_t>();
  r.verdicts = j.at("verdicts").get<std::map<std::string, std::int64_t>>();
  r.coverage = j.at("coverage").get<Coverage>();
  r.outcomes = j.at("outcomes").get<std::set<std::string>>();
  r.resumed = r.executions + r.blocked;
  try {
    check_saved_result(r, finished);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("unit " + unit + ": " + e.what());
  }
  return r;
}

void write_value(std::ostream& out, const std::string& dumped) {
  out << dumped;
}

// A JSON object, in key order, of values dumped already or of such objects.
template <typename Value>
void write_value(std::ostream& out, const std::map<std::string, Value>& object) {
  out << '{';
  bool first = true;
  for (const auto& [key, value] : object) {
    if (!first) out << ',';
    first = false;
    out << json(key).dump() << ':';
    write_value(out, value);
  }
  out << '}';
}

// A scope's saved cut as text: its units' texts (comma-separated) as "cut", then the other parts
// (`rest`, an object without "cut": the sizing rounds and whether sizing finished), in the order a
// document of the cut would dump them.
// (A cut is most of a large file: the text is built in place, never copied whole.)
std::string cut_text(const std::string& units, const json& rest) {
  std::string text;
  text.reserve(units.size() + 64);
  text += "{\"cut\":[";
  text += units;
  text += ']';
  for (const auto& [key, value] : rest.items())
    text += ',' + json(key).dump() + ':' + value.dump();
  text += '}';
  return text;
}

// Whether a parser callback's event ends a value (an object, an array or a scalar): what a
// callback keeps or leaves out of the document.
bool ends_value(json::parse_event_t event) {
  return event == json::parse_event_t::object_end || event == json::parse_event_t::array_end ||
         event == json::parse_event_t::value;
}

// A file of another search, found at its "search" key while the file is parsed: thrown from a
// parser callback, so the rest of the file (hundreds of megabytes for a sized hc-queue 4 x 2
// search) is never read.
struct OtherSearch {
  std::string found;
};

std::string another_search(const std::string& path, const std::string& found) {
  // `explore --json` writes "search": "exhaustive" in its summary, the file most often confused
  // with a checkpoint.
  if (found == "exhaustive")
    return path + ": a summary written by explore --json, not a checkpoint; name another file";
  return path + ": checkpoint of another search (" + found + "); remove it or name another file";
}

// Whether an open file has nothing in it.
bool is_empty(std::istream& in) {
  return in.peek() == std::ifstream::traits_type::eof();
}

// Why an empty file is not taken: most often one made beforehand (mktemp), while a search starts
// its checkpoint where no file is yet.
std::string empty_checkpoint(const std::string& path) {
  return path +
         ": empty, so not a contend checkpoint; a search starts its checkpoint at a path where "
         "no file is yet (remove it)";
}

// The longest run of bytes a checkpoint may hold between two of JSON's structural characters (a
// string, a number or a literal, with the white space around it: base/json_run_bound.h). contend
// writes compact JSON whose longest string is the search's identity, some 200 bytes.
constexpr std::uint64_t kCheckpointRunBytesMax = kMiB;

// The file read through a JsonRunBound: a run past kCheckpointRunBytesMax ends it.
class BoundedRuns {
 public:
  explicit BoundedRuns(InputFile& in) : runs_(in.stream().rdbuf(), kCheckpointRunBytesMax) {}

  std::istream& stream() { return stream_; }
  // Why the file is refused when a run passed the bound ("" when none did), naming the byte.
  std::string refusal(const std::string& path) const {
    if (!runs_.over_bound_at()) return {};
    return path + ": not a contend checkpoint: " + runs_.over_bound_reason() +
           " (contend writes none longer than a few hundred bytes)";
  }

 private:
  JsonRunBound runs_;
  std::istream stream_{&runs_};
};

// A stop asked for while the file is parsed: thrown from a parser callback, as OtherSearch is.
struct ReadingStopped {};

// The checks both readers' parser callbacks make at every event (depths as nlohmann's parser
// callback counts them: a key's and a scalar's is that of the object they are in, from 1 for the
// file's): a stop asked for throws ReadingStopped; a key twice in one object is refused
// (model::DuplicateKeyCheck, as every JSON contend reads); nesting past model::kMaxJsonDepth is
// refused; the file's "search" key throws OtherSearch at its value when that is not `identity`.
// Files are written with "search" first; in older ones it follows the finished units and those in
// progress.
class ReadChecks {
 public:
  ReadChecks(std::string identity, const std::atomic<bool>* stop_requested)
      : identity_(std::move(identity)), stop_requested_(stop_requested) {}

  void operator()(int depth, json::parse_event_t event, const json& parsed) {
    if (stop_requested_ != nullptr && stop_requested_->load(std::memory_order_relaxed)) {
      throw ReadingStopped{};
    }
    unique_keys_(depth, event, parsed);
    // A file contend wrote nests 12 deep; one nested some 100,000 deep overflowed the stack of
    // the recursive dump and destruction of the value it is in.
    if (depth > static_cast<int>(model::kMaxJsonDepth)) {
      throw std::invalid_argument(
          fmt::format("nested deeper than {} levels", model::kMaxJsonDepth));
    }
    if (depth != 1) return;
    if (event == json::parse_event_t::key) {
      at_search_ = parsed.get_ref<const std::string&>() == "search";
    } else if (at_search_ && event == json::parse_event_t::value) {
      at_search_ = false;
      if (parsed.is_string() && parsed.get_ref<const std::string&>() != identity_) {
        throw OtherSearch{parsed.get<std::string>()};
      }
    }
  }

 private:
  std::string identity_;
  const std::atomic<bool>* stop_requested_;  // null: nothing stops the read
  model::DuplicateKeyCheck unique_keys_;
  bool at_search_ = false;
};

std::size_t unit_index(const std::string& key) {
  const std::optional<std::size_t> index = parse_decimal<std::size_t>(key);
  if (!index) throw std::invalid_argument("unit \"" + key + "\" is not a number");
  return *index;
}

}  // namespace

struct CheckpointFile {
  std::mutex mutex;  // guards the file and the state of each Checkpoint that shares it
  std::string path;
  std::string identity;
  const std::atomic<bool>* stop_requested = nullptr;  // ends the file's read (null: nothing does)
  bool read = false;  // read, or found missing, and written back (Checkpoint::load)
  bool unwritten = false;
  std::int64_t unwritten_runs = 0;  // made since the last write
  std::int64_t last_write_bytes = 0;
  std::string write_error;  // the first write that failed
  // By scope: the units searched to the end (by unit, their results), the units in progress (by
  // unit, their results and progress), and the units it was cut into (save_units).
  std::map<std::string, Checkpoint::TextByKey> scopes;
  std::map<std::string, Checkpoint::TextByKey> in_progress;
  Checkpoint::TextByKey units;
};

std::shared_ptr<CheckpointFile> open_checkpoint_file(std::string path, std::string identity,
                                                     const std::atomic<bool>* stop_requested) {
  auto file = std::make_shared<CheckpointFile>();
  file->path = std::move(path);
  file->identity = std::move(identity);
  file->stop_requested = stop_requested;
  return file;
}

std::string reading_stopped(const std::string& path) {
  return path +
         ": a stop was asked for while it was read: nothing was searched, and the file is "
         "as it was";
}

Checkpoint::Checkpoint(std::shared_ptr<CheckpointFile> file, std::string scope,
                       std::int64_t write_every_min)
    : file_(std::move(file)), scope_(std::move(scope)), write_every_min_(write_every_min) {
  CONTEND_ASSERT(file_ != nullptr, "a checkpoint has a file, if only one of no path");
}

Checkpoint::Checkpoint(ParsedCheckpoint parsed, std::string path, std::string identity,
                       std::string scope)
    : Checkpoint(open_checkpoint_file(std::move(path), std::move(identity)), std::move(scope), 1) {
  parsed_ = std::move(parsed);
}

bool Checkpoint::read(std::string& error) {
  std::lock_guard lock(file_->mutex);
  if (file_->path.empty()) return true;
  try {
    return read_once_locked(error);
  } catch (const std::exception& e) {
    error = file_->path + ": not a contend checkpoint: " + e.what();
    return false;
  }
}

bool Checkpoint::load(std::map<std::size_t, UnitResult>& done,
                      std::map<std::size_t, UnitProgress>& partial, std::string& error) {
  std::lock_guard lock(file_->mutex);
  if (file_->path.empty()) return true;
  try {
    if (!read_once_locked(error)) return false;
    take_scope_locked(done, partial);
  } catch (const std::exception& e) {
    error = file_->path + ": not a contend checkpoint: " + e.what();
    return false;
  }
  return true;
}

bool Checkpoint::read_once_locked(std::string& error) {
  if (file_->read) return true;
  // No file yet is a search's start; one that is there and cannot be read is refused.
  std::string why;
  std::unique_ptr<InputFile> in = open_input(file_->path, kCheckpointInput, why);
  std::error_code unknown;  // a path whose existence cannot be told is left to the write
  if (!in && std::filesystem::exists(file_->path, unknown)) {
    error = file_->path + ": cannot read it (" + why + ")";
    return false;
  }
  if (in && is_empty(in->stream())) {
    error = empty_checkpoint(file_->path);
    return false;
  }
  if (in && !read_file_locked(*in, error)) return false;
  file_->read = true;
  write_locked();  // a path that cannot be written is refused before the search, not after it
  error = file_->write_error;
  return error.empty();
}

namespace {

// parse_checkpoint_file's filter: drops `in_progress.<scope>.<unit>.explorer` and
// `units.<scope>.cut[i].path` of the units `keep` leaves out (depths as nlohmann's parser
// callback counts them: a key's is that of the object it is in, from 1 for the file's).
class KeepShardsUnits {
 public:
  KeepShardsUnits(Shard keep, std::string identity, const std::atomic<bool>* stop_requested)
      : keep_(keep), checks_(std::move(identity), stop_requested) {}

  bool operator()(int depth, json::parse_event_t event, json& parsed) {
    checks_(depth, event, parsed);
    if (event == json::parse_event_t::key)
      return on_key(depth, parsed.get_ref<const std::string&>());
    const bool in_cut = top_ == "units" && key_in_scope_ == "cut";
    if (event == json::parse_event_t::array_start && depth == 3 && in_cut) next_cut_unit_ = 0;
    if (event == json::parse_event_t::object_start && depth == 4 && in_cut) {
      cut_unit_kept_ = keep_.includes(next_cut_unit_++, 0);
    }
    return true;
  }

 private:
  bool on_key(int depth, const std::string& key) {
    if (depth == 1) top_ = key;
    if (depth == 3) {
      key_in_scope_ = key;
      if (top_ == "in_progress") running_unit_kept_ = kept_by_name(key);
    }
    if (depth == 4 && top_ == "in_progress" && key == "explorer") return running_unit_kept_;
    if (depth == 5 && top_ == "units" && key == "path") return cut_unit_kept_;
    return true;
  }
  // A unit named by something other than its index is kept: reading it reports the file.
  bool kept_by_name(const std::string& name) const {
    if (name.empty() || name.size() > 18 ||
        name.find_first_not_of("0123456789") != std::string::npos) {
      return true;
    }
    return keep_.includes(std::stoull(name), 0);
  }

  Shard keep_;
  ReadChecks checks_;
  std::string top_;           // the file's key we are under
  std::string key_in_scope_;  // the last key inside a scope (units: "cut"; in_progress: a unit)
  std::uint64_t next_cut_unit_ = 0;
  bool cut_unit_kept_ = true;
  bool running_unit_kept_ = true;
};

}  // namespace

ParsedCheckpoint parse_checkpoint_file(const std::string& path, const std::string& identity,
                                       Shard keep, std::string& error,
                                       const std::atomic<bool>* stop_requested) {
  std::string why;
  std::unique_ptr<InputFile> in = open_input(path, kCheckpointInput, why);
  if (!in) {
    error = path + ": cannot read it (" + why + ")";
    return nullptr;
  }
  if (is_empty(in->stream())) {
    error = empty_checkpoint(path);
    return nullptr;
  }
  BoundedRuns text(*in);
  try {
    json parsed = json::parse(text.stream(), KeepShardsUnits(keep, identity, stop_requested));
    error = text.refusal(path);
    if (!error.empty()) return nullptr;
    if (!in->cut_short()) return std::make_shared<const json>(std::move(parsed));
    error = path + ": cannot read it (" + in->over_bound_reason() + ")";
    return nullptr;
  } catch (const OtherSearch& other) {
    error = another_search(path, other.found);
    return nullptr;
  } catch (const ReadingStopped&) {
    error = reading_stopped(path);
    return nullptr;
  } catch (const std::exception& e) {
    error = text.refusal(path);
    if (!error.empty()) return nullptr;
    error = path + (in->cut_short() ? ": cannot read it (" + in->over_bound_reason() + ")"
                                    : ": not a contend checkpoint: " + std::string(e.what()));
    return nullptr;
  }
}

bool Checkpoint::load_read_only(std::map<std::size_t, UnitResult>& done,
                                std::map<std::size_t, UnitProgress>& partial, std::string& error) {
  std::lock_guard lock(file_->mutex);
  CONTEND_ASSERT(parsed_ != nullptr, "a read-only checkpoint reads a parsed file");
  try {
    return read_scope(*parsed_, done, partial, error);
  } catch (const std::exception& e) {
    error = file_->path + ": not a contend checkpoint: " + e.what();
    return false;
  }
}

namespace {

// A unit in progress as saved: its result and, unless parse_checkpoint_file left it out, where its
// search stands (without it, its progress is empty: it belongs to no unit, so it is taken only
// where its unit is not searched).
UnitProgress unit_progress_from_json(const std::string& unit, const json& saved) {
  static constexpr JsonField kResult[] = {{"result", &kObject}};
  static constexpr JsonField kExplorer[] = {{"explorer", &kObject}};
  require_shape(saved, kResult, kExplorer, "unit " + unit + ": ");
  DporProgress explorer;
  if (saved.contains("explorer")) {
    std::string why;
    std::optional<DporProgress> read = progress_from_json(saved.at("explorer"), why);
    if (!read) throw std::invalid_argument("unit " + unit + ": " + why);
    explorer = std::move(*read);
  }
  return UnitProgress{unit_from_json(saved.at("result"), /*finished=*/false, unit),
                      std::move(explorer)};
}

// A unit of a scope's saved cut of the wrong shape, found while the file is parsed: thrown from a
// parser callback, and refused with saved_units' message (cut_refused).
struct CutRefused {
  std::string scope;
  std::string why;
};

std::string cut_refused(const std::string& path, const std::string& scope, const std::string& why) {
  return path + ": the units of scope " + scope + " are not a contend checkpoint's: " + why;
}

// One unit of a saved cut. Throws when malformed.
Unit unit_from_saved(const json& saved, std::size_t index) {
  static constexpr JsonField kFields[] = {
      {"plan", &kCount}, {"thread", &kSmallCount}, {"lineage", &kCount}};
  static constexpr JsonField kPath[] = {{"path", &kObject}};
  require_shape(saved, kFields, kPath, "cut unit " + std::to_string(index) + ": ");
  Unit u;
  u.plan = saved.at("plan").get<std::size_t>();
  u.thread = saved.at("thread").get<int>();
  u.lineage = saved.at("lineage").get<std::size_t>();
  if (u.thread < 0 || u.thread >= kMaxThreads) {
    throw std::invalid_argument("thread " + std::to_string(u.thread) + " out of range");
  }
  if (saved.contains("path")) {  // without (parse_checkpoint_file left it out): empty
    std::string why;
    std::optional<std::vector<SearchNode>> path = nodes_from_json(saved.at("path"), why);
    if (!path) throw std::invalid_argument(why);
    u.path = std::move(*path);
  }
  return u;
}

// Checkpoint::read_file_locked's parse: each unit's value (`scopes.<scope>.<unit>`,
// `in_progress.<scope>.<unit>`) and each scope's cut (`units.<scope>`) is kept as its text and
// left out of the document, so that no more than one of them is ever a document — and of a cut,
// no more than one of its units: a sized hc-queue 4 x 2 search's cut is 409 MB of its 515 MB
// file, and as a document it took some 2 GB. (Depths as KeepShardsUnits counts them: a value's
// is that of the object or array it is in.)
class UnitsAsText {
 public:
  UnitsAsText(std::map<std::string, Checkpoint::TextByKey>& scopes,
              std::map<std::string, Checkpoint::TextByKey>& in_progress,
              Checkpoint::TextByKey& units, std::string identity,
              const std::atomic<bool>* stop_requested)
      : scopes_(scopes),
        in_progress_(in_progress),
        units_(units),
        checks_(std::move(identity), stop_requested) {}

  bool operator()(int depth, json::parse_event_t event, json& parsed) {
    checks_(depth, event, parsed);
    if (event == json::parse_event_t::key) {
      const std::string& key = parsed.get_ref<const std::string&>();
      if (depth <= 3) (depth == 1 ? top_ : depth == 2 ? scope_ : unit_) = key;
      return true;
    }
    if (top_ == "units") return on_cut(depth, event, parsed);
    if (!ends_value(event)) return true;
    if (depth == 3 && (top_ == "scopes" || top_ == "in_progress")) {
      check_unit(parsed);
      (top_ == "scopes" ? scopes_ : in_progress_)[scope_][unit_] = parsed.dump();
      return false;
    }
    return true;
  }

 private:
  // Under "units": the cut's units become text one by one; the rest of the scope's value at its
  // end, in the order a document would dump it ("cut" first of the keys save_units writes).
  bool on_cut(int depth, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::array_start && depth == 3 && unit_ == "cut") {
      in_cut_ = true;
      cut_.clear();
      cut_units_ = 0;
      return true;
    }
    if (in_cut_ && depth == 4 && ends_value(event)) {
      check_cut_unit(parsed);
      if (!cut_.empty()) cut_ += ',';
      cut_ += parsed.dump();
      return false;
    }
    if (in_cut_ && event == json::parse_event_t::array_end && depth == 3) {
      in_cut_ = false;
      cut_read_ = true;
      return true;
    }
    if (depth != 2 || !ends_value(event)) return true;
    if (cut_read_ && parsed.is_object()) {
      parsed.erase("cut");
      units_[scope_] = cut_text(cut_, parsed);
    } else {
      units_[scope_] = parsed.dump();
    }
    cut_ = std::string();  // its memory too: a cut may be hundreds of megabytes
    cut_read_ = false;
    return false;
  }

  // A unit is checked as a scope's load reads it, so that a file with a unit of the wrong shape
  // is refused before the search starts (and prints its header), not when its scope is reached.
  void check_unit(const json& unit) const {
    const std::string named = unit_ + " (scope " + scope_ + ")";
    unit_index(unit_);
    if (top_ == "scopes") {
      unit_from_json(unit, /*finished=*/true, named);
    } else {
      unit_progress_from_json(named, unit);
    }
  }
  // The same for a unit of a scope's cut, refused as Checkpoint::saved_units refuses it.
  void check_cut_unit(const json& unit) {
    try {
      unit_from_saved(unit, cut_units_++);
    } catch (const std::exception& e) {
      throw CutRefused{scope_, e.what()};
    }
  }

  std::map<std::string, Checkpoint::TextByKey>& scopes_;
  std::map<std::string, Checkpoint::TextByKey>& in_progress_;
  Checkpoint::TextByKey& units_;
  ReadChecks checks_;
  std::string top_;  // the keys we are under: the file's, a scope, a unit (or a cut's part)
  std::string scope_;
  std::string unit_;
  bool in_cut_ = false;        // inside a scope's "cut" array
  bool cut_read_ = false;      // this scope's "cut" was an array, its units in cut_
  std::string cut_;            // its units' texts, comma-separated
  std::size_t cut_units_ = 0;  // in cut_
};

}  // namespace

bool Checkpoint::read_file_locked(InputFile& in, std::string& error) {
  CheckpointFile& f = *file_;
  // What is left of the file once its units are text: the search, and every scope's name.
  json rest;
  BoundedRuns text(in);
  try {
    rest = json::parse(text.stream(),
                       UnitsAsText(f.scopes, f.in_progress, f.units, f.identity, f.stop_requested));
  } catch (const OtherSearch& other) {
    error = another_search(f.path, other.found);
    return false;
  } catch (const ReadingStopped&) {
    error = reading_stopped(f.path);
    return false;
  } catch (const CutRefused& cut) {
    error = cut_refused(f.path, cut.scope, cut.why);
    return false;
  } catch (const std::exception&) {
    if (!in.cut_short() && text.refusal(f.path).empty()) throw;
  }
  error = text.refusal(f.path);
  if (!error.empty()) return false;
  if (in.cut_short()) {
    error = f.path + ": cannot read it (" + in.over_bound_reason() + ")";
    return false;
  }
  if (!is_this_search(rest, error)) return false;
  for (const auto& [key, value] : rest.items()) {
    if (key == "search") continue;
    if (key != "scopes" && key != "in_progress" && key != "units") {
      throw std::invalid_argument("unexpected \"" + key + "\" in the file");
    }
    if (!value.is_object()) throw std::invalid_argument("\"" + key + "\" is not an object");
    if (key == "units") continue;
    for (const auto& [scope, units] : value.items()) {  // what is left of each is {}
      if (!units.is_object()) throw std::invalid_argument("scope " + scope + " is not an object");
      (key == "scopes" ? f.scopes : f.in_progress)[scope];
    }
  }
  if (!rest.contains("scopes") || !rest.contains("in_progress")) {
    throw std::invalid_argument("no \"scopes\" or no \"in_progress\"");
  }
  return true;
}

void Checkpoint::take_scope_locked(std::map<std::size_t, UnitResult>& done,
                                   std::map<std::size_t, UnitProgress>& partial) const {
  if (auto finished = file_->scopes.find(scope_); finished != file_->scopes.end()) {
    for (const auto& [unit, text] : finished->second)
      done[unit_index(unit)] = unit_from_json(json::parse(text), /*finished=*/true, named(unit));
  }
  if (auto running = file_->in_progress.find(scope_); running != file_->in_progress.end()) {
    for (const auto& [unit, text] : running->second)
      partial[unit_index(unit)] = unit_progress_from_json(named(unit), json::parse(text));
  }
}

bool Checkpoint::is_this_search(const json& file, std::string& error) const {
  static constexpr JsonField kSearch[] = {{"search", &kText}};
  require_shape(file, kSearch, {}, "");
  if (file.at("search").get<std::string>() != file_->identity) {
    error = another_search(file_->path, file.at("search").get<std::string>());
    return false;
  }
  return true;
}

bool Checkpoint::read_scope(const json& file, std::map<std::size_t, UnitResult>& done,
                            std::map<std::size_t, UnitProgress>& partial,
                            std::string& error) const {
  if (!is_this_search(file, error)) return false;
  if (file.contains("units") && !file.at("units").is_object()) {
    throw std::invalid_argument("\"units\" is not an object");
  }
  if (const json& scopes = file.at("scopes"); scopes.contains(scope_)) {
    for (const auto& [unit, result] : scopes.at(scope_).items())
      done[unit_index(unit)] = unit_from_json(result, /*finished=*/true, named(unit));
  }
  if (const json& running = file.at("in_progress"); running.contains(scope_)) {
    for (const auto& [unit, saved] : running.at(scope_).items())
      partial[unit_index(unit)] = unit_progress_from_json(named(unit), saved);
  }
  return true;
}

void Checkpoint::finished(std::size_t unit, const UnitResult& result) {
  std::lock_guard lock(file_->mutex);
  if (file_->path.empty()) return;
  finished_locked(unit, result);
  if (file_->unwritten_runs >= write_every()) write_locked();
}

void Checkpoint::finished_locked(std::size_t unit, const UnitResult& result) {
  // A unit that found a violation (a search for every violation goes on to its end) is not kept:
  // the file does not hold counterexamples, so a resumed search runs it again to rebuild one.
  if (!result.exhausted || result.violation) return;
  const std::string key = std::to_string(unit);
  file_->scopes[scope_][key] = to_json(result).dump();
  if (auto running = file_->in_progress.find(scope_); running != file_->in_progress.end()) {
    running->second.erase(key);
  }
  file_->unwritten = true;
  count_runs_locked(unit, result);
}

void Checkpoint::count_runs_locked(std::size_t unit, const UnitResult& result) {
  const std::int64_t made = result.executions + result.blocked - result.resumed;
  std::int64_t& counted = runs_counted_[unit];
  file_->unwritten_runs += std::max<std::int64_t>(made - counted, 0);
  counted = std::max(counted, made);
}

std::int64_t Checkpoint::write_every() const {
  return std::max(write_every_min_, file_->last_write_bytes / kBytesPerRun);
}

namespace {

// A cut's text parsed a unit at a time: each element of its "cut" becomes a Unit as soon as it is
// parsed and is left out of the document (the whole cut's would take many times its text).
// A saved cut's fields besides its units' own.
constexpr JsonField kCutFields[] = {
    {"cut", &kList}, {"sizing_rounds", &kSmallCount}, {"sizing_finished", &kBoolean}};
constexpr JsonField kCutOptional[] = {{"round_under_way", &kObject}};
constexpr JsonField kRoundFields[] = {{"budgets", &kCountList}, {"cut", &kBooleanList}};

// A saved cut's round under way (SizingRoundUnderWay), of a cut of `units` units. Throws when
// malformed.
SizingRoundUnderWay round_from_saved(const json& saved, std::size_t units) {
  require_shape(saved, kRoundFields, {}, "round_under_way: ");
  SizingRoundUnderWay round;
  round.budgets = saved.at("budgets").get<std::vector<std::int64_t>>();
  for (const json& cut : saved.at("cut"))
    round.cut.push_back(cut.get<bool>());
  if (round.budgets.size() != units) {
    throw std::invalid_argument(fmt::format("round_under_way: {} budgets for a cut of {} units",
                                            round.budgets.size(), units));
  }
  return round;
}

class CutUnits {
 public:
  explicit CutUnits(std::vector<Unit>& units) : units_(units) {}

  bool operator()(int depth, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::key && depth == 1) {
      in_cut_ = parsed.get_ref<const std::string&>() == "cut";
    }
    if (!ends_value(event) || depth != 2 || !in_cut_) return true;
    units_.push_back(unit_from_saved(parsed, units_.size()));
    return false;
  }

 private:
  std::vector<Unit>& units_;
  bool in_cut_ = false;
};

}  // namespace

bool Checkpoint::saved_units(std::optional<SavedCut>& cut, std::string& error) const {
  std::lock_guard lock(file_->mutex);
  cut.reset();
  if (file_->path.empty()) return true;
  try {
    SavedCut out;
    json rest;  // the cut without its units, which are in out.units
    if (parsed_ != nullptr) {
      if (!parsed_->contains("units") || !parsed_->at("units").contains(scope_)) return true;
      const json& saved_cut = parsed_->at("units").at(scope_);
      require_shape(saved_cut, kCutFields, kCutOptional, "");
      for (const json& saved : saved_cut.at("cut"))
        out.units.push_back(unit_from_saved(saved, out.units.size()));
      rest = json{{"cut", json::array()},
                  {"sizing_rounds", saved_cut.at("sizing_rounds")},
                  {"sizing_finished", saved_cut.at("sizing_finished")}};
      if (saved_cut.contains("round_under_way"))
        rest["round_under_way"] = saved_cut.at("round_under_way");
    } else {
      auto it = file_->units.find(scope_);
      if (it == file_->units.end()) return true;
      rest = json::parse(it->second, CutUnits(out.units));
    }
    require_shape(rest, kCutFields, kCutOptional, "");
    out.sizing_rounds = rest.at("sizing_rounds").get<int>();
    out.sizing_finished = rest.at("sizing_finished").get<bool>();
    if (rest.contains("round_under_way")) {
      if (out.sizing_finished) {
        throw std::invalid_argument("a finished sizing has no round under way");
      }
      out.round_under_way = round_from_saved(rest.at("round_under_way"), out.units.size());
    }
    cut = std::move(out);
  } catch (const std::exception& e) {
    error = cut_refused(file_->path, scope_, e.what());
    return false;
  }
  return true;
}

void Checkpoint::save_units(const SavedCut& cut, const std::map<std::size_t, UnitResult>& done,
                            const std::map<std::size_t, UnitProgress>& partial) {
  std::lock_guard lock(file_->mutex);
  if (file_->path.empty()) return;
  // A unit's document at a time (the whole cut's would take many times its text).
  std::string units;
  for (const Unit& u : cut.units) {
    if (!units.empty()) units += ',';
    units += json{{"plan", u.plan},
                  {"thread", u.thread},
                  {"lineage", u.lineage},
                  {"path", nodes_to_json(u.path)}}
                 .dump();
  }
  CONTEND_ASSERT(!(cut.sizing_finished && cut.round_under_way),
                 "a finished sizing has no round under way");
  json rest{{"sizing_finished", cut.sizing_finished}, {"sizing_rounds", cut.sizing_rounds}};
  if (cut.round_under_way) {
    CONTEND_ASSERT(cut.round_under_way->budgets.size() == cut.units.size(),
                   "a round under way gives every unit of the cut a budget");
    rest["round_under_way"] =
        json{{"budgets", cut.round_under_way->budgets}, {"cut", cut.round_under_way->cut}};
  }
  file_->units[scope_] = cut_text(units, rest);
  file_->scopes.erase(scope_);
  file_->in_progress.erase(scope_);
  runs_counted_.clear();
  for (const auto& [index, result] : done)
    finished_locked(index, result);
  for (const auto& [index, progress] : partial) {
    if (!progress.result.violation) progressed_locked(index, progress.result, progress.explorer);
  }
  write_locked();
}

void Checkpoint::progressed(std::size_t unit, const UnitResult& result,
                            const DporProgress& progress, bool may_write) {
  std::lock_guard lock(file_->mutex);
  if (file_->path.empty()) return;
  progressed_locked(unit, result, progress);
  if (may_write && file_->unwritten_runs >= write_every()) write_locked();
}

void Checkpoint::progressed_locked(std::size_t unit, const UnitResult& result,
                                   const DporProgress& progress) {
  CONTEND_ASSERT(!result.violation, "a unit that found a violation saves no progress");
  file_->in_progress[scope_][std::to_string(unit)] =
      json{{"explorer", progress_to_json(progress)}, {"result", to_json(result)}}.dump();
  file_->unwritten = true;
  count_runs_locked(unit, result);
}

void Checkpoint::flush() {
  std::lock_guard lock(file_->mutex);
  if (!file_->path.empty() && file_->unwritten) write_locked();
}

std::string Checkpoint::write_error() const {
  std::lock_guard lock(file_->mutex);
  return file_->write_error;
}

namespace {
constexpr std::size_t kWriteBufferBytes = std::size_t{1} << 20;
}  // namespace

void Checkpoint::write_locked() {
  CONTEND_ASSERT(parsed_ == nullptr, "a read-only checkpoint is never written");
  CheckpointFile& f = *file_;
  f.unwritten = false;
  f.unwritten_runs = 0;
  const std::string temporary = f.path + ".tmp";
  bool written = false;
  {
    // The parts go to the file one by one: put together first, a sized hc-queue 4 x 2 search's
    // file took another 500 MB at each write.
    std::vector<char> buffer(kWriteBufferBytes);
    std::ofstream out;
    out.rdbuf()->pubsetbuf(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    out.open(temporary, std::ios::binary);
    // "search" first, so that a file of another search is refused before the rest is read; the
    // other keys in the order a JSON document of the file would dump them.
    out << "{\"search\":" << json(f.identity).dump();
    out << ",\"in_progress\":";
    write_value(out, f.in_progress);
    out << ",\"scopes\":";
    write_value(out, f.scopes);
    if (!f.units.empty()) {
      out << ",\"units\":";
      write_value(out, f.units);
    }
    out << "}";
    const std::streamoff bytes = out.tellp();
    out << "\n";
    out.flush();
    written = out.good();
    if (written) f.last_write_bytes = static_cast<std::int64_t>(bytes);
  }
  if (written && std::rename(temporary.c_str(), f.path.c_str()) == 0) return;
  std::remove(temporary.c_str());
  if (f.write_error.empty()) {
    f.write_error = f.path + ": cannot write the checkpoint (" +
                    (written ? "renaming " + temporary + " over it failed"
                             : "writing " + temporary + " failed") +
                    ")";
  }
}

}  // namespace contend
