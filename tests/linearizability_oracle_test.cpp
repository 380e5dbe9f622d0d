// The linearizability search and the fast checkers against a brute-force oracle written apart
// from them. The checkers' other property tests compare the fast checkers with the search, so a
// mistake the two share (how real time is read from timestamps, what an indeterminate or failed
// operation may do, a spec's tie rule, a memo that merges unequal states) would pass them. Here
// random small histories — arbitrary, not linearizable by construction: repeated values, wrong
// answers, crashes, failures, operations still in flight, equal timestamps — are judged by
// trying every order of every subset of the operations that may have taken effect, on
// sequential queues of the oracle's own, with real-time order read from the raw events.
//
// Asserted: the search says linearizable exactly when the oracle finds a linearization; the
// linearization it returns is one (the oracle replays it); a violation's longest prefix is a
// linearizable prefix; the fast checkers' violations are real and their exact passes are
// linearizable; the accounting's findings (lost, duplicated, unexpected) are real.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "model/accounting.h"
#include "model/fast_check.h"
#include "model/history_json.h"
#include "model/item_projection.h"
#include "model/linearizability.h"
#include "model/verdict.h"

namespace contend::model {
namespace {

// ---- the oracle's view of a history: operations paired from the raw events ----

enum class Outcome : std::uint8_t { ok, fail, info, pending };

struct OracleOp {
  std::int64_t invoke_index = 0;
  OpFunction f = OpFunction::enqueue;
  std::optional<Item> input;   // inserts
  std::optional<Item> output;  // ok removes and peeks: the item, or nothing for "empty"
  Outcome outcome = Outcome::pending;
  std::int64_t invoke_time = 0;
  std::int64_t complete_index = -1;  // ok operations only
  std::int64_t complete_time = -1;
};

std::vector<OracleOp> oracle_ops(const History& h) {
  std::vector<OracleOp> ops;
  for (const Event& e : h) {
    if (e.type != EventType::invoke) continue;
    OracleOp op;
    op.invoke_index = e.index;
    op.f = e.f;
    op.invoke_time = e.time_us;
    if (is_insert(e.f)) op.input = e.value;
    for (const Event& c : h) {  // the process's next event completes this invocation
      if (c.index <= e.index || c.process != e.process) continue;
      if (c.type == EventType::ok) {
        op.outcome = Outcome::ok;
        op.complete_index = c.index;
        op.complete_time = c.time_us;
        if (!is_insert(e.f)) op.output = c.value;
      } else if (c.type != EventType::invoke) {
        op.outcome = c.type == EventType::fail ? Outcome::fail : Outcome::info;
      }
      break;
    }
    ops.push_back(op);
  }
  return ops;
}

// Whether `a` certainly took effect before `b` was invoked. Only determinate (ok) operations
// have a known end; equal timestamps are concurrent unless the event order is the true one.
bool precedes(const OracleOp& a, const OracleOp& b, TieOrder ties) {
  if (a.outcome != Outcome::ok) return false;
  return ties == TieOrder::event_order ? a.complete_index < b.invoke_index
                                       : a.complete_time < b.invoke_time;
}

// ---- sequential queues: items in insertion order ----

using Queue = std::vector<Item>;

std::int64_t priority_of(const Item& item) {
  return item.priority.value_or(0);
}

// The position a remove or peek of `f` takes under `spec`: the front for FIFO; the smallest
// priority earliest pushed, or the largest priority latest pushed, for the priority queue.
std::size_t chosen(SpecKind spec, OpFunction f, const Queue& q) {
  if (spec == SpecKind::fifo) return 0;
  const bool max = f == OpFunction::pop_max || f == OpFunction::peek_max;
  std::size_t best = 0;
  for (std::size_t i = 1; i < q.size(); ++i) {
    const std::int64_t p = priority_of(q[i]), b = priority_of(q[best]);
    if (max ? p >= b : p < b) best = i;
  }
  return best;
}

// Every queue the operation may leave (none when its answer is impossible).
std::vector<Queue> after(SpecKind spec, const OracleOp& op, const Queue& q) {
  if (is_insert(op.f)) {
    Queue next = q;
    next.push_back(*op.input);
    return {next};
  }
  const bool remove = is_remove(op.f);
  if (op.outcome != Outcome::ok) {  // it took effect, its answer unknown
    if (!remove || q.empty()) return {q};
    std::vector<Queue> out;
    for (std::size_t i = 0; i < q.size(); ++i) {
      if (spec != SpecKind::multiset && i != chosen(spec, op.f, q)) continue;
      Queue next = q;
      next.erase(next.begin() + static_cast<std::ptrdiff_t>(i));
      out.push_back(next);
    }
    return out;
  }
  if (!op.output) {  // "empty": true of an empty queue, and of a multiset at any time
    return q.empty() || spec == SpecKind::multiset ? std::vector<Queue>{q} : std::vector<Queue>{};
  }
  std::vector<Queue> out;
  for (std::size_t i = 0; i < q.size(); ++i) {
    if (spec != SpecKind::multiset && i != chosen(spec, op.f, q)) continue;
    if (q[i] != *op.output) continue;
    Queue next = q;
    if (remove) next.erase(next.begin() + static_cast<std::ptrdiff_t>(i));
    out.push_back(next);
  }
  return out;
}

// ---- the oracle: every order of every subset that respects real time ----

struct Oracle {
  const std::vector<OracleOp>& ops;
  SpecKind spec;
  TieOrder ties;
  bool drained;
  std::set<std::pair<std::uint32_t, std::vector<std::pair<std::string, std::int64_t>>>> dead;

