// Footprints: what each step of an exhaustive run did to what other clients can observe, and the
// dependence relation the partial-order reduction (dpor.h) explores one order of.
//
// A step of client c runs c's pending store operation and then c's own code up to its next
// scheduling point. Two steps of different clients are *dependent* when running them in the other
// order could change an outcome: what a read returned, a commit's answer, the final store, or the
// real-time order of operations the linearizability check uses. In this MVCC store:
// - a read at a transaction's read version returns what the store held at that version, so the
//   *read version fetch* is the step that fixes every later read of the attempt: it is dependent
//   with an applied commit whose writes meet any range the attempt asked to read (or whose
//   conflict ranges it was checked against), and independent of every other commit (the fetch
//   then only moves which commit versions lie after the read version, which no read and no
//   conflict check of the attempt can see). A range read counts whole, not only up to the last
//   row a limit let it return. That narrower range (the keys that decided the answer) still
//   makes each swap of two adjacent independent steps change nothing, but the relation of a
//   fetch and one commit then depends on where a third commit stands: a fetch that saw the
//   larger of two items pushed at one index (they sort by their random suffixes) looks
//   independent of the push of the smaller, and once its race with the larger's push is
//   reversed, where it sees only the smaller, no race is left that runs the smaller's push
//   before it. With the narrower range the reduced search misses outcomes of queue and
//   idempotent-queue at 3 x 1, every plan, one fault (dpor_test: the tests-only
//   DporOptions::broken_reads_as_decided); with it for sleep sets alone (races judged whole) it
//   missed them too, so races and sleep sets judge by one relation, this one;
// - reads after the fetch, sleeps and local code touch nothing shared: independent of all (so an
//   exhaustive world runs such store steps inside the step before them: world.h's
//   split_inert_steps, whose soundness the comparison with the full search checks too);
// - a resolved commit is dependent with an applied commit of another client when one's writes
//   meet the other's writes or checked read ranges (the order decides a conflict or a final
//   value);
// - random key suffixes, when the search explores their order (suffix_draws.h): a draw chooses
//   where its suffix sorts among the suffixes drawn under the same key prefix *before it*, so two
//   steps that draw under one prefix are dependent (swapping them changes what each choice
//   means); a step that takes a read version and draws is taken, reversed, to draw under any;
// - versionstamps make the commit version itself observable: an attempt that writes one is
//   dependent with every applied commit at its fetch and at its commit;
// - history (only with DependenceRule::real_time): a step that completes an operation is dependent
//   with a step of another client that invokes one (swapping them changes which operation
//   precedes which); two invocations, or two completions, commute. Without it the search explores
//   store orders only and the checks take, for each execution, the schedules of its class that
//   order operations most in real time (scenarios/real_time_orders.h) — far fewer executions.
// Faults chosen inside a step are part of that step: their effects show in the same fields.
//
// The relation is computed on the concrete execution, after it ended (an attempt's reads are known
// only then). Soundness is tested: the reduced search reaches exactly the outcomes of the full one.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/runtime/range_set.h"
#include "sim/store/bytes.h"
#include "sim/store/environment.h"

