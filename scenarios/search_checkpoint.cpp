#include "scenarios/search_checkpoint.h"

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
  j["bound_hits"] = r.bound_hits;
  j["seeded_draws"] = r.seeded_draws;
  j["verdicts"] = r.verdicts;
  j["outcomes"] = r.outcomes;
  return j;
}

UnitResult unit_from_json(const json& j) {
  UnitResult r;
  r.exhausted = j.at("exhausted").get<bool>();
  r.executions = j.at("executions").get<std::int64_t>();
  r.blocked = j.at("blocked").get<std::int64_t>();
  r.bound_hits = j.at("bound_hits").get<std::int64_t>();
  r.seeded_draws = j.at("seeded_draws").get<std::int64_t>();
  r.verdicts = j.at("verdicts").get<std::map<std::string, std::int64_t>>();
  r.outcomes = j.at("outcomes").get<std::set<std::string>>();
  r.resumed = r.executions + r.blocked;
  return r;
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
  if (!in) return true;  // nothing saved yet
  try {
    file_ = json::parse(in);
    if (file_.at("search").get<std::string>() != identity_) {
      error = path_ + ": checkpoint of another search (" + file_.at("search").get<std::string>() +
              "); remove it or name another file";
      return false;
    }
    if (const json& scopes = file_.at("scopes"); scopes.contains(scope_)) {
      for (const auto& [unit, result] : scopes.at(scope_).items())
        done[unit_index(unit)] = unit_from_json(result);
    }
    if (const json& running = file_.at("in_progress"); running.contains(scope_)) {
      for (const auto& [unit, saved] : running.at(scope_).items()) {
        std::string why;
        std::optional<DporProgress> explorer = progress_from_json(saved.at("explorer"), why);
        if (!explorer) throw std::invalid_argument("unit " + unit + ": " + why);
        partial[unit_index(unit)] =
            UnitProgress{unit_from_json(saved.at("result")), std::move(*explorer)};
      }
    }
  } catch (const std::exception& e) {
    error = path_ + ": not a contend checkpoint: " + e.what();
    return false;
  }
  return true;
}

void Checkpoint::finished(std::size_t unit, const UnitResult& result) {
  std::lock_guard lock(mutex_);
  if (path_.empty() || !result.exhausted) return;
  file_["scopes"][scope_][std::to_string(unit)] = to_json(result);
  if (file_.contains("in_progress") && file_["in_progress"].contains(scope_)) {
    file_["in_progress"][scope_].erase(std::to_string(unit));
  }
  write_locked();
}

void Checkpoint::progressed(std::size_t unit, const UnitResult& result,
                            const DporProgress& progress) {
  CONTEND_ASSERT(!result.violation, "a unit that found a violation saves no progress");
  std::lock_guard lock(mutex_);
  if (path_.empty()) return;
  file_["in_progress"][scope_][std::to_string(unit)] =
      json{{"result", to_json(result)}, {"explorer", progress_to_json(progress)}};
  write_locked();
}

void Checkpoint::write_locked() {
  file_["search"] = identity_;
  if (!file_.contains("scopes")) file_["scopes"] = json::object();
  if (!file_.contains("in_progress")) file_["in_progress"] = json::object();
  const std::string temporary = path_ + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary);
    out << file_.dump() << "\n";
  }
  std::rename(temporary.c_str(), path_.c_str());
}

}  // namespace contend
