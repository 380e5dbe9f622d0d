#include "sim/recipes/recipe.h"

#include <algorithm>
#include <deque>

#include "base/invariant.h"

namespace contend {

namespace {
Task<OpResult> unsupported(std::string_view what) {
  OpResult r;
  r.status = OpStatus::fail;
  r.note = std::string("operation not offered by this recipe: ") + std::string(what);
  co_return r;
}
}  // namespace

Task<OpResult> Recipe::enqueue(Database, std::string) {
  return unsupported("enqueue");
}
Task<OpResult> Recipe::dequeue(Database) {
  return unsupported("dequeue");
}
Task<OpResult> Recipe::push(Database, std::string, std::int64_t) {
  return unsupported("push");
}
Task<OpResult> Recipe::pop(Database, bool) {
  return unsupported("pop");
}
Task<OpResult> Recipe::peek(Database, bool) {
  return unsupported("peek");
}

std::string random_bytes(const Database& db, std::size_t n) {
  CONTEND_ASSERT(db.env != nullptr && n <= 1024, "a few random bytes from the client's stream");
  return db.env->random_bytes(db.client, n);
}

std::string random_suffix(const Database& db, BytesView prefix, std::size_t n) {
  CONTEND_ASSERT(db.env != nullptr && n >= 9 && n <= 64,
                 "a key suffix of 9 to 64 bytes: room to sort, and an 8-byte id (suffix_draws.h)");
  return db.env->random_suffix(db.client, prefix, n);
}

namespace {
std::deque<RecipeInfo>& added_recipes() {
  static std::deque<RecipeInfo> added;  // a deque keeps pointers to entries stable
  return added;
}
}  // namespace

const RecipeInfo* find_recipe(std::string_view name) {
  for (const RecipeInfo& info : added_recipes()) {
    if (info.name == name) return &info;
  }
  for (const RecipeInfo& info : all_recipes()) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

void add_recipe(const RecipeInfo& info) {
  CONTEND_ASSERT(!info.name.empty() && info.make != nullptr, "a recipe has a name and a maker");
  for (RecipeInfo& existing : added_recipes()) {
    if (existing.name == info.name) {
      existing = info;
      return;
    }
  }
  added_recipes().push_back(info);
}

}  // namespace contend
