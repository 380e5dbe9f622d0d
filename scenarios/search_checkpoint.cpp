#include "scenarios/search_checkpoint.h"

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "base/invariant.h"
#include "scenarios/dpor_progress_json.h"

namespace contend {

namespace {

using nlohmann::json;

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

UnitResult unit_from_json(const json& j) {
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
  return r;
}

void append_value(std::string& text, const std::string& dumped) {
  text += dumped;
}

// A JSON object, in key order, of values dumped already or of such objects.
template <typename Value>
void append_value(std::string& text, const std::map<std::string, Value>& object) {
  text += '{';
  for (const auto& [key, value] : object) {
    if (text.back() != '{') text += ',';
    text += json(key).dump();
    text += ':';
    append_value(text, value);
  }
  text += '}';
}

// Whether a parser callback's event ends a value (an object, an array or a scalar): what a
// callback keeps or leaves out of the document.
bool ends_value(json::parse_event_t event) {
  return event == json::parse_event_t::object_end || event == json::parse_event_t::array_end ||
         event == json::parse_event_t::value;
}

std::size_t unit_index(const std::string& key) {
  std::size_t used = 0;
  const unsigned long long index = std::stoull(key, &used);
  if (used != key.size()) throw std::invalid_argument("unit \"" + key + "\" is not a number");
  return static_cast<std::size_t>(index);
}

}  // namespace

bool Checkpoint::load(std::map<std::size_t, UnitResult>& done,
                      std::map<std::size_t, UnitProgress>& partial, std::string& error) {
  std::lock_guard lock(mutex_);
  if (path_.empty()) return true;
  std::ifstream in(path_, std::ios::binary);
  if (in) {
    if (!read_locked(in, done, partial, error)) return false;
  }
  write_locked();  // a path that cannot be written is refused before the search, not after it
  error = write_error_;
  return error.empty();
}

namespace {

// parse_checkpoint_file's filter: drops `in_progress.<scope>.<unit>.explorer` and
// `units.<scope>.cut[i].path` of the units `keep` leaves out (depths as nlohmann's parser
// callback counts them: a key's is that of the object it is in, from 1 for the file's).
class KeepShardsUnits {
 public:
  explicit KeepShardsUnits(Shard keep) : keep_(keep) {}

  bool operator()(int depth, json::parse_event_t event, json& parsed) {
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
  std::string top_;           // the file's key we are under
  std::string key_in_scope_;  // the last key inside a scope (units: "cut"; in_progress: a unit)
  std::uint64_t next_cut_unit_ = 0;
  bool cut_unit_kept_ = true;
  bool running_unit_kept_ = true;
};

}  // namespace

ParsedCheckpoint parse_checkpoint_file(const std::string& path, Shard keep, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = path + ": cannot read it";
    return nullptr;
  }
  try {
    return std::make_shared<const json>(json::parse(in, KeepShardsUnits(keep)));
  } catch (const std::exception& e) {
    error = path + ": not a contend checkpoint: " + e.what();
    return nullptr;
  }
}

bool Checkpoint::load_read_only(std::map<std::size_t, UnitResult>& done,
                                std::map<std::size_t, UnitProgress>& partial, std::string& error) {
  std::lock_guard lock(mutex_);
  CONTEND_ASSERT(parsed_ != nullptr, "a read-only checkpoint reads a parsed file");
  try {
    return read_scope(*parsed_, done, partial, error);
  } catch (const std::exception& e) {
    error = path_ + ": not a contend checkpoint: " + e.what();
    return false;
  }
}

namespace {

// A unit in progress as saved: its result and, unless parse_checkpoint_file left it out, where its
// search stands (without it, its progress is empty: it belongs to no unit, so it is taken only
// where its unit is not searched).
UnitProgress unit_progress_from_json(const std::string& unit, const json& saved) {
  DporProgress explorer;
  if (saved.contains("explorer")) {
    std::string why;
    std::optional<DporProgress> read = progress_from_json(saved.at("explorer"), why);
    if (!read) throw std::invalid_argument("unit " + unit + ": " + why);
    explorer = std::move(*read);
  }
  return UnitProgress{unit_from_json(saved.at("result")), std::move(explorer)};
}

// Checkpoint::read_locked's parse: each unit's value (`scopes.<scope>.<unit>`,
// `in_progress.<scope>.<unit>`) and each scope's cut (`units.<scope>`) is kept as its text and
// left out of the document, so that no more than one of them is ever a document (depths as
// KeepShardsUnits counts them; a value's is that of the object it is in).
class UnitsAsText {
 public:
  UnitsAsText(std::map<std::string, Checkpoint::TextByKey>& scopes,
              std::map<std::string, Checkpoint::TextByKey>& in_progress,
              Checkpoint::TextByKey& units)
      : scopes_(scopes), in_progress_(in_progress), units_(units) {}

