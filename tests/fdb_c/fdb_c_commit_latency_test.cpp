// contend's libfdb_c with a commit latency: a commit stays outstanding for a second, so what ends
// its attempt meanwhile can be told from its resolution. As FoundationDB's RYWImpl::commit, which
// waits on the transaction's resetPromise as well as on NativeAPI's commit, the commit's future
// answers at once what ends the attempt — the TIMEOUT passing (transaction_timed_out, sent by
// RYW's timebomb), a cancel or reset (transaction_cancelled), a use during the commit
// (used_during_commit) — and the commit, when it is resolved, writes nothing. Before, each of
// these answered only when the commit was resolved.
#include "configured_network.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <thread>

namespace {

using contend::fdb_testing::ConfiguredNetwork;
using contend::fdb_testing::wait_and_destroy;
using Clock = std::chrono::steady_clock;

constexpr auto kCommitLatency = std::chrono::milliseconds(1000);

[[maybe_unused]] auto* const network = ::testing::AddGlobalTestEnvironment(new ConfiguredNetwork(
    "fdb_c_commit_latency_test", "seed = 1\n[latency.commit]\nmin_us = 1000000\nmean_us = 0\n",
    ConfiguredNetwork::Log::none));

const uint8_t* bytes(const std::string& s) {
  return reinterpret_cast<const uint8_t*>(s.data());
}
int size(const std::string& s) {
  return static_cast<int>(s.size());
}

class FdbCCommitLatency : public contend::fdb_testing::DatabaseTest {
 protected:
  // Commits a set of `key` and runs `end_attempt` while the commit is outstanding: the commit's
  // error, expected well before the commit latency.
  fdb_error_t commit_ended_by(const std::string& key,
                              const std::function<void(FDBTransaction*)>& end_attempt) {
    FDBTransaction* tr = begin();
    fdb_transaction_set(tr, bytes(key), size(key), bytes("v"), 1);
    const Clock::time_point start = Clock::now();
    FDBFuture* committing = fdb_transaction_commit(tr);
    end_attempt(tr);
    const fdb_error_t e = wait_and_destroy(committing);
    EXPECT_LT(Clock::now() - start, kCommitLatency / 2) << key << ": answered at once";
    fdb_transaction_destroy(tr);
    return e;
  }
  // Whether `key` is written.
  bool written(const std::string& key) {
    FDBTransaction* tr = begin();
    FDBFuture* f = fdb_transaction_get(tr, bytes(key), size(key), 0);
    EXPECT_EQ(fdb_future_block_until_ready(f), 0);
    fdb_bool_t present = 1;
    const uint8_t* value = nullptr;
    int value_length = 0;
    EXPECT_EQ(fdb_future_get_value(f, &present, &value, &value_length), 0);
    fdb_future_destroy(f);
    fdb_transaction_destroy(tr);
    return present != 0;
  }
};

TEST_F(FdbCCommitLatency, WhatEndsTheAttemptAnswersTheOutstandingCommitAtOnce) {
  EXPECT_EQ(commit_ended_by("timed out",
                            [](FDBTransaction* tr) {
                              const int64_t timeout_ms = 50;
                              EXPECT_EQ(fdb_transaction_set_option(
                                            tr, static_cast<FDBTransactionOption>(500),
                                            reinterpret_cast<const uint8_t*>(&timeout_ms), 8),
                                        0);
                            }),
            1031);
  EXPECT_EQ(commit_ended_by("cancelled", [](FDBTransaction* tr) { fdb_transaction_cancel(tr); }),
            1025);
  EXPECT_EQ(commit_ended_by("reset", [](FDBTransaction* tr) { fdb_transaction_reset(tr); }), 1025);
  EXPECT_EQ(commit_ended_by(
                "used",
                [](FDBTransaction* tr) {
                  const std::string k = "any";
                  EXPECT_EQ(wait_and_destroy(fdb_transaction_get(tr, bytes(k), size(k), 0)), 2017);
                }),
            2017);
  std::this_thread::sleep_for(kCommitLatency + std::chrono::milliseconds(200));  // all resolved
  for (const char* key : {"timed out", "cancelled", "reset", "used"})
    EXPECT_FALSE(written(key)) << key;
}

}  // namespace
