#include "sim/runtime/dpor.h"

#include <algorithm>
#include <bit>
#include <charconv>

#include "base/invariant.h"

namespace contend {

namespace {

std::uint64_t bit(int thread) {
  CONTEND_ASSERT(thread >= 0 && thread < kMaxThreads, "thread id out of range");
  return std::uint64_t{1} << thread;
}

bool has(std::uint64_t set, int thread) {
  return (set & bit(thread)) != 0;
}

int lowest(std::uint64_t set) {
  return std::countr_zero(set);
}

// One node as a path spells it: the thread, f<choice> or d<choice>.
std::string node_text(const SearchNode& n) {
  if (n.kind == NodeKind::fault) return "f" + std::to_string(n.choice);
  if (n.kind == NodeKind::draw) return "d" + std::to_string(n.choice);
  return std::to_string(n.thread);
}

// The ready threads, in ascending order (candidates come in the runtime's order).
std::string ready_text(std::span<const Candidate> candidates) {
  std::uint64_t ready = 0;
  for (const Candidate& c : candidates)
    ready |= bit(c.thread);
  std::string out;
  for (; ready != 0; ready &= ready - 1)
    out += (out.empty() ? "" : ", ") + std::to_string(lowest(ready));
  return out;
}

std::string choice_kind_text(NodeKind kind) {
  return kind == NodeKind::fault ? "a fault choice" : "a draw choice";
}

// The footprint a sleeping thread is checked against before the step's attempt has finished:
// its reads so far may not be all, so a read version fetch depends on every write.
ResolvedStep resolve_in_flight(const StepFootprint& step, const StepLog& log) {
  return resolve_step(step, log, /*final_reads=*/false);
}

std::size_t slots_for(std::uint64_t enabled) {
  return static_cast<std::size_t>(64 - std::countl_zero(enabled));
}

}  // namespace

// ---- DporRun ----

std::size_t DporRun::choose(std::span<const Candidate> candidates) {
  if (diverged_) return kStop;
  if (cursor_ < follow_) {
    const SearchNode& n = (*nodes_)[cursor_];
    auto it = std::find_if(candidates.begin(), candidates.end(),
                           [&](const Candidate& c) { return c.thread == n.thread; });
    if (!n.schedules() || it == candidates.end()) {
      diverged_ = true;
      divergence_ = "item " + std::to_string(cursor_ + 1) + " is " + node_text(n) + ", but " +
                    (n.schedules() ? "that thread is not ready there"
                                   : "the execution schedules a thread there") +
                    " (ready: " + ready_text(candidates) + ")";
      return kStop;
    }
    ++cursor_;
    ++steps_seen_;
    if (last_thread_ >= 0 && has(n.enabled, last_thread_) && n.thread != last_thread_) {
      ++preemptions_;
    }
    last_thread_ = n.thread;
    return static_cast<std::size_t>(it - candidates.begin());
  }
  return new_node(candidates);
}

std::size_t DporRun::new_node(std::span<const Candidate> candidates) {
  SearchNode n;
  for (const Candidate& c : candidates)
    n.enabled |= bit(c.thread);
  n.previous = last_thread_;
  n.preemptions_before = preemptions_;
  n.faults_before = faults_;
  n.footprints.resize(slots_for(n.enabled));
  if (options_.reduce && log_ != nullptr && !log_->steps.empty()) {
    // Sleep set: the threads asleep or explored at the previous scheduling node stay asleep
    // while the step taken there is independent of theirs.
    auto prev = std::find_if((*nodes_).rbegin(), (*nodes_).rend(),
                             [](const SearchNode& s) { return s.schedules(); });
    CONTEND_ASSERT(prev != (*nodes_).rend(), "a step ran without a scheduling node");
    std::uint64_t candidates_asleep = (prev->sleep | prev->done) & ~bit(prev->thread);
    const ResolvedStep taken =
        candidates_asleep != 0 ? resolve_in_flight(log_->steps.back(), *log_) : ResolvedStep{};
    for (; candidates_asleep != 0; candidates_asleep &= candidates_asleep - 1) {
      const int q = lowest(candidates_asleep);
      const auto index = static_cast<std::size_t>(q);
      if (index >= prev->footprints.size() || index >= n.footprints.size()) continue;
      const auto& footprint = prev->footprints[index];
      if (!footprint || dependent(*footprint, taken, options_.rule())) continue;
      n.sleep |= bit(q);
      n.footprints[index] = footprint;
    }
  }
  const bool previous_ready = last_thread_ >= 0 && has(n.enabled, last_thread_);
  const bool at_bound = options_.max_preemptions && preemptions_ >= *options_.max_preemptions;
  std::size_t pick = candidates.size();
  if (at_bound && previous_ready) {
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      if (candidates[i].thread == last_thread_ && !has(n.sleep, last_thread_)) pick = i;
    }
  } else {
    for (std::size_t i = 0; i < candidates.size() && pick == candidates.size(); ++i) {
      if (!has(n.sleep, candidates[i].thread)) pick = i;
    }
  }
  if (pick == candidates.size()) {
    blocked_ = true;  // every thread that may run sleeps: an equivalent execution was explored
    return kStop;
  }
  n.thread = candidates[pick].thread;
  n.done = bit(n.thread);
  n.backtrack = options_.reduce ? bit(n.thread) : n.enabled;
  if (previous_ready && n.thread != last_thread_) ++preemptions_;
  last_thread_ = n.thread;
  nodes_->push_back(std::move(n));
  ++cursor_;
  ++steps_seen_;
  return pick;
}

