#include "model/fast_check.h"

#include <algorithm>
#include <limits>
#include <map>
#include <unordered_map>

#include "base/invariant.h"

namespace contend::model {

namespace {

constexpr std::int64_t kMinusInfinity = std::numeric_limits<std::int64_t>::min();

// Everything known about one inserted value. Times are real-time positions (operations.h).
struct Life {
  const Operation* insert = nullptr;
  const Operation* remove = nullptr;     // the determinate remove that returned it
  const Operation* last_peek = nullptr;  // the determinate peek invoked last that saw it
  std::int64_t hi_start = kForever;      // its insert took effect before this
  std::int64_t lo_end = kMinusInfinity;  // it was still present at this point

  bool removed() const { return remove != nullptr; }
  bool took_effect() const { return !insert->indeterminate || remove || last_peek; }
  const std::string& value() const { return insert->input->value; }
  std::int64_t priority() const { return insert->input->priority.value_or(0); }
};

std::string quote(const std::string& v) {
  return "'" + v + "'";
}

// A candidate for "a better item was present", ranked for one end of the priority queue:
// min end: smallest (priority, hi_start); max end: largest (priority, insert call).
struct Ranked {
  std::int64_t priority = 0;
  std::int64_t tiebreak = 0;
  const Life* life = nullptr;
};

bool ranks_before(const Ranked& a, const Ranked& b, bool max_end) {
  if (a.priority != b.priority) return max_end ? a.priority > b.priority : a.priority < b.priority;
  return max_end ? a.tiebreak > b.tiebreak : a.tiebreak < b.tiebreak;
}

Ranked ranked(const Life& l, bool max_end) {
  return Ranked{l.priority(), max_end ? l.insert->call : l.hi_start, &l};
}

// The two best candidates seen, so the best one other than a given value is always at hand.
struct BestTwo {
  std::optional<Ranked> best[2];
  void add(const Ranked& r, bool max_end) {
    for (const auto& e : best) {
      if (e && e->life == r.life) return;  // one value is one candidate
    }
    if (!best[0] || ranks_before(r, *best[0], max_end)) {
      best[1] = best[0];
      best[0] = r;
    } else if (!best[1] || ranks_before(r, *best[1], max_end)) {
      best[1] = r;
    }
  }
  void merge(const BestTwo& other, bool max_end) {
    for (const auto& e : other.best) {
      if (e) add(*e, max_end);
    }
  }
  std::optional<Ranked> best_except(const Life* skip) const {
    for (const auto& e : best) {
      if (e && e->life != skip) return e;
    }
    return std::nullopt;
  }
};

// A segment tree of BestTwo over positions: insert at a position, query a suffix.
class BestTwoTree {
 public:
  BestTwoTree(std::size_t n, bool max_end) : size_(1), max_end_(max_end) {
    while (size_ < n)
      size_ *= 2;
    nodes_.assign(2 * size_, {});
  }
  void insert(std::size_t pos, const Ranked& r) {
    CONTEND_ASSERT(pos < size_, "a position inside the tree");
    for (std::size_t i = pos + size_; i >= 1; i /= 2)
      nodes_[i].add(r, max_end_);
  }
  BestTwo suffix(std::size_t from) const {
    CONTEND_ASSERT(from <= size_, "a suffix of the tree");
    BestTwo out;
    for (std::size_t lo = from + size_, hi = 2 * size_; lo < hi; lo /= 2, hi /= 2) {
      if (lo & 1) out.merge(nodes_[lo++], max_end_);
      if (hi & 1) out.merge(nodes_[--hi], max_end_);
    }
    return out;
  }

 private:
  std::size_t size_;
  bool max_end_;
  std::vector<BestTwo> nodes_;
};

// An open time window (start, end) in which one value is provably in the queue.
struct Window {
  std::int64_t start = 0;
  std::int64_t end = 0;
  const Life* life = nullptr;
};

class FastChecker {
 public:
  FastChecker(const Operations& ops, SpecKind spec, const FastOptions& options)
      : ops_(ops), spec_(spec), options_(options) {}

