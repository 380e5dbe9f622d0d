// contend's libfdb_c called from many threads at once, as FoundationDB's C API allows (every call
// is thread-safe; callbacks run on the network thread): clients on threads of their own whose
// counters add up under injected faults, with a transaction log `contend serializable` replays;
// threads sharing one transaction while another resets and cancels it, every future answered; and
// callbacks that run once each while their threads make and destroy futures. In the Release
// suite these check the answers; built with ThreadSanitizer (`bash scripts/bootstrap.sh threads`)
// they check that the library's state is shared only under its lock.
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "base/splitmix.h"
#include "configured_network.h"

namespace {

using contend::fdb_testing::ConfiguredNetwork;
using contend::fdb_testing::DatabaseTest;
using contend::fdb_testing::ready_within;
using contend::fdb_testing::wait_and_destroy;
using contend::fdb_testing::wait_for;

// Spurious conflicts, commits whose result is unknown but that did not apply (a retry is then
// right), and stale reads: the retry loop's every path, none of which may change a count.
const auto* const network = static_cast<ConfiguredNetwork*>(
    ::testing::AddGlobalTestEnvironment(new ConfiguredNetwork("threads", R"(seed = 11
[faults]
not_committed = 0.05
unknown_result_not_applied = 0.05
read_too_old = 0.02
)",
                                                              ConfiguredNetwork::Log::scratch)));

const uint8_t* bytes(const std::string& s) {
  return reinterpret_cast<const uint8_t*>(s.data());
}
int length(const std::string& s) {
  return static_cast<int>(s.size());
}

// A future's error is one the library describes, and never internal_error (an exception inside
// it).
void expect_described(fdb_error_t e) {
  EXPECT_NE(e, 4100) << "an exception inside the library";
  EXPECT_STRNE(fdb_get_error(e), "Unknown error") << e;
}

// A deterministic stream of choices per thread, drawn by contend's splitmix64 (no std::
// distributions: the same calls on every machine).
struct Choices {
  std::uint64_t state;
  unsigned next(unsigned n) { return static_cast<unsigned>(contend::splitmix64(state) % n); }
};

class FdbCThreads : public DatabaseTest {
 protected:
  // Reads the counter at `key` (four bytes, big-endian; 0 when absent) by `tr` into `count`;
  // the read's error.
  static fdb_error_t read_counter(FDBTransaction* tr, const std::string& key, int64_t& count) {
    FDBFuture* f = fdb_transaction_get(tr, bytes(key), length(key), 0);
    const fdb_error_t e = wait_for(f);
    count = 0;
    fdb_bool_t present = 0;
    const uint8_t* value = nullptr;
    int value_length = 0;
    if (e == 0) {
      EXPECT_EQ(fdb_future_get_value(f, &present, &value, &value_length), 0);
    }
    if (present) {
      EXPECT_EQ(value_length, 4);
      for (int i = 0; i < value_length && i < 4; ++i)
        count = count << 8 | value[i];
    }
    fdb_future_destroy(f);
    return e;
  }

  // Adds one to the counter at `key` in a retry loop (at most 200 attempts, then a failure).
  void increment(const std::string& key) {
    FDBTransaction* tr = begin();
    for (int attempt = 0; attempt < 200; ++attempt) {
      int64_t count = 0;
      fdb_error_t e = read_counter(tr, key, count);
      if (e == 0) {
        const uint32_t next = static_cast<uint32_t>(count + 1);
        const uint8_t value[4] = {uint8_t(next >> 24), uint8_t(next >> 16), uint8_t(next >> 8),
                                  uint8_t(next)};
        fdb_transaction_set(tr, bytes(key), length(key), value, 4);
        e = wait_and_destroy(fdb_transaction_commit(tr));
        if (e == 0) {
          fdb_transaction_destroy(tr);
          return;
        }
      }
      ASSERT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, e)), 0) << "error " << e;
    }
    ADD_FAILURE() << "an increment of " << key << " did not commit in 200 attempts";
    fdb_transaction_destroy(tr);
  }
};

// Eight client threads increment two counters 40 times each through their own transactions under
// injected faults: the counts add up to every increment, and the log of the attempts replays in
// commit order.
TEST_F(FdbCThreads, CountersThatManyThreadsIncrementAddUpAndTheLogReplays) {
  const std::size_t first_line = network->log_lines().size();
  const std::array<std::string, 2> keys = {"threads/counter/a", "threads/counter/b"};
  constexpr int kThreads = 8, kIncrements = 40;
  std::vector<std::thread> clients;
  for (int c = 0; c < kThreads; ++c) {
    clients.emplace_back([&, c] {
      for (int i = 0; i < kIncrements; ++i)
        increment(keys[static_cast<std::size_t>((c + i) % 2)]);
    });
  }
  for (std::thread& t : clients)
    t.join();
  FDBTransaction* tr = begin();
  int64_t total = 0;
  for (const std::string& key : keys) {
    int64_t count = 0;
    fdb_error_t e = read_counter(tr, key, count);
    for (int attempt = 0; attempt < 50 && e != 0; ++attempt) {
      ASSERT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, e)), 0) << "error " << e;
      e = read_counter(tr, key, count);
    }
    EXPECT_EQ(e, 0) << key;
    EXPECT_EQ(count, kThreads * kIncrements / 2) << key;
    total += count;
  }
  fdb_transaction_destroy(tr);
  EXPECT_EQ(total, kThreads * kIncrements);
  std::string said;
  EXPECT_EQ(network->judge_serializable(CONTEND_BINARY, first_line, said), 0) << said;
  EXPECT_NE(said.find("serializable: "), std::string::npos) << said;
}