  bool operator()(int depth, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::key) {
      const std::string& key = parsed.get_ref<const std::string&>();
      if (depth <= 3) (depth == 1 ? top_ : depth == 2 ? scope_ : unit_) = key;
      return true;
    }
    if (!ends_value(event)) return true;
    if (depth == 3 && (top_ == "scopes" || top_ == "in_progress")) {
      (top_ == "scopes" ? scopes_ : in_progress_)[scope_][unit_] = parsed.dump();
      return false;
    }
    if (depth == 2 && top_ == "units") {
      units_[scope_] = parsed.dump();
      return false;
    }
    return true;
  }

 private:
  std::map<std::string, Checkpoint::TextByKey>& scopes_;
  std::map<std::string, Checkpoint::TextByKey>& in_progress_;
  Checkpoint::TextByKey& units_;
  std::string top_;  // the keys we are under: the file's, a scope, a unit
  std::string scope_;
  std::string unit_;
};

}  // namespace

bool Checkpoint::read_locked(std::istream& in, std::map<std::size_t, UnitResult>& done,
                             std::map<std::size_t, UnitProgress>& partial, std::string& error) {
  try {
    // What is left of the file once its units are text: the search, and every scope's name.
    const json rest = json::parse(in, UnitsAsText(scopes_, in_progress_, units_));
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
        (key == "scopes" ? scopes_ : in_progress_)[scope];
      }
    }
    if (!rest.contains("scopes") || !rest.contains("in_progress")) {
      throw std::invalid_argument("no \"scopes\" or no \"in_progress\"");
    }
    if (auto finished = scopes_.find(scope_); finished != scopes_.end()) {
      for (const auto& [unit, text] : finished->second)
        done[unit_index(unit)] = unit_from_json(json::parse(text));
    }
    if (auto running = in_progress_.find(scope_); running != in_progress_.end()) {
      for (const auto& [unit, text] : running->second)
        partial[unit_index(unit)] = unit_progress_from_json(unit, json::parse(text));
    }
  } catch (const std::exception& e) {
    error = path_ + ": not a contend checkpoint: " + e.what();
    return false;
  }
  return true;
}

bool Checkpoint::is_this_search(const json& file, std::string& error) const {
  if (file.at("search").get<std::string>() != identity_) {
    error = path_ + ": checkpoint of another search (" + file.at("search").get<std::string>() +
            "); remove it or name another file";
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
      done[unit_index(unit)] = unit_from_json(result);
  }
  if (const json& running = file.at("in_progress"); running.contains(scope_)) {
    for (const auto& [unit, saved] : running.at(scope_).items())
      partial[unit_index(unit)] = unit_progress_from_json(unit, saved);
  }
  return true;
}

void Checkpoint::finished(std::size_t unit, const UnitResult& result) {
  std::lock_guard lock(mutex_);
  if (path_.empty()) return;
  finished_locked(unit, result);
  if (unwritten_runs_ >= write_every()) write_locked();
}

void Checkpoint::finished_locked(std::size_t unit, const UnitResult& result) {
  // A unit that found a violation (a search for every violation goes on to its end) is not kept:
  // the file does not hold counterexamples, so a resumed search runs it again to rebuild one.
  if (!result.exhausted || result.violation) return;
  const std::string key = std::to_string(unit);
  scopes_[scope_][key] = to_json(result).dump();
  if (auto running = in_progress_.find(scope_); running != in_progress_.end()) {
    running->second.erase(key);
  }
  unwritten_ = true;
  count_runs_locked(unit, result);
}

void Checkpoint::count_runs_locked(std::size_t unit, const UnitResult& result) {
  const std::int64_t made = result.executions + result.blocked - result.resumed;
  std::int64_t& counted = runs_counted_[unit];
  unwritten_runs_ += std::max<std::int64_t>(made - counted, 0);
  counted = std::max(counted, made);
}

std::int64_t Checkpoint::write_every() const {
  return std::max(write_every_min_, last_write_bytes_ / kBytesPerRun);
}

namespace {

// One unit of a saved cut. Throws when malformed.
Unit unit_from_saved(const json& saved) {
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

// A cut's text parsed a unit at a time: each element of its "cut" becomes a Unit as soon as it is
// parsed and is left out of the document (the whole cut's would take many times its text).
class CutUnits {
 public:
  explicit CutUnits(std::vector<Unit>& units) : units_(units) {}

  bool operator()(int depth, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::key && depth == 1) {
      in_cut_ = parsed.get_ref<const std::string&>() == "cut";
    }
    if (!ends_value(event) || depth != 2 || !in_cut_) return true;
    units_.push_back(unit_from_saved(parsed));
    return false;
  }

 private:
  std::vector<Unit>& units_;
  bool in_cut_ = false;
};

}  // namespace