bool DporRun::arrive(const Digest128::Value& state) {
  CONTEND_ASSERT(states_ != nullptr && cursor_ >= follow_, "a state given where none was wanted");
  Digest128 key;
  key.add_value(state);
  key.add_u64(static_cast<std::uint64_t>(faults_));
  if (options_.max_preemptions) {  // what the bound still allows from here
    key.add_u64(static_cast<std::uint64_t>(preemptions_));
    key.add_u64(static_cast<std::uint64_t>(last_thread_ + 1));
  }
  if (states_->insert(key.finish())) return true;
  blocked_ = true;  // explored from an equal state before: abandoned, like a blocked run
  return false;
}

std::uint32_t DporRun::choose_fault(ClientId, FaultSite site, std::uint32_t options) {
  return choice_node(NodeKind::fault, site, options);
}

std::uint32_t DporRun::choose_draw(ClientId, std::uint32_t options) {
  return choice_node(NodeKind::draw, FaultSite::step, options);
}

std::uint32_t DporRun::choice_node(NodeKind kind, FaultSite site, std::uint32_t options) {
  CONTEND_ASSERT(kind != NodeKind::schedule, "a choice node is a fault or a draw");
  if (diverged_) return 0;
  if (cursor_ < follow_) {
    const SearchNode& n = (*nodes_)[cursor_];
    if (n.kind != kind || n.choice >= options) {
      diverged_ = true;
      const std::string letter = kind == NodeKind::fault ? "f" : "d";
      const std::string range = letter + "0.." + letter + std::to_string(options - 1);
      divergence_ = "item " + std::to_string(cursor_ + 1) + " is " + node_text(n) + ", but " +
                    (n.kind != kind ? "the execution makes " + choice_kind_text(kind) + " there (" +
                                          range + ")"
                                    : "that choice is one of " + range);
      return 0;
    }
    ++cursor_;
    faults_ += kind == NodeKind::fault && n.choice != 0 ? 1 : 0;
    return n.choice;
  }
  SearchNode n;
  n.kind = kind;
  n.site = site;
  n.options = options;
  n.faults_before = faults_;
  nodes_->push_back(std::move(n));
  ++cursor_;
  return 0;
}

// ---- DporExplorer ----

DporExplorer::DporExplorer(DporOptions options) : options_(options) {
  CONTEND_ASSERT(!(options_.cache_states && options_.reduce),
                 "states are cached by the full search only (dpor.h)");
  if (options_.cache_states) states_ = std::make_shared<StateCache>();
}

void DporExplorer::start_from(std::vector<SearchNode> nodes, std::size_t fixed_depth) {
  CONTEND_ASSERT(!started_, "start_from after the search began");
  nodes_ = std::move(nodes);
  fixed_depth_ = fixed_depth;
  runs_from_depth_ = fixed_depth;
}

