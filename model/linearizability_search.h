// The search engine behind linearizability.h, a template over the spec (included from there).
//
// Invariants of the loop (Porcupine's checkSingle, made iterative):
// - `entries_` is a doubly linked list of the not-yet-linearized operations' call and return
//   entries in real-time order; linearizing an op lifts both of its entries out, backtracking
//   relinks them (in LIFO order, so the links are restored exactly);
// - `stack_` holds one frame per linearized op: its call entry, the state before it, and the
//   successor states not yet tried (nondeterministic specs);
// - the candidates are the call entries before the first return entry (that op had to be
//   linearized before anything later); `window_` holds them in the trying order of
//   search_order.h, and once each was tried the search backtracks;
// - a frame's window is the one its level had: backtracking relinks the list exactly, so the
//   window is found again, its entry at the frame's index;
// - `memo_` holds every (linearized set, state) configuration ever entered; entering one twice is
//   pointless (Lowe), so the walk moves on.
#pragma once

#include <algorithm>
#include <numeric>
#include <optional>
#include <unordered_set>
#include <utility>
#include <vector>

#include "base/invariant.h"
#include "model/necessary_orders.h"
#include "model/search_order.h"

namespace contend::model {

namespace search_detail {

struct Entry {
  std::int32_t op = -1;  // -1: the head sentinel
  bool call = false;
  std::int32_t match = -1;  // call <-> return entry of the same op
  std::int32_t prev = -1;
  std::int32_t next = -1;
};

// The linearized set as a bitset with a compact canonical form: [top, holes...], where top is one
// more than the largest linearized op id and holes are the ids below it not linearized. Its size
// stays near the concurrency (plus pending indeterminate ops), not the history length.
class LinearizedSet {
 public:
  explicit LinearizedSet(std::size_t n) : words_((n + 63) / 64, 0) {}
  void set(std::size_t i) {
    words_[i / 64] |= std::uint64_t{1} << (i % 64);
    top_ = std::max(top_, i + 1);
  }
  void clear(std::size_t i) {
    words_[i / 64] &= ~(std::uint64_t{1} << (i % 64));
    while (top_ > 0 && !test(top_ - 1))
      --top_;
  }
  bool test(std::size_t i) const { return (words_[i / 64] >> (i % 64)) & 1; }
  void encode(std::vector<std::uint32_t>& out) const {
    out.clear();
    out.push_back(static_cast<std::uint32_t>(top_));
    for (std::size_t w = 0; w * 64 < top_; ++w) {
      std::uint64_t holes = ~words_[w];
      if (top_ - w * 64 < 64) holes &= (std::uint64_t{1} << (top_ - w * 64)) - 1;
      while (holes != 0) {
        out.push_back(
            static_cast<std::uint32_t>(w * 64 + static_cast<std::size_t>(__builtin_ctzll(holes))));
        holes &= holes - 1;
      }
    }
  }

 private:
  std::vector<std::uint64_t> words_;
  std::size_t top_ = 0;
};

}  // namespace search_detail

template <Spec S>
class LinearizabilitySearch {
 public:
  using State = typename S::State;
  // Specs that hand items out in an order (FIFO, priority), for which at_end and the orders
  // between inserts (necessary_orders.h) hold.
  static constexpr bool kOrdersItems = requires(const S& s, const State& st) {
    s.at_end(st, true);
  };

  LinearizabilitySearch(const Operations& ops, const S& spec, const SearchOptions& options)
      : ops_(ops),
        spec_(spec),
        options_(options),
        set_(ops.ops.size()),
        ranks_(candidate_ranks(ops, options.order)),
        orders_(options.order == CandidateOrder::by_observation && options.keep_necessary_orders
                    ? std::make_optional<NecessaryOrders>(ops, kOrdersItems)
                    : std::nullopt) {
    build_entries();
    for (const Operation& op : ops_.ops) {
      required_ += op.indeterminate ? 0 : 1;
      info_removes_ += op.indeterminate && is_remove(op.f) ? 1 : 0;
    }
  }

