// Checker time on FIFO and priority histories of 1k, 10k and 100k operations at 8 and 64
// concurrent processes, and schedules per second of exhaustive exploration.
//   check/fast_fifo/OPS/PROCS, check/fast_priority/OPS/PROCS   the default checkers
//   check/search_fifo/OPS/PROCS, check/search_priority/...   the exact search, candidates tried
//                                                             in the order of observation
//   baseline/search_fifo/OPS/PROCS ...                        the same, in invocation order
//   check/search_then_parts_priority/10000/64                 an undecided history: the whole
//                                                             search, then its parts
//   baseline/search_then_parts_priority/10000/64              the whole search alone
//   baseline/fast_fifo/OPS/PROCS ...                          reading the operations and sorting
//                                                             them: the floor any checker pays
//   explore/dfs_queue_2x2                                     items/s = schedules per second
// Histories are generated linearizable (so the checkers do all their work) from a seeded stream.
#include <benchmark/benchmark.h>

#include <algorithm>

#include "bench/ratio_reporter.h"
#include "model/fast_check.h"
#include "model/linearizability.h"
#include "model/operations.h"
#include "scenarios/explore.h"
#include "sim/runtime/rng.h"

namespace contend {
namespace {

using namespace model;

// `ops` operations by `procs` processes: each invokes, takes effect on a sequential queue at a
// random later moment, and completes; unique values.
History generate(std::int64_t ops, std::int64_t procs, bool priority) {
  Rng rng(static_cast<std::uint64_t>(ops * 131 + procs));
  struct Proc {
    int state = 0;
    Event inv;
    std::optional<Item> out;
  };
  std::vector<Proc> ps(static_cast<std::size_t>(procs));
  std::vector<SpecEntry> q;
  std::int64_t order = 0, invoked = 0, values = 0;
  History h;
  auto emit = [&](Event e) {
    e.index = static_cast<std::int64_t>(h.size());
    e.time_us = e.index;
    h.push_back(std::move(e));
  };
  while (true) {
    bool idle = std::all_of(ps.begin(), ps.end(), [](const Proc& p) { return p.state == 0; });
    if (invoked >= ops && idle) break;
    auto pid = static_cast<std::size_t>(rng.uniform(static_cast<std::uint64_t>(procs)));
    Proc& p = ps[pid];
    if (p.state == 0) {
      if (invoked >= ops) continue;
      ++invoked;
      Event e;
      e.process = static_cast<std::int64_t>(pid);
      const bool insert = rng.chance(0.5);
      e.f = priority ? (insert ? OpFunction::push
                               : (rng.chance(0.5) ? OpFunction::pop_min : OpFunction::pop_max))
                     : (insert ? OpFunction::enqueue : OpFunction::dequeue);
      if (insert) {
        e.value = Item{"v" + std::to_string(values++), std::nullopt};
        if (priority) e.value->priority = rng.range(0, 9);
      }
      p.inv = e;
      p.state = 1;
      emit(e);
    } else if (p.state == 1) {
      p.out.reset();
      if (is_insert(p.inv.f)) {
        SpecEntry s{p.inv.value->priority.value_or(0), order++, p.inv.value->value};
        auto at = std::upper_bound(q.begin(), q.end(), s, [](const auto& a, const auto& b) {
          return a.priority != b.priority ? a.priority < b.priority : a.order < b.order;
        });
        q.insert(at, s);
      } else if (!q.empty()) {
        auto it = p.inv.f == OpFunction::pop_max ? q.end() - 1 : q.begin();
        p.out = Item{it->value, std::nullopt};
        if (priority) p.out->priority = it->priority;
        q.erase(it);
      }
      p.state = 2;
    } else {
      Event e = p.inv;
      e.type = EventType::ok;
      if (!is_insert(e.f)) e.value = p.out;
      emit(e);
      p.state = 0;
    }
  }
  return h;
}

const History& cached(std::int64_t ops, std::int64_t procs, bool priority) {
  static std::map<std::tuple<std::int64_t, std::int64_t, bool>, History> cache;
  auto key = std::make_tuple(ops, procs, priority);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, generate(ops, procs, priority)).first;
  return it->second;
}

void BM_FastFifo(benchmark::State& state) {
  const History& h = cached(state.range(0), state.range(1), false);
  for (auto _ : state) {
    Verdict v = check_fast(h, SpecKind::fifo);
    if (!v.ok()) state.SkipWithError("generated history judged a violation");
    benchmark::DoNotOptimize(v);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
void BM_FastPriority(benchmark::State& state) {
  const History& h = cached(state.range(0), state.range(1), true);
  for (auto _ : state) {
    Verdict v = check_fast(h, SpecKind::priority);
    if (!v.ok()) state.SkipWithError("generated history judged a violation");
    benchmark::DoNotOptimize(v);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
void BM_Baseline(benchmark::State& state) {
  const History& h = cached(state.range(0), state.range(1), false);
  for (auto _ : state) {
    std::vector<Operation> ops = operations_of(h).ops;
    std::sort(ops.begin(), ops.end(),
              [](const auto& a, const auto& b) { return a.complete < b.complete; });
    benchmark::DoNotOptimize(ops);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
// The exact search on one history, trying candidates in `order`: the budget is large enough for
// every size here when the order is by observation, and counters say when it ran out. The whole
// search only: the parts it tries when it runs out (model/part_search.h) find violations, and
// these histories have none.
void search(benchmark::State& state, bool priority, CandidateOrder order) {
  const History& h = cached(state.range(0), state.range(1), priority);
  SearchOptions options{.step_budget = 20'000'000, .order = order};
  options.search_parts = false;
  for (auto _ : state) {
    Verdict v = check_linearizable(h, priority ? SpecKind::priority : SpecKind::fifo, options);
    if (v.kind == VerdictKind::violation)
      state.SkipWithError("generated history judged a violation");
    state.counters["unknown"] = v.kind == VerdictKind::unknown ? 1 : 0;
    state.counters["search_steps"] = static_cast<double>(v.steps);
    benchmark::DoNotOptimize(v);
  }
}
void BM_SearchFifo(benchmark::State& state) {
  search(state, false, CandidateOrder::by_observation);
}
void BM_SearchFifoInvocationOrder(benchmark::State& state) {
  search(state, false, CandidateOrder::invocation);
}
void BM_SearchPriority(benchmark::State& state) {
  search(state, true, CandidateOrder::by_observation);
}
void BM_SearchPriorityInvocationOrder(benchmark::State& state) {
  search(state, true, CandidateOrder::invocation);
}

// What the parts (model/part_search.h) add to a history the whole search cannot decide within
// the default budget of 2 million steps: a generated priority history of 10,000 operations by 64
// processes, linearizable, so the parts search until their own budget (as many steps again) runs
// out. Baseline: the whole search alone.
void search_then_parts(benchmark::State& state, bool parts) {
  const History& h = cached(state.range(0), state.range(1), true);
  SearchOptions options{.step_budget = 2'000'000};
  options.search_parts = parts;
  for (auto _ : state) {
    Verdict v = check_linearizable(h, SpecKind::priority, options);
    if (v.kind != VerdictKind::unknown) state.SkipWithError("the history was decided");
    state.counters["search_steps"] = static_cast<double>(v.steps);
    benchmark::DoNotOptimize(v);
  }
}
void BM_SearchThenParts(benchmark::State& state) {
  search_then_parts(state, true);
}
void BM_SearchWithoutParts(benchmark::State& state) {
  search_then_parts(state, false);
}
BENCHMARK(BM_SearchThenParts)
    ->Name("check/search_then_parts_priority")
    ->Args({10'000, 64})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK(BM_SearchWithoutParts)
    ->Name("baseline/search_then_parts_priority")
    ->Args({10'000, 64})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

void search_sizes(benchmark::internal::Benchmark* b) {
  b->Args({100, 3})->Args({100, 8})->Args({1'000, 8})->Args({1'000, 64})->Args({10'000, 8});
  b->Args({10'000, 64})->Args({100'000, 64})->Unit(benchmark::kMillisecond)->Iterations(1);
}
void sizes(benchmark::internal::Benchmark* b) {
  for (std::int64_t ops : {1'000, 10'000, 100'000}) {
    for (std::int64_t procs : {8, 64})
      b->Args({ops, procs});
  }
}
BENCHMARK(BM_FastFifo)->Name("check/fast_fifo")->Apply(sizes)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FastPriority)
    ->Name("check/fast_priority")
    ->Apply(sizes)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Baseline)->Name("baseline/fast_fifo")->Apply(sizes)->Unit(benchmark::kMillisecond);
// The baselines: the same search trying candidates in invocation order (Porcupine's walk).
BENCHMARK(BM_SearchFifo)->Name("check/search_fifo")->Apply(search_sizes);
BENCHMARK(BM_SearchFifoInvocationOrder)->Name("baseline/search_fifo")->Apply(search_sizes);
BENCHMARK(BM_SearchPriority)->Name("check/search_priority")->Apply(search_sizes);
BENCHMARK(BM_SearchPriorityInvocationOrder)->Name("baseline/search_priority")->Apply(search_sizes);

void BM_DfsSchedules(benchmark::State& state) {
  Scenario s;
  s.file = "(bench)";
  s.recipe = "queue";
  s.clients = 2;
  s.operations_per_client = 2;
  std::int64_t schedules = 0;
  for (auto _ : state) {
    ExploreOptions o;
    o.strategy = "dfs";
    o.schedules = 1'000'000;
    o.max_preemptions = 64;
    ExploreResult r = explore(s, o);
    if (!r.exhausted) state.SkipWithError("space not exhausted");
    schedules += r.schedules;
  }
  state.SetItemsProcessed(schedules);
  state.counters["schedules_per_space"] =
      benchmark::Counter(static_cast<double>(schedules) / static_cast<double>(state.iterations()));
}
BENCHMARK(BM_DfsSchedules)->Name("explore/dfs_queue_2x2")->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace contend

int main(int argc, char** argv) {
  return contend::bench::run_with_ratios(argc, argv);
}