DporProgress DporExplorer::progress() const {
  CONTEND_ASSERT(started_ && !exhausted_ && executions_ + blocked_ > 0,
                 "progress is saved between two executions");
  return DporProgress{nodes_, follow_, fixed_depth_, runs_from_depth_, executions_, blocked_};
}

void DporExplorer::resume(DporProgress progress) {
  CONTEND_ASSERT(!started_, "resume after the search began");
  CONTEND_ASSERT(progress.fixed_depth <= progress.nodes.size() &&
                     progress.follow <= progress.nodes.size() &&
                     progress.runs_from_depth <= progress.fixed_depth,
                 "a saved progress inside its own path");
  nodes_ = std::move(progress.nodes);
  follow_ = progress.follow;
  fixed_depth_ = progress.fixed_depth;
  runs_from_depth_ = progress.runs_from_depth;
  executions_ = progress.executions;
  blocked_ = progress.blocked;
  started_ = true;
}

std::shared_ptr<DporRun> DporExplorer::begin() {
  if (exhausted_) return nullptr;
  if (!started_) {
    started_ = true;
    follow_ = nodes_.size();
  } else if (!advance()) {
    exhausted_ = true;
    return nullptr;
  }
  return std::make_shared<DporRun>(&nodes_, follow_, options_, states_.get());
}

bool DporExplorer::has_next() const {
  if (exhausted_) return false;
  if (!started_) return true;
  DporExplorer copy = *this;  // advance() moves the path on
  return copy.advance();
}

bool DporExplorer::advance() {
  for (std::size_t i = nodes_.size(); i-- > fixed_depth_;) {
    SearchNode& n = nodes_[i];
    if (!n.schedules()) {
      if (n.has_next_choice(options_.max_faults)) {
        ++n.choice;
        nodes_.resize(i + 1);
        follow_ = i + 1;
        return true;
      }
      continue;
    }
    for (std::uint64_t todo = n.backtrack & n.enabled & ~n.done & ~n.sleep; todo != 0;
         todo &= todo - 1) {
      const int q = lowest(todo);
      const bool preempts = n.previous >= 0 && has(n.enabled, n.previous) && q != n.previous;
      if (options_.max_preemptions &&
          n.preemptions_before + (preempts ? 1 : 0) > *options_.max_preemptions) {
        continue;
      }
      n.thread = q;
      n.done |= bit(q);
      nodes_.resize(i + 1);
      follow_ = i + 1;
      return true;
    }
  }
  return false;
}

void DporExplorer::finish(DporRun& run, const StepLog& log, bool complete) {
  CONTEND_ASSERT(!run.diverged(), "re-executing a path met different choices: nondeterminism");
  std::vector<std::size_t> node_of;
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    if (nodes_[i].schedules()) node_of.push_back(i);
  }
  CONTEND_ASSERT(node_of.size() == log.steps.size(), "every step has one scheduling node");
  // Resized, not cleared: the steps this run shares with the last one are not resolved again
  // (unchanged_steps). A resolved step shares its ranges with the log, and a node's footprint
  // shares them with the resolved step (range_set.h).
  const std::size_t unchanged = unchanged_steps(log, node_of, complete);
  std::vector<ResolvedStep>& steps = resolved_;
  steps.resize(log.steps.size());
  for (std::size_t k = 0; k < log.steps.size(); ++k) {
    if (k >= unchanged) resolve_step_into(steps[k], log.steps[k], log, complete);
    // A step whose node and fault nodes all lie before the node this execution changed ran
    // exactly as before: its footprint is recorded already.
    const std::size_t next_node = k + 1 < node_of.size() ? node_of[k + 1] : nodes_.size();
    if (follow_ > 0 && next_node < follow_ - 1) continue;
    SearchNode& node = nodes_[node_of[k]];
    CONTEND_ASSERT(node.thread == steps[k].thread, "a step ran on another thread");
    const auto thread = static_cast<std::size_t>(node.thread);
    if (node.footprints.size() <= thread) node.footprints.resize(thread + 1);
    auto& slot = node.footprints[thread];
    if (slot) {
      merge_into(*slot, steps[k]);
    } else {
      slot = std::make_shared<ResolvedStep>(steps[k]);
    }
  }
  last_blocked_ = run.blocked();
  if (options_.reduce && complete && !run.blocked() && !options_.max_preemptions) {
    const std::size_t asleep_at = first_step_asleep(steps, node_of);
    if (asleep_at < steps.size()) {
      last_blocked_ = true;
      node_of.resize(asleep_at);  // the races of the steps before it (resolved_ keeps its storage)
    }
  }
  if (last_blocked_) {
    ++blocked_;
  } else {
    ++executions_;
  }
  last_run_steps_ = log.steps.size();
  if (!options_.reduce) return;
  add_races(steps, node_of, std::min(unchanged, ordered_steps_));
  if (options_.check_reuse) check_reused(log, complete, unchanged, node_of);
}