namespace contend {

struct AttemptFootprint {
  // Every range whose values the attempt's reads depended on: their union is what counts (a
  // range within one already held is not added again: add_read).
  RangeSet reads;
  bool version_sensitive = false;  // it writes a versionstamp
  // Its commit was submitted: it reads nothing more, and `reads` holds what the commit checks.
  bool reads_final = false;
  bool ended = false;             // committed, failed or abandoned: no more reads will come
  std::size_t ended_in_step = 0;  // when ended: the index of the step it ended in
};

// Adds `range` to an attempt's reads unless it is empty or within a range they hold: only the
// union of the reads is ever asked about (whether a write meets it), and the dependence test is
// a loop over them, so a fulfilment that reads two whole ranges and then keys inside them keeps
// two ranges, not one per key.
void add_read(AttemptFootprint& attempt, KeyRangeRef range);

// An explored suffix draw that had a choice: under which key prefix, among how many places, which.
struct DrawPlaced {
  Bytes group;
  std::uint32_t places = 1;
  std::uint32_t choice = 0;  // it sorts below this many of the places - 1 drawn there before it
};

struct StepFootprint {
  int thread = -1;  // the exploration thread (a client slot; a crash's replacement keeps it)
  ClientId client = -1;
  StepKind kind = StepKind::read;
  std::uint64_t snapshot_attempt = 0;      // nonzero: took the read version of this attempt
  std::uint64_t commit_attempt = 0;        // nonzero: resolved this attempt's commit
  bool applied = false;                    // the commit's writes applied
  bool conflicted = false;                 // the commit was refused: a write met its checked ranges
  RangeSet checked;                        // read conflict ranges the resolver checked
  RangeSet written;                        // keys an applied commit wrote (world.cpp's written_by)
  RangeSet refused_writes;                 // keys a commit that did not apply would have written
  bool completes = false;                  // an operation completed (ok) in this step
  bool invokes = false;                    // an operation was invoked in this step
  std::vector<std::int64_t> events;        // indexes of the history events recorded in this step
  std::vector<std::uint32_t> faults;       // fault choices made in this step (index 0 = none)
  std::vector<std::uint64_t> draw_groups;  // explored suffix draws: SuffixDraws::group_id of each
  std::vector<DrawPlaced> draws_placed;    // explored suffix draws with a choice
  std::vector<std::string> fault_notes;    // the faults placed, in words
};

// Everything one run's steps touched: the steps in order and the attempts' reads.
struct StepLog {
  std::vector<StepFootprint> steps;
  std::map<std::uint64_t, AttemptFootprint> attempts;  // by transaction attempt id
};

// A step's footprint with its attempts' reads resolved: ranges it depends on and ranges it wrote.
struct ResolvedStep {
  int thread = -1;
  bool snapshot = false;    // took a read version
  bool resolved = false;    // resolved a commit
  bool applied = false;     // ... which applied
  bool conflicted = false;  // ... which a conflict refused
  bool version_sensitive = false;
  std::uint64_t snapshot_attempt = 0;  // the attempt whose read version it took (0: none)
  std::uint64_t commit_attempt = 0;    // the attempt whose commit it resolved (0: none)
  RangeSet reads;                      // snapshot: the attempt's reads and checked ranges
  RangeSet checked;                    // resolved: checked read conflict ranges
  RangeSet written;                    // applied: write ranges
  RangeSet refused_writes;             // resolved but not applied: the writes it would have made
  bool completes = false;
  bool invokes = false;
  std::vector<std::uint64_t> draw_groups;  // groups it drew suffixes under (kAnyGroup: any)
  friend bool operator==(const ResolvedStep&, const ResolvedStep&) = default;
};

// In draw_groups: a step that may draw under any key prefix.
inline constexpr std::uint64_t kAnyGroup = 0;

// With `final_reads` false (the run has not finished), an attempt that has neither ended nor
// submitted its commit may read more: its read version fetch is taken to depend on every key.
ResolvedStep resolve_step(const StepFootprint& step, const StepLog& log, bool final_reads);
// The same into `r`, every field assigned. The ranges are shared with the log (range_set.h).
void resolve_step_into(ResolvedStep& r, const StepFootprint& step, const StepLog& log,
                       bool final_reads);

// Which dependence relation: the store's alone, or with the real-time order of operations.
struct DependenceRule {
  bool real_time = false;
  // Tests only: a deliberately wrong relation (reads never depend on commits) that must make the
  // reduced search miss outcomes.
  bool broken = false;
  // Tests only: steps that draw suffixes under one key prefix taken as independent.
  bool broken_draws = false;
};

bool dependent(const ResolvedStep& a, const ResolvedStep& b, DependenceRule rule);

// The dependence between the steps of one execution, where the execution narrows `dependent`: a
// commit refused by a conflict depends, of the other clients' applied commits whose writes meet
// its checked ranges, only on the first one after its read version. In every order of the steps
// that keeps the remaining dependent pairs in order, that first commit still lies between the
// attempt's read version (the fetch depends on it) and its commit, so the commit is still
// refused, and a refused commit wrote nothing any other step could see: moving the others
// across it changes no outcome. The order where the commit comes before all of them, and may
// apply, is still tried: its race with the first one is reversed, and in the execution that
// reversal leads to, the next conflicting commit before it is the first, and so on. (The search
// once also tried the commit's thread at the first one's node directly; that only added runs
// that sleep sets then abandoned: 13% of those abandoned in hc-queue 3 x 2.)
class ExecutionDependence {
 public:
  ExecutionDependence(const std::vector<ResolvedStep>& steps, DependenceRule rule);
  // REQUIRES: k < j, both indexes of `steps`.
  bool operator()(std::size_t k, std::size_t j) const;
  // Whether the step depends on no step of another thread: it takes no read version, resolves no
  // commit, draws no explored suffix and (with the real-time rule) neither invokes nor completes
  // an operation. Callers that
  // ask of every pair skip such steps (most of a run's: its reads, sleeps and local code).
  bool inert(std::size_t step) const { return inert_[step]; }

 private:
  // Whether the dependence of `commit` and the refused commit `refused` is only the conflict
  // that another, earlier commit already decided.
  bool conflict_decided_elsewhere(std::size_t commit, std::size_t refused) const;

  const std::vector<ResolvedStep>& steps_;
  DependenceRule rule_;
  std::vector<long> first_conflict_;  // per step: a refused commit's first conflicting commit
  std::vector<bool> inert_;           // per step: inert()
};

// Whether a thread asleep with step `asleep` (its step where `steps[taken]` was taken instead)
// stays asleep after it: the two are independent, or dependent only as ExecutionDependence
// narrows — a commit refused by a conflict before both, with the other an applied commit whose
// writes meet its checked ranges. `steps` are the run's, up to and with `taken`.
bool stays_asleep(const ResolvedStep& asleep, const std::vector<ResolvedStep>& steps,
                  std::size_t taken, DependenceRule rule);

// The step as it may run when a race reverses it: moved before a step it depends on, a read
// version fetch may read other ranges (a range read with a limit stops at other keys), and a
// commit that was refused may apply. So the fetch reads every key and the commit applies its
// writes. (A step's ranges depend on the data it read: the reversal's candidates to start with
// must be judged by what the step may do there, not by what it did here.)
ResolvedStep as_reversed(const ResolvedStep& step);

// Joins `b` into `a` (a thread's step over all the fault choices explored for it); ranges
// already in `a` are not added twice.
void merge_into(ResolvedStep& a, const ResolvedStep& b);

}  // namespace contend
