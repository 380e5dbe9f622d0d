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
  // The longest of `retries` retries of `error` (not_committed unless given), in virtual
  // microseconds.
  static int64_t slowest_retry(FDBTransaction* tr, int retries, fdb_error_t error = 1020) {
    int64_t slowest = 0;
    for (int i = 0; i < retries; ++i) {
      const int64_t before = read_version_of(tr);
      EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, error)), 0);
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

// As getBackoff: on a proxy's memory limit (commit 1042, GRV 1078) or a hot shard's throttle
// (1235) the backoff grows up to RESOURCE_CONSTRAINED_MAX_BACKOFF, 30 s, whatever maxBackoff says;
// the next ordinary error draws below what it grew to, then brings it back under maxBackoff.
// Before, it stopped at maxBackoff (1 s) for every error.
TEST_F(FdbCBackoff, AResourceConstrainedErrorLetsTheBackoffGrowToThirtySeconds) {
  constexpr int64_t kResourceConstrainedMaxUs = 30 * kSecondUs;
  for (fdb_error_t error : {1042, 1078, 1235}) {
    FDBTransaction* tr = begin();
    // 14 retries: 10 ms doubled 13 times is 82 s, past the 30 s cap.
    const int64_t slowest = slowest_retry(tr, 14, error);
    EXPECT_GT(slowest, kSecondUs) << error << ": past DEFAULT_MAX_BACKOFF's 1 s";
    EXPECT_LE(slowest, kResourceConstrainedMaxUs) << error;
    EXPECT_LE(slowest_retry(tr, 1), kResourceConstrainedMaxUs) << error << ": not_committed";
    EXPECT_LE(slowest_retry(tr, 14), kSecondUs) << error << ": back under 1 s after one retry";
    fdb_transaction_destroy(tr);
  }
}

}  // namespace