  Verdict run() {
    State state = spec_.init();
    std::size_t next = 0;  // the index in window_ of the next candidate to try
    fill_window();
    while (true) {
      if (placed_required_ == required_ && ends_well(state)) return success(state);
      if (next == window_.size()) {
        note_deepest(window_end_, state);
        if (!backtrack(next, state)) return violation();
        continue;
      }
      CONTEND_DEBUG_ASSERT(placed_required_ <= required_ && placed_info_removes_ <= info_removes_,
                           "the search places each operation at most once");
      if (memo_bytes() > options_.memo_budget_bytes) return out_of_budget("memo budget (bytes)");
      const std::int32_t call = window_[next];
      if (cannot_go(op_of(call), state)) {
        ++next;  // the spec says it fails here: no step tried
        continue;
      }
      if (++steps_ > options_.step_budget) return out_of_budget("step budget");
      successors_of(spec_, state, op_of(call), alternatives_);
      if (place(call, next, state, alternatives_)) {
        fill_window();
        next = 0;
      } else {
        ++next;
      }
    }
  }

 private:
  struct Frame {
    std::int32_t entry = -1;
    std::size_t window_index = 0;  // where `entry` stands in its level's window
    State before;
    std::vector<State> untried;
  };
  struct MemoKey {
    std::uint64_t hash = 0;
    std::vector<std::uint32_t> set;
    State state;
    bool operator==(const MemoKey& o) const {
      return hash == o.hash && set == o.set && state == o.state;
    }
  };
  struct MemoHash {
    std::size_t operator()(const MemoKey& k) const { return static_cast<std::size_t>(k.hash); }
  };

  const Operation& op_of(std::int32_t entry) const {
    return ops_.ops[static_cast<std::size_t>(entries_[static_cast<std::size_t>(entry)].op)];
  }

  // Entry 0 is the head; then every call and return in real-time order (indeterminate returns
  // last, at +infinity, in op order).
  void build_entries() {
    const std::size_t n = ops_.ops.size();
    std::vector<std::pair<std::pair<std::int64_t, std::int64_t>, std::int32_t>> order;
    order.reserve(2 * n);
    for (std::size_t i = 0; i < n; ++i) {
      const Operation& op = ops_.ops[i];
      const auto id = static_cast<std::int32_t>(i);
      order.push_back({{op.call, op.id}, 2 * id});
      order.push_back({{op.ret, op.id}, 2 * id + 1});
    }
    std::sort(order.begin(), order.end());
    entries_.assign(2 * n + 1, search_detail::Entry{});
    std::vector<std::int32_t> position(2 * n);
    for (std::size_t k = 0; k < order.size(); ++k)
      position[static_cast<std::size_t>(order[k].second)] = static_cast<std::int32_t>(k + 1);
    std::int32_t prev = 0;
    for (std::size_t k = 0; k < order.size(); ++k) {
      const std::int32_t code = order[k].second;
      auto& e = entries_[k + 1];
      e.op = code / 2;
      e.call = code % 2 == 0;
      e.match = position[static_cast<std::size_t>(code ^ 1)];
      e.prev = prev;
      entries_[static_cast<std::size_t>(prev)].next = static_cast<std::int32_t>(k + 1);
      prev = static_cast<std::int32_t>(k + 1);
    }
  }

  // Whether an operation certainly fails here, with no linearization below it: it would break
  // an order every linearization keeps (necessary_orders.h; not under the invocation-order
  // baseline, which stays Porcupine's walk), or a determinate remove or peek would see another
  // item than it answered (specs with at_end(); the others are stepped). A dequeue waiting for
  // its item to reach the front is skipped so at every place until it does.
  bool cannot_go(const Operation& op, const State& state) const {
    if (orders_ && !orders_->may_go(op.id)) return true;
    if constexpr (kOrdersItems) {
      if (is_insert(op.f) || op.indeterminate) return false;
      if (op.empty_result()) return spec_.size(state) != 0;
      return spec_.at_end(state, takes_back(op.f)) != op.output_id;
    } else {
      return false;
    }
  }