// One transaction, four threads calling it at once (reads, writes, conflict ranges, watches they
// cancel, commits, the approximate size) while a fifth resets and cancels it: every future is
// answered within the bound, with an error the library describes; the transaction commits after
// a last reset.
TEST_F(FdbCThreads, ThreadsSharingOneTransactionGetEveryFutureAnswered) {
  FDBTransaction* tr = begin();
  std::atomic<bool> done{false};
  std::atomic<int> answered_values{0}, answered_errors{0};
  auto call = [&](Choices& choices) {
    const std::string key = "threads/shared/" + std::to_string(choices.next(8));
    FDBFuture* f = nullptr;
    switch (choices.next(8)) {
      case 0:
        f = fdb_transaction_get(tr, bytes(key), length(key), choices.next(2));
        break;
      case 1: {
        const std::string end = "threads/shared0";
        f = fdb_transaction_get_range(tr,
                                      FDB_KEYSEL_FIRST_GREATER_OR_EQUAL(bytes(key), length(key)),
                                      FDB_KEYSEL_FIRST_GREATER_OR_EQUAL(bytes(end), length(end)), 5,
                                      0, FDB_STREAMING_MODE_WANT_ALL, 0, 0, choices.next(2));
        break;
      }
      case 2:
        fdb_transaction_set(tr, bytes(key), length(key), bytes(key), length(key));
        return;
      case 3:
        fdb_transaction_clear(tr, bytes(key), length(key));
        return;
      case 4: {
        const std::string end = key + "0";
        expect_described(fdb_transaction_add_conflict_range(
            tr, bytes(key), length(key), bytes(end), length(end), FDB_CONFLICT_RANGE_TYPE_READ));
        return;
      }
      case 5:
        f = fdb_transaction_watch(tr, bytes(key), length(key));
        fdb_future_cancel(f);  // a watch waits for a change no thread here need make
        break;
      case 6:
        f = fdb_transaction_commit(tr);
        break;
      default:
        f = fdb_transaction_get_approximate_size(tr);
        break;
    }
    const fdb_error_t e = wait_and_destroy(f);
    EXPECT_NE(e, -1) << "a future was not answered";
    expect_described(e);
    (e == 0 ? answered_values : answered_errors) += 1;
  };
  std::vector<std::thread> callers;
  for (int c = 0; c < 4; ++c) {
    callers.emplace_back([&, c] {
      Choices choices{static_cast<std::uint64_t>(c) + 1};
      for (int i = 0; i < 150; ++i)
        call(choices);
    });
  }
  std::thread resetter([&] {
    Choices choices{99};
    while (!done.load()) {
      if (choices.next(3) == 0)
        fdb_transaction_cancel(tr);
      else
        fdb_transaction_reset(tr);
      std::this_thread::sleep_for(std::chrono::microseconds(300));
    }
  });
  for (std::thread& t : callers)
    t.join();
  done = true;
  resetter.join();
  EXPECT_GT(answered_values.load(), 0) << "no call was answered with a value";
  EXPECT_GT(answered_errors.load(), 0) << "no call met a reset, a cancel or a commit";
  fdb_transaction_reset(tr);
  const std::string key = "threads/shared/after";
  fdb_transaction_set(tr, bytes(key), length(key), bytes(key), length(key));
  fdb_error_t e = wait_and_destroy(fdb_transaction_commit(tr));
  for (int attempt = 0; attempt < 50 && e != 0; ++attempt) {
    ASSERT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, e)), 0) << "error " << e;
    fdb_transaction_set(tr, bytes(key), length(key), bytes(key), length(key));
    e = wait_and_destroy(fdb_transaction_commit(tr));
  }
  EXPECT_EQ(e, 0);
  fdb_transaction_destroy(tr);
}

struct Called {
  std::atomic<int> times{0};
};
void count_call(FDBFuture*, void* called) {
  static_cast<Called*>(called)->times.fetch_add(1);
}

// Four threads each set a callback on 200 reads of their own and destroy each future once its
// callback ran (on the network thread, or at once on a future already ready): each runs once.
TEST_F(FdbCThreads, CallbacksRunOnceEachWhileThreadsMakeAndDestroyFutures) {
  constexpr int kThreads = 4, kReads = 200;
  std::atomic<int> total{0};
  std::vector<std::thread> readers;
  for (int c = 0; c < kThreads; ++c) {
    readers.emplace_back([&, c] {
      FDBTransaction* tr = begin();
      const std::string key = "threads/callback/" + std::to_string(c);
      for (int i = 0; i < kReads; ++i) {
        Called called;
        FDBFuture* f = fdb_transaction_get(tr, bytes(key), length(key), 0);
        ASSERT_EQ(fdb_future_set_callback(f, count_call, &called), 0);
        ASSERT_TRUE(ready_within(f, std::chrono::seconds(60)));
        for (int spin = 0; spin < 60000 && called.times.load() == 0; ++spin)
          std::this_thread::sleep_for(std::chrono::microseconds(50));
        EXPECT_EQ(called.times.load(), 1) << "read " << i << " of thread " << c;
        total += called.times.load();
        fdb_future_destroy(f);
      }
      fdb_transaction_destroy(tr);
    });
  }
  for (std::thread& t : readers)
    t.join();
  EXPECT_EQ(total.load(), kThreads * kReads);
}

}  // namespace