// The steps before the first one the path changed ran exactly as in the last run (the world is
// deterministic), and each resolves as it did then unless it takes a read version for an attempt
// that was still open when the changed step ran: its reads may differ now (a read failed, the
// run ended first), so such a fetch is resolved again and compared. The steps before the first
// that resolves differently keep the last run's resolution, vector clocks and races: the races'
// backtrack points were added then, and adding them again would change nothing.
std::size_t DporExplorer::unchanged_steps(const StepLog& log,
                                          const std::vector<std::size_t>& node_of, bool complete) {
  if (follow_ == 0 || last_run_steps_ == 0) return 0;
  // The changed node is a scheduling node (its step is the first to differ) or a fault or draw
  // choice inside the step of the scheduling node before it.
  const auto first_at_or_after = static_cast<std::size_t>(
      std::lower_bound(node_of.begin(), node_of.end(), follow_ - 1) - node_of.begin());
  const bool changed_schedules = nodes_[follow_ - 1].schedules();
  if (!changed_schedules && first_at_or_after == 0) return 0;
  const std::size_t changed = changed_schedules ? first_at_or_after : first_at_or_after - 1;
  const std::size_t bound = std::min({changed, last_run_steps_, log.steps.size()});
  for (std::size_t k = 0; k < bound; ++k) {
    const std::uint64_t attempt = log.steps[k].snapshot_attempt;
    if (attempt == 0 || options_.broken_reuse) continue;
    auto it = log.attempts.find(attempt);
    CONTEND_ASSERT(it != log.attempts.end(), "a read version was taken for an unknown attempt");
    if (it->second.ended && it->second.ended_in_step < changed) continue;
    resolve_step_into(reresolved_, log.steps[k], log, complete);
    if (!(reresolved_ == resolved_[k])) return k;
  }
  return bound;
}

// Tests only: what unchanged_steps spared is what computing it afresh gives.
void DporExplorer::check_reused(const StepLog& log, bool complete, std::size_t unchanged,
                                const std::vector<std::size_t>& node_of) {
  for (std::size_t k = 0; k < unchanged; ++k) {
    CONTEND_ASSERT(resolved_[k] == resolve_step(log.steps[k], log, complete),
                   "a step kept from the last run resolves differently now");
  }
  const std::vector<int> clocks = clocks_;
  const std::vector<int> positions = positions_;
  std::vector<std::uint64_t> backtrack;
  for (const SearchNode& n : nodes_)
    backtrack.push_back(n.backtrack);
  add_races(resolved_, node_of, 0);
  CONTEND_ASSERT(clocks == clocks_ && positions == positions_,
                 "vector clocks kept from the last run differ from those computed afresh");
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    CONTEND_ASSERT(nodes_[i].backtrack == backtrack[i],
                   "a race of the steps kept from the last run adds a backtrack point");
  }
}

