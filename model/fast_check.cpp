#include "model/fast_check.h"

#include <algorithm>
#include <map>
#include <sstream>

#include "model/operations.h"

namespace contend::model {

namespace {

// Everything known about one inserted value.
struct ValueLife {
  const Operation* insert = nullptr;
  std::vector<const Operation*> removes;  // successful (ok) removes returning it
  std::int64_t removal_invoke() const {   // +inf when never removed
    return removes.empty() ? kForever : removes.front()->invoke;
  }
};

class FastChecker {
 public:
  FastChecker(const History& history, SpecKind spec) : ops_(operations_of(history)), spec_(spec) {}
  Verdict run();

 private:
  Verdict violation(ViolationKind kind, std::string text, std::vector<std::int64_t> events) {
    Verdict v;
    v.kind = VerdictKind::violation;
    v.violation = kind;
    v.checker = "fast";
    v.explanation = std::move(text);
    v.events = std::move(events);
    return v;
  }
  std::optional<Verdict> index_values();
  std::optional<Verdict> check_empties();
  std::optional<Verdict> check_fifo_order();
  std::optional<Verdict> check_priority_order();
  // How many indeterminate removes were invoked before event `before` (each may have taken one
  // value, so that many provably-present values can be explained away).
  std::int64_t indeterminate_removes_before(std::int64_t before) const {
    return std::lower_bound(info_remove_invokes_.begin(), info_remove_invokes_.end(), before) -
           info_remove_invokes_.begin();
  }
  bool better(const Item& a, const Item& b, bool max) const {
    return max ? a.priority.value_or(0) > b.priority.value_or(0)
               : a.priority.value_or(0) < b.priority.value_or(0);
  }

