// contend's libfdb_c with read faults: `read_too_old` and `read_future_version` are each read
// call's chance of answering transaction_too_old or future_version, whatever the call reads to
// answer (selectors resolved, a byte limit measured, a read without read-your-writes). Each kind
// of read call runs a thousand times on a fresh transaction; the share that fails with each error
// must be the configured probability, not a multiple of it.
#include "configured_network.h"

#include <gtest/gtest.h>

#include <functional>
#include <sstream>
#include <string>

namespace {

using contend::fdb_testing::ConfiguredNetwork;
using contend::fdb_testing::wait_and_destroy;

constexpr double kTooOld = 0.1;
constexpr double kFutureVersion = 0.1;

std::string read_fault_config() {
  std::ostringstream toml;
  toml << "seed = 5\n[faults]\nread_too_old = " << kTooOld
       << "\nread_future_version = " << kFutureVersion << "\n";
  return toml.str();
}
[[maybe_unused]] auto* const network = ::testing::AddGlobalTestEnvironment(new ConfiguredNetwork(
    "fdb_c_read_fault_test", read_fault_config(), ConfiguredNetwork::Log::none));

const uint8_t* bytes(const std::string& s) {
  return reinterpret_cast<const uint8_t*>(s.data());
}
int size(const std::string& s) {
  return static_cast<int>(s.size());
}

class FdbCReadFaults : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(fdb_create_database(nullptr, &db_), 0);
    FDBTransaction* tr = nullptr;
    ASSERT_EQ(fdb_database_create_transaction(db_, &tr), 0);
    for (char c = 'a'; c <= 't'; ++c) {
      const std::string key = std::string("row/") + c;
      const std::string value(100, c);
      fdb_transaction_set(tr, bytes(key), size(key), bytes(value), size(value));
    }
    ASSERT_EQ(wait_and_destroy(fdb_transaction_commit(tr)), 0);  // commits draw no fault here
    fdb_transaction_destroy(tr);
  }
  void TearDown() override { fdb_database_destroy(db_); }

  struct Shares {
    double too_old = 0, future_version = 0;
  };
  // Runs `call` on kCalls fresh transactions; the share of them failing with each read fault.
  Shares shares_of(const std::function<FDBFuture*(FDBTransaction*)>& call, bool ryw_disabled) {
    constexpr int kCalls = 1000;
    int too_old = 0, future_version = 0;
    for (int i = 0; i < kCalls; ++i) {
      FDBTransaction* tr = nullptr;
      EXPECT_EQ(fdb_database_create_transaction(db_, &tr), 0);
      const auto read_your_writes_disable = static_cast<FDBTransactionOption>(51);
      if (ryw_disabled) {
        EXPECT_EQ(fdb_transaction_set_option(tr, read_your_writes_disable, nullptr, 0), 0);
      }
      const fdb_error_t e = wait_and_destroy(call(tr));
      fdb_transaction_destroy(tr);
      if (e == 1007)
        ++too_old;
      else if (e == 1009)
        ++future_version;
      else
        EXPECT_EQ(e, 0) << "call " << i;
    }
    return Shares{double(too_old) / kCalls, double(future_version) / kCalls};
  }
  void expect_configured(const Shares& shares, const char* what) {
    // 1,000 calls: four standard deviations of the share either side of the probability.
    EXPECT_NEAR(shares.too_old, kTooOld, 0.04) << what << ": transaction_too_old";
    EXPECT_NEAR(shares.future_version, kFutureVersion, 0.04) << what << ": future_version";
  }

  FDBDatabase* db_ = nullptr;
};

const std::string kRowE = "row/e", kRowP = "row/p";

FDBFuture* get(FDBTransaction* tr) {
  return fdb_transaction_get(tr, bytes(kRowE), size(kRowE), 0);
}
// A selector resolved by reading: lastLessOrEqual(row/e) + 3.
FDBFuture* get_key(FDBTransaction* tr) {
  return fdb_transaction_get_key(tr, bytes(kRowE), size(kRowE), 1, 3, 0);
}
// Both selectors resolved by reading (neither is firstGreaterOrEqual nor firstGreaterThan), and
// WANT_ALL's byte limit measured before the rows are read.
FDBFuture* get_range(FDBTransaction* tr) {
  return fdb_transaction_get_range(tr, bytes(kRowE), size(kRowE), 1, 0,  // lastLessOrEqual(row/e)
                                   bytes(kRowP), size(kRowP), 0,
                                   3,  // firstGreaterOrEqual(row/p) + 2
                                   0, 0, FDB_STREAMING_MODE_WANT_ALL, 0, 0, 0);
}

TEST_F(FdbCReadFaults, AGetFailsAtTheConfiguredRate) {
  expect_configured(shares_of(get, false), "get");
  expect_configured(shares_of(get, true), "get without read-your-writes");
}

TEST_F(FdbCReadFaults, AGetKeyFailsAtTheConfiguredRate) {
  expect_configured(shares_of(get_key, false), "get_key");
  expect_configured(shares_of(get_key, true), "get_key without read-your-writes");
}

TEST_F(FdbCReadFaults, AGetRangeFailsAtTheConfiguredRateHoweverManyReadsItTakes) {
  expect_configured(shares_of(get_range, false), "get_range");
  expect_configured(shares_of(get_range, true), "get_range without read-your-writes");
}

}  // namespace