bool Checkpoint::saved_units(std::optional<SavedCut>& cut, std::string& error) const {
  std::lock_guard lock(mutex_);
  cut.reset();
  if (path_.empty()) return true;
  try {
    SavedCut out;
    json rest;  // the cut without its units, which are in out.units
    if (parsed_ != nullptr) {
      if (!parsed_->contains("units") || !parsed_->at("units").contains(scope_)) return true;
      const json& saved_cut = parsed_->at("units").at(scope_);
      for (const json& saved : saved_cut.at("cut"))
        out.units.push_back(unit_from_saved(saved));
      rest = json{{"sizing_rounds", saved_cut.at("sizing_rounds")},
                  {"sizing_finished", saved_cut.at("sizing_finished")}};
    } else {
      auto it = units_.find(scope_);
      if (it == units_.end()) return true;
      rest = json::parse(it->second, CutUnits(out.units));
      if (!rest.at("cut").is_array()) throw std::invalid_argument("\"cut\" is not an array");
    }
    out.sizing_rounds = rest.at("sizing_rounds").get<int>();
    out.sizing_finished = rest.at("sizing_finished").get<bool>();
    if (out.sizing_rounds < 0) throw std::invalid_argument("negative sizing_rounds");
    cut = std::move(out);
  } catch (const std::exception& e) {
    error = path_ + ": its units are not a contend checkpoint's: " + e.what();
    return false;
  }
  return true;
}

void Checkpoint::save_units(const SavedCut& cut, const std::map<std::size_t, UnitResult>& done,
                            const std::map<std::size_t, UnitProgress>& partial) {
  std::lock_guard lock(mutex_);
  if (path_.empty()) return;
  // A unit's document at a time (the whole cut's would take many times its text), its keys in
  // the order a document of the cut would dump them.
  std::string text = "{\"cut\":[";
  for (const Unit& u : cut.units) {
    if (text.back() != '[') text += ',';
    text += json{{"plan", u.plan},
                 {"thread", u.thread},
                 {"lineage", u.lineage},
                 {"path", nodes_to_json(u.path)}}
                .dump();
  }
  text += "],\"sizing_finished\":" + json(cut.sizing_finished).dump() +
          ",\"sizing_rounds\":" + json(cut.sizing_rounds).dump() + "}";
  units_[scope_] = std::move(text);
  scopes_.erase(scope_);
  in_progress_.erase(scope_);
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
  std::lock_guard lock(mutex_);
  if (path_.empty()) return;
  progressed_locked(unit, result, progress);
  if (may_write && unwritten_runs_ >= write_every()) write_locked();
}

void Checkpoint::progressed_locked(std::size_t unit, const UnitResult& result,
                                   const DporProgress& progress) {
  CONTEND_ASSERT(!result.violation, "a unit that found a violation saves no progress");
  in_progress_[scope_][std::to_string(unit)] =
      json{{"explorer", progress_to_json(progress)}, {"result", to_json(result)}}.dump();
  unwritten_ = true;
  count_runs_locked(unit, result);
}

void Checkpoint::flush() {
  std::lock_guard lock(mutex_);
  if (!path_.empty() && unwritten_) write_locked();
}

std::string Checkpoint::write_error() const {
  std::lock_guard lock(mutex_);
  return write_error_;
}

void Checkpoint::write_locked() {
  CONTEND_ASSERT(parsed_ == nullptr, "a read-only checkpoint is never written");
  unwritten_ = false;
  unwritten_runs_ = 0;
  const std::string temporary = path_ + ".tmp";
  bool written = false;
  {
    std::ofstream out(temporary, std::ios::binary);
    // The keys in the order a JSON document of the file would dump them.
    std::string text;
    text.reserve(static_cast<std::size_t>(last_write_bytes_) + 4096);
    text += "{\"in_progress\":";
    append_value(text, in_progress_);
    text += ",\"scopes\":";
    append_value(text, scopes_);
    text += ",\"search\":" + json(identity_).dump();
    if (!units_.empty()) {
      text += ",\"units\":";
      append_value(text, units_);
    }
    text += "}";
    out << text << "\n";
    out.flush();
    written = out.good();
    last_write_bytes_ = static_cast<std::int64_t>(text.size());
  }
  if (written && std::rename(temporary.c_str(), path_.c_str()) == 0) return;
  std::remove(temporary.c_str());
  if (write_error_.empty()) {
    write_error_ = path_ + ": cannot write the checkpoint (" +
                   (written ? "renaming " + temporary + " over it failed"
                            : "writing " + temporary + " failed") +
                   ")";
  }
}

}  // namespace contend