  Verdict run() {
    if (auto v = index_values()) return *v;
    if (auto v = check_peeks_after_removal()) return *v;
    if (spec_ != SpecKind::multiset) {
      if (auto v = check_empties()) return *v;
    }
    if (options_.drained) {
      if (auto v = check_drained()) return *v;
    }
    if (spec_ == SpecKind::fifo) {
      if (auto v = check_fifo_order()) return *v;
    }
    if (spec_ == SpecKind::priority) {
      if (auto v = check_priority_order()) return *v;
    }
    Verdict ok;
    ok.checker = "fast";
    ok.exact = spec_ == SpecKind::fifo && info_remove_calls_.empty() &&
               std::none_of(ops_.ops.begin(), ops_.ops.end(),
                            [](const Operation& op) { return op.indeterminate; });
    return ok;
  }

 private:
  static Verdict found(ViolationKind kind, std::string text, std::vector<std::int64_t> events) {
    return violation_verdict("fast", kind, std::move(text), std::move(events));
  }

  std::int64_t first_info_remove_call() const {
    return info_remove_calls_.empty() ? kForever : info_remove_calls_.front();
  }
  // Indeterminate removes invoked by `t`: each may have taken one value before t.
  std::int64_t info_removes_invoked_by(std::int64_t t) const {
    return std::upper_bound(info_remove_calls_.begin(), info_remove_calls_.end(), t) -
           info_remove_calls_.begin();
  }

  std::optional<Verdict> index_values() {
    for (const Operation& op : ops_.ops) {
      if (!is_insert(op.f)) continue;
      auto [it, fresh] = index_.emplace(op.input->value, lives_.size());
      if (!fresh) {
        return unknown_verdict(
            "fast", "values are not unique: " + quote(op.input->value) + " is inserted by " +
                        describe(*lives_[it->second].insert) + " and by " + describe(op) +
                        "; the fast checker needs unique values (use the search)");
      }
      Life l;
      l.insert = &op;
      l.hi_start = op.ret;
      lives_.push_back(l);
    }
    for (const Operation& op : ops_.ops) {
      if (is_remove(op.f) && op.indeterminate) info_remove_calls_.push_back(op.call);
      if (is_insert(op.f) || op.indeterminate || !op.output) continue;
      if (auto v = observe(op)) return v;
    }
    std::sort(info_remove_calls_.begin(), info_remove_calls_.end());
    return std::nullopt;
  }

  // A determinate remove or peek that returned a value.
  std::optional<Verdict> observe(const Operation& op) {
    const std::string& v = op.output->value;
    auto it = index_.find(v);
    if (it == index_.end()) {
      const bool failed = std::find(ops_.failed_items.begin(), ops_.failed_items.end(), v) !=
                          ops_.failed_items.end();
      return found(ViolationKind::value_from_nowhere,
                   describe(op) + " returned " + quote(v) +
                       (failed ? ", which only an insert that failed (never took effect) carried"
                               : ", which no operation inserted"),
                   {op.invoke});
    }
    Life& l = lives_[it->second];
    const Operation& ins = *l.insert;
    if (ins.input->priority != op.output->priority) {
      return found(ViolationKind::value_from_nowhere,
                   describe(op) + " returned " + quote(v) + " with another priority than " +
                       describe(ins) + " gave it",
                   {op.invoke, ins.invoke});
    }
    if (ins.call > op.ret) {
      return found(ViolationKind::value_from_nowhere,
                   describe(op) + " returned " + quote(v) + " before " + describe(ins) +
                       " inserting it was invoked",
                   {op.invoke, ins.invoke});
    }
    l.hi_start = std::min(l.hi_start, op.ret);
    l.lo_end = std::max(l.lo_end, op.call);
    if (is_peek(op.f)) {
      if (l.last_peek == nullptr || op.call > l.last_peek->call) l.last_peek = &op;
      return std::nullopt;
    }
    if (l.remove != nullptr) {
      return found(
          ViolationKind::duplicate_delivery,
          quote(v) + " was delivered twice: by " + describe(*l.remove) + " and by " + describe(op),
          {ins.invoke, l.remove->invoke, op.invoke});
    }
    l.remove = &op;
    return std::nullopt;
  }

  std::optional<Verdict> check_peeks_after_removal() const {
    for (const Life& l : lives_) {
      if (!l.removed() || l.last_peek == nullptr || l.last_peek->call <= l.remove->ret) continue;
      return found(ViolationKind::value_from_nowhere,
                   describe(*l.last_peek) + " saw " + quote(l.value()) + " after " +
                       describe(*l.remove) + " had removed it",
                   {l.last_peek->invoke, l.remove->invoke});
    }
    return std::nullopt;
  }

