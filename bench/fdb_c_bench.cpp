// contend's libfdb_c: what a commit costs while watches wait on other keys, beside the same commit
// with none waiting.
//   watches/commit/N    one transaction setting one key and committing, through the C API, while N
//                       committed watches of a database wait on keys it does not write
//   baseline/commit/N   the same commit with no watch waiting (N only names the pair)
// A commit looks only at the watches of the keys it wrote (fdb_c/watches.h), so the ratio stays
// near 1 however many watches wait; a commit that scanned every watch grew with N.
// Run: build/bench/fdb_c_bench   (prints the ratios to baseline/* at the end)
#define FDB_API_VERSION 730
#include "fdb_c.h"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "bench/ratio_reporter.h"

namespace contend {
namespace {

constexpr int kDbMaxWatches = 20;  // FDB_DB_OPTION_MAX_WATCHES

// Stops the benchmark with a message on any error the C API answers (none is expected).
void require(fdb_error_t error, const char* what) {
  if (error == 0) return;
  std::fprintf(stderr, "fdb_c_bench: %s: %s\n", what, fdb_get_error(error));
  std::exit(1);
}

fdb_error_t wait_and_destroy(FDBFuture* f) {
  require(fdb_future_block_until_ready(f), "waiting for a future");
  const fdb_error_t e = fdb_future_get_error(f);
  fdb_future_destroy(f);
  return e;
}

// The network, set up once for the process and run on a thread of its own until exit.
class Network {
 public:
  static void start() { static Network network; }

 private:
  Network() {
    require(fdb_select_api_version(FDB_API_VERSION), "selecting API version 730");
    require(fdb_setup_network(), "setting up the network");
    thread_ = std::thread([] { require(fdb_run_network(), "running the network"); });
  }
  ~Network() {
    fdb_stop_network();
    thread_.join();
  }
  std::thread thread_;
};

const std::uint8_t* bytes(const std::string& s) {
  return reinterpret_cast<const std::uint8_t*>(s.data());
}

// Commits one set of `key` in its own transaction.
void commit_one_set(FDBDatabase* db, const std::string& key) {
  FDBTransaction* tr = nullptr;
  require(fdb_database_create_transaction(db, &tr), "creating a transaction");
  fdb_transaction_set(tr, bytes(key), static_cast<int>(key.size()), bytes(key),
                      static_cast<int>(key.size()));
  require(wait_and_destroy(fdb_transaction_commit(tr)), "committing");
  fdb_transaction_destroy(tr);
}

// `count` committed watches of `db`, one per key "watched/<i>"; none is ever written.
std::vector<FDBFuture*> watch_keys(FDBDatabase* db, int count) {
  const std::int64_t limit = count;
  require(
      fdb_database_set_option(db, kDbMaxWatches, reinterpret_cast<const std::uint8_t*>(&limit), 8),
      "setting MAX_WATCHES");
  FDBTransaction* tr = nullptr;
  require(fdb_database_create_transaction(db, &tr), "creating a transaction");
  std::vector<FDBFuture*> watches;
  watches.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    const std::string key = "watched/" + std::to_string(i);
    watches.push_back(fdb_transaction_watch(tr, bytes(key), static_cast<int>(key.size())));
  }
  require(wait_and_destroy(fdb_transaction_commit(tr)), "committing the watches");
  fdb_transaction_destroy(tr);
  return watches;
}

void BM_Commit(benchmark::State& state, bool with_watches) {
  Network::start();
  FDBDatabase* db = nullptr;
  require(fdb_create_database(nullptr, &db), "creating the database");
  const int waiting = with_watches ? static_cast<int>(state.range(0)) : 0;
  std::vector<FDBFuture*> watches = watch_keys(db, waiting);
  for (auto _ : state)
    commit_one_set(db, "written");
  for (FDBFuture* f : watches) {
    if (fdb_future_is_ready(f)) state.SkipWithError("a watch of an unwritten key fired");
    fdb_future_cancel(f);
    fdb_future_destroy(f);
  }
  fdb_database_destroy(db);
  state.SetItemsProcessed(state.iterations());
}

BENCHMARK_CAPTURE(BM_Commit, baseline, false)
    ->Name("baseline/commit")
    ->Arg(10'000)
    ->Arg(100'000)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Commit, watches, true)
    ->Name("watches/commit")
    ->Arg(10'000)
    ->Arg(100'000)
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace contend

int main(int argc, char** argv) {
  return contend::bench::run_with_ratios(argc, argv);
}
