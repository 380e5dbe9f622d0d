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

// As FoundationDB 7.3, whose NativeAPI reset at onError leaves the commit it sent running and
// whose RYW commit waits on it and on the resetPromise alike: a commit outstanding at a retry goes
// on with its attempt, and answers what fails the resetPromise if that comes before the commit is
// resolved — the retry's backoff ending (resetRyow: transaction_cancelled, 1025), the timeout
// (transaction_timed_out, 1031), a cancel (1025), a use during the new attempt's commit
// (used_during_commit, 2017) — and then writes nothing; so does the attempt's versionstamp future,
// which waits with it. Before, both answered 1025 at the retry's call, whatever came during the
// backoff.
TEST_F(FdbCCommitLatency, ACommitLeftBehindByARetryAnswersWhatEndsTheBackoffFirst) {
  constexpr fdb_error_t kTooOld = 1007;  // a flat 10 ms backoff
  // The answers of a commit of `key` left behind by a retry, and of that retry, when `during`
  // comes while the retry backs off; each well before the commit latency.
  struct Answers {
    fdb_error_t commit, versionstamp, retry;
  };
  const auto left_behind = [&](const std::string& key,
                               const std::function<void(FDBTransaction*)>& during) {
    FDBTransaction* tr = begin();
    fdb_transaction_set(tr, bytes(key), size(key), bytes("v"), 1);
    FDBFuture* stamp = fdb_transaction_get_versionstamp(tr);
    const Clock::time_point start = Clock::now();
    FDBFuture* committing = fdb_transaction_commit(tr);
    FDBFuture* retry = fdb_transaction_on_error(tr, kTooOld);
    during(tr);
    const Answers answers{wait_and_destroy(committing), wait_and_destroy(stamp),
                          wait_and_destroy(retry)};
    EXPECT_LT(Clock::now() - start, kCommitLatency / 2) << key << ": answered before";
    fdb_transaction_destroy(tr);
    return answers;
  };
  const Answers backoff_ended = left_behind("retried", [](FDBTransaction*) {});
  EXPECT_EQ(backoff_ended.commit, 1025);
  EXPECT_EQ(backoff_ended.versionstamp, 1025);
  EXPECT_EQ(backoff_ended.retry, 0);
  const Answers timed_out = left_behind("timed out", [](FDBTransaction* tr) {
    const int64_t timeout_ms = 1;  // counted from the transaction's creation: passed at once
    EXPECT_EQ(fdb_transaction_set_option(tr, static_cast<FDBTransactionOption>(500),
                                         reinterpret_cast<const uint8_t*>(&timeout_ms), 8),
              0);
  });
  EXPECT_EQ(timed_out.commit, 1031);
  EXPECT_EQ(timed_out.versionstamp, 1031);
  EXPECT_EQ(timed_out.retry, 1031);
  const Answers cancelled =
      left_behind("cancelled", [](FDBTransaction* tr) { fdb_transaction_cancel(tr); });
  EXPECT_EQ(cancelled.commit, 1025);
  EXPECT_EQ(cancelled.versionstamp, 1025);
  EXPECT_EQ(cancelled.retry, 1025);
  FDBFuture* second = nullptr;
  const Answers used = left_behind("used", [&](FDBTransaction* tr) {
    const std::string k = "used again";
    fdb_transaction_set(tr, bytes(k), size(k), bytes("v"), 1);
    second = fdb_transaction_commit(tr);  // the new attempt's
    EXPECT_EQ(wait_and_destroy(fdb_transaction_get(tr, bytes(k), size(k), 0)), 2017);
  });
  EXPECT_EQ(used.commit, 2017);
  EXPECT_EQ(used.versionstamp, 2017);
  EXPECT_EQ(used.retry, 2017);
  EXPECT_EQ(wait_and_destroy(second), 2017);
  std::this_thread::sleep_for(kCommitLatency + std::chrono::milliseconds(200));  // all resolved
  for (const char* key : {"retried", "timed out", "cancelled", "used", "used again"})
    EXPECT_FALSE(written(key)) << key;
}

}  // namespace