  // The provable-presence windows: (hi_start, lo_end) for values whose removal is known; for a
  // never-removed value, until an indeterminate remove could first have taken it (or forever).
  std::vector<Window> presence_windows() const {
    std::vector<Window> out;
    for (const Life& l : lives_) {
      if (!l.took_effect()) continue;
      const std::int64_t end =
          l.removed() ? l.lo_end : std::max(l.lo_end, first_info_remove_call());
      if (l.hi_start < end) out.push_back(Window{l.hi_start, end, &l});
    }
    std::sort(out.begin(), out.end(),
              [](const Window& a, const Window& b) { return a.start < b.start; });
    return out;
  }

  static std::vector<Window> merge_windows(const std::vector<Window>& sorted) {
    std::vector<Window> merged;
    for (const Window& w : sorted) {
      if (!merged.empty() && w.start < merged.back().end) {
        merged.back().end = std::max(merged.back().end, w.end);
      } else {
        merged.push_back(w);
      }
    }
    for (std::size_t i = 1; i < merged.size(); ++i) {
      CONTEND_DEBUG_ASSERT(merged[i - 1].end <= merged[i].start, "merged windows are disjoint");
    }
    return merged;
  }

  static bool covered(const std::vector<Window>& merged, const Operation& d) {
    auto it = std::partition_point(merged.begin(), merged.end(),
                                   [&](const Window& w) { return w.start < d.call; });
    return it != merged.begin() && std::prev(it)->end > d.ret;
  }

  // Values whose windows cover d's interval one after another (greedy, for the explanation).
  static std::vector<const Window*> covering_chain(const std::vector<Window>& windows,
                                                   const Operation& d) {
    std::vector<const Window*> chain;
    std::int64_t point = d.call;  // the earliest point not yet shown covered
    while (chain.size() < windows.size()) {
      const Window* best = nullptr;
      for (const Window& w : windows) {
        if (w.start < point && w.end > point && (best == nullptr || w.end > best->end)) best = &w;
      }
      if (best == nullptr) break;
      chain.push_back(best);
      if (best->end > d.ret) break;
      point = best->end;
    }
    return chain;
  }

  std::string present_text(const Life& l) const {
    std::string s = quote(l.value()) + " (inserted by " + describe(*l.insert);
    if (l.removed()) return s + ", removed only later by " + describe(*l.remove) + ")";
    if (l.last_peek != nullptr) return s + ", still seen later by " + describe(*l.last_peek) + ")";
    return s + ", never removed)";
  }

  Verdict empty_violation(const std::vector<Window>& windows, const Operation& d) const {
    std::vector<const Window*> chain = covering_chain(windows, d);
    std::vector<std::int64_t> events{d.invoke};
    for (const Window* w : chain) {
      events.push_back(w->life->insert->invoke);
      if (w->life->removed()) events.push_back(w->life->remove->invoke);
    }
    if (chain.size() == 1) {
      const Life& l = *chain.front()->life;
      const bool lost = !l.removed() && !l.insert->indeterminate;
      return found(lost ? ViolationKind::lost : ViolationKind::empty_while_nonempty,
                   describe(d) + " found the queue empty, yet " + present_text(l) +
                       " was present throughout it",
                   events);
    }
    std::string text = describe(d) +
                       " found the queue empty, yet values were present throughout it," +
                       " one after another: ";
    for (std::size_t i = 0; i < chain.size(); ++i)
      text += (i > 0 ? "; then " : "") + present_text(*chain[i]->life);
    return found(ViolationKind::empty_while_nonempty, text, events);
  }

