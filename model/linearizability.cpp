#include "model/linearizability.h"

#include <algorithm>
#include <set>
#include <sstream>

namespace contend::model {

namespace {

struct Frame {
  std::vector<std::int64_t> candidates;
  std::size_t next = 0;
  SpecState state;
  std::int64_t chosen = -1;  // the op this frame linearized (its parent's choice)
};

class Search {
 public:
  Search(std::vector<Operation> ops, SpecKind spec, std::int64_t budget)
      : ops_(std::move(ops)), spec_(spec), budget_(budget), done_(ops_.size(), false) {
    for (const Operation& op : ops_)
      required_ += op.indeterminate ? 0 : 1;
  }

  Verdict run();

 private:
  std::vector<std::int64_t> candidates() const;
  std::string memo_key(const SpecState& state) const;
  bool finished() const { return linearized_required_ == required_; }
  void note_depth(const std::vector<Frame>& stack);

  std::vector<Operation> ops_;
  SpecKind spec_;
  std::int64_t budget_;
  std::vector<bool> done_;
  std::int64_t required_ = 0;
  std::int64_t linearized_required_ = 0;
  std::set<std::string> memo_;
  std::vector<std::int64_t> best_prefix_;
  std::vector<std::int64_t> best_stuck_;
  std::int64_t best_depth_ = -1;
};

// Operations that may be linearized next: not yet linearized, and invoked before every pending
// determinate operation's completion (nothing still pending must precede them).
std::vector<std::int64_t> Search::candidates() const {
  std::int64_t horizon = kForever;
  for (const Operation& op : ops_) {
    if (!done_[static_cast<std::size_t>(op.id)] && !op.indeterminate)
      horizon = std::min(horizon, op.complete);
  }
  std::vector<std::int64_t> out;
  for (const Operation& op : ops_) {
    if (!done_[static_cast<std::size_t>(op.id)] && op.invoke < horizon) out.push_back(op.id);
  }
  return out;
}

std::string Search::memo_key(const SpecState& state) const {
  std::string k;
  k.reserve(done_.size() / 8 + 16);
  unsigned char bits = 0;
  for (std::size_t i = 0; i < done_.size(); ++i) {
    if (done_[i]) bits |= static_cast<unsigned char>(1u << (i % 8));
    if (i % 8 == 7 || i + 1 == done_.size()) {
      k.push_back(static_cast<char>(bits));
      bits = 0;
    }
  }
  k.push_back('|');
  return k + state.key();
}

void Search::note_depth(const std::vector<Frame>& stack) {
  auto depth = static_cast<std::int64_t>(stack.size());
  if (depth <= best_depth_) return;
  best_depth_ = depth;
  best_prefix_.clear();
  for (const Frame& f : stack) {
    if (f.chosen >= 0) best_prefix_.push_back(ops_[static_cast<std::size_t>(f.chosen)].invoke);
  }
  best_stuck_.clear();
  for (std::int64_t c : stack.back().candidates) {
    if (!ops_[static_cast<std::size_t>(c)].indeterminate) {
      best_stuck_.push_back(ops_[static_cast<std::size_t>(c)].invoke);
    }
  }
}

Verdict Search::run() {
  Verdict v;
  v.checker = "search";
  std::vector<Frame> stack;
  stack.push_back(Frame{candidates(), 0, SpecState(spec_), -1});
  std::int64_t steps = 0;
  while (!stack.empty()) {
    if (finished()) {
      v.kind = VerdictKind::linearizable;
      v.steps = steps;
      return v;
    }
    note_depth(stack);
    Frame& top = stack.back();
    if (top.next >= top.candidates.size()) {  // exhausted: undo this frame's choice
      if (top.chosen >= 0) {
        done_[static_cast<std::size_t>(top.chosen)] = false;
        if (!ops_[static_cast<std::size_t>(top.chosen)].indeterminate) --linearized_required_;
      }
      stack.pop_back();
      continue;
    }
    if (++steps > budget_) {
      v.kind = VerdictKind::unknown;
      v.steps = steps;
      v.explanation = "the search ran out of its budget of " + std::to_string(budget_) + " steps";
      return v;
    }
    const std::int64_t id = top.candidates[top.next++];
    const Operation& op = ops_[static_cast<std::size_t>(id)];
    SpecState next = top.state;
    if (!next.step(op)) continue;
    done_[static_cast<std::size_t>(id)] = true;
    if (!op.indeterminate) ++linearized_required_;
    if (!memo_.insert(memo_key(next)).second) {
      done_[static_cast<std::size_t>(id)] = false;
      if (!op.indeterminate) --linearized_required_;
      continue;
    }
    stack.push_back(Frame{candidates(), 0, std::move(next), id});
  }
  v.kind = VerdictKind::violation;
  v.violation = ViolationKind::not_linearizable;
  v.steps = steps;
  v.longest_prefix = best_prefix_;
  v.stuck = best_stuck_;
  v.events = best_stuck_;
  std::ostringstream out;
  out << "no linearization exists; the longest linearizable prefix has " << best_prefix_.size()
      << " operation(s) (invoked at events";
  for (auto e : best_prefix_)
    out << " " << e;
  out << "), after which none of the operations invoked at events";
  for (auto e : best_stuck_)
    out << " " << e;
  out << " can take effect";
  v.explanation = out.str();
  return v;
}

}  // namespace

Verdict check_linearizable(const History& history, SpecKind spec, const SearchOptions& options) {
  return Search(operations_of(history), spec, options.step_budget).run();
}

}  // namespace contend::model
