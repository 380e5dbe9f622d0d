// The store's cost per transaction beside the same key operations on a bare std::map.
//   store/set_commit        one committed transaction setting one key
//   store/read_set_commit   get_range(limit 1) + set + commit, the recipes' shape
// Run: build/bench/store_bench   (prints the ratios to baseline/* at the end)
#include <benchmark/benchmark.h>

#include <map>
#include <string>

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

Task<ErrorCode> commit_set(Transaction& tr, const std::string& key) {
  tr.set(key, "value");
  co_return co_await tr.commit();
}

void BM_StoreSetCommit(benchmark::State& state) {
  Store store;
  ImmediateEnvironment env;
  std::uint64_t i = 0;
  for (auto _ : state) {
    env.advance_us(10);
    Transaction tr(Database{&store, &env, 0});
    ErrorCode e = run_inline(commit_set(tr, key_of(i++ % 1024)));
    benchmark::DoNotOptimize(e);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_StoreSetCommit)->Name("store/set_commit");

void BM_MapSet(benchmark::State& state) {
  std::map<std::string, std::string, std::less<>> map;
  std::uint64_t i = 0;
  for (auto _ : state) {
    map.insert_or_assign(key_of(i++ % 1024), "value");
    benchmark::DoNotOptimize(map);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_MapSet)->Name("baseline/set_commit");

Task<ErrorCode> read_set_commit(Transaction& tr, const std::string& key) {
  const KeyRange queue_range{"Q", "R"};
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
  std::uint64_t i = 0;
  for (auto _ : state) {
    env.advance_us(10);
    Transaction tr(Database{&store, &env, 0});
    ErrorCode e = run_inline(read_set_commit(tr, key_of(i++ % 1024)));
    benchmark::DoNotOptimize(e);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_StoreReadSetCommit)->Name("store/read_set_commit");

void BM_MapReadSet(benchmark::State& state) {
  std::map<std::string, std::string, std::less<>> map;
  std::uint64_t i = 0;
  for (auto _ : state) {
    auto it = map.lower_bound(std::string_view("Q"));
    benchmark::DoNotOptimize(it);
    map.insert_or_assign(key_of(i++ % 1024), "value");
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_MapReadSet)->Name("baseline/read_set_commit");

}  // namespace
}  // namespace contend

int main(int argc, char** argv) {
  return contend::bench::run_with_ratios(argc, argv);
}
