// A queue recipe written outside contend, against the same transaction API the shipped recipes
// use: one file, no registration in contend's sources. This one enqueues under a versionstamped
// key (ordered by commit, after taking a read version so its write conflict range starts past
// every item already there) and, like the seed recipe, dequeues the head with a non-snapshot
// limit-1 read. The broken twin takes the *last* item instead (a LIFO bug).
#include "my_queue.h"

namespace my {

using namespace contend;

namespace {

const keys::Space& items() {
  static const keys::Space space("my-queue");
  return space;
}

class MyQueue final : public Recipe {
 public:
  explicit MyQueue(bool take_last) : take_last_(take_last) {}

  Task<OpResult> enqueue(Database db, std::string value) override {
    auto r = co_await run(db, [&](Transaction& tr) -> Task<void> {
      co_await tr.get_read_version();  // narrows the versionstamp's write conflict range
      tr.atomic_op(MutationType::set_versionstamped_key, items().versionstamped_key(),
                   keys::encode_value(value));
    });
    co_return outcome_of(r);
  }

  Task<OpResult> dequeue(Database db) override {
    const bool last = take_last_;
    auto r = co_await run(db, [last](Transaction& tr) -> Task<std::optional<std::string>> {
      auto rows = co_await tr.get_range(items().range(), {.limit = 1, .reverse = last});
      if (rows.empty()) co_return std::nullopt;
      tr.clear(rows[0].key);
      co_return keys::decode_value(rows[0].value);
    });
    OpResult out = outcome_of(r);
    if (r.ok() && *r.value) out.item = model::Item{**r.value, std::nullopt};
    co_return out;
  }

 private:
  bool take_last_;
};

}  // namespace

const RecipeInfo& my_queue() {
  static const RecipeInfo info{
      "my-queue", RecipeKind::fifo, true, "a user's versionstamp queue",
      []() -> std::unique_ptr<Recipe> { return std::make_unique<MyQueue>(false); }};
  return info;
}

const RecipeInfo& my_broken_queue() {
  static const RecipeInfo info{
      "my-broken-queue", RecipeKind::fifo, false, "takes the last item: LIFO",
      []() -> std::unique_ptr<Recipe> { return std::make_unique<MyQueue>(true); }};
  return info;
}

}  // namespace my