  // The candidates, from the head to the first return entry (window_end_; -1 at the list's
  // end), in the trying order.
  void fill_window() {
    window_.clear();
    std::int32_t e = entries_[0].next;
    for (; e != -1 && entries_[static_cast<std::size_t>(e)].call;
         e = entries_[static_cast<std::size_t>(e)].next) {
      window_.push_back(e);
    }
    window_end_ = e;
    const std::int64_t end_point = e == -1 ? kForever : op_of(e).ret;
    keys_.clear();
    for (std::int32_t candidate : window_)
      keys_.push_back({.id = op_of(candidate).id, .entry = candidate});
    order_window(keys_, ranks_, end_point, [this, e](const WindowCandidate& c) {
      return entries_[static_cast<std::size_t>(c.entry)].match == e;
    });
    for (std::size_t i = 0; i < keys_.size(); ++i)
      window_[i] = keys_[i].entry;
  }

  void unlink(std::int32_t x) {
    auto& e = entries_[static_cast<std::size_t>(x)];
    entries_[static_cast<std::size_t>(e.prev)].next = e.next;
    if (e.next != -1) entries_[static_cast<std::size_t>(e.next)].prev = e.prev;
  }
  void relink(std::int32_t x) {
    auto& e = entries_[static_cast<std::size_t>(x)];
    entries_[static_cast<std::size_t>(e.prev)].next = x;
    if (e.next != -1) entries_[static_cast<std::size_t>(e.next)].prev = x;
  }
  void lift(std::int32_t call) {
    unlink(call);
    unlink(entries_[static_cast<std::size_t>(call)].match);
  }
  void unlift(std::int32_t call) {
    relink(entries_[static_cast<std::size_t>(call)].match);
    relink(call);
  }

  bool ends_well(const State& state) const {
    return !options_.drained ||
           static_cast<std::int64_t>(spec_.size(state)) <= info_removes_ - placed_info_removes_;
  }

  void count(const Operation& op, std::int64_t sign) {
    placed_required_ += op.indeterminate ? 0 : sign;
    placed_info_removes_ += op.indeterminate && is_remove(op.f) ? sign : 0;
  }

  // Linearizes the op of `call` into the first successor not seen before; false if none.
  bool place(std::int32_t call, std::size_t window_index, State& state,
             std::vector<State>& successors) {
    const Operation& op = op_of(call);
    const auto id = static_cast<std::size_t>(op.id);
    for (std::size_t i = 0; i < successors.size(); ++i) {
      set_.set(id);
      if (!remember(successors[i])) {
        set_.clear(id);
        continue;
      }
      Frame frame{call, window_index, std::move(state), {}};
      for (std::size_t j = i + 1; j < successors.size(); ++j)
        frame.untried.push_back(std::move(successors[j]));
      state = std::move(successors[i]);
      stack_.push_back(std::move(frame));
      if (orders_) orders_->placed(op.id);
      lift(call);
      count(op, +1);
      if (stack_.size() > best_depth_) {
        best_depth_ = stack_.size();
        best_pending_ = true;
      }
      return true;
    }
    return false;
  }

  // Undoes the top frame: tries its remaining successors, else moves on to the candidate after
  // it in its level's window.
  bool backtrack(std::size_t& next, State& state) {
    if (stack_.empty()) return false;
    Frame frame = std::move(stack_.back());
    stack_.pop_back();
    const Operation& op = op_of(frame.entry);
    set_.clear(static_cast<std::size_t>(op.id));
    if (orders_) orders_->unplaced(op.id);
    unlift(frame.entry);
    count(op, -1);
    state = std::move(frame.before);
    fill_window();
    CONTEND_ASSERT(
        frame.window_index < window_.size() && window_[frame.window_index] == frame.entry,
        "backtracking finds the window the frame's level had");
    if (!frame.untried.empty() && place(frame.entry, frame.window_index, state, frame.untried)) {
      fill_window();
      next = 0;
    } else {
      next = frame.window_index + 1;
    }
    return true;
  }

  bool remember(const State& state) {
    MemoKey key;
    set_.encode(key.set);
    std::uint64_t h = spec_.hash(state);
    for (std::uint32_t w : key.set)
      h = mix_hash(h, w);
    key.hash = h;
    key.state = state;
    // The hash node (the key, the next pointer and the cached hash) and the key's two buffers.
    const std::int64_t bytes = allocation_bytes(sizeof(MemoKey) + 2 * sizeof(void*)) +
                               buffer_bytes(key.set) + buffer_bytes(key.state);
    if (!memo_.insert(std::move(key)).second) return false;
    memo_bytes_ += bytes;
    return true;
  }

