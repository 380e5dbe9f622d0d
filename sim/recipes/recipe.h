// The interface every queue algorithm under test implements, and the registry of recipes by name.
//
// A recipe is written only against the store's transaction API (sim/store), so it reads next to
// the seed code and could run against a real FoundationDB client through an adapter. One Recipe
// object serves every client of a world; per-client state lives in the coroutine frames.
// Each operation reports how it ended in Jepsen's terms: ok (took effect, with its result), fail
// (definitely did not take effect) or info (may or may not have taken effect).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "base/task.h"
#include "model/history.h"
#include "sim/store/retry.h"
#include "sim/store/transaction.h"

namespace contend {

enum class OpStatus : std::uint8_t { ok, fail, info };

struct OpResult {
  OpStatus status = OpStatus::ok;
  std::optional<model::Item> item;  // what a dequeue/pop/peek returned (nothing = empty queue)
  std::string note;                 // why it failed or is indeterminate, for traces
};

class Recipe {
 public:
  virtual ~Recipe() = default;
  // FIFO recipes implement enqueue/dequeue; priority recipes implement push/pop/peek.
  virtual Task<OpResult> enqueue(Database db, std::string value);
  virtual Task<OpResult> dequeue(Database db);
  virtual Task<OpResult> push(Database db, std::string value, std::int64_t priority);
  virtual Task<OpResult> pop(Database db, bool max);
  virtual Task<OpResult> peek(Database db, bool max);
};

enum class RecipeKind : std::uint8_t { fifo, priority };

struct RecipeInfo {
  std::string_view name;
  RecipeKind kind;
  // Whether the recipe is expected to be correct (linearizable, nothing lost or duplicated)
  // without unknown commit results; teaching variants that are known to break say false.
  bool expected_correct;
  std::string_view summary;
  std::unique_ptr<Recipe> (*make)();
  // The sequential spec the recipe guarantees when correct: "" = the kind's own (fifo or
  // priority); the high-contention variants guarantee only "multiset" (docs/checkers.md).
  std::string_view spec = "";
};

std::span<const RecipeInfo> all_recipes();
// Finds a shipped recipe, or one added with add_recipe.
const RecipeInfo* find_recipe(std::string_view name);
// Makes a recipe written outside contend (a user's own, in their own test) available by name.
// A name already registered is replaced. Call before running scenarios that use it.
void add_recipe(const RecipeInfo& info);

// ---- helpers shared by recipes ----

// n random bytes from the client's stream (the recipes' os.urandom(16) for unique ids, whose
// values matter only as being distinct): an exhaustive search covers the seed's values.
std::string random_bytes(const Database& db, std::size_t n);
// n (9 to 64) random bytes to follow `prefix` in a key (os.urandom(20) after an index), where the
// suffix decides only how the key sorts among keys with the same prefix (and, as an id, differs
// from every other suffix). An exhaustive search with `--draws all` explores every such order
// (Environment::random_suffix), so a recipe may use the bytes as an id, but must not order them
// in any other way (under another prefix, or by their values).
std::string random_suffix(const Database& db, BytesView prefix, std::size_t n);

// Maps a run() loop's outcome to an operation outcome: ok on success; fail when no attempt can
// have taken effect; info when some attempt may have (commit_unknown_result) or the loop gave up
// after one might have.
template <class T>
OpResult outcome_of(const RunResult<T>& r) {
  OpResult out;
  if (r.ok()) return out;
  out.status =
      r.maybe_committed_earlier || maybe_committed(r.error) ? OpStatus::info : OpStatus::fail;
  out.note =
      std::string(error_name(r.error)) + (r.retry_limit_reached ? " (retry limit reached)" : "");
  return out;
}

}  // namespace contend
