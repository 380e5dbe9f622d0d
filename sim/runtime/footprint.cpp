#include "sim/runtime/footprint.h"

#include <algorithm>

#include "base/invariant.h"

namespace contend {

namespace {

// A fetch whose reads are not known (yet, or after a reversal): it may read anything.
RangeSet every_key() {
  static const RangeSet every{KeyRange{Bytes(), Bytes(2, '\xff')}};
  return every;
}

bool any_meet(const RangeSet& a, const RangeSet& b) {
  for (const KeyRange& x : a) {
    for (const KeyRange& y : b) {
      if (x.intersects(y)) return true;
    }
  }
  return false;
}

void append(RangeSet& to, const RangeSet& from) {
  for (const KeyRange& r : from) {
    if (std::find(to.begin(), to.end(), r) == to.end()) to.push_back(r);
  }
}

// A's effect on the store can change what B observed (or the other way round).
bool store_dependent(const ResolvedStep& a, const ResolvedStep& b, bool broken_rule) {
  if (!a.applied) return false;
  if ((a.version_sensitive || b.version_sensitive) && (b.snapshot || b.resolved)) return true;
  if (b.snapshot && !broken_rule && any_meet(a.written, b.reads)) return true;
  if (b.resolved && (any_meet(a.written, b.checked) || any_meet(a.written, b.written))) {
    return true;
  }
  return false;
}

bool draw_groups_meet(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b) {
  if (a.empty() || b.empty()) return false;
  for (std::uint64_t x : a) {
    for (std::uint64_t y : b) {
      if (x == y || x == kAnyGroup || y == kAnyGroup) return true;
    }
  }
  return false;
}

}  // namespace

void add_read(AttemptFootprint& attempt, KeyRangeRef range) {
  if (range.empty()) return;
  for (const KeyRange& r : attempt.reads) {
    if (compare_bytes(r.begin, range.begin) <= 0 && compare_bytes(range.end, r.end) <= 0) return;
  }
  attempt.reads.push_back(copy_of(range));
}

void resolve_step_into(ResolvedStep& r, const StepFootprint& step, const StepLog& log,
                       bool final_reads) {
  r.thread = step.thread;
  r.completes = step.completes;
  r.invokes = step.invokes;
  r.draw_groups = step.draw_groups;
  r.snapshot = step.snapshot_attempt != 0;
  r.snapshot_attempt = step.snapshot_attempt;
  r.version_sensitive = false;
  r.reads = RangeSet();
  if (r.snapshot) {
    auto it = log.attempts.find(step.snapshot_attempt);
    CONTEND_ASSERT(it != log.attempts.end(), "a read version was taken for an unknown attempt");
    r.version_sensitive = it->second.version_sensitive;
    if (!final_reads && !it->second.ended && !it->second.reads_final) {
      r.reads = every_key();
    } else {
      r.reads = it->second.reads;
    }
  }
  r.resolved = step.commit_attempt != 0;
  r.commit_attempt = step.commit_attempt;
  r.applied = step.applied;
  r.conflicted = step.conflicted;
  r.checked = RangeSet();
  r.written = RangeSet();
  r.refused_writes = RangeSet();
  if (r.resolved) {
    r.checked = step.checked;
    r.written = step.written;
    r.refused_writes = step.refused_writes;
    auto it = log.attempts.find(step.commit_attempt);
    if (it != log.attempts.end()) r.version_sensitive |= it->second.version_sensitive;
  }
}

ResolvedStep resolve_step(const StepFootprint& step, const StepLog& log, bool final_reads) {
  ResolvedStep r;
  resolve_step_into(r, step, log, final_reads);
  return r;
}

bool dependent(const ResolvedStep& a, const ResolvedStep& b, DependenceRule rule) {
  if (a.thread == b.thread) return true;
  if (rule.real_time && ((a.completes && b.invokes) || (a.invokes && b.completes))) return true;
  if (!rule.broken_draws && draw_groups_meet(a.draw_groups, b.draw_groups)) return true;
  return store_dependent(a, b, rule.broken) || store_dependent(b, a, rule.broken);
}

namespace {

// The first of the other clients' applied commits whose writes meet the checked ranges of `x`, a
// commit refused by a conflict, between its read version fetch and steps[end]; -1 when `x` is no
// such commit or none is found (then every dependence stays).
long first_conflict(const std::vector<ResolvedStep>& steps, std::size_t end,
                    const ResolvedStep& x) {
  CONTEND_ASSERT(end <= steps.size(), "a conflict looked for inside the steps");
  if (!x.resolved || x.applied || !x.conflicted || x.snapshot) return -1;
  std::size_t fetch = end;
  while (fetch-- > 0) {
    if (steps[fetch].snapshot && steps[fetch].snapshot_attempt == x.commit_attempt) break;
  }
  if (fetch >= end) return -1;  // no fetch in the log: keep every dependence
  for (std::size_t k = fetch + 1; k < end; ++k) {
    const ResolvedStep& c = steps[k];
    if (c.thread != x.thread && c.applied && any_meet(c.written, x.checked)) {
      return static_cast<long>(k);
    }
  }
  return -1;
}

// Whether what is left of `dependent` between the applied commit `c` and the refused commit `x`
// is c's writes meeting x's checked ranges.
bool only_conflict_left(const ResolvedStep& c, const ResolvedStep& x, DependenceRule rule) {
  if (c.thread == x.thread || c.version_sensitive || x.version_sensitive) return false;
  if (rule.real_time && ((c.completes && x.invokes) || (c.invokes && x.completes))) return false;
  if (draw_groups_meet(c.draw_groups, x.draw_groups)) return false;
  // What is left of `dependent`: c's applied writes meet x's checked ranges (x wrote nothing).
  return true;
}

}  // namespace

ExecutionDependence::ExecutionDependence(const std::vector<ResolvedStep>& steps,
                                         DependenceRule rule)
    : steps_(steps), rule_(rule), first_conflict_(steps.size(), -1), inert_(steps.size()) {
  for (std::size_t j = 0; j < steps.size(); ++j) {
    const ResolvedStep& x = steps[j];
    inert_[j] = !x.snapshot && !x.resolved && (x.draw_groups.empty() || rule.broken_draws) &&
                !(rule.real_time && (x.completes || x.invokes));
  }
  if (rule.broken) return;
  for (std::size_t j = 0; j < steps.size(); ++j)
    first_conflict_[j] = first_conflict(steps, j, steps[j]);
}

bool ExecutionDependence::conflict_decided_elsewhere(std::size_t commit,
                                                     std::size_t refused) const {
  const long first = first_conflict_[refused];
  if (first < 0 || static_cast<std::size_t>(first) == commit) return false;
  return only_conflict_left(steps_[commit], steps_[refused], rule_);
}

bool stays_asleep(const ResolvedStep& asleep, const std::vector<ResolvedStep>& steps,
                  std::size_t taken, DependenceRule rule) {
  CONTEND_ASSERT(taken < steps.size(), "the step taken is one of the run's");
  const ResolvedStep& s = steps[taken];
  if (!dependent(asleep, s, rule)) return true;
  if (rule.broken) return false;
  // The step taken was refused by a conflict before it: the sleeping commit, after it now, is
  // not that first conflict. Or the sleeping step is a commit refused by a conflict before the
  // step taken (the run's steps before it are those the sleeping step was explored after).
  return (first_conflict(steps, taken, s) >= 0 && only_conflict_left(asleep, s, rule)) ||
         (first_conflict(steps, taken, asleep) >= 0 && only_conflict_left(s, asleep, rule));
}

bool ExecutionDependence::operator()(std::size_t k, std::size_t j) const {
  CONTEND_ASSERT(k < j && j < steps_.size(), "a dependence asked of steps out of order");
  if (!dependent(steps_[k], steps_[j], rule_)) return false;
  return !conflict_decided_elsewhere(k, j) && !conflict_decided_elsewhere(j, k);
}

ResolvedStep as_reversed(const ResolvedStep& step) {
  ResolvedStep r = step;
  if (r.snapshot) r.reads = every_key();
  if (r.snapshot && !r.draw_groups.empty()) r.draw_groups = {kAnyGroup};
  if (r.resolved && !r.applied) {
    r.applied = true;
    append(r.written, r.refused_writes);
  }
  return r;
}

void merge_into(ResolvedStep& a, const ResolvedStep& b) {
  a.snapshot |= b.snapshot;
  a.resolved |= b.resolved;
  a.applied |= b.applied;
  a.version_sensitive |= b.version_sensitive;
  append(a.reads, b.reads);
  append(a.checked, b.checked);
  append(a.written, b.written);
  append(a.refused_writes, b.refused_writes);
  a.completes |= b.completes;
  a.invokes |= b.invokes;
  for (std::uint64_t g : b.draw_groups) {
    if (std::find(a.draw_groups.begin(), a.draw_groups.end(), g) == a.draw_groups.end())
      a.draw_groups.push_back(g);
  }
}

}  // namespace contend