  std::vector<Operation> ops_;
  SpecKind spec_;
  std::map<std::string, ValueLife> values_;
  std::vector<std::int64_t> info_remove_invokes_;
};

std::string describe(const Operation& op) {
  std::ostringstream out;
  out << to_string(op.f) << " (process " << op.process << ", events " << op.invoke << ".."
      << (op.complete == kForever ? std::string("?") : std::to_string(op.complete)) << ")";
  return out.str();
}

std::optional<Verdict> FastChecker::index_values() {
  for (const Operation& op : ops_) {
    if (is_insert(op.f)) values_[op.input->value].insert = &op;
  }
  for (const Operation& op : ops_) {
    if (is_remove(op.f) && op.indeterminate) info_remove_invokes_.push_back(op.invoke);
    if (is_insert(op.f) || op.indeterminate || !op.output) continue;
    const std::string& v = op.output->value;
    auto it = values_.find(v);
    if (it == values_.end() || it->second.insert == nullptr) {
      return violation(ViolationKind::value_from_nowhere,
                       describe(op) + " returned '" + v + "', which no operation inserted",
                       {op.invoke});
    }
    const Operation& ins = *it->second.insert;
    if (ins.invoke > op.complete) {
      return violation(ViolationKind::value_from_nowhere,
                       describe(op) + " returned '" + v + "' before " + describe(ins) +
                           " inserting it was invoked",
                       {op.invoke, ins.invoke});
    }
    if (is_remove(op.f)) {
      auto& removes = it->second.removes;
      removes.push_back(&op);
      if (removes.size() == 2) {
        return violation(ViolationKind::duplicate_delivery,
                         "'" + v + "' was delivered twice: by " + describe(*removes[0]) +
                             " and by " + describe(*removes[1]),
                         {ins.invoke, removes[0]->invoke, removes[1]->invoke});
      }
    }
  }
  for (const Operation& op : ops_) {  // a peek of a value already removed
    if (!is_peek(op.f) || op.indeterminate || !op.output) continue;
    const ValueLife& life = values_[op.output->value];
    if (!life.removes.empty() && life.removes.front()->complete < op.invoke) {
      return violation(ViolationKind::value_from_nowhere,
                       describe(op) + " saw '" + op.output->value + "' after " +
                           describe(*life.removes.front()) + " had removed it",
                       {op.invoke, life.removes.front()->invoke});
    }
  }
  std::sort(info_remove_invokes_.begin(), info_remove_invokes_.end());
  return std::nullopt;
}

// An empty result X: the values inserted (completed) before X was invoked and not removed
// before X completed were all present throughout X. More of them than indeterminate removes
// that could have taken one = a violation. Sweep in invocation order with a Fenwick tree over
// removal times.
std::optional<Verdict> FastChecker::check_empties() {
  if (spec_ == SpecKind::multiset) return std::nullopt;
  std::vector<const ValueLife*> by_insert_end;
  std::vector<std::int64_t> removal_times;
  for (const auto& [v, life] : values_) {
    if (life.insert == nullptr || life.insert->indeterminate) continue;
    by_insert_end.push_back(&life);
    removal_times.push_back(life.removal_invoke());
  }
  std::sort(by_insert_end.begin(), by_insert_end.end(),
            [](auto* a, auto* b) { return a->insert->complete < b->insert->complete; });
  std::sort(removal_times.begin(), removal_times.end());
  removal_times.erase(std::unique(removal_times.begin(), removal_times.end()), removal_times.end());
  std::vector<std::int64_t> tree(removal_times.size() + 1, 0);
  auto add = [&](std::int64_t t) {
    auto i =
        static_cast<std::size_t>(std::lower_bound(removal_times.begin(), removal_times.end(), t) -
                                 removal_times.begin()) +
        1;
    for (; i < tree.size(); i += i & (~i + 1))
      ++tree[i];
  };
  auto count_at_most = [&](std::int64_t t) {  // inserted values with removal time <= t
    auto i = static_cast<std::size_t>(
        std::upper_bound(removal_times.begin(), removal_times.end(), t) - removal_times.begin());
    std::int64_t c = 0;
    for (; i > 0; i -= i & (~i + 1))
      c += tree[i];
    return c;
  };
  std::vector<const Operation*> empties;
  for (const Operation& op : ops_) {
    if (!is_insert(op.f) && !op.indeterminate && !op.output) empties.push_back(&op);
  }
  std::sort(empties.begin(), empties.end(), [](auto* a, auto* b) { return a->invoke < b->invoke; });
  std::size_t next = 0;
  std::int64_t inserted = 0;
  for (const Operation* x : empties) {
    while (next < by_insert_end.size() && by_insert_end[next]->insert->complete < x->invoke) {
      add(by_insert_end[next++]->removal_invoke());
      ++inserted;
    }
    const std::int64_t present = inserted - count_at_most(x->complete);
    const std::int64_t slack = indeterminate_removes_before(x->complete);
    if (present <= slack) continue;
    // Name one witness: a value present throughout X.
    const ValueLife* witness = nullptr;
    for (std::size_t i = 0; i < next && witness == nullptr; ++i) {
      if (by_insert_end[i]->removal_invoke() > x->complete) witness = by_insert_end[i];
    }
    const bool drained_loss = witness != nullptr && witness->removes.empty();
    std::ostringstream text;
    text << describe(*x) << " found the queue empty, yet " << present
         << " value(s) were present throughout it";
    if (witness != nullptr) {
      text << ", e.g. '" << witness->insert->input->value << "' inserted by "
           << describe(*witness->insert);
      text << (witness->removes.empty()
                   ? " and never removed"
                   : " and removed only later by " + describe(*witness->removes.front()));
    }
    if (slack > 0)
      text << " (" << slack << " indeterminate remove(s) could explain only " << slack << ")";
    std::vector<std::int64_t> events{x->invoke};
    if (witness != nullptr) events.push_back(witness->insert->invoke);
    return violation(drained_loss ? ViolationKind::lost : ViolationKind::empty_while_nonempty,
                     text.str(), events);
  }
  return std::nullopt;
}

// FIFO order: a's insert completed before b's insert was invoked, yet b's removal completed
// before a's removal was invoked (or a was never removed and no indeterminate remove invoked
// before b's removal completed could have taken it). Sweep b by insert invocation, keeping the
// a with the latest removal invocation among inserts completed so far.
std::optional<Verdict> FastChecker::check_fifo_order() {
  std::vector<const ValueLife*> lives;
  for (const auto& [v, life] : values_) {
    if (life.insert != nullptr) lives.push_back(&life);
  }
  std::vector<const ValueLife*> by_end = lives, by_start = lives;
  std::sort(by_end.begin(), by_end.end(),
            [](auto* a, auto* b) { return a->insert->complete < b->insert->complete; });
  std::sort(by_start.begin(), by_start.end(),
            [](auto* a, auto* b) { return a->insert->invoke < b->insert->invoke; });
  const ValueLife* latest = nullptr;  // among inserts completed: the one removed last
  std::size_t next = 0;
  for (const ValueLife* b : by_start) {
    while (next < by_end.size() && by_end[next]->insert->complete < b->insert->invoke) {
      const ValueLife* a = by_end[next++];
      if (latest == nullptr || a->removal_invoke() > latest->removal_invoke()) latest = a;
    }
    if (latest == nullptr || b->removes.empty()) continue;
    const Operation& b_removed = *b->removes.front();
    if (latest->removal_invoke() <= b_removed.complete) continue;
    if (latest->removes.empty() && indeterminate_removes_before(b_removed.complete) > 0) continue;
    const Operation& a_ins = *latest->insert;
    std::string text = "'" + a_ins.input->value + "' was enqueued by " + describe(a_ins) +
                       " before '" + b->insert->input->value + "' was enqueued by " +
                       describe(*b->insert) + ", yet '" + b->insert->input->value +
                       "' came out first, by " + describe(b_removed) +
                       (latest->removes.empty() ? ", and '" + a_ins.input->value + "' never did"
                                                : ", before " + describe(*latest->removes.front()) +
                                                      " took '" + a_ins.input->value + "'");
    return violation(ViolationKind::order_inversion, text,
                     {a_ins.invoke, b->insert->invoke, b_removed.invoke});
  }
  return std::nullopt;
}

// Priority order: a pop/peek at one end returned x while some y better for that end (strictly
// better priority, or equal priority and pushed before x for min / after x for max) was
// provably present throughout it. Sweep the results by invocation; values enter a segment tree
// over their removal times when their insert has completed; the query is the best value whose
// removal is invoked after the result completed. O(n log n).
namespace {

struct Ranked {
  std::int64_t priority = 0;
  std::int64_t tiebreak = 0;  // min end: insert completion; max end: insert invocation
  const ValueLife* life = nullptr;
};

// Keeps the two best entries per node (best = smallest for `min_end`, largest otherwise), so a
// query can skip the value the result itself returned.
class BestTwoTree {
 public:
  BestTwoTree(std::size_t n, bool min_end) : size_(1), min_end_(min_end) {
    while (size_ < n)
      size_ *= 2;
    nodes_.assign(2 * size_, {});
  }
  void insert(std::size_t pos, const Ranked& r) {
    std::size_t i = pos + size_;
    merge_into(nodes_[i], r);
    for (i /= 2; i >= 1; i /= 2) {
      Node combined = nodes_[2 * i];
      for (const auto& e : nodes_[2 * i + 1].best) {
        if (e) merge_into(combined, *e);
      }
      nodes_[i] = combined;
      if (i == 1) break;
    }
  }
  // The best entry at positions >= from, other than `skip`.
  std::optional<Ranked> best_from(std::size_t from, const ValueLife* skip) const {
    std::optional<Ranked> out;
    auto consider = [&](const Node& n) {
      for (const auto& e : n.best) {
        if (e && e->life != skip && (!out || better(*e, *out))) out = e;
      }
    };
    for (std::size_t lo = from + size_, hi = 2 * size_; lo < hi; lo /= 2, hi /= 2) {
      if (lo & 1) consider(nodes_[lo++]);
      if (hi & 1) consider(nodes_[--hi]);
    }
    return out;
  }

