// Conflict-history lookups with 10k, 100k and 1M recorded ranges, beside a std::map lookup of the
// same keys (the floor any ordered structure pays) — so the cost reads as a ratio.
//   conflict_history/point_lookup/N   newest_write of a 1-key range
//   conflict_history/wide_lookup/N    newest_write of a range spanning ~1% of the keys
//   conflict_history/add/N            recording one more point write
//   baseline/point_lookup/N           std::map::lower_bound of the same key
#include <benchmark/benchmark.h>

#include <map>

#include "bench/ratio_reporter.h"
#include "sim/runtime/rng.h"
#include "sim/store/conflict_history.h"

namespace contend {
namespace {

std::string key_of(std::uint64_t i) {
  std::string k = "\x02Q\x00\x15";  // tuple-encoded ("Q", ...) prefix, like queue keys
  k.resize(4);
  for (int b = 7; b >= 0; --b)
    k.push_back(static_cast<char>((i >> (8 * b)) & 0xff));
  return k + "\x01rnd\x00";
}

ConflictHistory& history_of(std::int64_t n) {
  static std::map<std::int64_t, ConflictHistory> cache;
  auto it = cache.find(n);
  if (it != cache.end()) return it->second;
  ConflictHistory& h = cache[n];
  Rng rng(n);
  for (std::int64_t v = 1; v <= n; ++v)
    h.add(single_key_range(key_of(rng.next() % (4 * static_cast<std::uint64_t>(n)))), v);
  return h;
}

void BM_PointLookup(benchmark::State& state) {
  const auto n = state.range(0);
  ConflictHistory& h = history_of(n);
  Rng rng(7);
  std::vector<KeyRange> queries;
  for (int i = 0; i < 4096; ++i)
    queries.push_back(single_key_range(key_of(rng.next() % (4 * static_cast<std::uint64_t>(n)))));
  std::size_t i = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(h.newest_write(queries[i++ & 4095]));
}
BENCHMARK(BM_PointLookup)
    ->Name("conflict_history/point_lookup")
    ->Arg(10'000)
    ->Arg(100'000)
    ->Arg(1'000'000);

void BM_WideLookup(benchmark::State& state) {
  const auto n = state.range(0);
  ConflictHistory& h = history_of(n);
  Rng rng(9);
  const auto span = static_cast<std::uint64_t>(n) / 25;  // ~1% of the 4n key space
  std::vector<KeyRange> queries;
  for (int i = 0; i < 4096; ++i) {
    std::uint64_t b = rng.next() % (4 * static_cast<std::uint64_t>(n));
    queries.push_back(KeyRange{key_of(b), key_of(b + span)});
  }
  std::size_t i = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(h.newest_write(queries[i++ & 4095]));
}
BENCHMARK(BM_WideLookup)
    ->Name("conflict_history/wide_lookup")
    ->Arg(10'000)
    ->Arg(100'000)
    ->Arg(1'000'000);

void BM_Add(benchmark::State& state) {
  const auto n = state.range(0);
  ConflictHistory h;
  Rng rng(3);
  Version v = 0;
  for (; v < n; ++v)
    h.add(single_key_range(key_of(rng.next() % (4 * static_cast<std::uint64_t>(n)))), v);
  for (auto _ : state) {
    h.add(single_key_range(key_of(rng.next() % (4 * static_cast<std::uint64_t>(n)))), ++v);
    h.prune(v - n);  // keep about n ranges in the window
  }
}
BENCHMARK(BM_Add)->Name("conflict_history/add")->Arg(10'000)->Arg(100'000)->Arg(1'000'000);

void BM_MapLookup(benchmark::State& state) {
  const auto n = state.range(0);
  std::map<std::string, Version, std::less<>> map;
  Rng rng(n);
  for (std::int64_t v = 1; v <= n; ++v)
    map[key_of(rng.next() % (4 * static_cast<std::uint64_t>(n)))] = v;
  Rng q(7);
  std::vector<std::string> queries;
  for (int i = 0; i < 4096; ++i)
    queries.push_back(key_of(q.next() % (4 * static_cast<std::uint64_t>(n))));
  std::size_t i = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(map.lower_bound(queries[i++ & 4095]));
}
BENCHMARK(BM_MapLookup)->Name("baseline/point_lookup")->Arg(10'000)->Arg(100'000)->Arg(1'000'000);

// A naive scan of every recorded range: what O(log n) replaces (10k only; it is slow).
void BM_NaiveScan(benchmark::State& state) {
  const auto n = state.range(0);
  std::vector<std::pair<KeyRange, Version>> writes;
  Rng rng(n);
  for (std::int64_t v = 1; v <= n; ++v)
    writes.emplace_back(single_key_range(key_of(rng.next() % (4 * static_cast<std::uint64_t>(n)))),
                        v);
  KeyRange q = single_key_range(key_of(12345));
  for (auto _ : state) {
    Version best = kInvalidVersion;
    for (const auto& [r, v] : writes) {
      if (r.intersects(q)) best = std::max(best, v);
    }
    benchmark::DoNotOptimize(best);
  }
}
BENCHMARK(BM_NaiveScan)->Name("naive_scan/point_lookup")->Arg(10'000);

}  // namespace
}  // namespace contend

int main(int argc, char** argv) {
  return contend::bench::run_with_ratios(argc, argv);
}
