// Fuzz target: a checkpoint file (`explore --checkpoint FILE`, `--deal-from FILE`), which users
// copy, move between machines, and may truncate or edit. The bytes are the file. The target
// resumes checkpoint_search.h's search from it, and deals shard 1/2 from it: each ends with a
// result, or refuses the file with a message that names it, and never crashes; a file refused
// keeps what it held. When the bytes begin with the file's "search" key, its value is set to the
// search's identity first, so that mutations reach past the check that refuses another search's
// file. Its files are the process's own (the suite may run the replay and libFuzzer at once).
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include <fmt/format.h>

#include <unistd.h>

#include "base/invariant.h"
#include "fuzz/checkpoint_search.h"
#include "model/history_json.h"

namespace {

using namespace contend;

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

// A file of this process's under the temporary directory.
std::string temporary(const std::string& name) {
  const std::string own = "contend-checkpoint-fuzz-" + std::to_string(::getpid()) + "-" + name;
  return (std::filesystem::temp_directory_path() / own).string();
}

// The files one input uses, removed when the process exits.
struct OwnFiles {
  std::string checkpoint = temporary("checkpoint.json");
  std::string shard = temporary("shard.json");
  ~OwnFiles() {
    for (const std::string& path : {checkpoint, shard, checkpoint + ".tmp", shard + ".tmp"})
      std::filesystem::remove(path);
  }
};

// The identity the search writes under "search": learnt from a file it saves.
std::string search_identity() {
  const std::string path = temporary("identity.json");
  std::filesystem::remove(path);
  ExhaustiveOptions o = fuzz::checkpoint_options(1);
  o.checkpoint_file = path;
  explore_exhaustively(fuzz::checkpoint_scenario(), o);
  const std::string identity = nlohmann::json::parse(file_text(path)).at("search");
  std::filesystem::remove(path);
  return identity;
}

// The bytes, with the value of a leading "search" key (a JSON string) set to `identity`.
std::string as_this_search(std::string text, const std::string& identity) {
  const std::string key = "{\"search\":\"";
  if (text.rfind(key, 0) != 0) return text;
  std::size_t end = key.size();
  while (end < text.size() && text[end] != '"')
    end += text[end] == '\\' ? 2 : 1;
  if (end >= text.size()) return text;
  return text.replace(key.size() - 1, end + 1 - (key.size() - 1), nlohmann::json(identity).dump());
}

// The keys ("CxO|faults=F") of the scopes a refused search ran before the scope it refused (a
// search runs the smaller scopes first, and is refused where a scope takes its units).
std::set<std::string> searched_before_refusal(const ExhaustiveResult& r) {
  std::set<std::string> keys;
  if (!r.smallest_first) return keys;  // one scope: the one refused
  const Scenario s = fuzz::checkpoint_scenario();
  for (auto [clients, operations] : smaller_scopes(s.clients, s.operations_per_client)) {
    if (clients == r.last_clients && operations == r.last_operations) break;
    keys.insert(fmt::format("{}x{}|faults=0", clients, operations));  // the search places none
  }
  return keys;
}

// The parts of a checkpoint document a refused search may have changed: those of the scopes it
// ran before the one it refused, each by going on with that scope's search. Every other part —
// the refused scope's, the later scopes', any the search does not own — is as it was.
void check_kept_parts(const nlohmann::json& was, const nlohmann::json& after,
                      const std::set<std::string>& searched) {
  CONTEND_ASSERT(was.is_object() && after.is_object(), "a checkpoint written is an object");
  for (const auto& [key, value] : was.items()) {
    CONTEND_ASSERT(after.contains(key), "a refused checkpoint keeps each of its parts");
    if (!value.is_object() || key == "search") {
      CONTEND_ASSERT(after.at(key) == value, "a refused checkpoint keeps what it held");
      continue;
    }
    for (const auto& [scope, part] : value.items()) {
      if (searched.count(scope) != 0) continue;
      CONTEND_ASSERT(after.at(key).contains(scope) && after.at(key).at(scope) == part,
                     "a refused checkpoint keeps the parts of the scopes it did not search");
    }
  }
  for (const auto& [key, value] : after.items()) {
    CONTEND_ASSERT(was.contains(key) || value.is_object(), "a refused checkpoint adds no part");
    if (!value.is_object() || key == "search") continue;
    for (const auto& [scope, part] : value.items()) {
      CONTEND_ASSERT(
          searched.count(scope) != 0 || (was.contains(key) && was.at(key).contains(scope)),
          "a refused checkpoint adds only the parts of the scopes it searched");
    }
  }
}

// A refusal names the file, and loses nothing it held: a file the search read is written back at
// once (so that a path it cannot write is refused before the search), and may be refused later,
// when a scope takes its units, after the smaller scopes went on with their searches; the text it
// writes back holds every other part as it was.
void check_refusal(const ExhaustiveResult& r, const std::string& path, const std::string& before) {
  if (r.error.empty()) return;
  CONTEND_ASSERT(r.error.find(path) != std::string::npos, "a refused checkpoint is named");
  const std::string after = file_text(path);
  if (after == before) return;
  // (Too deep to parse here without overflowing the stack, as the search's reader once did.)
  CONTEND_ASSERT(model::json_nesting_depth(before, model::kMaxJsonDepth) <= model::kMaxJsonDepth,
                 "a file nested too deep is refused before it is written");
  const auto document = [](const std::string& text) {
    return nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  };
  const nlohmann::json was = document(before);
  CONTEND_ASSERT(!was.is_discarded(), "a file that is not JSON is refused before it is written");
  check_kept_parts(was, document(after), searched_before_refusal(r));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string identity = search_identity();
  static const OwnFiles files;
  const std::string& checkpoint = files.checkpoint;
  const std::string& shard_file = files.shard;
  const std::string text =
      as_this_search(std::string(reinterpret_cast<const char*>(data), size), identity);
  const Scenario s = fuzz::checkpoint_scenario();

  write_file(checkpoint, text);
  ExhaustiveOptions resume = fuzz::checkpoint_options(6);
  resume.checkpoint_file = checkpoint;
  check_refusal(explore_exhaustively(s, resume), checkpoint, text);

  write_file(checkpoint, text);
  std::filesystem::remove(shard_file);
  ExhaustiveOptions deal = fuzz::checkpoint_options(6);
  deal.deal_from = checkpoint;
  deal.shard = Shard{1, 2};
  deal.checkpoint_file = shard_file;
  check_refusal(explore_exhaustively(s, deal), checkpoint, text);
  return 0;
}