  // The bytes an allocation of `n` takes: with an 8-byte header, rounded up to 16 (glibc's
  // chunks; mimalloc's size classes are within an eighth of that).
  static std::int64_t allocation_bytes(std::size_t n) {
    return n == 0 ? 0 : static_cast<std::int64_t>((n + 8 + 15) / 16 * 16);
  }
  // A state or a set encoding: a vector's buffer (a spec whose State is not one does not
  // compile here until it says what it holds).
  template <class T>
  static std::int64_t buffer_bytes(const std::vector<T>& v) {
    return allocation_bytes(v.capacity() * sizeof(T));
  }
  // What the memo holds: its entries (counted as they were added) and its bucket array.
  std::int64_t memo_bytes() const {
    return memo_bytes_ + allocation_bytes(memo_.bucket_count() * sizeof(void*));
  }

  std::vector<std::int64_t> prefix_invocations() const {
    std::vector<std::int64_t> out;
    out.reserve(stack_.size());
    for (const Frame& f : stack_)
      out.push_back(op_of(f.entry).invoke);
    return out;
  }

  // At the deepest point reached so far, records the evidence: the prefix, the state, and the
  // operations that cannot go next (the candidates walked past, and the op whose return ended
  // the walk).
  void note_deepest(std::int32_t stop, const State& state) {
    if (stack_.size() != best_depth_ || !best_pending_) return;
    best_pending_ = false;
    best_prefix_ = prefix_invocations();
    best_state_ = describe_items(ops_, spec_.items(state));
    best_stuck_.clear();
    for (std::int32_t e = entries_[0].next; e != stop && e != -1;
         e = entries_[static_cast<std::size_t>(e)].next) {
      if (entries_[static_cast<std::size_t>(e)].call) best_stuck_.push_back(op_of(e).invoke);
    }
    best_drain_failure_ = stop == -1 || op_of(stop).indeterminate;
    if (!best_drain_failure_) {
      const std::int64_t blocking = op_of(stop).invoke;
      if (std::find(best_stuck_.begin(), best_stuck_.end(), blocking) == best_stuck_.end()) {
        best_stuck_.push_back(blocking);
      }
      best_blocking_ = describe(op_of(stop));
    }
  }

  std::string describe_invocations(const std::vector<std::int64_t>& invokes,
                                   std::size_t keep_last) const {
    std::string out;
    const std::size_t skip = invokes.size() > keep_last ? invokes.size() - keep_last : 0;
    if (skip > 0) out += "(" + std::to_string(skip) + " earlier) ";
    for (std::size_t i = skip; i < invokes.size(); ++i) {
      if (i > skip) out += "; ";
      out += describe(op_by_invoke(invokes[i]));
    }
    return out;
  }

  const Operation& op_by_invoke(std::int64_t invoke) const {
    auto it = std::lower_bound(ops_.ops.begin(), ops_.ops.end(), invoke,
                               [](const Operation& op, std::int64_t v) { return op.invoke < v; });
    return *it;
  }

  // The linearization found: the operations placed, then — in a drained history — as many of
  // the indeterminate removes left over as it takes to empty the queue, at the end.
  Verdict success(const State& state) {
    CONTEND_ASSERT(
        placed_required_ == required_ && stack_.size() >= static_cast<std::size_t>(required_),
        "a linearization places every completed operation");
    Verdict v;
    v.checker = "search";
    v.steps = steps_;
    v.exact = true;
    v.longest_prefix = prefix_invocations();
    std::size_t draining = options_.drained ? spec_.size(state) : 0;
    for (const Operation& op : ops_.ops) {
      if (draining == 0) break;
      if (!op.indeterminate || !is_remove(op.f) || set_.test(static_cast<std::size_t>(op.id))) {
        continue;
      }
      v.longest_prefix.push_back(op.invoke);
      --draining;
    }
    CONTEND_ASSERT(draining == 0, "a drained history ends with enough indeterminate removes left");
    return v;
  }