  // Empty answers: covered by presence windows, or more never-removed values inserted before
  // them than indeterminate removes invoked by their end could have taken.
  std::optional<Verdict> check_empties() const {
    const std::vector<Window> windows = presence_windows();
    const std::vector<Window> merged = merge_windows(windows);
    std::vector<std::pair<std::int64_t, const Life*>> never_removed;  // by hi_start
    for (const Life& l : lives_) {
      if (l.took_effect() && !l.removed()) never_removed.emplace_back(l.hi_start, &l);
    }
    std::sort(never_removed.begin(), never_removed.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const Operation& d : ops_.ops) {
      if (!d.empty_result()) continue;
      if (covered(merged, d)) return empty_violation(windows, d);
      const auto before = std::partition_point(never_removed.begin(), never_removed.end(),
                                               [&](const auto& p) { return p.first < d.call; });
      const std::int64_t n = before - never_removed.begin();
      const std::int64_t slack = info_removes_invoked_by(d.ret);
      if (n <= slack) continue;
      std::vector<std::int64_t> events{d.invoke};
      std::string values;
      for (auto it = never_removed.begin(); it != before; ++it) {
        events.push_back(it->second->insert->invoke);
        if (it - never_removed.begin() < 5) {
          values += (it == never_removed.begin() ? "" : ", ") + quote(it->second->value());
        }
      }
      return found(ViolationKind::lost,
                   describe(d) + " found the queue empty, yet " + std::to_string(n) +
                       " value(s) inserted before it were never removed (" + values +
                       ") and only " + std::to_string(slack) +
                       " indeterminate remove(s) invoked before it ended could have taken one",
                   events);
    }
    return std::nullopt;
  }

  std::optional<Verdict> check_drained() const {
    std::vector<const Life*> missing;
    for (const Life& l : lives_) {
      if (l.took_effect() && !l.removed()) missing.push_back(&l);
    }
    const auto slack = static_cast<std::int64_t>(info_remove_calls_.size());
    if (static_cast<std::int64_t>(missing.size()) <= slack) return std::nullopt;
    std::string values;
    std::vector<std::int64_t> events;
    for (std::size_t i = 0; i < missing.size(); ++i) {
      events.push_back(missing[i]->insert->invoke);
      if (i < 5) values += (i > 0 ? ", " : "") + quote(missing[i]->value());
    }
    if (missing.size() > 5) values += ", ...";
    return found(ViolationKind::lost,
                 "the history is drained, yet " + std::to_string(missing.size()) +
                     " inserted value(s) never came out (" + values + ") and only " +
                     std::to_string(slack) + " indeterminate remove(s) could have taken one",
                 events);
  }

  Verdict order_violation(const Life& a, const Life& b) const {
    const Operation& b_removed = *b.remove;
    std::string text = quote(a.value()) + " was enqueued by " + describe(*a.insert) + " before " +
                       quote(b.value()) + " was enqueued by " + describe(*b.insert) + ", yet " +
                       quote(b.value()) + " came out first, by " + describe(b_removed);
    std::vector<std::int64_t> events{a.insert->invoke, b.insert->invoke, b_removed.invoke};
    if (a.removed()) {
      text += ", before " + describe(*a.remove) + " took " + quote(a.value());
      events.push_back(a.remove->invoke);
    } else {
      text += ", and " + quote(a.value()) + " never did";
    }
    return found(ViolationKind::order_inversion, text, events);
  }

  // FIFO order: a provably enqueued before b (a's insert took effect before b's was invoked),
  // yet b's remove completed before a's remove was invoked — or a never removed and no
  // indeterminate remove invoked by then could have taken it. Sweep b by insert invocation,
  // keeping the a removed last among those provably enqueued earlier.
  std::optional<Verdict> check_fifo_order() const {
    std::vector<const Life*> as, bs;
    for (const Life& l : lives_) {
      if (!l.took_effect()) continue;
      as.push_back(&l);
      if (l.removed()) bs.push_back(&l);
    }
    std::sort(as.begin(), as.end(), [](auto* x, auto* y) { return x->hi_start < y->hi_start; });
    std::sort(bs.begin(), bs.end(),
              [](auto* x, auto* y) { return x->insert->call < y->insert->call; });
    const Life* latest = nullptr;     // removed, largest lo_end
    const Life* unremoved = nullptr;  // never removed, earliest
    std::size_t next = 0;
    for (const Life* b : bs) {
      for (; next < as.size() && as[next]->hi_start < b->insert->call; ++next) {
        const Life* a = as[next];
        if (a->removed() && (latest == nullptr || a->lo_end > latest->lo_end)) latest = a;
        if (!a->removed() && unremoved == nullptr) unremoved = a;
      }
      if (latest != nullptr && latest->lo_end > b->remove->ret) return order_violation(*latest, *b);
      if (unremoved != nullptr && first_info_remove_call() > b->remove->ret) {
        return order_violation(*unremoved, *b);
      }
    }
    return std::nullopt;
  }

  bool beats(const Life& y, const Life& x, bool max_end) const {
    if (y.priority() != x.priority())
      return max_end ? y.priority() > x.priority() : y.priority() < x.priority();
    return max_end ? x.hi_start < y.insert->call : y.hi_start < x.insert->call;
  }

