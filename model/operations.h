// A history's operations: each invocation paired with its completion, placed in real time.
// This is the form every checker works on.
//
// Invariants (for a history that passed validate_history):
// - `fail` operations never took effect and are dropped (their items are kept in `failed_items`
//   so explanations can say why a value came from nowhere);
// - `info` and never-completed operations are indeterminate: `ret` is kForever, `output` empty;
// - operations are numbered in invocation order, `call` is non-decreasing with the id;
// - `call` and `ret` are positions in one real-time order, and operation a precedes operation b
//   exactly when a.ret < b.call. Two ops are concurrent when their closed intervals intersect.
// - items are interned: equal Items (value and priority) have equal ids, so a spec compares ints.
//
// Real-time order at equal timestamps (TieOrder):
//   concurrent   Porcupine's rule: events sorted by time, invocations before completions at equal
//                time — an op that completes at time t is concurrent with one invoked at time t.
//                The safe reading of timestamps measured on real machines (the default).
//   event_order  the event index is the true order (histories recorded by contend's own
//                simulator, which is single-threaded: an event with a larger index happened
//                later even at the same virtual microsecond).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "model/history.h"

namespace contend::model {

inline constexpr std::int64_t kForever = std::numeric_limits<std::int64_t>::max();

enum class TieOrder : std::uint8_t { concurrent, event_order };

using ItemId = std::int32_t;
inline constexpr ItemId kNoItem = -1;

struct Operation {
  std::int64_t id = 0;  // position in Operations::ops (invocation order)
  OpFunction f = OpFunction::enqueue;
  std::int64_t process = 0;
  std::int64_t invoke = 0;           // event index of the invocation
  std::int64_t complete = kForever;  // event index of the completion (kForever if indeterminate)
  std::int64_t invoke_time = 0;      // microseconds, for people
  std::int64_t complete_time = kForever;
  std::int64_t call = 0;        // real-time position of the invocation
  std::int64_t ret = kForever;  // real-time position of the completion; kForever if indeterminate
  bool indeterminate = false;
  std::optional<Item> input;   // inserts: the item
  std::optional<Item> output;  // determinate removes/peeks: the item, or nothing = empty
  ItemId input_id = kNoItem;
  ItemId output_id = kNoItem;

  bool precedes(const Operation& other) const { return ret < other.call; }
  bool empty_result() const { return !is_insert(f) && !indeterminate && !output; }
};

struct Operations {
  std::vector<Operation> ops;
  std::vector<Item> items;                // by ItemId
  std::vector<std::int64_t> failed;       // invocation indexes of operations that failed
  std::vector<std::string> failed_items;  // values of failed inserts
};

// REQUIRES: a history that passed validate_history.
Operations operations_of(const History& history, TieOrder ties = TieOrder::concurrent);

// "dequeue -> 'a' (process 1, events 4..7)" — how explanations and the CLI name an operation.
std::string describe(const Operation& op);
// "[a, b:2]": items by id, as a spec state lists them.
std::string describe_items(const Operations& ops, const std::vector<ItemId>& ids);

}  // namespace contend::model