  Verdict out_of_budget(const char* what) {
    Verdict v = unknown_verdict(
        "search", "the search ran out of its " + std::string(what) + " after " +
                      std::to_string(steps_) + " steps (" + std::to_string(memo_.size()) +
                      " configurations remembered); deepest prefix " + std::to_string(best_depth_) +
                      " of " + std::to_string(ops_.ops.size()) + " operations");
    v.steps = steps_;
    return v;
  }

  Verdict violation() {
    CONTEND_ASSERT(stack_.empty() && placed_required_ == 0,
                   "no linearization only once the search has backtracked to the start");
    std::string text = "no linearization exists. The longest linearizable prefix found has " +
                       std::to_string(best_prefix_.size()) + " operation(s)";
    if (!best_prefix_.empty()) text += ": " + describe_invocations(best_prefix_, 8);
    text += ". After it the queue holds " + best_state_ + ". ";
    if (best_drain_failure_) {
      text += "The history is drained, yet no indeterminate remove is left to empty the queue";
      if (!best_stuck_.empty()) text += ", and none of these can go next: ";
    } else {
      text += best_blocking_ + " must take effect before its completion, but none of these can ";
      text += "go next: ";
    }
    text += describe_invocations(best_stuck_, 16);
    Verdict v = violation_verdict("search", ViolationKind::not_linearizable, text, best_stuck_);
    v.longest_prefix = best_prefix_;
    v.stuck = best_stuck_;
    v.steps = steps_;
    return v;
  }

  const Operations& ops_;
  const S& spec_;
  SearchOptions options_;
  std::vector<search_detail::Entry> entries_;
  search_detail::LinearizedSet set_;
  std::vector<CandidateRank> ranks_;       // by op id
  std::optional<NecessaryOrders> orders_;  // kept: operations placed against them are passed over
  std::vector<std::int32_t> window_;       // the current level's candidates, in trying order
  std::vector<WindowCandidate> keys_;      // fill_window's scratch
  std::int32_t window_end_ = -1;           // the return entry that ends it; -1: the list's end
  std::vector<Frame> stack_;
  std::vector<State> alternatives_;
  std::unordered_set<MemoKey, MemoHash> memo_;  // lookups only: never iterated
  std::int64_t memo_bytes_ = 0;
  std::int64_t steps_ = 0;
  std::int64_t required_ = 0;
  std::int64_t placed_required_ = 0;
  std::int64_t info_removes_ = 0;
  std::int64_t placed_info_removes_ = 0;
  std::size_t best_depth_ = 0;
  bool best_pending_ = true;
  bool best_drain_failure_ = false;
  std::vector<std::int64_t> best_prefix_;
  std::vector<std::int64_t> best_stuck_;
  std::string best_state_ = "[]";
  std::string best_blocking_;
};

// The steps a violation found with the necessary orders may spend again on its evidence: a few
// times what it took, within what is left of the budget.
inline std::int64_t evidence_budget(const Verdict& found, const SearchOptions& options) {
  return std::min(options.step_budget - found.steps, 4 * found.steps + 100'000);
}

// A violation found with the necessary orders is searched again without them: the orders cut
// prefixes short (an insert that must wait for an observer is not placed), and the evidence a
// reader wants is the longest prefix the spec itself allows. That search must find no
// linearization either — the orders are checked on every violation they help find. If it runs
// out of its steps, the first search's evidence stands.
template <Spec S>
Verdict search_whole(const Operations& ops, const S& spec, const SearchOptions& options) {
  Verdict found = LinearizabilitySearch<S>(ops, spec, options).run();
  if (found.kind != VerdictKind::violation || options.order != CandidateOrder::by_observation ||
      !options.keep_necessary_orders) {
    return found;
  }
  SearchOptions plain = options;
  plain.keep_necessary_orders = false;
  plain.step_budget = evidence_budget(found, options);
  if (plain.step_budget <= 0) return found;
  Verdict evidence = LinearizabilitySearch<S>(ops, spec, plain).run();
  CONTEND_ASSERT(evidence.kind != VerdictKind::linearizable,
                 "a history the necessary orders found no linearization for has none");
  const std::int64_t steps = found.steps + evidence.steps;
  Verdict& kept = evidence.kind == VerdictKind::unknown ? found : evidence;
  kept.steps = steps;
  return std::move(kept);
}

}  // namespace contend::model