 private:
  struct Node {
    std::optional<Ranked> best[2];
  };
  bool better(const Ranked& a, const Ranked& b) const {
    if (a.priority != b.priority)
      return min_end_ ? a.priority < b.priority : a.priority > b.priority;
    return min_end_ ? a.tiebreak < b.tiebreak : a.tiebreak > b.tiebreak;
  }
  void merge_into(Node& n, const Ranked& r) const {
    if (!n.best[0] || better(r, *n.best[0])) {
      n.best[1] = n.best[0];
      n.best[0] = r;
    } else if (!n.best[1] || better(r, *n.best[1])) {
      n.best[1] = r;
    }
  }
  std::size_t size_;
  bool min_end_;
  std::vector<Node> nodes_;
};

}  // namespace

std::optional<Verdict> FastChecker::check_priority_order() {
  std::vector<const ValueLife*> lives;
  for (const auto& [v, life] : values_) {
    if (life.insert != nullptr && !life.insert->indeterminate) lives.push_back(&life);
  }
  std::vector<std::int64_t> removal_times;
  for (const ValueLife* l : lives)
    removal_times.push_back(l->removal_invoke());
  std::sort(removal_times.begin(), removal_times.end());
  auto position = [&](std::int64_t t) {
    return static_cast<std::size_t>(
        std::lower_bound(removal_times.begin(), removal_times.end(), t) - removal_times.begin());
  };
  std::sort(lives.begin(), lives.end(),
            [](auto* a, auto* b) { return a->insert->complete < b->insert->complete; });
  std::vector<const Operation*> results;
  for (const Operation& op : ops_) {
    if (!is_insert(op.f) && !op.indeterminate && op.output) results.push_back(&op);
  }
  std::sort(results.begin(), results.end(), [](auto* a, auto* b) { return a->invoke < b->invoke; });
  BestTwoTree min_tree(lives.size() + 1, true), max_tree(lives.size() + 1, false);
  std::size_t next = 0;
  for (const Operation* op : results) {
    while (next < lives.size() && lives[next]->insert->complete < op->invoke) {
      const ValueLife* l = lives[next++];
      const std::int64_t p = l->insert->input->priority.value_or(0);
      const std::size_t at = position(l->removal_invoke());
      min_tree.insert(at, Ranked{p, l->insert->complete, l});
      max_tree.insert(at, Ranked{p, l->insert->invoke, l});
    }
    if (indeterminate_removes_before(op->complete) > 0) continue;  // it might have taken y
    const bool max = op->f == OpFunction::pop_max || op->f == OpFunction::peek_max;
    const ValueLife& x = values_[op->output->value];
    const std::size_t from = static_cast<std::size_t>(
        std::upper_bound(removal_times.begin(), removal_times.end(), op->complete) -
        removal_times.begin());
    auto y = (max ? max_tree : min_tree).best_from(from, &x);
    if (!y) continue;
    const Item& xi = *x.insert->input;
    const Item& yi = *y->life->insert->input;
    bool y_better = better(yi, xi, max);
    if (!y_better && yi.priority == xi.priority) {
      y_better = max ? x.insert->complete < y->life->insert->invoke
                     : y->life->insert->complete < x.insert->invoke;
    }
    if (!y_better) continue;
    std::string text = describe(*op) + " returned '" + xi.value + "' (priority " +
                       std::to_string(xi.priority.value_or(0)) + ") while '" + yi.value +
                       "' (priority " + std::to_string(yi.priority.value_or(0)) + ", inserted by " +
                       describe(*y->life->insert) +
                       ") was present throughout and should have come first";
    return violation(ViolationKind::priority_inversion, text,
                     {op->invoke, y->life->insert->invoke});
  }
  return std::nullopt;
}

Verdict FastChecker::run() {
  if (auto v = index_values()) return *v;
  if (auto v = check_empties()) return *v;
  if (spec_ == SpecKind::fifo) {
    if (auto v = check_fifo_order()) return *v;
  }
  if (spec_ == SpecKind::priority) {
    if (auto v = check_priority_order()) return *v;
  }
  Verdict ok;
  ok.checker = "fast";
  return ok;
}

}  // namespace

Verdict check_fast(const History& history, SpecKind spec) {
  return FastChecker(history, spec).run();
}

}  // namespace contend::model