// A node made by this run judged its sleep set with the step before it in flight: a read version
// fetch whose attempt had neither ended nor submitted its commit was taken to read every key
// (footprint.h), so it woke every sleeping thread that commits. Now the attempts' reads are known:
// each new node keeps asleep the threads that final reads leave asleep (a superset: the fetch read
// less). A node whose thread sleeps then is where the run became equivalent to one explored before:
// the rest of the run is dropped as a blocked run's would be, and the node goes on with a thread
// that is awake there, when one is.
std::size_t DporExplorer::first_step_asleep(const std::vector<ResolvedStep>& steps,
                                            const std::vector<std::size_t>& node_of) {
  for (std::size_t k = 1; k < steps.size(); ++k) {
    if (node_of[k] < follow_) continue;  // followed: its sleep set was judged by an earlier run
    const SearchNode& prev = nodes_[node_of[k - 1]];
    SearchNode& node = nodes_[node_of[k]];
    std::uint64_t asleep = 0;
    for (std::uint64_t q = (prev.sleep | prev.done) & ~bit(prev.thread); q != 0; q &= q - 1) {
      const auto index = static_cast<std::size_t>(lowest(q));
      if (index >= prev.footprints.size() || index >= node.footprints.size()) continue;
      const auto& footprint = prev.footprints[index];
      if (!footprint || !stays_asleep(*footprint, steps, k - 1, options_.rule())) continue;
      asleep |= bit(lowest(q));
      node.footprints[index] = footprint;
    }
    CONTEND_ASSERT((node.sleep & ~asleep) == 0,
                   "a thread asleep with the step in flight woke with its final reads");
    node.sleep = asleep;
    if (!has(asleep, node.thread)) continue;
    const std::uint64_t awake = node.enabled & ~asleep & ~node.done;
    if (awake != 0) {
      node.backtrack |= bit(lowest(awake));
      nodes_.resize(node_of[k] + 1);
    } else {
      nodes_.resize(node_of[k]);  // every ready thread sleeps: as a run blocked there
    }
    return k;
  }
  return steps.size();
}

void DporExplorer::add_races(const std::vector<ResolvedStep>& steps,
                             const std::vector<std::size_t>& node_of, std::size_t kept) {
  const std::size_t n = node_of.size();  // the run's first n steps (the rest was dropped)
  int threads = 0;
  for (std::size_t k = 0; k < n; ++k)
    threads = std::max(threads, steps[k].thread + 1);
  const auto t_count = static_cast<std::size_t>(threads);
  if (t_count != clock_width_) kept = 0;  // the rows are laid out for another width
  kept = std::min(kept, n);
  // pos[k]: 1-based position of step k among its thread's steps; clock[k]: vector clock. Both
  // in buffers kept across executions, one row of t_count entries per step; the first `kept`
  // steps' entries are the last run's.
  std::vector<int>& pos = positions_;
  pos.resize(n);
  std::fill(pos.begin() + static_cast<std::ptrdiff_t>(kept), pos.end(), 0);
  clocks_.resize(n * t_count);
  std::fill(clocks_.begin() + static_cast<std::ptrdiff_t>(kept * t_count), clocks_.end(), 0);
  clock_width_ = t_count;
  ordered_steps_ = n;
  auto clock = [this, t_count](std::size_t step) { return clocks_.data() + step * t_count; };
  std::vector<int> count(t_count, 0);
  std::vector<long> last_of_thread(t_count, -1);
  for (std::size_t k = 0; k < kept; ++k) {
    const auto t = static_cast<std::size_t>(steps[k].thread);
    ++count[t];
    last_of_thread[t] = static_cast<long>(k);
  }
  std::vector<long> dep_last(t_count);
  std::vector<std::size_t> in_v;
  const ExecutionDependence depends(steps, options_.rule());
  auto hb = [&](std::size_t a, std::size_t b) {  // step a happens before step b
    return clock(b)[static_cast<std::size_t>(steps[a].thread)] >= pos[a];
  };
  for (std::size_t j = kept; j < n; ++j) {
    const auto tj = static_cast<std::size_t>(steps[j].thread);
    pos[j] = ++count[tj];
    std::fill(dep_last.begin(), dep_last.end(), -1);
    dep_last[tj] = last_of_thread[tj];
    for (std::size_t k = depends.inert(j) ? 0 : j; k-- > 0;) {
      const auto tk = static_cast<std::size_t>(steps[k].thread);
      if (tk == tj || dep_last[tk] >= 0 || depends.inert(k)) continue;
      if (depends(k, j)) {
        dep_last[tk] = static_cast<long>(k);
      }
    }
    for (long k : dep_last) {
      if (k < 0) continue;
      for (std::size_t t = 0; t < t_count; ++t)
        clock(j)[t] = std::max(clock(j)[t], clock(static_cast<std::size_t>(k))[t]);
    }
    clock(j)[tj] = pos[j];
    last_of_thread[tj] = static_cast<long>(j);
    // Races: a dependent step of another thread not ordered before j through another step.
    for (std::size_t t = 0; t < t_count; ++t) {
      if (t == tj || dep_last[t] < 0) continue;
      const auto i = static_cast<std::size_t>(dep_last[t]);
      bool through_other = false;
      for (long k : dep_last) {
        if (k >= 0 && static_cast<std::size_t>(k) != i && hb(i, static_cast<std::size_t>(k))) {
          through_other = true;
        }
      }
      if (through_other) continue;
      // v: the steps after i not ordered after it, then j; its initials may start the reversal.
      std::uint64_t initials = 0;
      std::vector<int>& first_in_v = first_in_v_;  // 0: thread not in v yet
      first_in_v.assign(t_count, 0);
      in_v.clear();
      for (std::size_t k = i + 1; k < j; ++k) {
        if (hb(i, k)) continue;
        in_v.push_back(k);
        const auto tk = static_cast<std::size_t>(steps[k].thread);
        if (first_in_v[tk] != 0) continue;
        bool initial = true;
        for (std::size_t u = 0; u < t_count && initial; ++u) {
          if (u != tk && first_in_v[u] != 0 && clock(k)[u] >= first_in_v[u]) initial = false;
        }
        first_in_v[tk] = pos[k];
        if (initial) initials |= bit(steps[k].thread);
      }
      // j runs before i in the reversal, so it may not be the step it was here (as_reversed):
      // it starts v only if no step of v may depend on what it may become.
      if (first_in_v[tj] == 0 && in_v.empty()) {
        initials |= bit(steps[j].thread);
      } else if (first_in_v[tj] == 0) {
        const ResolvedStep reversed = as_reversed(steps[j]);
        bool initial = true;
        for (std::size_t k : in_v) {
          if (dependent(steps[k], reversed, options_.rule())) {
            initial = false;
            break;
          }
        }
        if (initial) initials |= bit(steps[j].thread);
      }
      SearchNode& e = nodes_[node_of[i]];
      initials &= e.enabled;
      if (initials == 0) {
        e.backtrack |= e.enabled;  // no thread can start it from there: try them all
      } else if ((e.backtrack & initials) == 0) {
        e.backtrack |=
            has(initials, steps[j].thread) ? bit(steps[j].thread) : bit(lowest(initials));
      }
    }
  }
}

