// Whole simulations: transaction attempts per second of the `queue` recipe with 1 client and
// with 64 contended clients, history recording included, and memory per client.
//   world/queue_1_client, world/queue_64_clients   items/s = attempts per second
// The store-only baseline (store/read_set_commit in store_bench) is the same transaction shape
// without the scheduler, the recipe and the history.
#include <benchmark/benchmark.h>
#include <malloc.h>

#include "bench/ratio_reporter.h"
#include "scenarios/runner.h"

namespace contend {
namespace {

Scenario queue_scenario(int clients, int ops) {
  Scenario s;
  s.file = "(bench)";
  s.recipe = "queue";
  s.clients = clients;
  s.operations_per_client = ops;
  s.drain = true;
  return s;
}

void run_queue(benchmark::State& state, int clients, int ops) {
  Scenario s = queue_scenario(clients, ops);
  std::uint64_t seed = 1;
  std::int64_t attempts = 0;
  std::int64_t conflicts = 0;
  for (auto _ : state) {
    SeedRun run = run_seed(s, seed++);
    attempts += run.metrics.attempts.attempts;
    conflicts += run.metrics.attempts.conflicts;
    benchmark::DoNotOptimize(run.metrics.run_hash);
  }
  state.SetItemsProcessed(attempts);
  state.counters["attempts_per_run"] =
      benchmark::Counter(static_cast<double>(attempts) / static_cast<double>(state.iterations()));
  state.counters["conflict_rate"] = benchmark::Counter(
      attempts > 0 ? static_cast<double>(conflicts) / static_cast<double>(attempts) : 0);
}

void BM_Queue1Client(benchmark::State& state) {
  run_queue(state, 1, 2000);
}
BENCHMARK(BM_Queue1Client)->Name("world/queue_1_client")->Unit(benchmark::kMillisecond);

void BM_Queue64Clients(benchmark::State& state) {
  run_queue(state, 64, 40);
}
BENCHMARK(BM_Queue64Clients)->Name("world/queue_64_clients")->Unit(benchmark::kMillisecond);

// Heap bytes held per client at peak: a world whose clients are all suspended mid-operation.
void BM_MemoryPerClient(benchmark::State& state) {
  const int clients = static_cast<int>(state.range(0));
  double per_client = 0;
  for (auto _ : state) {
    struct mallinfo2 before = mallinfo2();
    const std::size_t recycled_before = detail::FramePool::recycled();
    WorldOptions options;
    World world(options, std::make_shared<RandomStrategy>());
    auto recipe = find_recipe("queue")->make();
    for (int c = 0; c < clients; ++c) {
      world.spawn([](Recipe& r, World& w, ClientId id) -> Task<void> {
        co_await r.enqueue(w.database(id), "value");
      }(*recipe, world, c));
    }
    world.start_clients();  // each client is now suspended at its first store step
    struct mallinfo2 during = mallinfo2();
    // Heap growth, plus the frames served from the frame pool's free lists (no heap growth).
    const std::size_t recycled = detail::FramePool::recycled() - recycled_before;
    per_client = static_cast<double>(during.uordblks - before.uordblks + recycled) / clients;
    world.run();
  }
  state.counters["bytes_per_client"] = benchmark::Counter(per_client);
}
BENCHMARK(BM_MemoryPerClient)->Name("world/memory_per_client")->Arg(64)->Iterations(1);

}  // namespace
}  // namespace contend

int main(int argc, char** argv) {
  return contend::bench::run_with_ratios(argc, argv);
}
