// contend's libfdb_c in deterministic mode, whose virtual time the read versions follow (a
// version a microsecond): how long on_error backs off. As FoundationDB's NativeAPI onError and
// getBackoff, the delay is drawn below a backoff that starts at 10 ms and doubles on each retry up
// to the transaction's maxBackoff — 1 s, or what MAX_RETRY_DELAY sets, above 1 s too. Before, the
// backoff stopped growing at 1 s whatever MAX_RETRY_DELAY said.
#include "configured_network.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

namespace {

using contend::fdb_testing::ConfiguredNetwork;
using contend::fdb_testing::read_version_of;
using contend::fdb_testing::wait_and_destroy;

[[maybe_unused]] auto* const network = ::testing::AddGlobalTestEnvironment(
    new ConfiguredNetwork("fdb_c_backoff_test", "seed = 3\ndeterministic = true\nquiet_us = 1000\n",
                          ConfiguredNetwork::Log::none));

constexpr int kMaxRetryDelay = 502;
constexpr int64_t kSecondUs = 1'000'000;

class FdbCBackoff : public contend::fdb_testing::DatabaseTest {
 protected:
  // The longest of `retries` retries of not_committed, in virtual microseconds.
  static int64_t slowest_retry(FDBTransaction* tr, int retries) {
    int64_t slowest = 0;
    for (int i = 0; i < retries; ++i) {
      const int64_t before = read_version_of(tr);
      EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, 1020)), 0);
      slowest = std::max(slowest, read_version_of(tr) - before);
    }
    return slowest;
  }
};

TEST_F(FdbCBackoff, MaxRetryDelayAboveASecondLetsTheBackoffGrowPastIt) {
  FDBTransaction* tr = begin();
  EXPECT_LE(slowest_retry(tr, 14), kSecondUs) << "FoundationDB's DEFAULT_MAX_BACKOFF";
  fdb_transaction_reset(tr);
  const int64_t max_ms = 100'000;
  ASSERT_EQ(
      fdb_transaction_set_option(tr, kMaxRetryDelay, reinterpret_cast<const uint8_t*>(&max_ms), 8),
      0);
  // 14 retries: the backoff doubles from 10 ms to 82 s (MAX_RETRY_DELAY is kept by a retry).
  const int64_t slowest = slowest_retry(tr, 14);
  EXPECT_GT(slowest, kSecondUs) << "past 1 s, below the 100 s MAX_RETRY_DELAY allows";
  EXPECT_LE(slowest, max_ms * 1000);
  fdb_transaction_destroy(tr);
}

}  // namespace