// ---- paths ----

std::string path_to_string(const std::vector<SearchNode>& nodes) {
  std::string out;
  for (const SearchNode& n : nodes)
    out += (out.empty() ? "" : ",") + node_text(n);
  return out;
}

std::optional<std::vector<SearchNode>> parse_path(const std::string& text, std::string& error) {
  std::vector<SearchNode> nodes;
  if (text.empty()) return nodes;
  // Every item between commas is read, the one after a trailing comma too (it is empty).
  for (std::size_t at = 0, end = 0; end < text.size(); at = end + 1) {
    end = std::min(text.find(',', at), text.size());
    const std::string_view item(text.data() + at, end - at);
    std::string_view token = item;
    SearchNode n;
    if (!token.empty() && (token.front() == 'f' || token.front() == 'd')) {
      n.kind = token.front() == 'f' ? NodeKind::fault : NodeKind::draw;
      token.remove_prefix(1);
    }
    unsigned value = 0;
    auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (token.empty() || ec != std::errc() || ptr != token.data() + token.size() ||
        (n.schedules() && value >= static_cast<unsigned>(kMaxThreads))) {
      error = "item " + std::to_string(nodes.size() + 1) + " ('" + std::string(item) +
              "', at character " + std::to_string(at + 1) +
              ") is neither a thread number below 64, f<fault choice> nor d<draw choice>";
      return std::nullopt;
    }
    if (!n.schedules()) {
      n.choice = value;
      n.options = value + 1;
    } else {
      n.thread = static_cast<int>(value);
    }
    nodes.push_back(std::move(n));
  }
  return nodes;
}

}  // namespace contend