  Verdict priority_violation(const Operation& op, const Life& x, const Life& y) const {
    const bool max_end = takes_back(op.f);
    const bool tie = x.priority() == y.priority();
    std::string why = tie ? std::string(max_end ? "pushed after it" : "pushed before it") +
                                " with the same priority"
                          : std::string(max_end ? "a higher" : "a lower") + " priority";
    std::string text = describe(op) + " returned " + quote(x.value()) + " while " +
                       quote(y.value()) + " (" + why + ", inserted by " + describe(*y.insert) +
                       ") was present throughout and should have come first";
    std::vector<std::int64_t> events{op.invoke, y.insert->invoke, x.insert->invoke};
    if (y.removed()) events.push_back(y.remove->invoke);
    return found(ViolationKind::priority_inversion, text, events);
  }

  // Priority order: a pop/peek returned x while some y better for that end was provably present
  // throughout it. Sweep the results by invocation; values enter when their insert provably took
  // effect before; tree A holds values by the point they were provably still present (query:
  // after the result completed), set B the never-removed ones (present unless an indeterminate
  // remove invoked in time took them). O(n log n).
  std::optional<Verdict> check_priority_order() const {
    std::vector<const Life*> entering, in_tree;
    BestTwo unremoved[2];
    for (const Life& l : lives_) {
      if (!l.took_effect()) continue;
      entering.push_back(&l);
      if (l.lo_end != kMinusInfinity) in_tree.push_back(&l);
    }
    std::sort(entering.begin(), entering.end(),
              [](auto* a, auto* b) { return a->hi_start < b->hi_start; });
    std::sort(in_tree.begin(), in_tree.end(),
              [](auto* a, auto* b) { return a->lo_end < b->lo_end; });
    std::map<const Life*, std::size_t> position;
    for (std::size_t i = 0; i < in_tree.size(); ++i)
      position[in_tree[i]] = i;
    BestTwoTree trees[2] = {BestTwoTree(in_tree.size() + 1, false),
                            BestTwoTree(in_tree.size() + 1, true)};
    std::vector<const Operation*> results;
    for (const Operation& op : ops_.ops) {
      if (!is_insert(op.f) && !op.indeterminate && op.output) results.push_back(&op);
    }
    std::size_t next = 0;
    for (const Operation* op : results) {  // ops are in invocation order already
      for (; next < entering.size() && entering[next]->hi_start < op->call; ++next) {
        const Life& l = *entering[next];
        for (int end = 0; end < 2; ++end) {
          if (l.lo_end != kMinusInfinity) trees[end].insert(position[&l], ranked(l, end == 1));
          if (!l.removed()) unremoved[end].add(ranked(l, end == 1), end == 1);
        }
      }
      const bool max_end = takes_back(op->f);
      const Life& x = lives_[index_.at(op->output->value)];
      auto from = std::partition_point(in_tree.begin(), in_tree.end(),
                                       [&](const Life* l) { return l->lo_end <= op->ret; });
      BestTwo candidates = trees[max_end].suffix(static_cast<std::size_t>(from - in_tree.begin()));
      if (first_info_remove_call() > op->ret) candidates.merge(unremoved[max_end], max_end);
      auto y = candidates.best_except(&x);
      if (y && beats(*y->life, x, max_end)) return priority_violation(*op, x, *y->life);
    }
    return std::nullopt;
  }

  const Operations& ops_;
  SpecKind spec_;
  FastOptions options_;
  std::vector<Life> lives_;
  std::unordered_map<std::string, std::size_t>
      index_;                                    // value -> position in lives_ (lookups only)
  std::vector<std::int64_t> info_remove_calls_;  // sorted
};

}  // namespace

Verdict check_fast(const Operations& ops, SpecKind spec, const FastOptions& options) {
  Verdict v = FastChecker(ops, spec, options).run();
  CONTEND_ASSERT((v.kind == VerdictKind::violation) == (v.violation != ViolationKind::none),
                 "a violation names its kind, and only a violation does");
  CONTEND_ASSERT(v.kind != VerdictKind::violation || !v.events.empty(),
                 "a violation names the events that show it");
  return v;
}

Verdict check_fast(const History& history, SpecKind spec, const FastOptions& options) {
  return check_fast(operations_of(history, options.ties), spec, options);
}

}  // namespace contend::model
