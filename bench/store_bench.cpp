// The store's cost per transaction beside the same key operations on a bare std::map.
//   store/set_commit        one committed transaction setting one key
//   store/read_set_commit   get_range(limit 1) + set + commit, the recipes' shape
//   store/read_set_commit_stale
//                           the same with 64 transactions in flight: each reads, then sets and
//                           commits 64 transactions later, so its conflict check consults the
//                           conflict history (Store::kScannedCommitsMax) instead of scanning the
//                           few commits after its read version
// Transactions arrive every kCommitIntervalUs of virtual time (100,000 commits per virtual
// second), so the 5 s MVCC window holds 500,000 commits. The store is measured in that steady
// state: each benchmark first commits a full window of transactions, untimed (filling the window
// from empty costs more per commit, once per store).
// Run: build/bench/store_bench   (prints the ratios to baseline/* at the end)
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bench/ratio_reporter.h"
#include "sim/runtime/immediate_environment.h"
#include "sim/store/retry.h"
#include "sim/store/store.h"

namespace contend {
namespace {

std::string key_of(std::uint64_t i) {
  std::string k = "Q";
  for (int b = 7; b >= 0; --b)
    k.push_back(static_cast<char>((i >> (8 * b)) & 0xff));
  return k;
}

constexpr std::int64_t kCommitIntervalUs = 10;
constexpr std::uint64_t kKeys = 1024;

Task<ErrorCode> commit_set(Transaction& tr, const std::string& key) {
  tr.set(key, "value");
  co_return co_await tr.commit();
}

// One transaction of the given shape every kCommitIntervalUs; returns its outcome.
template <class Body>
ErrorCode transact(Store& store, ImmediateEnvironment& env, std::uint64_t i, Body body) {
  env.advance_us(kCommitIntervalUs);
  Transaction tr(Database{&store, &env, 0});
  return run_inline(body(tr, key_of(i % kKeys)));
}

// Commits a full MVCC window of transactions (and one more) so later ones meet a full log.
template <class Body>
std::uint64_t fill_window(Store& store, ImmediateEnvironment& env, Body body) {
  std::uint64_t i = 0;
  while (i * kCommitIntervalUs <= static_cast<std::uint64_t>(kMvccWindowVersions)) {
    if (transact(store, env, i++, body) != ErrorCode::success) std::abort();
  }
  return i;
}

void BM_StoreSetCommit(benchmark::State& state) {
  Store store;
  ImmediateEnvironment env;
  std::uint64_t i = fill_window(store, env, commit_set);
  for (auto _ : state) {
    ErrorCode e = transact(store, env, i++, commit_set);
    benchmark::DoNotOptimize(e);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_StoreSetCommit)->Name("store/set_commit");

void BM_MapSet(benchmark::State& state) {
  std::map<std::string, std::string, std::less<>> map;
  std::uint64_t i = 0;
  for (auto _ : state) {
    map.insert_or_assign(key_of(i++ % kKeys), "value");
    benchmark::DoNotOptimize(map);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_MapSet)->Name("baseline/set_commit");

Task<ErrorCode> read_set_commit(Transaction& tr, const std::string& key) {
  const KeyRangeRef queue_range{"Q", "R"};  // views, as the baseline's string_views
  auto body = co_await attempt(tr, [&](Transaction& t) -> Task<void> {
    auto rows = co_await t.get_range(queue_range, {.limit = 1});
    benchmark::DoNotOptimize(rows);
    t.set(key, "value");
  });
  if (!body.ok()) co_return body.error();
  co_return co_await tr.commit();
}

void BM_StoreReadSetCommit(benchmark::State& state) {
  Store store;
  ImmediateEnvironment env;
  std::uint64_t i = fill_window(store, env, read_set_commit);
  for (auto _ : state) {
    ErrorCode e = transact(store, env, i++, read_set_commit);
    benchmark::DoNotOptimize(e);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_StoreReadSetCommit)->Name("store/read_set_commit");

constexpr std::size_t kInFlight = 64;
static_assert(kInFlight > Store::kScannedCommitsMax, "stale reads must reach the history");

// The read half of read_set_commit: the first row of the queue's range.
ErrorCode read_first_row(Transaction& tr) {
  const KeyRangeRef queue_range{"Q", "R"};
  auto read = run_inline(attempt(tr, [&](Transaction& t) -> Task<void> {
    auto rows = co_await t.get_range(queue_range, {.limit = 1});
    benchmark::DoNotOptimize(rows);
  }));
  return read.ok() ? ErrorCode::success : read.error();
}

void BM_StoreReadSetCommitStale(benchmark::State& state) {
  Store store;
  ImmediateEnvironment env;
  std::uint64_t i = fill_window(store, env, read_set_commit);
  std::vector<std::unique_ptr<Transaction>> in_flight(kInFlight);
  auto open = [&](std::unique_ptr<Transaction>& slot) {
    slot = std::make_unique<Transaction>(Database{&store, &env, 0});
    if (read_first_row(*slot) != ErrorCode::success) std::abort();
  };
  for (auto& slot : in_flight)
    open(slot);
  std::int64_t conflicts = 0;
  auto commit_oldest_and_reopen = [&] {
    env.advance_us(kCommitIntervalUs);
    std::unique_ptr<Transaction>& slot = in_flight[i % kInFlight];
    const ErrorCode e = run_inline(commit_set(*slot, key_of(i % kKeys)));
    ++i;
    open(slot);
    return e;
  };
  // Untimed: the first stale commit brings the history up to date with the whole window.
  for (std::size_t k = 0; k < 2 * kInFlight; ++k)
    commit_oldest_and_reopen();
  for (auto _ : state)
    conflicts += commit_oldest_and_reopen() == ErrorCode::not_committed;
  state.SetItemsProcessed(state.iterations());
  state.counters["conflicted"] =
      benchmark::Counter(static_cast<double>(conflicts) / static_cast<double>(state.iterations()));
}
BENCHMARK(BM_StoreReadSetCommitStale)->Name("store/read_set_commit_stale");

void BM_MapReadSet(benchmark::State& state) {
  std::map<std::string, std::string, std::less<>> map;
  std::uint64_t i = 0;
  for (auto _ : state) {
    // The same read: the first row of [Q, R), copied out as get_range returns it.
    std::vector<std::pair<std::string, std::string>> rows;
    if (auto it = map.lower_bound(std::string_view("Q")); it != map.end() && it->first < "R")
      rows.emplace_back(it->first, it->second);
    benchmark::DoNotOptimize(rows);
    map.insert_or_assign(key_of(i++ % kKeys), "value");
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_MapReadSet)->Name("baseline/read_set_commit");
BENCHMARK(BM_MapReadSet)->Name("baseline/read_set_commit_stale");

}  // namespace
}  // namespace contend

int main(int argc, char** argv) {
  return contend::bench::run_with_ratios(argc, argv);
}