  static std::vector<std::pair<std::string, std::int64_t>> key_of(SpecKind spec, const Queue& q) {
    std::vector<std::pair<std::string, std::int64_t>> key;
    for (const Item& item : q)
      key.emplace_back(item.value, item.priority.value_or(-1));
    if (spec == SpecKind::multiset) std::sort(key.begin(), key.end());
    return key;
  }

  bool placeable(std::uint32_t placed, std::size_t i) const {
    if ((placed >> i) & 1U || ops[i].outcome == Outcome::fail) return false;
    for (std::size_t p = 0; p < ops.size(); ++p) {
      if (!((placed >> p) & 1U) && precedes(ops[p], ops[i], ties)) return false;
    }
    return true;
  }

  bool complete(std::uint32_t placed, const Queue& q) const {
    for (std::size_t i = 0; i < ops.size(); ++i) {
      if (ops[i].outcome == Outcome::ok && !((placed >> i) & 1U)) return false;
    }
    return !drained || q.empty();
  }

  bool linearizable(std::uint32_t placed, const Queue& q) {
    if (complete(placed, q)) return true;
    auto memo = std::make_pair(placed, key_of(spec, q));
    if (dead.contains(memo)) return false;
    for (std::size_t i = 0; i < ops.size(); ++i) {
      if (!placeable(placed, i)) continue;
      for (const Queue& next : after(spec, ops[i], q)) {
        if (linearizable(placed | (1U << i), next)) return true;
      }
    }
    dead.insert(std::move(memo));
    return false;
  }
};

bool oracle_linearizable(const History& h, SpecKind spec, TieOrder ties, bool drained) {
  const std::vector<OracleOp> ops = oracle_ops(h);
  RC_ASSERT(ops.size() <= 31U);
  Oracle oracle{ops, spec, ties, drained, {}};
  return oracle.linearizable(0, {});
}

// Why `order` (invocation indexes) is not a linearizable prefix — an operation placed before
// one that precedes it, or one the queue cannot answer — or, with `whole`, not a complete
// linearization; nothing when it is.
std::optional<std::string> replay_error(const History& h, SpecKind spec, TieOrder ties,
                                        bool drained, const std::vector<std::int64_t>& order,
                                        bool whole) {
  const std::vector<OracleOp> ops = oracle_ops(h);
  Oracle oracle{ops, spec, ties, drained, {}};
  std::uint32_t placed = 0;
  std::vector<Queue> queues{Queue{}};
  for (std::size_t step = 0; step < order.size(); ++step) {
    const std::string at =
        "step " + std::to_string(step) + " (invocation " + std::to_string(order[step]) + "): ";
    auto it = std::find_if(ops.begin(), ops.end(),
                           [&](const OracleOp& op) { return op.invoke_index == order[step]; });
    if (it == ops.end()) return at + "no such operation";
    const auto i = static_cast<std::size_t>(it - ops.begin());
    if (!oracle.placeable(placed, i)) return at + "placed twice, failed, or before a predecessor";
    placed |= 1U << i;
    std::vector<Queue> next;
    for (const Queue& q : queues) {
      for (Queue& n : after(spec, ops[i], q))
        next.push_back(std::move(n));
    }
    if (next.empty()) return at + "the queue cannot give this answer here";
    queues = std::move(next);
  }
  const bool ends = std::any_of(queues.begin(), queues.end(),
                                [&](const Queue& q) { return oracle.complete(placed, q); });
  if (whole && !ends)
    return std::string("the order leaves a completed operation out, or the queue not drained");
  return std::nullopt;
}

// ---- arbitrary small histories ----

struct Shape {
  SpecKind spec = SpecKind::fifo;
  TieOrder ties = TieOrder::event_order;
  bool drained = false;
  // Each insert a value of its own, and removes and peeks mostly answering an item invoked so
  // far: histories where items are told apart and seen from both ends, as the search's orders
  // between inserts (model/insert_precedence.h) need to come into play.
  bool distinct_items = false;
};

OpFunction any_function(SpecKind spec) {
  const bool fifo =
      spec == SpecKind::fifo || (spec == SpecKind::multiset && *rc::gen::arbitrary<bool>());
  if (fifo) return *rc::gen::element(OpFunction::enqueue, OpFunction::enqueue, OpFunction::dequeue);
  return *rc::gen::element(OpFunction::push, OpFunction::push, OpFunction::pop_min,
                           OpFunction::pop_max, OpFunction::peek_min, OpFunction::peek_max);
}

Item any_item(OpFunction f) {
  Item item{*rc::gen::element<std::string>("a", "b", "c"), std::nullopt};
  if (f != OpFunction::enqueue && f != OpFunction::dequeue) item.priority = *rc::gen::inRange(0, 2);
  return item;
}

// An insert's item: with distinct items a fresh value (its priority drawn as any_item's).
Item insert_item(const Shape& shape, OpFunction f, std::size_t inserted) {
  Item item = any_item(f);
  if (shape.distinct_items) item.value = "v" + std::to_string(inserted);
  return item;
}

// A determinate remove's or peek's answer: with distinct items mostly an item invoked so far.
Item answer_item(const Shape& shape, OpFunction f, const std::vector<Item>& inserted) {
  if (!shape.distinct_items || inserted.empty() || *rc::gen::inRange(0, 8) == 0) return any_item(f);
  return inserted[*rc::gen::inRange<std::size_t>(0, inserted.size())];
}

History arbitrary_history(const Shape& shape) {
  struct Process {
    std::int64_t id = 0;
    std::optional<Event> in_flight;
  };
  const int operations = *rc::gen::inRange(1, 11);
  std::vector<Process> processes(static_cast<std::size_t>(*rc::gen::inRange(1, 5)));
  std::int64_t next_id = 0;
  for (Process& p : processes)
    p.id = next_id++;
  History h;
  std::int64_t clock = 0;
  auto emit = [&](Event e) {
    e.index = static_cast<std::int64_t>(h.size());
    clock += *rc::gen::inRange(0, 2);
    e.time_us = clock;
    h.push_back(std::move(e));
  };
  int invoked = 0;
  std::vector<Item> inserted;
  for (int guard = 0; guard < 200; ++guard) {
    Process& p = processes[*rc::gen::inRange<std::size_t>(0, processes.size())];
    if (!p.in_flight) {
      if (invoked == operations) break;
      ++invoked;
      Event e;
      e.process = p.id;
      e.f = any_function(shape.spec);
      if (is_insert(e.f)) {
        e.value = insert_item(shape, e.f, inserted.size());
        inserted.push_back(*e.value);
      }
      p.in_flight = e;
      emit(e);
      continue;
    }
    Event e = *p.in_flight;
    e.type = *rc::gen::element(EventType::ok, EventType::ok, EventType::ok, EventType::ok,
                               EventType::info, EventType::fail);
    if (!is_insert(e.f)) {
      e.value.reset();
      if (e.type == EventType::ok && *rc::gen::inRange(0, 4) != 0)
        e.value = answer_item(shape, e.f, inserted);
    }
    emit(e);
    p.in_flight.reset();
    if (e.type == EventType::info) p.id = next_id++;  // a crashed process never invokes again
  }
  return h;  // operations still in flight stay so: indeterminate
}

// A part of one item or two with no linearization proves the whole has none
// (model/item_projection.h): every such part, overlapping or not, is held to the oracle.
void judge_parts(const History& h, const Shape& shape, bool expected) {
  const Operations ops = operations_of(h, shape.ties);
  const ItemProjections parts(ops);
  const std::vector<ItemId>& items = parts.items();
  const SearchOptions options{.drained = shape.drained, .ties = shape.ties};
  for (std::size_t i = 0; i < items.size(); ++i) {
    for (std::size_t j = i; j < items.size(); ++j) {
      const std::vector<ItemId> chosen =
          i == j ? std::vector<ItemId>{items[i]} : std::vector<ItemId>{items[i], items[j]};
      const Operations part = parts.project(chosen);
      const Verdict v = check_linearizable(part, shape.spec, options);
      RC_ASSERT(v.kind != VerdictKind::unknown);
      if (v.kind == VerdictKind::violation && expected) {
        RC_FAIL("the part of items " + describe_items(ops, chosen) +
                " has no linearization, yet the history has one: " + v.explanation);
      }
    }
  }
}

void judge(const Shape& shape) {
  const History h = arbitrary_history(shape);
  RC_ASSERT(!validate_history(h).has_value());
  for (const Event& e : h)
    RC_LOG() << to_json_line(e) << "\n";
  const bool expected = oracle_linearizable(h, shape.spec, shape.ties, shape.drained);
  RC_TAG(expected ? "linearizable" : "violation");
  // The order candidates are tried in decides how soon, never what: both orders are held to the
  // oracle, and what each found must replay.
  for (CandidateOrder order : {CandidateOrder::by_observation, CandidateOrder::invocation}) {
    const Verdict search = check_linearizable(
        h, shape.spec, SearchOptions{.drained = shape.drained, .ties = shape.ties, .order = order});
    RC_LOG() << "oracle: " << expected << ", search (order " << static_cast<int>(order)
             << "): " << to_json(search) << "\n";
    RC_ASSERT(search.kind != VerdictKind::unknown);
    RC_ASSERT(search.ok() == expected);
    const std::optional<std::string> wrong =
        replay_error(h, shape.spec, shape.ties, shape.drained, search.longest_prefix, expected);
    if (wrong) {
      RC_FAIL(std::string("the search's ") + (expected ? "linearization" : "longest prefix") +
              " does not replay: " + *wrong);
    }
  }
  judge_parts(h, shape, expected);
  const Verdict fast =
      check_fast(h, shape.spec, FastOptions{.drained = shape.drained, .ties = shape.ties});
  if (fast.kind == VerdictKind::violation) RC_ASSERT(!expected);
  if (fast.ok() && fast.exact) RC_ASSERT(expected);
  // The accounting's findings (lost, duplicated, unexpected) are violations as well: of the
  // drain it was told of or, when not told, of the one it inferred from an empty answer after
  // every acknowledged insert — which the FIFO and priority specs imply, and the multiset's
  // checkers are then held to (model/check.cpp).
  const Accounting accounting = account(
      h, AccountingOptions{shape.drained ? std::optional<bool>(true) : std::nullopt, shape.ties});
  if (accounting_verdict(accounting).kind == VerdictKind::violation) {
    const bool drained = shape.drained || (shape.spec == SpecKind::multiset && accounting.drained);
    RC_ASSERT(!oracle_linearizable(h, shape.spec, shape.ties, drained));
  }
}

RC_GTEST_PROP(LinearizabilityOracle, FifoSearchIsExact, ()) {
  judge({.spec = SpecKind::fifo, .ties = TieOrder::event_order});
}
RC_GTEST_PROP(LinearizabilityOracle, FifoSearchIsExactWithEqualTimesConcurrent, ()) {
  judge({.spec = SpecKind::fifo, .ties = TieOrder::concurrent});
}
RC_GTEST_PROP(LinearizabilityOracle, DrainedFifoSearchIsExact, ()) {
  judge({.spec = SpecKind::fifo, .ties = TieOrder::event_order, .drained = true});
}
RC_GTEST_PROP(LinearizabilityOracle, PrioritySearchIsExact, ()) {
  judge({.spec = SpecKind::priority, .ties = TieOrder::event_order});
}
RC_GTEST_PROP(LinearizabilityOracle, PrioritySearchIsExactWithEqualTimesConcurrent, ()) {
  judge({.spec = SpecKind::priority, .ties = TieOrder::concurrent});
}
RC_GTEST_PROP(LinearizabilityOracle, DrainedPrioritySearchIsExact, ()) {
  judge({.spec = SpecKind::priority, .ties = TieOrder::concurrent, .drained = true});
}
RC_GTEST_PROP(LinearizabilityOracle, FifoSearchIsExactWithDistinctItems, ()) {
  judge({.spec = SpecKind::fifo, .ties = TieOrder::concurrent, .distinct_items = true});
}
RC_GTEST_PROP(LinearizabilityOracle, PrioritySearchIsExactWithDistinctItems, ()) {
  judge({.spec = SpecKind::priority, .ties = TieOrder::event_order, .distinct_items = true});
}
RC_GTEST_PROP(LinearizabilityOracle, DrainedPrioritySearchIsExactWithDistinctItems, ()) {
  judge({.spec = SpecKind::priority,
         .ties = TieOrder::concurrent,
         .drained = true,
         .distinct_items = true});
}
RC_GTEST_PROP(LinearizabilityOracle, MultisetSearchIsExact, ()) {
  judge({.spec = SpecKind::multiset, .ties = TieOrder::concurrent});
}
RC_GTEST_PROP(LinearizabilityOracle, DrainedMultisetSearchIsExact, ()) {
  judge({.spec = SpecKind::multiset, .ties = TieOrder::event_order, .drained = true});
}

}  // namespace
}  // namespace contend::model
