// contend's libfdb_c through its C API only, as a FoundationDB program uses it: API version
// rules, futures and callbacks, reads, selectors, ranges and their limits, conflicts and
// on_error, watches, versionstamps, and the documented errors for what is not modelled.
// One process has one database, so every test writes under its own key prefix.
#define FDB_API_VERSION 730
#include "fdb_c.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "future_waits.h"

namespace {

class Network : public ::testing::Environment {
 public:
  void SetUp() override {
    ASSERT_EQ(fdb_select_api_version(FDB_API_VERSION), 0);
    ASSERT_EQ(fdb_setup_network(), 0);
    thread_ = std::thread([] { fdb_run_network(); });
  }
  void TearDown() override {
    ASSERT_EQ(fdb_stop_network(), 0);
    thread_.join();
  }

 private:
  std::thread thread_;
};
const auto* const network = ::testing::AddGlobalTestEnvironment(new Network);

const uint8_t* bytes(const std::string& s) {
  return reinterpret_cast<const uint8_t*>(s.data());
}
int length(const std::string& s) {
  return static_cast<int>(s.size());
}

using contend::fdb_testing::read_version_of;
using contend::fdb_testing::ready_within;
using contend::fdb_testing::wait_and_destroy;
using contend::fdb_testing::wait_for;
// The versionstamp future `stamp` gives (its error is a test failure; "" then), destroying it.
std::string versionstamp_and_destroy(FDBFuture* stamp) {
  std::string versionstamp;
  const uint8_t* s = nullptr;
  int sl = 0;
  EXPECT_EQ(wait_for(stamp), 0);
  if (fdb_future_get_key(stamp, &s, &sl) == 0)
    versionstamp.assign(reinterpret_cast<const char*>(s), sl);
  fdb_future_destroy(stamp);
  return versionstamp;
}

class FdbC : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(fdb_create_database(nullptr, &db_), 0);
    prefix_ = std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "/";
  }
  void TearDown() override { fdb_database_destroy(db_); }

  FDBTransaction* begin() {
    FDBTransaction* tr = nullptr;
    EXPECT_EQ(fdb_database_create_transaction(db_, &tr), 0);
    return tr;
  }
  std::string key(const std::string& name) const { return prefix_ + name; }
  void set(FDBTransaction* tr, const std::string& k, const std::string& v) {
    fdb_transaction_set(tr, bytes(key(k)), length(key(k)), bytes(v), length(v));
  }
  std::optional<std::string> get(FDBTransaction* tr, const std::string& k, bool snapshot = false) {
    FDBFuture* f = fdb_transaction_get(tr, bytes(key(k)), length(key(k)), snapshot);
    EXPECT_EQ(wait_for(f), 0);
    fdb_bool_t present = 0;
    const uint8_t* value = nullptr;
    int value_length = 0;
    EXPECT_EQ(fdb_future_get_value(f, &present, &value, &value_length), 0);
    std::optional<std::string> out;
    if (present) out = std::string(reinterpret_cast<const char*>(value), value_length);
    fdb_future_destroy(f);
    return out;
  }
  fdb_error_t commit(FDBTransaction* tr) { return wait_and_destroy(fdb_transaction_commit(tr)); }
  // Commits k = v in a transaction of its own.
  void put(const std::string& k, const std::string& v) {
    FDBTransaction* tr = begin();
    set(tr, k, v);
    EXPECT_EQ(commit(tr), 0);
    fdb_transaction_destroy(tr);
  }
  std::string get_key(FDBTransaction* tr, const std::string& k, bool or_equal, int offset,
                      bool snapshot = false) {
    FDBFuture* f =
        fdb_transaction_get_key(tr, bytes(key(k)), length(key(k)), or_equal, offset, snapshot);
    EXPECT_EQ(wait_for(f), 0);
    const uint8_t* out = nullptr;
    int out_length = 0;
    EXPECT_EQ(fdb_future_get_key(f, &out, &out_length), 0);
    std::string result(reinterpret_cast<const char*>(out), out_length);
    fdb_future_destroy(f);
    return result;
  }
  struct Rows {
    std::vector<std::pair<std::string, std::string>> rows;
    bool more = false;
  };
  Rows range(FDBTransaction* tr, const std::string& b, const std::string& e, int limit,
             int target_bytes, FDBStreamingMode mode, bool reverse, fdb_error_t* error = nullptr) {
    FDBFuture* f =
        fdb_transaction_get_range(tr, bytes(key(b)), length(key(b)), 0, 1, bytes(key(e)),
                                  length(key(e)), 0, 1, limit, target_bytes, mode, 1, 0, reverse);
    Rows out;
    const fdb_error_t err = wait_for(f);
    if (error != nullptr) *error = err;
    if (err == 0) {
      const FDBKeyValue* kv = nullptr;
      int count = 0;
      fdb_bool_t more = 0;
      EXPECT_EQ(fdb_future_get_keyvalue_array(f, &kv, &count, &more), 0);
      for (int i = 0; i < count; ++i) {
        out.rows.emplace_back(
            std::string(reinterpret_cast<const char*>(kv[i].key), kv[i].key_length)
                .substr(prefix_.size()),
            std::string(reinterpret_cast<const char*>(kv[i].value), kv[i].value_length));
      }
      out.more = more != 0;
    }
    fdb_future_destroy(f);
    return out;
  }

  FDBFuture* watch(FDBTransaction* tr, const std::string& k) {
    return fdb_transaction_watch(tr, bytes(key(k)), length(key(k)));
  }
  // Two transactions that both read "n" (0) and write it: whichever commits second conflicts.
  std::pair<FDBTransaction*, FDBTransaction*> racing_writers() {
    put("n", "0");
    FDBTransaction* a = begin();
    FDBTransaction* b = begin();
    EXPECT_EQ(get(a, "n"), "0");
    EXPECT_EQ(get(b, "n"), "0");
    set(a, "n", "a");
    set(b, "n", "b");
    return {a, b};
  }
  // What fdb_transaction_get_approximate_size answers: its error, and the size in `size` (-1 on
  // an error).
  fdb_error_t approximate_size(FDBTransaction* tr, int64_t& size) {
    FDBFuture* f = fdb_transaction_get_approximate_size(tr);
    const fdb_error_t e = wait_for(f);
    size = -1;
    if (e == 0) {
      EXPECT_EQ(fdb_future_get_int64(f, &size), 0);
    }
    fdb_future_destroy(f);
    return e;
  }
  // The approximate size, expected to be answered.
  int64_t approximate(FDBTransaction* tr) {
    int64_t size = -1;
    EXPECT_EQ(approximate_size(tr, size), 0);
    return size;
  }
  // Sets option `option`, a flag (no value): the call answers 0.
  static void set_flag(FDBTransaction* tr, int option) {
    ASSERT_EQ(fdb_transaction_set_option(tr, static_cast<FDBTransactionOption>(option), nullptr, 0),
              0);
  }
  // A read version another transaction is given now.
  int64_t fresh_read_version() {
    FDBTransaction* other = begin();
    const int64_t version = read_version_of(other);
    fdb_transaction_destroy(other);
    return version;
  }
  // The error of the next read of `tr`, 0 when it succeeds.
  fdb_error_t read_error(FDBTransaction* tr) {
    return wait_and_destroy(fdb_transaction_get(tr, bytes(key("any")), length(key("any")), 0));
  }
  // What a fresh transaction answers to `option` set to `value` (null: none): the call's error,
  // else its next read's. FoundationDB checks an option's value on its network thread and keeps
  // what it refuses as the transaction's deferred error, so only an unknown option fails the call.
  fdb_error_t option_answer(int option, const uint8_t* value, int value_length) {
    FDBTransaction* tr = begin();
    fdb_error_t e = fdb_transaction_set_option(tr, static_cast<FDBTransactionOption>(option), value,
                                               value_length);
    if (e == 0) e = read_error(tr);
    fdb_transaction_destroy(tr);
    return e;
  }
  fdb_error_t int_option_answer(int option, int64_t value) {
    return option_answer(option, reinterpret_cast<const uint8_t*>(&value), 8);
  }
  class NetworkGate;

  FDBDatabase* db_ = nullptr;
  std::string prefix_;
};

// As fdb_c.cpp's fdb_select_api_version_impl, whose first check is that no version was selected
// (its g_api_version): once one is, every call answers api_version_already_set (2201), the same
// version too, before the versions passed are looked at. Before, the same version answered 0 and
// a runtime version above the header's api_version_invalid.
TEST(FdbCApiVersion, NoVersionIsTakenAfterTheFirstNotEvenTheSameOne) {
  EXPECT_EQ(fdb_select_api_version_impl(FDB_API_VERSION, FDB_API_VERSION), 2201);
  EXPECT_EQ(fdb_select_api_version_impl(700, FDB_API_VERSION), 2201);
  EXPECT_EQ(fdb_select_api_version_impl(740, 730), 2201);
  EXPECT_EQ(fdb_setup_network(), 2009);  // network_already_setup
  EXPECT_STREQ(fdb_get_error(1020),
               "Transaction not committed due to conflict with another transaction");
  EXPECT_STREQ(fdb_get_error(0), "Success");
  EXPECT_TRUE(fdb_error_predicate(FDB_ERROR_PREDICATE_RETRYABLE, 1020));
  EXPECT_TRUE(fdb_error_predicate(FDB_ERROR_PREDICATE_MAYBE_COMMITTED, 1021));
  EXPECT_FALSE(fdb_error_predicate(FDB_ERROR_PREDICATE_RETRYABLE_NOT_COMMITTED, 1021));
  EXPECT_FALSE(fdb_error_predicate(FDB_ERROR_PREDICATE_RETRYABLE, 2000));
}

TEST_F(FdbC, ReadsSeeTheirOwnWritesAndOthersSeeOnlyCommittedOnes) {
  FDBTransaction* writer = begin();
  set(writer, "k", "v1");
  EXPECT_EQ(get(writer, "k"), "v1");
  FDBTransaction* reader = begin();
  EXPECT_EQ(get(reader, "k"), std::nullopt);
  EXPECT_EQ(commit(writer), 0);
  int64_t version = -1;
  EXPECT_EQ(fdb_transaction_get_committed_version(writer, &version), 0);
  EXPECT_GT(version, 0);
  EXPECT_EQ(get(reader, "k"), std::nullopt) << "a transaction reads at one version";
  FDBTransaction* later = begin();
  EXPECT_EQ(get(later, "k"), "v1");
  for (FDBTransaction* tr : {writer, reader, later})
    fdb_transaction_destroy(tr);
}

TEST_F(FdbC, ACallbackRunsOnTheNetworkThreadOrAtOnceWhenTheFutureIsReady) {
  FDBTransaction* tr = begin();
  struct Seen {
    std::atomic<bool> called{false};
    std::thread::id thread;
  } seen;
  auto record = [](FDBFuture*, void* p) {
    auto* s = static_cast<Seen*>(p);
    s->thread = std::this_thread::get_id();
    s->called = true;
  };
  // A watch is not ready before its key changes, so its callback is set in time and runs on
  // the network thread, which resolves the commit that changes the key.
  FDBFuture* watch = fdb_transaction_watch(tr, bytes(key("cb")), length(key("cb")));
  ASSERT_EQ(fdb_future_set_callback(watch, record, &seen), 0);
  ASSERT_EQ(commit(tr), 0);
  put("cb", "changed");
  ASSERT_EQ(wait_for(watch), 0);
  while (!seen.called)
    std::this_thread::yield();
  EXPECT_NE(seen.thread, std::this_thread::get_id());
  fdb_future_destroy(watch);
  seen.called = false;
  FDBTransaction* reader = begin();
  FDBFuture* f = fdb_transaction_get_read_version(reader);
  ASSERT_EQ(wait_for(f), 0);
  ASSERT_EQ(fdb_future_set_callback(f, record, &seen), 0);
  EXPECT_TRUE(seen.called) << "a callback on a ready future runs at once";
  EXPECT_EQ(seen.thread, std::this_thread::get_id());
  int64_t rv = 0;
  EXPECT_EQ(fdb_future_get_int64(f, &rv), 0);
  EXPECT_GT(rv, 0);
  const uint8_t* k = nullptr;
  int kl = 0;
  EXPECT_EQ(fdb_future_get_key(f, &k, &kl), 2000) << "a value of another kind";
  fdb_future_destroy(f);
  fdb_transaction_destroy(tr);
  fdb_transaction_destroy(reader);
}

TEST_F(FdbC, AConflictIsNotCommittedAndOnErrorRetriesItAfterABackoff) {
  auto [a, b] = racing_writers();
  EXPECT_EQ(commit(a), 0);
  EXPECT_EQ(commit(b), 1020);
  EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(b, 1020)), 0);
  EXPECT_EQ(get(b, "n"), "a") << "on_error resets the transaction: a new read version";
  EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(b, 2000)), 2000) << "not retryable";
  fdb_transaction_destroy(a);
  fdb_transaction_destroy(b);
}

// The codes FoundationDB's predicates name that the store never answers (a locked database,
// throttling, a proxy out of memory, a cluster version change) are what they are on
// FoundationDB: retryable, and on_error retries them. Before, they were neither.
TEST_F(FdbC, EveryCodeFoundationDBRetriesIsRetried) {
  for (int code : {1037, 1038, 1042, 1051, 1078, 1213, 1223, 1235}) {
    EXPECT_TRUE(fdb_error_predicate(FDB_ERROR_PREDICATE_RETRYABLE_NOT_COMMITTED, code)) << code;
    EXPECT_FALSE(fdb_error_predicate(FDB_ERROR_PREDICATE_MAYBE_COMMITTED, code)) << code;
    FDBTransaction* tr = begin();
    EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, code)), 0) << code;
    fdb_transaction_destroy(tr);
  }
  EXPECT_TRUE(fdb_error_predicate(FDB_ERROR_PREDICATE_MAYBE_COMMITTED, 1039));
  EXPECT_TRUE(fdb_error_predicate(FDB_ERROR_PREDICATE_RETRYABLE, 1039));
  EXPECT_FALSE(fdb_error_predicate(FDB_ERROR_PREDICATE_RETRYABLE, 1031)) << "timed out is final";
}

// As FoundationDB 7.3's onError. NativeAPI's backs off and retries blob_granule_request_failed
// (1079), though fdb_error_predicate names it in no predicate. The multi-version client's answers
// cluster_version_changed (1039) at once, before RYW looks at its retry limit or at a cancel, by
// replacing the transaction with a new one (updateTransaction): its retries start afresh under the
// persistent options kept (RETRY_LIMIT here), and a cancelled transaction is usable again. Before,
// on_error answered 1079 and cancelled the transaction, and counted 1039 as a retry (refused past
// the retry limit, 1025 once cancelled).
TEST_F(FdbC, OnErrorRetriesABlobGranuleFailureAndReplacesTheTransactionOnAClusterVersionChange) {
  FDBTransaction* tr = begin();
  EXPECT_FALSE(fdb_error_predicate(FDB_ERROR_PREDICATE_RETRYABLE, 1079));
  EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, 1079)), 0);
  EXPECT_EQ(read_error(tr), 0) << "retried, not cancelled";
  fdb_transaction_destroy(tr);
  tr = begin();
  const int64_t one = 1;
  ASSERT_EQ(fdb_transaction_set_option(tr, static_cast<FDBTransactionOption>(501),
                                       reinterpret_cast<const uint8_t*>(&one), 8),
            0);
  EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, 1020)), 0) << "the one retry allowed";
  EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, 1039)), 0) << "past the retry limit";
  EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, 1020)), 0) << "retries start afresh";
  EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, 1020)), 1020) << "the limit is kept";
  EXPECT_EQ(read_error(tr), 1025) << "on_error past the limit cancelled the transaction";
  EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, 1039)), 0) << "a cancelled one too";
  EXPECT_EQ(read_error(tr), 0) << "the new transaction is not cancelled";
  set(tr, "after a cluster version change", "x");
  EXPECT_EQ(commit(tr), 0);
  fdb_transaction_destroy(tr);
}

// A program that logs fdb_get_error for a code it retried reads FoundationDB's description of it
// (error_definitions.h), not "Unknown error" as before.
TEST_F(FdbC, EveryCodeOnErrorRetriesIsDescribed) {
  for (int code :
       {1007, 1009, 1020, 1021, 1037, 1038, 1039, 1042, 1051, 1078, 1079, 1213, 1223, 1235})
    EXPECT_STRNE(fdb_get_error(code), "Unknown error") << code;
  EXPECT_STREQ(fdb_get_error(1038), "Database is locked");
  EXPECT_STREQ(fdb_get_error(1235), "Transaction throttled due to hot shard");
}

// Holds the network thread still, so that what the test calls meanwhile happens before any commit
// it posts is resolved: a watch's callback, run on the network thread when another transaction
// changes the watched key, waits until release(). Fixed-order tests of commits need it, since the
// network thread otherwise races the test's calls.
class FdbC::NetworkGate {
 public:
  NetworkGate(FdbC& fixture, const std::string& gate_key) {
    FDBTransaction* watcher = fixture.begin();
    watch_ = fixture.watch(watcher, gate_key);
    EXPECT_EQ(fixture.commit(watcher), 0);
    fdb_transaction_destroy(watcher);
    EXPECT_EQ(fdb_future_set_callback(watch_, &NetworkGate::hold, this), 0);
    opener_ = fixture.begin();
    fixture.set(opener_, gate_key, "changed");
    opening_ = fdb_transaction_commit(opener_);  // destroying opener_ now would cancel it
    while (!held_.load())
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  void release() {
    released_.store(true);
    EXPECT_EQ(wait_and_destroy(opening_), 0);
    fdb_transaction_destroy(opener_);
    fdb_future_destroy(watch_);
  }

 private:
  static void hold(FDBFuture*, void* self) {
    auto* gate = static_cast<NetworkGate*>(self);
    gate->held_.store(true);
    for (int waited_ms = 0; !gate->released_.load() && waited_ms < 60'000; ++waited_ms)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  FDBFuture* watch_ = nullptr;
  FDBTransaction* opener_ = nullptr;
  FDBFuture* opening_ = nullptr;
  std::atomic<bool> held_{false}, released_{false};
};

// A reset while a commit is outstanding discards the attempt that commit belongs to: the commit
// answers transaction_cancelled, as FoundationDB's does, and the transaction is a fresh one at
// once. Before, the commit answered success with nothing written (the reset had emptied it).
// A retry does not: as FoundationDB 7.3's, whose NativeAPI reset at onError leaves the commit it
// sent running and whose RYW commit waits on it, the commit goes on with its attempt's writes and
// answers its own result when it is resolved before the retry's backoff ends (here, with no commit
// latency, it is; fdb_c_commit_latency_test has the backoff ending first), and the attempt's
// versionstamp future its versionstamp. Before, both answered 1025 and nothing was written.
// Destroying the transaction cancels its outstanding commit, as FoundationDB's
// ~ReadYourWritesTransaction does: the future the program still holds answers 1025, and (as after a
// cancel) nothing is written. Before, that commit went on and answered success.
TEST_F(FdbC, AResetOrDestroyWhileACommitIsOutstandingCancelsItARetryDoesNot) {
  FDBTransaction* tr = begin();
  NetworkGate gate(*this, "gate");
  set(tr, "rc", "discarded");
  FDBFuture* reset_away = fdb_transaction_commit(tr);
  fdb_transaction_reset(tr);
  set(tr, "rc", "kept");
  FDBFuture* fresh = fdb_transaction_commit(tr);
  gate.release();
  EXPECT_EQ(wait_and_destroy(reset_away), 1025);
  EXPECT_EQ(wait_and_destroy(fresh), 0) << "the reset transaction is a fresh one";
  fdb_transaction_reset(tr);  // a committed transaction is used again only after a reset
  NetworkGate second_gate(*this, "gate2");
  set(tr, "again", "x");
  FDBFuture* stamp = fdb_transaction_get_versionstamp(tr);
  FDBFuture* left_behind = fdb_transaction_commit(tr);
  FDBFuture* retry = fdb_transaction_on_error(tr, 1007);  // transaction_too_old: a 10 ms backoff
  second_gate.release();
  EXPECT_EQ(wait_and_destroy(left_behind), 0) << "resolved before the backoff ended";
  EXPECT_EQ(versionstamp_and_destroy(stamp).size(), 10u) << "its versionstamp waited with it";
  EXPECT_EQ(wait_and_destroy(retry), 0);
  fdb_transaction_reset(tr);
  NetworkGate third_gate(*this, "gate3");
  set(tr, "gone", "discarded");
  FDBFuture* destroyed_away = fdb_transaction_commit(tr);
  fdb_transaction_destroy(tr);
  third_gate.release();
  EXPECT_EQ(wait_and_destroy(destroyed_away), 1025);
  FDBTransaction* reader = begin();
  EXPECT_EQ(get(reader, "rc"), "kept");
  EXPECT_EQ(get(reader, "again"), "x") << "the commit a retry left behind wrote its attempt's";
  EXPECT_EQ(get(reader, "gone"), std::nullopt);
  fdb_transaction_destroy(reader);
}

// As FoundationDB's checkUsedDuringCommit: once a commit has started, until a reset or a retry, a
// read, a write, a watch, a versionstamp or another commit is a use during commit — it answers
// used_during_commit (2017; a write's as the deferred error of later calls), and a commit still
// outstanding fails with it, writing nothing. A read version is still given. Before, a commit's
// writes were applied again by a second commit of the same transaction (a counter added twice),
// reads after a commit went on, and a read during a commit left that commit to succeed.
TEST_F(FdbC, UsingATransactionOnceItsCommitStartedIsUsedDuringCommit) {
  const std::string counter = key("counter");
  const int64_t one = 1;
  FDBTransaction* tr = begin();
  fdb_transaction_atomic_op(tr, bytes(counter), length(counter),
                            reinterpret_cast<const uint8_t*>(&one), 8, FDB_MUTATION_TYPE_ADD);
  EXPECT_EQ(commit(tr), 0);
  EXPECT_EQ(read_error(tr), 2017);
  EXPECT_EQ(wait_and_destroy(watch(tr, "w")), 2017);
  EXPECT_EQ(wait_and_destroy(fdb_transaction_get_versionstamp(tr)), 2017);
  EXPECT_EQ(commit(tr), 2017) << "the first commit's writes are not applied again";
  fdb_transaction_reset(tr);
  FDBFuture* f = fdb_transaction_get(tr, bytes(counter), length(counter), 0);
  ASSERT_EQ(wait_for(f), 0);
  fdb_bool_t present = 0;
  const uint8_t* value = nullptr;
  int value_length = 0;
  ASSERT_EQ(fdb_future_get_value(f, &present, &value, &value_length), 0);
  ASSERT_EQ(value_length, 8);
  int64_t count = 0;
  std::memcpy(&count, value, 8);
  EXPECT_EQ(count, 1) << "added once";
  fdb_future_destroy(f);
  fdb_transaction_destroy(tr);

  for (const char* use : {"read", "write"}) {
    tr = begin();
    NetworkGate gate(*this, std::string("gate_") + use);
    set(tr, use, "v");
    FDBFuture* outstanding = fdb_transaction_commit(tr);
    FDBFuture* read_version = fdb_transaction_get_read_version(tr);
    FDBFuture* read = nullptr;  // waited on once the network runs again
    if (std::string(use) == "read") {
      read = fdb_transaction_get(tr, bytes(key("any")), length(key("any")), 0);
    } else {
      set(tr, "other", "v");
    }
    gate.release();
    if (read != nullptr) {
      EXPECT_EQ(wait_and_destroy(read), 2017);
    }
    EXPECT_EQ(wait_and_destroy(read_version), 0) << use << ": a read version is still given";
    EXPECT_EQ(wait_and_destroy(outstanding), 2017) << use << " during the commit";
    fdb_transaction_destroy(tr);
    FDBTransaction* reader = begin();
    EXPECT_EQ(get(reader, use), std::nullopt) << use << ": the failed commit wrote nothing";
    fdb_transaction_destroy(reader);
  }
}

// As NativeAPI's USED_DURING_COMMIT_PROTECTION_DISABLE (701): RYW's checkUsedDuringCommit still
// answers used_during_commit (2017) but no longer ends the attempt, so the outstanding commit goes
// on and applies. The option is not persistent: a retry drops it. Before: accepted with no effect,
// the commit answered 2017 and wrote nothing.
TEST_F(FdbC, UsedDuringCommitProtectionDisabledLeavesTheCommitToApply) {
  FDBTransaction* tr = begin();
  set_flag(tr, 701);  // USED_DURING_COMMIT_PROTECTION_DISABLE
  EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, 1020)), 0);
  set(tr, "unprotected", "retried");
  NetworkGate gate(*this, "gate");
  FDBFuture* outstanding = fdb_transaction_commit(tr);
  FDBFuture* read = fdb_transaction_get(tr, bytes(key("any")), length(key("any")), 0);
  gate.release();
  EXPECT_EQ(wait_and_destroy(read), 2017);
  EXPECT_EQ(wait_and_destroy(outstanding), 2017) << "a retry drops the option";

  fdb_transaction_reset(tr);
  set_flag(tr, 701);  // USED_DURING_COMMIT_PROTECTION_DISABLE
  set(tr, "unprotected", "kept");
  NetworkGate second_gate(*this, "gate2");
  outstanding = fdb_transaction_commit(tr);
  read = fdb_transaction_get(tr, bytes(key("any")), length(key("any")), 0);
  set(tr, "other", "v");
  second_gate.release();
  EXPECT_EQ(wait_and_destroy(read), 2017) << "the use still answers used_during_commit";
  EXPECT_EQ(wait_and_destroy(outstanding), 0) << "and the commit goes on";
  EXPECT_EQ(read_error(tr), 2017) << "the write's 2017 is the deferred error";
  fdb_transaction_destroy(tr);
  FDBTransaction* reader = begin();
  EXPECT_EQ(get(reader, "unprotected"), "kept");
  EXPECT_EQ(get(reader, "other"), std::nullopt) << "a write during the commit is not in it";
  fdb_transaction_destroy(reader);
}

// As NativeAPI's READ_LOCK_AWARE (702), which makes a transaction read-only unless it is lock
// aware already, and LOCK_AWARE (700), which makes it lock aware and not read-only: a read-only
// transaction's commit with writes (a write conflict range too) answers transaction_read_only
// (2023) — not retryable — and fails its watches with it; one without writes commits. Neither
// option is persistent: a reset or retry drops them. Before: both accepted with no effect.
TEST_F(FdbC, AReadLockAwareTransactionIsReadOnly) {
  FDBTransaction* tr = begin();
  set_flag(tr, 702);
  FDBFuture* w = watch(tr, "w");
  set(tr, "read-only", "v");
  EXPECT_EQ(commit(tr), 2023);
  EXPECT_EQ(wait_and_destroy(w), 2023) << "a failed commit fails its watches with its error";
  EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, 2023)), 2023) << "not retryable";
  fdb_transaction_reset(tr);
  set_flag(tr, 702);
  const std::string range_begin = key("r"), range_end = key("s");
  ASSERT_EQ(fdb_transaction_add_conflict_range(tr, bytes(range_begin), length(range_begin),
                                               bytes(range_end), length(range_end),
                                               FDB_CONFLICT_RANGE_TYPE_WRITE),
            0);
  EXPECT_EQ(commit(tr), 2023) << "a write conflict range is a write";
  fdb_transaction_reset(tr);
  set_flag(tr, 702);
  EXPECT_EQ(read_error(tr), 0);
  EXPECT_EQ(commit(tr), 0) << "a commit without writes";
  fdb_transaction_reset(tr);
  set_flag(tr, 700);
  set_flag(tr, 702);
  set(tr, "lock-aware", "v");
  EXPECT_EQ(commit(tr), 0) << "lock aware first: READ_LOCK_AWARE changes nothing";
  fdb_transaction_reset(tr);
  set_flag(tr, 702);
  set_flag(tr, 700);
  set(tr, "lock-aware-after", "v");
  EXPECT_EQ(commit(tr), 0) << "LOCK_AWARE clears read-only";
  fdb_transaction_reset(tr);
  set_flag(tr, 702);
  EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, 1020)), 0);
  set(tr, "retried", "v");
  EXPECT_EQ(commit(tr), 0) << "a retry drops it";
  fdb_transaction_destroy(tr);
  FDBTransaction* reader = begin();
  EXPECT_EQ(get(reader, "read-only"), std::nullopt);
  EXPECT_EQ(get(reader, "lock-aware"), "v");
  EXPECT_EQ(get(reader, "retried"), "v");
  fdb_transaction_destroy(reader);
}

// As NativeAPI's INITIALIZE_NEW_DATABASE (300, a flag): the transaction reads at version 0 — or,
// when it holds a read version already, read_version_already_set (2010) becomes its deferred
// error — and set_read_version after it is refused so too. Not persistent: a retry takes a read
// version anew. Before: accepted with no effect.
TEST_F(FdbC, InitializeNewDatabaseReadsAtVersionZero) {
  const auto initialize = [](FDBTransaction* tr, const char* value) {
    ASSERT_EQ(fdb_transaction_set_option(tr, static_cast<FDBTransactionOption>(300), bytes(value),
                                         length(value)),
              0);
  };
  FDBTransaction* tr = begin();
  initialize(tr, "");
  EXPECT_EQ(read_version_of(tr), 0);
  fdb_transaction_set_read_version(tr, read_version_of(tr) + 1);
  EXPECT_EQ(wait_and_destroy(fdb_transaction_get_read_version(tr)), 2010);
  fdb_transaction_reset(tr);
  EXPECT_GT(read_version_of(tr), 0);
  initialize(tr, "");
  EXPECT_EQ(read_error(tr), 2010) << "a read version was taken";
  fdb_transaction_reset(tr);
  initialize(tr, "");
  EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, 1020)), 0);
  EXPECT_GT(read_version_of(tr), 0) << "a retry takes a read version anew";
  fdb_transaction_reset(tr);
  initialize(tr, "x");
  EXPECT_EQ(read_error(tr), 2006) << "it takes no value";
  fdb_transaction_destroy(tr);
}

// As NativeAPI's commitMutations, which answers a commit without mutations or write conflict
// ranges at once, taking no read version: set_read_version may still set one after it (a read
// version is still given during a commit), while a commit with writes takes one, after which it
// answers read_version_already_set (2010). Before: refused after any commit.
TEST_F(FdbC, AReadOnlyCommitTakesNoReadVersion) {
  const int64_t version = fresh_read_version();
  FDBTransaction* tr = begin();
  ASSERT_EQ(commit(tr), 0);
  fdb_transaction_set_read_version(tr, version);
  EXPECT_EQ(read_version_of(tr), version);
  fdb_transaction_reset(tr);
  set(tr, "k", "v");
  ASSERT_EQ(commit(tr), 0);
  fdb_transaction_set_read_version(tr, version);
  EXPECT_EQ(wait_and_destroy(fdb_transaction_get_read_version(tr)), 2010);
  fdb_transaction_destroy(tr);
}

// As FoundationDB 7.3, whose setVersion checks only that a version is positive and that none is
// held: a version the storage has not reached is taken (get_read_version answers it), and only
// reads find out. Its storage server waits up to FUTURE_VERSION_DELAY (1 s) for a read's version:
// within that, the read sees every commit made before it and none after (later commits land above
// the version, and conflict with the transaction's read); beyond it, the read answers
// future_version (1009), while a commit with writes, which reads nothing, commits below it.
// Before: future_version was the deferred error of every call.
TEST_F(FdbC, AReadVersionAheadOfTheStorageIsWaitedForUpToOneSecond) {
  put("k", "before");
  const int64_t ahead = fresh_read_version() + 500'000;
  FDBTransaction* tr = begin();
  fdb_transaction_set_read_version(tr, ahead);
  EXPECT_EQ(read_version_of(tr), ahead);
  EXPECT_EQ(get(tr, "k"), "before");
  put("k", "after");
  EXPECT_GT(fresh_read_version(), ahead) << "a commit after the read lands above its version";
  EXPECT_EQ(get(tr, "k"), "before");
  set(tr, "k", "mine");
  EXPECT_EQ(commit(tr), 1020) << "and conflicts with it";

  fdb_transaction_reset(tr);
  const int64_t far = fresh_read_version() + 10'000'000;
  fdb_transaction_set_read_version(tr, far);
  EXPECT_EQ(read_version_of(tr), far);
  EXPECT_EQ(read_error(tr), 1009);
  set(tr, "k", "blind");
  EXPECT_EQ(commit(tr), 0);
  int64_t committed = 0;
  EXPECT_EQ(fdb_transaction_get_committed_version(tr, &committed), 0);
  EXPECT_LT(committed, far);
  EXPECT_LT(fresh_read_version(), far) << "nothing was granted ahead";
  fdb_transaction_destroy(tr);
}

// A version the storage has reached since it last granted a read version (set_read_version of a
// version between that one and the clock's) is granted at the read, so that later commits land
// above it. Before, the read found it not granted and the store's check stopped the process (the
// fdb_c_api fuzzer found it under ASan: a version 0.5 s past a read version, set over 0.5 s later).
TEST_F(FdbC, AReadVersionTheStorageReachedSinceItsLastGrantIsGrantedAtTheRead) {
  put("k", "before");
  const int64_t granted = fresh_read_version();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the clock passes granted + 1,000
  FDBTransaction* tr = begin();
  fdb_transaction_set_read_version(tr, granted + 1'000);
  EXPECT_EQ(get(tr, "k"), "before");
  put("k", "after");
  EXPECT_EQ(get(tr, "k"), "before") << "a commit after the read lands above its version";
  set(tr, "k", "mine");
  EXPECT_EQ(commit(tr), 1020) << "and conflicts with it";
  fdb_transaction_destroy(tr);
}

// As RYW 7.3's onError, which waits on its resetPromise as well as on NativeAPI's backoff: during
// the backoff a cancel or the transaction's destruction answers the on_error future
// transaction_cancelled (1025), the timeout transaction_timed_out (1031), an on_error that does
// not retry 1025, and a reset 1025 — the reset transaction is then cancelled, as onError's catch
// cancels the resetPromise the reset made. Of two on_error calls backing off at once, the first to
// end succeeds and resets, which fails the other (1025) and cancels the transaction. Each case
// holds the network thread (NetworkGate) so that no backoff ends before it is meant to. Before:
// on_error answered success when its backoff ended, whatever came between.
TEST_F(FdbC, WhatEndsAnAttemptDuringOnErrorsBackoffFailsIt) {
  constexpr fdb_error_t kTooOld = 1007;  // a flat 10 ms backoff
  FDBTransaction* tr = begin();
  // What on_error answers when `during` comes while it backs off.
  const auto retry_answer = [&](const std::string& gate_key, const std::function<void()>& during) {
    NetworkGate gate(*this, gate_key);
    FDBFuture* retry = fdb_transaction_on_error(tr, kTooOld);
    during();
    gate.release();
    return wait_and_destroy(retry);
  };
  EXPECT_EQ(retry_answer("cancel", [&] { fdb_transaction_cancel(tr); }), 1025);
  fdb_transaction_reset(tr);
  EXPECT_EQ(retry_answer("reset", [&] { fdb_transaction_reset(tr); }), 1025);
  EXPECT_EQ(read_error(tr), 1025) << "the reset transaction is cancelled";
  fdb_transaction_reset(tr);
  FDBFuture* other = nullptr;
  EXPECT_EQ(retry_answer("two", [&] { other = fdb_transaction_on_error(tr, kTooOld); }), 0)
      << "the first backoff to end";
  EXPECT_EQ(wait_and_destroy(other), 1025) << "the other";
  EXPECT_EQ(read_error(tr), 1025) << "the transaction is cancelled";
  fdb_transaction_reset(tr);
  EXPECT_EQ(retry_answer("not retried", [&] { other = fdb_transaction_on_error(tr, 2000); }), 1025);
  EXPECT_EQ(wait_and_destroy(other), 2000);
  fdb_transaction_reset(tr);
  {
    NetworkGate gate(*this, "timeout");
    fdb_transaction_reset(tr);  // the timeout counts from here
    const int64_t timeout_ms = 5;
    ASSERT_EQ(fdb_transaction_set_option(tr, static_cast<FDBTransactionOption>(500),
                                         reinterpret_cast<const uint8_t*>(&timeout_ms), 8),
              0);
    FDBFuture* retry = fdb_transaction_on_error(tr, kTooOld);
    gate.release();
    EXPECT_EQ(wait_and_destroy(retry), 1031) << "the timeout during the backoff";
  }
  fdb_transaction_reset(tr);
  EXPECT_EQ(retry_answer("destroy", [&] { fdb_transaction_destroy(tr); }), 1025);
}

// Without read-your-writes, a read does not see the transaction's writes, so it depends on the
// database at the keys the transaction wrote too: as FoundationDB's (whose transaction then sends
// its read conflict ranges whole), another commit changing such a key makes the commit conflict.
// An explicit read conflict range is whole then too; with read-your-writes on, FoundationDB leaves
// out the keys the transaction wrote, and so does this library. Before, both were trimmed.
TEST_F(FdbC, WithoutReadYourWritesAReadOfAKeyTheTransactionWroteConflicts) {
  auto conflicts = [&](bool read_your_writes_disabled, bool explicit_range) {
    FDBTransaction* tr = begin();
    if (read_your_writes_disabled) {
      EXPECT_EQ(fdb_transaction_set_option(tr, 51, nullptr, 0), 0);
    }
    set(tr, "w", "mine");
    if (explicit_range) {
      const std::string b = key("w"), e = key("w") + std::string(1, '\0');
      EXPECT_EQ(fdb_transaction_add_conflict_range(tr, bytes(b), length(b), bytes(e), length(e),
                                                   FDB_CONFLICT_RANGE_TYPE_READ),
                0);
      get(tr, "other");  // takes the read version
    } else {
      get(tr, "w");
    }
    put("w", "theirs");
    const fdb_error_t e = commit(tr);
    fdb_transaction_destroy(tr);
    return e;
  };
  EXPECT_EQ(conflicts(true, false), 1020) << "a read without read-your-writes";
  EXPECT_EQ(conflicts(true, true), 1020) << "a read conflict range without read-your-writes";
  EXPECT_EQ(conflicts(false, false), 0) << "a read of the transaction's own write";
  EXPECT_EQ(conflicts(false, true), 0) << "a read conflict range over the transaction's write";
}

// As FoundationDB's addReadConflictRange and addWriteConflictRange, which run on its network
// thread: a conflict range reaching past \xff (the system keys) leaves key_outside_legal_range
// (2004) as the transaction's deferred error — the call answers 0, every later read and the commit
// answer 2004 until a reset — and one ending at \xff is legal. A conflict range added while a
// commit is outstanding fails that commit with used_during_commit (2017). An inverted range (2005)
// and an unknown type (2000) are answered by the call itself, as FoundationDB's fdb_c.cpp does.
// Before, the call answered 2004 and 2017 and the transaction went on as if never asked.
TEST_F(FdbC, AConflictRangeIntoTheSystemKeysIsOutsideTheLegalRange) {
  const std::string past("\xff\x01"), system_begin("\xff"), k = key("k");
  for (FDBConflictRangeType type : {FDB_CONFLICT_RANGE_TYPE_READ, FDB_CONFLICT_RANGE_TYPE_WRITE}) {
    FDBTransaction* tr = begin();
    EXPECT_EQ(fdb_transaction_add_conflict_range(tr, bytes("a"), 1, bytes(system_begin),
                                                 length(system_begin), type),
              0)
        << type;
    EXPECT_EQ(wait_and_destroy(fdb_transaction_get(tr, bytes(k), length(k), 0)), 0) << type;
    EXPECT_EQ(
        fdb_transaction_add_conflict_range(tr, bytes(past), length(past), bytes("a"), 1, type),
        2005)
        << type;
    EXPECT_EQ(
        fdb_transaction_add_conflict_range(tr, bytes("a"), 1, bytes(past), length(past), type), 0)
        << type;
    EXPECT_EQ(wait_and_destroy(fdb_transaction_get(tr, bytes(k), length(k), 0)), 2004) << type;
    set(tr, "k", "v");
    EXPECT_EQ(commit(tr), 2004) << type;
    fdb_transaction_reset(tr);
    EXPECT_EQ(fdb_transaction_add_conflict_range(tr, bytes(past), length(past), bytes(past),
                                                 length(past), type),
              0)
        << type;
    EXPECT_EQ(commit(tr), 2004) << type << ": an empty range past \xff too";
    fdb_transaction_destroy(tr);
  }
  FDBTransaction* tr = begin();
  NetworkGate gate(*this, "gate");
  set(tr, "k", "v");
  FDBFuture* outstanding = fdb_transaction_commit(tr);
  EXPECT_EQ(fdb_transaction_add_conflict_range(tr, bytes("a"), 1, bytes("b"), 1,
                                               FDB_CONFLICT_RANGE_TYPE_READ),
            0);
  gate.release();
  EXPECT_EQ(wait_and_destroy(outstanding), 2017);
  fdb_transaction_destroy(tr);
  FDBTransaction* reader = begin();
  EXPECT_EQ(get(reader, "k"), std::nullopt) << "the commit used during its commit wrote nothing";
  fdb_transaction_destroy(reader);
}

// As FoundationDB's clear(begin, end): ThreadSafeTransaction refuses an inverted range
// (inverted_range, 2005) before RYW looks at the transaction — so even while a commit is
// outstanding, and without failing that commit; RYW's clear then checks the commit
// (used_during_commit, 2017), then the legal range, an empty range's too: [\xff\x01, \xff\x01)
// is key_outside_legal_range (2004), [\xff, \xff) is legal. Each refusal is the deferred error of
// later reads and the commit. Before, an empty range past \xff was accepted, and an inverted range
// during a commit answered 2017 and failed the commit.
TEST_F(FdbC, AClearRangeIsCheckedInvertedThenInUseThenInTheLegalRangeEvenEmpty) {
  const std::string past("\xff\x01"), further("\xff\x02"), system_begin("\xff");
  auto clear_range = [](FDBTransaction* tr, const std::string& b, const std::string& e) {
    fdb_transaction_clear_range(tr, bytes(b), length(b), bytes(e), length(e));
  };
  auto answer = [&](const std::string& b, const std::string& e) {
    FDBTransaction* tr = begin();
    clear_range(tr, b, e);
    const fdb_error_t read = read_error(tr);
    EXPECT_EQ(commit(tr), read) << "the commit answers as the read";
    fdb_transaction_destroy(tr);
    return read;
  };
  EXPECT_EQ(answer(past, past), 2004) << "an empty range past \\xff";
  EXPECT_EQ(answer(system_begin, system_begin), 0) << "an empty range at \\xff";
  EXPECT_EQ(answer(key("a"), past), 2004);
  EXPECT_EQ(answer(further, past), 2005) << "inverted comes first";

  for (bool inverted : {true, false}) {
    const std::string name = inverted ? "inverted" : "empty";
    FDBTransaction* tr = begin();
    NetworkGate gate(*this, "gate_" + name);
    set(tr, name, "v");
    FDBFuture* outstanding = fdb_transaction_commit(tr);
    if (inverted) {
      clear_range(tr, further, past);
    } else {
      clear_range(tr, past, past);
    }
    gate.release();
    EXPECT_EQ(wait_and_destroy(outstanding), inverted ? 0 : 2017) << name;
    EXPECT_EQ(read_error(tr), inverted ? 2005 : 2017) << name;
    fdb_transaction_destroy(tr);
    FDBTransaction* reader = begin();
    EXPECT_EQ(get(reader, name), inverted ? std::optional<std::string>("v") : std::nullopt);
    fdb_transaction_destroy(reader);
  }
}

// As FoundationDB's getRange and getKey: a key selector whose key is past \xff (the system keys)
// answers key_outside_legal_range (2004); \xff itself, the usual end of a range, is legal. Before,
// the range was cut at \xff and the selector resolved as if it were legal.
TEST_F(FdbC, ASelectorPastTheLegalRangeIsRefused) {
  FDBTransaction* tr = begin();
  const std::string past("\xff\x01"), system_begin("\xff");
  auto range_to = [&](const std::string& end) {
    return wait_and_destroy(fdb_transaction_get_range(tr, bytes("a"), 1, 0, 1, bytes(end),
                                                      length(end), 0, 1, 0, 0,
                                                      FDB_STREAMING_MODE_WANT_ALL, 0, 0, 0));
  };
  EXPECT_EQ(range_to(past), 2004);
  EXPECT_EQ(range_to(system_begin), 0);
  EXPECT_EQ(wait_and_destroy(fdb_transaction_get_key(tr, bytes(past), length(past), 0, 1, 0)),
            2004);
  EXPECT_EQ(wait_and_destroy(fdb_transaction_get_key(tr, bytes(system_begin), 1, 0, 1, 0)), 0);
  fdb_transaction_destroy(tr);
}

TEST_F(FdbC, TheRetryLimitEndsRetries) {
  FDBTransaction* tr = begin();
  const int64_t one = 1;
  ASSERT_EQ(fdb_transaction_set_option(tr, 501, reinterpret_cast<const uint8_t*>(&one), 8), 0);
  EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, 1020)), 0);
  EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, 1020)), 1020);
  EXPECT_EQ(option_answer(501, nullptr, 0), 2006) << "an int option needs 8 bytes";
  fdb_transaction_destroy(tr);
}

TEST_F(FdbC, OptionsActAreRefusedOrAreAcceptedAsDocumented) {
  FDBTransaction* tr = begin();
  auto set_int = [&](int option, int64_t v) {
    return fdb_transaction_set_option(tr, option, reinterpret_cast<const uint8_t*>(&v), 8);
  };
  EXPECT_EQ(set_int(503, 40), 0);  // SIZE_LIMIT
  set(tr, "big", std::string(100, 'x'));
  EXPECT_EQ(commit(tr), 2101) << "transaction_too_large over SIZE_LIMIT";
  EXPECT_EQ(int_option_answer(503, 1), 2006) << "below FoundationDB's bound";
  fdb_transaction_reset(tr);
  EXPECT_EQ(set_int(500, 1), 0);  // TIMEOUT, ms
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  FDBFuture* f = fdb_transaction_get(tr, bytes(key("t")), length(key("t")), 0);
  EXPECT_EQ(wait_and_destroy(f), 1031) << "transaction_timed_out";
  fdb_transaction_reset(tr);
  EXPECT_EQ(get(tr, "t"), std::nullopt) << "reset clears the timeout";
  EXPECT_EQ(fdb_transaction_set_option(tr, 301, nullptr, 0), 2007)
      << "ACCESS_SYSTEM_KEYS would reach keys the store does not model: refused";
  EXPECT_EQ(fdb_transaction_set_option(tr, 505, nullptr, 0), 2007) << "AUTOMATIC_IDEMPOTENCY";
  EXPECT_EQ(fdb_transaction_set_option(tr, 30, nullptr, 0), 0)
      << "NEXT_WRITE_NO_WRITE_CONFLICT_RANGE";
  EXPECT_EQ(fdb_transaction_set_option(tr, 9999, nullptr, 0), 2007) << "not an option";
  EXPECT_EQ(fdb_transaction_set_option(tr, 200, nullptr, 0), 0) << "a priority: no effect";
  fdb_transaction_destroy(tr);
}

// As NativeAPI's Transaction::setOption and RYW's setOptionImpl check the value of an option this
// library accepts with no effect: a flag with a value is invalid_option_value
// (validateOptionValueNotPresent; an empty one passes), an option that takes a value wants one
// (validateOptionValuePresent) of its size — DEBUG_TRANSACTION_IDENTIFIER 1 to 100 bytes,
// TRANSACTION_LOGGING_MAX_FIELD_LENGTH an integer in [-1, INT32_MAX] but 0, SPAN_PARENT 33 bytes
// — and a TAG longer than 16 bytes is tag_too_long (2110, TagSet::addTag); each as the deferred
// error. Before, any value was accepted.
TEST_F(FdbC, OptionsAcceptedWithNoEffectCheckTheirValuesAsFoundationDBs) {
  const std::string v = "v", tag(17, 't'), span(33, 's');
  EXPECT_EQ(option_answer(200, bytes(v), 1), 2006) << "PRIORITY_SYSTEM_IMMEDIATE with a value";
  EXPECT_EQ(option_answer(30, bytes(v), 1), 2006) << "NEXT_WRITE_NO_WRITE_CONFLICT_RANGE";
  EXPECT_EQ(option_answer(200, bytes(v), 0), 0) << "an empty value";
  EXPECT_EQ(option_answer(403, nullptr, 0), 2006) << "DEBUG_TRANSACTION_IDENTIFIER without one";
  EXPECT_EQ(option_answer(403, bytes(v), 0), 2006) << "an empty identifier";
  EXPECT_EQ(option_answer(403, bytes(v), 1), 0);
  EXPECT_EQ(int_option_answer(405, 0), 2006) << "TRANSACTION_LOGGING_MAX_FIELD_LENGTH of 0";
  EXPECT_EQ(int_option_answer(405, -1), 0);
  EXPECT_EQ(option_answer(800, nullptr, 0), 2006) << "TAG without one";
  EXPECT_EQ(option_answer(800, bytes(tag), length(tag)), 2110) << "a tag of 17 bytes";
  EXPECT_EQ(option_answer(800, bytes(tag), 16), 0);
  EXPECT_EQ(option_answer(900, bytes(span), 32), 2006) << "SPAN_PARENT of 32 bytes";
  EXPECT_EQ(option_answer(900, bytes(span), 33), 0);
  EXPECT_EQ(option_answer(401, bytes(v), 1), 0) << "DEBUG_RETRY_LOGGING takes a name";
}

// As FoundationDB's NativeAPI Transaction::setOption: LOG_TRANSACTION (404) wants a
// DEBUG_TRANSACTION_IDENTIFIER (403) set before, and a second identifier may not differ from the
// first (client_invalid_operation, 2000); TRANSACTION_LOGGING_ENABLE (402) sets one and logs. TAG
// (800) and AUTO_THROTTLE_TAG (801) go through TagSet::addTag, which refuses a sixth tag — a
// repeated one too — with too_many_tags (2109); a retry starts without tags. Each refusal is the
// deferred error. Before, all were accepted.
TEST_F(FdbC, LoggingWantsAnIdentifierAndATransactionAtMostFiveTags) {
  EXPECT_EQ(option_answer(404, nullptr, 0), 2000) << "LOG_TRANSACTION without an identifier";
  FDBTransaction* tr = begin();
  auto set_option = [&](int option, const std::string& v) {
    return fdb_transaction_set_option(tr, static_cast<FDBTransactionOption>(option),
                                      v.empty() ? nullptr : bytes(v), length(v));
  };
  EXPECT_EQ(set_option(403, "id"), 0);
  EXPECT_EQ(set_option(404, ""), 0);
  EXPECT_EQ(set_option(403, "id"), 0);
  EXPECT_EQ(read_error(tr), 0) << "the same identifier again";
  EXPECT_EQ(set_option(403, "other"), 0);
  EXPECT_EQ(read_error(tr), 2000) << "another identifier";
  fdb_transaction_reset(tr);
  EXPECT_EQ(set_option(402, "id"), 0);
  EXPECT_EQ(set_option(404, ""), 0);
  EXPECT_EQ(read_error(tr), 0) << "TRANSACTION_LOGGING_ENABLE sets the identifier";
  fdb_transaction_reset(tr);
  for (const char* tag : {"t0", "t1", "t2", "t0", "t3", "t4"})
    EXPECT_EQ(set_option(tag[1] % 2 == 0 ? 800 : 801, tag), 0);
  EXPECT_EQ(read_error(tr), 0) << "five tags, one given twice";
  EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, 1020)), 0);
  EXPECT_EQ(set_option(800, "t5"), 0);
  EXPECT_EQ(read_error(tr), 0) << "a retry starts without tags";
  for (const char* tag : {"t6", "t7", "t8", "t9", "t5"})
    EXPECT_EQ(set_option(801, tag), 0);
  EXPECT_EQ(read_error(tr), 2109) << "a sixth, though given before";
  EXPECT_STREQ(fdb_get_error(2109), "Too many tags set on transaction");
  fdb_transaction_destroy(tr);
}

// TIMEOUT and MAX_RETRY_DELAY take [0, INT_MAX] ms and RETRY_LIMIT [-1, INT_MAX], as
// FoundationDB's client does; outside them invalid_option_value, as the transaction's deferred
// error (the call answers 0, later reads and the commit 2006). A TIMEOUT of INT64_MAX had timed
// the transaction out at once (its conversion to microseconds overflowed), a MAX_RETRY_DELAY of
// INT64_MAX aborted the process at the next on_error, and a RETRY_LIMIT of -7 was taken as none.
TEST_F(FdbC, IntegerOptionsTakeFoundationDBsRangesAndTheirLimitsWork) {
  FDBTransaction* tr = begin();
  auto set_int = [&](int option, int64_t v) {
    return fdb_transaction_set_option(tr, option, reinterpret_cast<const uint8_t*>(&v), 8);
  };
  const int64_t int_max = std::numeric_limits<int>::max();
  EXPECT_EQ(set_int(500, -1), 0) << "checked on FoundationDB's network thread: a deferred error";
  EXPECT_EQ(commit(tr), 2006);
  fdb_transaction_reset(tr);
  for (int option : {500, 502}) {
    EXPECT_EQ(int_option_answer(option, -1), 2006) << option;
    EXPECT_EQ(int_option_answer(option, int_max + 1), 2006) << option;
    EXPECT_EQ(int_option_answer(option, std::numeric_limits<int64_t>::max()), 2006) << option;
  }
  EXPECT_EQ(int_option_answer(501, -7), 2006);
  EXPECT_EQ(int_option_answer(501, int_max + 1), 2006);
  EXPECT_EQ(set_int(500, int_max), 0);
  EXPECT_EQ(get(tr, "t"), std::nullopt) << "a timeout of 24 days has not passed";
  EXPECT_EQ(set_int(502, int_max), 0);
  EXPECT_EQ(set_int(501, int_max), 0);
  EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, 1020)), 0) << "retried after a backoff";
  fdb_transaction_destroy(tr);
}

TEST_F(FdbC, KeySelectorsNameTheKeysFoundationDBDocuments) {
  for (const char* k : {"b", "d", "f"})
    put(k, "x");
  FDBTransaction* tr = begin();
  EXPECT_EQ(get_key(tr, "d", false, 1), key("d"));  // firstGreaterOrEqual
  EXPECT_EQ(get_key(tr, "d", true, 1), key("f"));   // firstGreaterThan
  EXPECT_EQ(get_key(tr, "d", true, 0), key("d"));   // lastLessOrEqual
  EXPECT_EQ(get_key(tr, "d", false, 0), key("b"));  // lastLessThan
  EXPECT_EQ(get_key(tr, "c", false, 2), key("f"));
  EXPECT_EQ(get_key(tr, "b", false, -1) < key("b"), true);
  fdb_transaction_destroy(tr);
}

TEST_F(FdbC, RangeReadsObeyLimitReverseAndByteLimits) {
  for (const char* k : {"a", "b", "c", "d"})
    put(k, std::string(100, 'v'));
  FDBTransaction* tr = begin();
  Rows all = range(tr, "a", "z", 0, 0, FDB_STREAMING_MODE_WANT_ALL, false);
  ASSERT_EQ(all.rows.size(), 4U);
  EXPECT_FALSE(all.more);
  Rows two = range(tr, "a", "z", 2, 0, FDB_STREAMING_MODE_EXACT, true);
  ASSERT_EQ(two.rows.size(), 2U);
  EXPECT_EQ(two.rows[0].first, "d");
  EXPECT_EQ(two.rows[1].first, "c");
  EXPECT_TRUE(two.more);
  Rows small = range(tr, "a", "z", 0, 250, FDB_STREAMING_MODE_WANT_ALL, false);
  EXPECT_EQ(small.rows.size(), 2U) << "rows until the byte limit is reached";
  EXPECT_TRUE(small.more);
  fdb_transaction_destroy(tr);
}

// A byte limit counts what FoundationDB's storage server counts for each row it returns: its key,
// its value and the 32 bytes of the KeyValueRef pointing at them; the row that reaches the limit is
// returned, and the read has `more` even when that row is the range's last. Before, a row counted
// its key and value only (here four rows for 200 bytes where three fit) and a byte limit
// reached at the last row answered no `more`.
TEST_F(FdbC, AByteLimitCountsRowsAsAStorageServerDoes) {
  const char* names[] = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"};
  for (const char* k : names)
    put(k, std::string(20, 'v'));
  const int row_bytes = 32 + static_cast<int>(key("a").size()) + 20;
  FDBTransaction* tr = begin();
  for (int target : {1, row_bytes, row_bytes + 1, 3 * row_bytes + 1, 200}) {
    Rows read = range(tr, "a", "z", 0, target, FDB_STREAMING_MODE_EXACT, false);
    const std::size_t wanted = static_cast<std::size_t>((target + row_bytes - 1) / row_bytes);
    EXPECT_EQ(read.rows.size(), wanted) << "target_bytes " << target;
    EXPECT_TRUE(read.more) << "target_bytes " << target;
  }
  Rows reversed = range(tr, "a", "z", 0, 2 * row_bytes, FDB_STREAMING_MODE_EXACT, true);
  ASSERT_EQ(reversed.rows.size(), 2U);
  EXPECT_EQ(reversed.rows[0].first, "j");
  EXPECT_TRUE(reversed.more);
  Rows to_the_end = range(tr, "g", "z", 0, 4 * row_bytes, FDB_STREAMING_MODE_EXACT, false);
  EXPECT_EQ(to_the_end.rows.size(), 4U);
  EXPECT_TRUE(to_the_end.more) << "the byte limit reached at the range's last row";
  Rows past_the_end = range(tr, "g", "z", 0, 4 * row_bytes + 1, FDB_STREAMING_MODE_EXACT, false);
  EXPECT_EQ(past_the_end.rows.size(), 4U);
  EXPECT_FALSE(past_the_end.more) << "every row of the range read within the byte limit";
  fdb_transaction_destroy(tr);
}

// SNAPSHOT_RYW_DISABLE (601) and _ENABLE (600) count RYW's snapshotRywEnabled down and up from
// the database's (1); while it is 0 or less a snapshot read — a get, a range, a key selector —
// reads the database alone, as RYW's readWithConflictRangeSnapshot (whose SnapshotCache iterator
// finds no key unreadable), and a read that is not a snapshot still sees the transaction's writes.
// Neither option is persistent: a retry and a reset start from the database's count again. Before,
// SNAPSHOT_RYW_DISABLE was refused (2007).
TEST_F(FdbC, SnapshotRywDisableHidesTheTransactionsWritesFromItsSnapshotReads) {
  put("a", "stored");
  put("c", "stored");
  FDBTransaction* tr = begin();
  auto write = [&] {
    set(tr, "a", "mine");
    set(tr, "b", "mine");
    fdb_transaction_clear(tr, bytes(key("c")), length(key("c")));
  };
  auto snapshot_rows = [&] {
    FDBFuture* f = fdb_transaction_get_range(tr, bytes(key("a")), length(key("a")), 0, 1,
                                             bytes(key("z")), length(key("z")), 0, 1, 0, 0,
                                             FDB_STREAMING_MODE_WANT_ALL, 1, 1, 0);
    EXPECT_EQ(wait_for(f), 0);
    const FDBKeyValue* kv = nullptr;
    int count = 0;
    fdb_bool_t more = 0;
    EXPECT_EQ(fdb_future_get_keyvalue_array(f, &kv, &count, &more), 0);
    std::string rows;
    for (int i = 0; i < count; ++i) {
      rows += std::string(reinterpret_cast<const char*>(kv[i].key), kv[i].key_length) + "=" +
              std::string(reinterpret_cast<const char*>(kv[i].value), kv[i].value_length) + " ";
    }
    fdb_future_destroy(f);
    return rows;
  };
  write();
  EXPECT_EQ(get(tr, "a", true), "mine") << "a snapshot read sees the writes by default";
  set_flag(tr, 601);
  EXPECT_EQ(get(tr, "a", true), "stored");
  EXPECT_EQ(get(tr, "b", true), std::nullopt);
  EXPECT_EQ(get(tr, "c", true), "stored");
  EXPECT_EQ(snapshot_rows(), key("a") + "=stored " + key("c") + "=stored ");
  EXPECT_EQ(get_key(tr, "a", true, 1, true), key("c"));
  EXPECT_EQ(get(tr, "a", false), "mine") << "a read that is not a snapshot sees them";
  EXPECT_EQ(get_key(tr, "a", true, 1, false), key("b"));
  const std::string stamped = key("v"), stamp_param(14, '\0');  // the stamp at offset 0
  fdb_transaction_atomic_op(tr, bytes(stamped), length(stamped), bytes(stamp_param),
                            length(stamp_param), FDB_MUTATION_TYPE_SET_VERSIONSTAMPED_VALUE);
  EXPECT_EQ(get(tr, "v", true), std::nullopt) << "RYW's snapshot cache knows nothing unreadable";
  EXPECT_EQ(wait_and_destroy(fdb_transaction_get(tr, bytes(stamped), length(stamped), 0)), 1036)
      << "accessed_unreadable";
  set_flag(tr, 601);
  set_flag(tr, 600);
  EXPECT_EQ(get(tr, "a", true), "stored") << "the options count: 1 - 1 - 1 + 1 is off";
  set_flag(tr, 600);
  EXPECT_EQ(get(tr, "a", true), "mine");
  set_flag(tr, 601);
  EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, 1020)), 0);
  write();
  EXPECT_EQ(get(tr, "a", true), "mine") << "a retry starts from the database's count";
  set_flag(tr, 601);
  fdb_transaction_reset(tr);
  write();
  EXPECT_EQ(get(tr, "a", true), "mine") << "a reset too";
  fdb_transaction_destroy(tr);
  const uint8_t value[] = {1};
  EXPECT_EQ(option_answer(601, value, 1), 2006) << "a flag takes no value";
}

// The database's SNAPSHOT_RYW_ENABLE (26) and _DISABLE (27) count DatabaseContext's
// snapshotRywEnabled, where each transaction's count starts when it is made, reset or retried;
// they add up (fdb.options gives them no defaultFor, which would keep only the last). Before, 27
// was refused (2007) and 26 was a default that changed nothing.
TEST_F(FdbC, TheDatabasesSnapshotRywOptionsCountWhereEachTransactionStarts) {
  constexpr int kDbSnapshotRywEnable = 26, kDbSnapshotRywDisable = 27;
  put("a", "stored");
  auto snapshot_sees_writes = [&](FDBTransaction* tr) {
    set(tr, "a", "mine");
    return get(tr, "a", true) == "mine";
  };
  auto db_flag = [&](int option) { return fdb_database_set_option(db_, option, nullptr, 0); };
  FDBTransaction* before = begin();
  ASSERT_EQ(db_flag(kDbSnapshotRywDisable), 0);
  FDBTransaction* after = begin();
  EXPECT_FALSE(snapshot_sees_writes(after));
  EXPECT_TRUE(snapshot_sees_writes(before)) << "made before: its count until a reset";
  fdb_transaction_reset(before);
  EXPECT_FALSE(snapshot_sees_writes(before));
  set_flag(after, 600);
  EXPECT_TRUE(snapshot_sees_writes(after)) << "the transaction's option counts on from 0";
  ASSERT_EQ(db_flag(kDbSnapshotRywDisable), 0);
  ASSERT_EQ(db_flag(kDbSnapshotRywEnable), 0);
  FDBTransaction* counted = begin();
  EXPECT_FALSE(snapshot_sees_writes(counted)) << "1 - 1 - 1 + 1: the calls add up";
  ASSERT_EQ(db_flag(kDbSnapshotRywEnable), 0);
  EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(counted, 1020)), 0);
  EXPECT_TRUE(snapshot_sees_writes(counted)) << "a retry starts from the database's count now";
  const uint8_t value[] = {1};
  EXPECT_EQ(fdb_database_set_option(db_, kDbSnapshotRywEnable, value, 1), 2006);
  for (FDBTransaction* tr : {before, after, counted})
    fdb_transaction_destroy(tr);
}

// A range read's limits and streaming mode are checked as fdb_c.cpp checks them: 0 and -1 are no
// limit; EXACT without a limit is exact_mode_without_limits (2210); ITERATOR before its first
// iteration and an unknown mode are client_invalid_operation (2000); a limit below -1 is
// range_limits_invalid (2012). WANT_ALL reads as SERIAL (80,000 bytes a read), and ITERATOR grows
// by half from 4,096 bytes to 120,000 at its tenth iteration, which a storage server's reply
// limits to 80,000. Before, -1 and every invalid mode answered 2012, WANT_ALL read without a byte
// limit, ITERATOR doubled up to 524,288 bytes, and then read 120,000 bytes.
TEST_F(FdbC, StreamingModesAndLimitsAreFoundationDBs) {
  for (const char* k : {"a", "b", "c", "d", "e", "f"})
    put(k, std::string(20'000, 'v'));
  FDBTransaction* tr = begin();
  auto rows_read = [&](int limit, int target_bytes, int mode, int iteration = 1) {
    FDBFuture* f = fdb_transaction_get_range(
        tr, bytes(key("a")), length(key("a")), 0, 1, bytes(key("z")), length(key("z")), 0, 1, limit,
        target_bytes, static_cast<FDBStreamingMode>(mode), iteration, 0, 0);
    const fdb_error_t error = wait_for(f);
    const FDBKeyValue* kv = nullptr;
    int count = 0;
    fdb_bool_t more = 0;
    if (error == 0) {
      EXPECT_EQ(fdb_future_get_keyvalue_array(f, &kv, &count, &more), 0);
    }
    fdb_future_destroy(f);
    return error == 0 ? count : -error;
  };
  EXPECT_EQ(rows_read(0, 0, FDB_STREAMING_MODE_EXACT), -2210);
  EXPECT_EQ(rows_read(-1, -1, FDB_STREAMING_MODE_EXACT), -2210);
  EXPECT_EQ(rows_read(0, 0, FDB_STREAMING_MODE_ITERATOR, 0), -2000);
  EXPECT_EQ(rows_read(0, 0, 5), -2000);
  EXPECT_EQ(rows_read(-2, 0, FDB_STREAMING_MODE_WANT_ALL), -2012);
  EXPECT_EQ(rows_read(0, -2, FDB_STREAMING_MODE_WANT_ALL), -2012);
  EXPECT_EQ(rows_read(-1, 0, FDB_STREAMING_MODE_SMALL), 1) << "-1 rows: no row limit";
  EXPECT_EQ(rows_read(0, 0, FDB_STREAMING_MODE_WANT_ALL), 4) << "80,000 bytes: four rows";
  EXPECT_EQ(rows_read(0, 0, FDB_STREAMING_MODE_ITERATOR, 7), 3) << "46,656 bytes";
  EXPECT_EQ(rows_read(0, 0, FDB_STREAMING_MODE_ITERATOR, 10), 4) << "120,000 bytes, 80,000 a reply";
  EXPECT_EQ(rows_read(0, 0, FDB_STREAMING_MODE_ITERATOR, 99), 4) << "as the tenth";
  EXPECT_EQ(rows_read(0, 100'000, FDB_STREAMING_MODE_EXACT), 4) << "80,000 bytes a reply";
  EXPECT_EQ(rows_read(0, 50'000, FDB_STREAMING_MODE_SERIAL), 3) << "the smaller byte limit";
  fdb_transaction_destroy(tr);
}

TEST_F(FdbC, ALimitedReadConflictsOnlyUpToItsLastRow) {
  for (const char* k : {"a", "b", "c"})
    put(k, "x");
  FDBTransaction* tr = begin();
  ASSERT_EQ(range(tr, "a", "z", 1, 0, FDB_STREAMING_MODE_EXACT, false).rows.size(), 1U);
  set(tr, "out", "y");
  put("c", "changed");  // after the last row read: no conflict
  EXPECT_EQ(commit(tr), 0);
  FDBTransaction* again = begin();
  ASSERT_EQ(range(again, "a", "z", 1, 0, FDB_STREAMING_MODE_EXACT, false).rows.size(), 1U);
  set(again, "out", "z");
  put("a", "changed");  // the row read: conflict
  EXPECT_EQ(commit(again), 1020);
  fdb_transaction_destroy(tr);
  fdb_transaction_destroy(again);
}

TEST_F(FdbC, AWatchFiresWhenItsKeyChangesAndIsCancelledWithItsTransaction) {
  put("w", "1");
  FDBTransaction* tr = begin();
  FDBFuture* watch = fdb_transaction_watch(tr, bytes(key("w")), length(key("w")));
  EXPECT_EQ(commit(tr), 0);
  EXPECT_FALSE(fdb_future_is_ready(watch));
  put("w", "2");
  EXPECT_EQ(wait_and_destroy(watch), 0);
  FDBTransaction* dropped = begin();
  FDBFuture* cancelled = fdb_transaction_watch(dropped, bytes(key("w")), length(key("w")));
  fdb_transaction_reset(dropped);
  EXPECT_EQ(wait_and_destroy(cancelled), 1025);  // transaction_cancelled
  fdb_transaction_destroy(tr);
  fdb_transaction_destroy(dropped);
}

// As FoundationDB's ReadYourWritesTransaction::watch: a watch is a non-snapshot read of its key.
// It keeps the value the transaction read, so a change committed between the watch and the
// commit fires it once the commit applies (a read-only transaction commits), and makes a
// transaction that writes conflict; a write of the key by the same transaction fires it at once,
// before any commit. Before, the watch took the key's value when the commit applied: a change in
// between was never seen (a lost wakeup), the writer committed, and an own write left the watch
// waiting for a change after the commit.
TEST_F(FdbC, AWatchIsAReadOfItsKeyAndFiresOnAnyChangeSinceThatRead) {
  put("w", "v1");
  FDBTransaction* reader = begin();
  FDBFuture* w = watch(reader, "w");
  put("w", "v2");
  EXPECT_EQ(commit(reader), 0) << "read-only: nothing to conflict";
  EXPECT_TRUE(ready_within(w, std::chrono::milliseconds(5'000)))
      << "the change after the watch's read fires it";
  EXPECT_EQ(wait_and_destroy(w), 0);
  fdb_transaction_destroy(reader);

  FDBTransaction* writer = begin();
  w = watch(writer, "w");
  put("w", "v3");
  set(writer, "x", "y");
  EXPECT_EQ(commit(writer), 1020) << "the watch read the key: a change to it conflicts";
  EXPECT_EQ(wait_and_destroy(w), 1020) << "a watch of a failed commit answers its error";
  fdb_transaction_destroy(writer);

  FDBTransaction* own = begin();
  w = watch(own, "w");
  set(own, "w", "mine");
  EXPECT_TRUE(ready_within(w, std::chrono::milliseconds(5'000)))
      << "an own write fires the watch before the commit";
  EXPECT_EQ(wait_and_destroy(w), 0);
  EXPECT_EQ(commit(own), 0);
  fdb_transaction_destroy(own);

  FDBTransaction* steady = begin();
  w = watch(steady, "w");
  EXPECT_EQ(commit(steady), 0);
  EXPECT_FALSE(ready_within(w, std::chrono::milliseconds(50)))
      << "no change since the watch's read: it waits";
  put("w", "v4");
  EXPECT_EQ(wait_and_destroy(w), 0);
  fdb_transaction_destroy(steady);
}

// As FoundationDB's RYWImpl::triggerWatches: a write of a watched key by the watch's own
// transaction fires the watch only when it changes the key from the value the watch read — a set
// of another value, a clear of a present key — or when its value is not known (an atomic
// operation). Before, any write of the key fired the watch.
TEST_F(FdbC, AnOwnWriteFiresAWatchOnlyWhenItChangesTheValueTheWatchRead) {
  put("present", "a");
  FDBTransaction* tr = begin();
  FDBFuture* present = watch(tr, "present");
  FDBFuture* absent = watch(tr, "absent");
  set(tr, "present", "a");
  fdb_transaction_clear(tr, bytes(key("absent")), length(key("absent")));
  const std::string from = key("absent"), to = key("absent0");
  fdb_transaction_clear_range(tr, bytes(from), length(from), bytes(to), length(to));
  EXPECT_FALSE(ready_within(present, std::chrono::milliseconds(50)))
      << "set to the value the watch read";
  EXPECT_FALSE(ready_within(absent, std::chrono::milliseconds(50)))
      << "cleared, as the watch read it";
  set(tr, "present", "b");
  EXPECT_TRUE(ready_within(present, std::chrono::milliseconds(5'000))) << "set to another value";
  const int64_t one = 1;
  fdb_transaction_atomic_op(tr, bytes(key("absent")), length(key("absent")),
                            reinterpret_cast<const uint8_t*>(&one), 8, FDB_MUTATION_TYPE_ADD);
  EXPECT_TRUE(ready_within(absent, std::chrono::milliseconds(5'000))) << "an atomic operation";
  EXPECT_EQ(wait_and_destroy(present), 0);
  EXPECT_EQ(wait_and_destroy(absent), 0);

  FDBFuture* cleared = watch(tr, "other");
  put("other", "x");  // the watch read it absent: a clear by its transaction changes nothing
  fdb_transaction_clear(tr, bytes(key("other")), length(key("other")));
  EXPECT_FALSE(ready_within(cleared, std::chrono::milliseconds(50)));
  fdb_transaction_destroy(tr);
  EXPECT_EQ(wait_and_destroy(cleared), 1025);
}

// A committed watch fires at the first commit that changes its key, whatever write changed it: a
// set, a clear, a clear of a range holding it (its end excluded), an atomic operation, a commit of
// several writes; a write that leaves the value as the watch read it does not fire it, nor do
// writes of other keys, however many. A commit looks only at the watches of the keys it wrote
// (fdb_c/watches.h): this pins each kind of write to the watches it must reach.
TEST_F(FdbC, ACommittedWatchFiresOnEveryWriteThatChangesItsKeyAndNoOther) {
  const std::vector<std::string> names{"a", "b", "c", "d", "e", "f", "g", "h"};
  for (const std::string& n : names)
    put(n, "0");
  FDBTransaction* watcher = begin();
  std::map<std::string, FDBFuture*> watches;
  for (const std::string& n : names)
    watches[n] = watch(watcher, n);
  FDBFuture* absent = watch(watcher, "absent");
  ASSERT_EQ(commit(watcher), 0);  // (a failed ASSERT leaks the watches: the test has failed)
  fdb_transaction_destroy(watcher);
  auto fired = [&](const std::string& n) {
    return ready_within(watches.at(n), std::chrono::milliseconds(5'000));
  };
  auto waits = [&](const std::string& n) {
    return !ready_within(watches.at(n), std::chrono::milliseconds(20));
  };

  for (int i = 0; i < 50; ++i)
    put("other" + std::to_string(i), "x");
  put("a", "0");
  for (const std::string& n : names)
    EXPECT_TRUE(waits(n)) << n << ": no write changed it";
  EXPECT_TRUE(!ready_within(absent, std::chrono::milliseconds(20)));

  put("a", "1");
  EXPECT_TRUE(fired("a")) << "a set";
  FDBTransaction* tr = begin();
  fdb_transaction_clear(tr, bytes(key("b")), length(key("b")));
  ASSERT_EQ(commit(tr), 0);
  fdb_transaction_destroy(tr);
  EXPECT_TRUE(fired("b")) << "a clear";
  tr = begin();
  const std::string from = key("c"), to = key("e");
  fdb_transaction_clear_range(tr, bytes(from), length(from), bytes(to), length(to));
  ASSERT_EQ(commit(tr), 0);
  fdb_transaction_destroy(tr);
  EXPECT_TRUE(fired("c")) << "a clear of [c, e)";
  EXPECT_TRUE(fired("d")) << "a clear of [c, e)";
  EXPECT_TRUE(waits("e")) << "the end of a cleared range is not in it";
  tr = begin();
  const int64_t one = 1;
  fdb_transaction_atomic_op(tr, bytes(key("e")), length(key("e")),
                            reinterpret_cast<const uint8_t*>(&one), 8, FDB_MUTATION_TYPE_ADD);
  ASSERT_EQ(commit(tr), 0);
  fdb_transaction_destroy(tr);
  EXPECT_TRUE(fired("e")) << "an atomic add";
  tr = begin();
  set(tr, "f", "0");
  set(tr, "zz", "x");
  set(tr, "g", "1");
  set(tr, "f", "1");
  ASSERT_EQ(commit(tr), 0);
  fdb_transaction_destroy(tr);
  EXPECT_TRUE(fired("f")) << "its last write of several";
  EXPECT_TRUE(fired("g")) << "one write of several";
  EXPECT_TRUE(waits("h"));
  put("absent", "now");
  watches["absent"] = absent;
  EXPECT_TRUE(fired("absent")) << "a key the watch read absent, set";
  fdb_future_cancel(watches.at("h"));
  for (const auto& [n, f] : watches) {
    // Each is ready by now (h cancelled): one still waiting failed above and is cancelled here.
    if (!fdb_future_is_ready(f)) fdb_future_cancel(f);
    EXPECT_EQ(wait_and_destroy(f), n == "h" ? 1101 : 0) << n << " (1101: cancelled)";
  }
}

// As FoundationDB's ReadYourWritesTransaction::watch: a key outside the legal range is refused as
// such (2004) before its size is looked at. Before, a long system key answered key_too_large.
TEST_F(FdbC, AWatchOfALongSystemKeyIsOutsideTheLegalRange) {
  FDBTransaction* tr = begin();
  const std::string long_system_key = "\xff" + std::string(20'000, 'k');
  const std::string long_key(20'000, 'k');
  EXPECT_EQ(
      wait_and_destroy(fdb_transaction_watch(tr, bytes(long_system_key), length(long_system_key))),
      2004);
  EXPECT_EQ(wait_and_destroy(fdb_transaction_watch(tr, bytes(long_key), length(long_key))), 2102);
  fdb_transaction_destroy(tr);
}

TEST_F(FdbC, AVersionstampIsTheCommitVersionAndIsReadyAfterTheCommit) {
  FDBTransaction* tr = begin();
  std::string k = key("vs/") + std::string(10, '\0');
  const uint32_t offset = static_cast<uint32_t>(key("vs/").size());
  k.append(reinterpret_cast<const char*>(&offset), 4);  // little-endian on this machine
  fdb_transaction_atomic_op(tr, bytes(k), length(k), bytes(std::string("v")), 1,
                            FDB_MUTATION_TYPE_SET_VERSIONSTAMPED_KEY);
  FDBFuture* stamp = fdb_transaction_get_versionstamp(tr);
  EXPECT_EQ(commit(tr), 0);
  const std::string versionstamp = versionstamp_and_destroy(stamp);
  ASSERT_EQ(versionstamp.size(), 10u);
  int64_t version = 0;
  ASSERT_EQ(fdb_transaction_get_committed_version(tr, &version), 0);
  int64_t from_stamp = 0;
  for (int i = 0; i < 8; ++i)
    from_stamp =
        (from_stamp << 8) | static_cast<uint8_t>(versionstamp[static_cast<std::size_t>(i)]);
  EXPECT_EQ(from_stamp, version);
  fdb_transaction_destroy(tr);
}

// The metadata version key, as FoundationDB's ReadYourWritesTransaction lets a client use it
// without ACCESS_SYSTEM_KEYS: get reads it (with read-your-writes disabled too), watch watches it,
// addReadConflictRange takes exactly its range, and atomicOp writes it with
// SET_VERSIONSTAMPED_VALUE of 14 zero bytes only — then it holds the commit's versionstamp, and
// reading it in the writing transaction is accessed_unreadable (1036). RYW set refuses it with
// client_invalid_operation (2000), as atomicOp does any other write of it; a clear, a write
// conflict range or a range read of it stay key_outside_legal_range. Before: 2004 for all.
TEST_F(FdbC, TheMetadataVersionKeyIsReadWatchedAndVersionstampedAsFoundationDBs) {
  const std::string mv("\xff/metadataVersion");
  const std::string mv_end = mv + std::string(1, '\0');
  const std::string stamp_param(14, '\0');
  auto get_mv = [&](FDBTransaction* tr, std::optional<std::string>* out) {
    FDBFuture* f = fdb_transaction_get(tr, bytes(mv), length(mv), 0);
    const fdb_error_t e = wait_for(f);
    fdb_bool_t present = 0;
    const uint8_t* value = nullptr;
    int value_length = 0;
    if (e == 0 && fdb_future_get_value(f, &present, &value, &value_length) == 0 && present)
      *out = std::string(reinterpret_cast<const char*>(value), value_length);
    fdb_future_destroy(f);
    return e;
  };
  std::optional<std::string> before;
  FDBTransaction* watcher = begin();
  ASSERT_EQ(get_mv(watcher, &before), 0);
  EXPECT_EQ(fdb_transaction_add_conflict_range(watcher, bytes(mv), length(mv), bytes(mv_end),
                                               length(mv_end), FDB_CONFLICT_RANGE_TYPE_READ),
            0);
  FDBFuture* watch = fdb_transaction_watch(watcher, bytes(mv), length(mv));
  EXPECT_EQ(commit(watcher), 0);

  FDBTransaction* tr = begin();
  fdb_transaction_atomic_op(tr, bytes(mv), length(mv), bytes(stamp_param), length(stamp_param),
                            FDB_MUTATION_TYPE_SET_VERSIONSTAMPED_VALUE);
  std::optional<std::string> unread;
  EXPECT_EQ(get_mv(tr, &unread), 1036);
  FDBFuture* stamp = fdb_transaction_get_versionstamp(tr);
  ASSERT_EQ(commit(tr), 0);
  const std::string versionstamp = versionstamp_and_destroy(stamp);
  ASSERT_EQ(versionstamp.size(), 10u);
  EXPECT_EQ(wait_and_destroy(watch), 0) << "the watch fired";
  fdb_transaction_destroy(tr);
  fdb_transaction_destroy(watcher);

  FDBTransaction* reader = begin();
  ASSERT_EQ(fdb_transaction_set_option(reader, 51, nullptr, 0), 0);
  std::optional<std::string> after;
  ASSERT_EQ(get_mv(reader, &after), 0);
  EXPECT_EQ(after, versionstamp);
  fdb_transaction_destroy(reader);

  auto refused = [&](const std::function<void(FDBTransaction*)>& write) {
    FDBTransaction* t = begin();
    write(t);
    const fdb_error_t e = read_error(t);
    fdb_transaction_destroy(t);
    return e;
  };
  EXPECT_EQ(refused([&](FDBTransaction* t) {
              fdb_transaction_set(t, bytes(mv), length(mv), bytes(stamp_param), 14);
            }),
            2000);
  EXPECT_EQ(refused([&](FDBTransaction* t) {
              fdb_transaction_atomic_op(t, bytes(mv), length(mv), bytes(stamp_param), 14,
                                        FDB_MUTATION_TYPE_ADD);
            }),
            2000);
  EXPECT_EQ(refused([&](FDBTransaction* t) {
              fdb_transaction_atomic_op(t, bytes(mv), length(mv), bytes(stamp_param), 13,
                                        FDB_MUTATION_TYPE_SET_VERSIONSTAMPED_VALUE);
            }),
            2000);
  EXPECT_EQ(refused([&](FDBTransaction* t) { fdb_transaction_clear(t, bytes(mv), length(mv)); }),
            2004);
  EXPECT_EQ(refused([&](FDBTransaction* t) {
              fdb_transaction_add_conflict_range(t, bytes(mv), length(mv), bytes(mv_end),
                                                 length(mv_end), FDB_CONFLICT_RANGE_TYPE_WRITE);
            }),
            2004);
}

// As FoundationDB's ReadYourWritesTransaction::set, whose first check refuses the metadata version
// key (client_invalid_operation, 2000) before checkUsedDuringCommit: a set of it while a commit is
// outstanding leaves 2000 as the deferred error and does not fail the commit. Every other write of
// it — atomicOp (its versionstamp too), clear, clear_range, a write conflict range — checks the
// commit first: used_during_commit (2017), and the outstanding commit fails. Before, the set
// answered 2017 and failed the commit too.
TEST_F(FdbC, ASetOfTheMetadataVersionKeyDuringACommitIsRefusedBeforeTheCommitIsLookedAt) {
  const std::string mv("\xff/metadataVersion");
  const std::string mv_end = mv + std::string(1, '\0');
  const std::string stamp_param(14, '\0');
  struct Case {
    const char* what;
    std::function<void(FDBTransaction*)> write;
    fdb_error_t commit_error;
    fdb_error_t read_error;
  };
  const std::vector<Case> cases = {
      {"set",
       [&](FDBTransaction* t) {
         fdb_transaction_set(t, bytes(mv), length(mv), bytes(stamp_param), 14);
       },
       0, 2000},
      {"versionstamp",
       [&](FDBTransaction* t) {
         fdb_transaction_atomic_op(t, bytes(mv), length(mv), bytes(stamp_param), 14,
                                   FDB_MUTATION_TYPE_SET_VERSIONSTAMPED_VALUE);
       },
       2017, 2017},
      {"atomic add",
       [&](FDBTransaction* t) {
         fdb_transaction_atomic_op(t, bytes(mv), length(mv), bytes(stamp_param), 14,
                                   FDB_MUTATION_TYPE_ADD);
       },
       2017, 2017},
      {"clear", [&](FDBTransaction* t) { fdb_transaction_clear(t, bytes(mv), length(mv)); }, 2017,
       2017},
      {"clear_range",
       [&](FDBTransaction* t) {
         fdb_transaction_clear_range(t, bytes(mv), length(mv), bytes(mv_end), length(mv_end));
       },
       2017, 2017},
      {"write conflict range",
       [&](FDBTransaction* t) {
         EXPECT_EQ(
             fdb_transaction_add_conflict_range(t, bytes(mv), length(mv), bytes(mv_end),
                                                length(mv_end), FDB_CONFLICT_RANGE_TYPE_WRITE),
             0);
       },
       2017, 2017},
  };
  int n = 0;
  for (const Case& c : cases) {
    const std::string name = "k" + std::to_string(n++);
    FDBTransaction* tr = begin();
    NetworkGate gate(*this, "gate_" + name);
    set(tr, name, "v");
    FDBFuture* outstanding = fdb_transaction_commit(tr);
    c.write(tr);
    gate.release();
    EXPECT_EQ(wait_and_destroy(outstanding), c.commit_error) << c.what;
    EXPECT_EQ(read_error(tr), c.read_error) << c.what;
    fdb_transaction_destroy(tr);
  }
}

// As FoundationDB's ReadYourWritesTransaction::set and clear hand a key or a range within the
// special key space [\xff\xff, \xff\xff\xff) to SpecialKeySpace::set and clear, which refuse
// it without SPECIAL_KEY_SPACE_ENABLE_WRITES — an empty range too — with
// special_keys_write_disabled (2114), as the deferred error: after ThreadSafeTransaction's
// inverted-range check, before the legal range (atomicOp has no such step: 2004). set looks
// there before checkUsedDuringCommit, so during a commit it does not fail the commit. Before:
// key_outside_legal_range (2004) for all, and 2017 for the set during a commit.
TEST_F(FdbC, AWriteInTheSpecialKeySpaceIsRefusedAsItsWritesAreDisabled) {
  const std::string special("\xff\xff/x"), a("\xff\xff/a"), b("\xff\xff/b");
  const std::string space_end("\xff\xff\xff"), system("\xff/x");
  auto clear_range = [](const std::string& from, const std::string& to) {
    return [=](FDBTransaction* t) {
      fdb_transaction_clear_range(t, bytes(from), length(from), bytes(to), length(to));
    };
  };
  struct Case {
    const char* what;
    std::function<void(FDBTransaction*)> write;
    fdb_error_t error;
  };
  const std::vector<Case> cases = {
      {"set",
       [&](FDBTransaction* t) {
         fdb_transaction_set(t, bytes(special), length(special), bytes("v"), 1);
       },
       2114},
      {"clear",
       [&](FDBTransaction* t) { fdb_transaction_clear(t, bytes(special), length(special)); }, 2114},
      {"empty clear_range", clear_range(a, a), 2114},
      {"clear_range", clear_range(a, b), 2114},
      {"clear_range of the whole space", clear_range("\xff\xff", space_end), 2114},
      {"inverted clear_range", clear_range(b, a), 2005},
      {"clear_range from the system keys", clear_range(system, b), 2004},
      {"clear_range past the space", clear_range(a, space_end + "x"), 2004},
      {"atomic add",
       [&](FDBTransaction* t) {
         fdb_transaction_atomic_op(t, bytes(special), length(special), bytes("1"), 1,
                                   FDB_MUTATION_TYPE_ADD);
       },
       2004},
  };
  for (const Case& c : cases) {
    FDBTransaction* tr = begin();
    c.write(tr);
    EXPECT_EQ(read_error(tr), c.error) << c.what << ": the next read";
    EXPECT_EQ(commit(tr), c.error) << c.what << ": the commit";
    fdb_transaction_destroy(tr);
  }

  FDBTransaction* tr = begin();
  NetworkGate gate(*this, "gate");
  set(tr, "k", "v");
  FDBFuture* outstanding = fdb_transaction_commit(tr);
  fdb_transaction_set(tr, bytes(special), length(special), bytes("v"), 1);
  gate.release();
  EXPECT_EQ(wait_and_destroy(outstanding), 0) << "a set during the commit does not fail it";
  EXPECT_EQ(read_error(tr), 2114);
  fdb_transaction_destroy(tr);
}

// As FoundationDB's RYW get and getRange hand a read within the special key space to it, after
// only ThreadSafeTransaction's deferred error (not a cancel, nor a commit outstanding), and
// SpecialKeySpace's getRangeAggregationActor refuses, without SPECIAL_KEY_SPACE_RELAXED, a read
// of no module with special_keys_no_module_found (2113) and one across modules with
// special_keys_cross_module_read (2112); SpecialKeySpace::getRange answers a range its selectors
// leave empty without looking at modules. What a module other than the transaction module
// serves is not modelled: 2004, as before; relaxed, a key no module serves is absent (it was
// 2004). Before: key_outside_legal_range (2004) for all.
TEST_F(FdbC, ASpecialKeyReadOfNoModuleOrAcrossModulesIsRefusedAsFoundationDBs) {
  auto get_error = [](FDBTransaction* t, const std::string& k) {
    return wait_and_destroy(fdb_transaction_get(t, bytes(k), length(k), 0));
  };
  auto range_error = [](FDBTransaction* t, const std::string& b, const std::string& e) {
    return wait_and_destroy(fdb_transaction_get_range(t, bytes(b), length(b), 0, 1, bytes(e),
                                                      length(e), 0, 1, 0, 0,
                                                      FDB_STREAMING_MODE_WANT_ALL, 1, 0, 0));
  };
  FDBTransaction* tr = begin();
  EXPECT_EQ(get_error(tr, "\xff\xff/no_module"), 2113);
  EXPECT_EQ(get_error(tr, "\xff\xff"), 2113);
  EXPECT_EQ(range_error(tr, "\xff\xff/x", "\xff\xff/y"), 2113);
  EXPECT_EQ(range_error(tr, "\xff\xff/a", "\xff\xff/b"), 2112) << "/actor_lineage/ is between";
  EXPECT_EQ(range_error(tr, "\xff\xff/status/json", "\xff\xff/transaction/"), 2112);
  EXPECT_EQ(range_error(tr, "\xff\xff/transaction/", "\xff\xff\xff"), 2112);
  EXPECT_EQ(range_error(tr, "\xff\xff/b", "\xff\xff/a"), 0) << "inverted: empty, unread";
  EXPECT_EQ(get_error(tr, "\xff\xff/status/json"), 2004) << "a module's data: not modelled";
  EXPECT_EQ(range_error(tr, "\xff\xff/a", "\xff\xff\xff\x01"), 2004) << "not the space's";
  EXPECT_STREQ(fdb_get_error(2113),
               "Special key space range read does not intersect a module. Refer to the "
               "`special_key_space_relaxed' transaction option for more details.");
  fdb_transaction_cancel(tr);
  EXPECT_EQ(get_error(tr, "\xff\xff/no_module"), 2113) << "a cancel is not looked at";
  fdb_transaction_reset(tr);
  NetworkGate gate(*this, "gate");
  set(tr, "k", "v");
  FDBFuture* outstanding = fdb_transaction_commit(tr);
  const std::string no_module("\xff\xff/no_module");
  FDBFuture* read = fdb_transaction_get(tr, bytes(no_module), length(no_module), 0);
  gate.release();
  EXPECT_EQ(wait_and_destroy(read), 2113) << "nor a commit outstanding";
  EXPECT_EQ(wait_and_destroy(outstanding), 0) << "which it does not fail";
  fdb_transaction_reset(tr);
  EXPECT_EQ(fdb_transaction_set_option(tr, static_cast<FDBTransactionOption>(500), bytes("x"), 1),
            0);
  EXPECT_EQ(get_error(tr, "\xff\xff/no_module"), 2006) << "the deferred error comes first";
  fdb_transaction_reset(tr);
  EXPECT_EQ(fdb_transaction_set_option(tr, static_cast<FDBTransactionOption>(713), nullptr, 0), 0);
  EXPECT_EQ(get_error(tr, "\xff\xff/no_module"), 0) << "relaxed: no module serves it: absent";
  EXPECT_EQ(get_error(tr, "\xff\xff/status/json"), 2004)
      << "relaxed: what a module but the transaction module serves, not modelled";
  fdb_transaction_destroy(tr);
}

// As ThreadSafeTransaction::setVersion runs RYW's setVersion (which checks nothing) unless a
// deferred error is held, and NativeAPI's Transaction::setVersion refuses a version when one is
// taken (a commit takes one as it starts) or not positive: after a cancel the refusal is still
// the deferred error, which reads answer before transaction_cancelled; during a commit it is
// read_version_already_set, not used_during_commit, and the commit goes on. Before, a cancelled
// transaction ignored the call, and one committing took the version for its commit.
TEST_F(FdbC, SetReadVersionLooksOnlyAtTheDeferredErrorAndAVersionTaken) {
  FDBTransaction* tr = begin();
  fdb_transaction_cancel(tr);
  fdb_transaction_set_read_version(tr, 0);
  EXPECT_EQ(read_error(tr), 2011) << "version_invalid, though cancelled";
  fdb_transaction_reset(tr);
  NetworkGate gate(*this, "gate");
  set(tr, "k", "v");
  FDBFuture* committing = fdb_transaction_commit(tr);
  fdb_transaction_set_read_version(tr, 1);
  gate.release();
  EXPECT_EQ(wait_and_destroy(committing), 0) << "the commit goes on with its own read version";
  EXPECT_EQ(read_error(tr), 2010) << "read_version_already_set";
  fdb_transaction_destroy(tr);
}

TEST_F(FdbC, WhatIsNotModelledOrMisusedAnswersWithFoundationDBsErrors) {
  FDBTransaction* tr = begin();
  fdb_transaction_atomic_op(tr, bytes(key("x")), length(key("x")), bytes(std::string("1")), 1,
                            FDB_MUTATION_TYPE_BIT_XOR);
  EXPECT_EQ(commit(tr), 2018);  // invalid_mutation_type
  fdb_transaction_reset(tr);
  fdb_transaction_set_read_version(tr, 0);
  FDBFuture* f = fdb_transaction_get(tr, bytes(key("x")), length(key("x")), 0);
  EXPECT_EQ(wait_and_destroy(f), 2011);  // version_invalid
  fdb_transaction_reset(tr);
  const std::string system = "\xff/keyServers";
  f = fdb_transaction_get(tr, bytes(system), length(system), 0);
  EXPECT_EQ(wait_and_destroy(f), 2004);  // key_outside_legal_range
  fdb_transaction_cancel(tr);
  EXPECT_EQ(commit(tr), 1025);
  FDBFuture* not_ready = nullptr;
  EXPECT_EQ(fdb_future_get_error(not_ready), 2000);
  fdb_transaction_destroy(tr);
}

// Codes outside an enum's values, as a C program or a binding may pass them, are answered as
// FoundationDB's fdb_c.cpp answers them, and are not undefined behaviour inside the library (the
// sanitizer build checks enum loads): a conflict range type other than read or write is
// client_invalid_operation (2000; it was invalid_option_value), an unknown mutation type fails the
// commit with invalid_mutation_type, an unknown streaming mode is 2000, an unknown predicate
// false.
TEST_F(FdbC, AnyIntPassedAsAnEnumIsAnsweredAsFoundationDBDoes) {
  FDBTransaction* tr = begin();
  const std::string b = key("a"), e = key("b");
  EXPECT_EQ(fdb_transaction_add_conflict_range(tr, bytes(b), length(b), bytes(e), length(e),
                                               static_cast<FDBConflictRangeType>(2)),
            2000);
  EXPECT_EQ(fdb_transaction_add_conflict_range(tr, bytes(b), length(b), bytes(e), length(e),
                                               static_cast<FDBConflictRangeType>(-7)),
            2000);
  FDBFuture* f = fdb_transaction_get_range(tr, bytes(b), length(b), 0, 1, bytes(e), length(e), 0, 1,
                                           0, 0, static_cast<FDBStreamingMode>(1000), 1, 0, 0);
  EXPECT_EQ(wait_and_destroy(f), 2000);
  EXPECT_FALSE(fdb_error_predicate(99999, 1020));
  fdb_transaction_atomic_op(tr, bytes(b), length(b), bytes(std::string("1")), 1,
                            static_cast<FDBMutationType>(1000));
  EXPECT_EQ(commit(tr), 2018);
  fdb_transaction_destroy(tr);
}

// A negative length, or a null pointer with a positive length, read as the empty key: a get read
// key "" and a set wrote it. Such a call answers client_invalid_operation (2000): a read's future,
// a write's transaction from its next read or commit on, an option or conflict range at once —
// but an option's null value, which FoundationDB's fdb_c.cpp reads as no value, whatever the
// length.
TEST_F(FdbC, AMalformedByteStringAnswersClientInvalidOperation) {
  const std::string k = key("k");
  FDBTransaction* tr = begin();
  EXPECT_EQ(wait_and_destroy(fdb_transaction_get(tr, bytes(k), -5, 0)), 2000);
  EXPECT_EQ(wait_and_destroy(fdb_transaction_get(tr, nullptr, 3, 0)), 2000);
  EXPECT_EQ(
      wait_and_destroy(fdb_transaction_get_range(tr, bytes(k), -1, 0, 1, bytes(k), length(k), 0, 1,
                                                 0, 0, FDB_STREAMING_MODE_WANT_ALL, 1, 0, 0)),
      2000);
  EXPECT_EQ(wait_and_destroy(fdb_transaction_watch(tr, nullptr, 1)), 2000);
  EXPECT_EQ(fdb_transaction_add_conflict_range(tr, bytes(k), length(k), bytes(k), -2,
                                               FDB_CONFLICT_RANGE_TYPE_READ),
            2000);
  EXPECT_EQ(fdb_transaction_set_option(tr, 500, bytes(k), -8), 2000);      // TIMEOUT
  EXPECT_EQ(wait_and_destroy(fdb_transaction_get(tr, nullptr, 0, 0)), 0);  // the empty key
  fdb_transaction_set(tr, bytes(k), length(k), bytes(std::string("v")), -1);
  EXPECT_EQ(wait_and_destroy(fdb_transaction_get(tr, bytes(k), length(k), 0)), 2000);
  EXPECT_EQ(commit(tr), 2000);
  fdb_transaction_reset(tr);
  fdb_transaction_clear(tr, nullptr, 4);
  EXPECT_EQ(commit(tr), 2000);
  fdb_transaction_destroy(tr);
  FDBTransaction* reader = begin();
  EXPECT_EQ(get(reader, "k"), std::nullopt) << "a refused write was applied";
  fdb_transaction_destroy(reader);
  // An option's null value is no value, whatever the length (fdb_c.cpp's): TIMEOUT wants one, so
  // RYW's setOption refuses it, and the refusal is the transaction's deferred error.
  FDBTransaction* no_value = begin();
  EXPECT_EQ(fdb_transaction_set_option(no_value, 500, nullptr, 8), 0);
  EXPECT_EQ(wait_and_destroy(fdb_transaction_get(no_value, bytes(k), length(k), 0)), 2006);
  fdb_transaction_destroy(no_value);
}

// A write FoundationDB refuses (a system key, a key or value over its size limit, an inverted or
// system clear_range) leaves its error in the transaction, as FoundationDB's deferred error:
// every later read and the commit answer it until a reset, and nothing is written. The key is
// looked at before the value, as in FoundationDB's set. Before, the store's refusals failed only
// the commit (reads went on), and a long key with a long value answered value_too_large.
TEST_F(FdbC, ARefusedWriteFailsEveryLaterReadAndTheCommit) {
  const std::string k = key("k"), system = "\xff/x", long_key = key(std::string(10'001, 'k'));
  const std::string v = "v", long_value(100'001, 'v');
  struct Case {
    const char* what;
    std::function<void(FDBTransaction*)> write;
    fdb_error_t error;
  };
  const std::vector<Case> cases = {
      {"set of a system key",
       [&](FDBTransaction* tr) { fdb_transaction_set(tr, bytes(system), 5, bytes(v), 1); }, 2004},
      {"set of a long key",
       [&](FDBTransaction* tr) {
         fdb_transaction_set(tr, bytes(long_key), length(long_key), bytes(v), 1);
       },
       2102},
      {"set of a long value",
       [&](FDBTransaction* tr) {
         fdb_transaction_set(tr, bytes(k), length(k), bytes(long_value), length(long_value));
       },
       2103},
      {"set of a long key and a long value",
       [&](FDBTransaction* tr) {
         fdb_transaction_set(tr, bytes(long_key), length(long_key), bytes(long_value),
                             length(long_value));
       },
       2102},
      {"clear of a system key",
       [&](FDBTransaction* tr) { fdb_transaction_clear(tr, bytes(system), 5); }, 2004},
      {"clear_range into the system keys",
       [&](FDBTransaction* tr) {
         fdb_transaction_clear_range(tr, bytes(k), length(k), bytes(system), 5);
       },
       2004},
      {"inverted clear_range",
       [&](FDBTransaction* tr) {
         const std::string before = key("a");
         fdb_transaction_clear_range(tr, bytes(k), length(k), bytes(before), length(before));
       },
       2005},
      {"atomic add to a system key",
       [&](FDBTransaction* tr) {
         fdb_transaction_atomic_op(tr, bytes(system), 5, bytes(v), 1, FDB_MUTATION_TYPE_ADD);
       },
       2004},
      {"atomic op of an unknown type on a system key (the legal range is looked at first)",
       [&](FDBTransaction* tr) {
         fdb_transaction_atomic_op(tr, bytes(system), 5, bytes(v), 1,
                                   static_cast<FDBMutationType>(99));
       },
       2004},
      {"atomic add to a long key",
       [&](FDBTransaction* tr) {
         fdb_transaction_atomic_op(tr, bytes(long_key), length(long_key), bytes(v), 1,
                                   FDB_MUTATION_TYPE_ADD);
       },
       2102},
  };
  for (const Case& c : cases) {
    FDBTransaction* tr = begin();
    set(tr, "k", "written before");
    c.write(tr);
    EXPECT_EQ(wait_and_destroy(fdb_transaction_get(tr, bytes(k), length(k), 0)), c.error)
        << c.what << ": the next read";
    EXPECT_EQ(commit(tr), c.error) << c.what << ": the commit";
    fdb_transaction_reset(tr);
    EXPECT_EQ(get(tr, "k"), std::nullopt) << c.what << ": the reset transaction reads afresh";
    fdb_transaction_destroy(tr);
  }
}

// A null out-pointer to fdb_future_get_* crashed the process (a write through it); each answers
// client_invalid_operation, and the future still gives its value to a proper call.
TEST_F(FdbC, ANullOutPointerAnswersClientInvalidOperation) {
  FDBTransaction* tr = begin();
  FDBFuture* value = fdb_transaction_get(tr, bytes(key("k")), length(key("k")), 0);
  ASSERT_EQ(wait_for(value), 0);
  fdb_bool_t present = 1;
  const uint8_t* bytes_out = nullptr;
  int count = 0;
  EXPECT_EQ(fdb_future_get_value(value, nullptr, &bytes_out, &count), 2000);
  EXPECT_EQ(fdb_future_get_value(value, &present, nullptr, &count), 2000);
  EXPECT_EQ(fdb_future_get_value(value, &present, &bytes_out, nullptr), 2000);
  EXPECT_EQ(fdb_future_get_value(value, &present, &bytes_out, &count), 0);
  EXPECT_EQ(present, 0);
  fdb_future_destroy(value);
  FDBFuture* version = fdb_transaction_get_read_version(tr);
  ASSERT_EQ(wait_for(version), 0);
  EXPECT_EQ(fdb_future_get_int64(version, nullptr), 2000);
  fdb_future_destroy(version);
  FDBFuture* rows =
      fdb_transaction_get_range(tr, bytes(key("a")), length(key("a")), 0, 1, bytes(key("z")),
                                length(key("z")), 0, 1, 0, 0, FDB_STREAMING_MODE_WANT_ALL, 1, 0, 0);
  ASSERT_EQ(wait_for(rows), 0);
  const FDBKeyValue* kv = nullptr;
  EXPECT_EQ(fdb_future_get_keyvalue_array(rows, &kv, &count, nullptr), 2000);
  fdb_future_destroy(rows);
  FDBFuture* selected = fdb_transaction_get_key(tr, bytes(key("k")), length(key("k")), 0, 1, 0);
  ASSERT_EQ(wait_for(selected), 0);
  EXPECT_EQ(fdb_future_get_key(selected, nullptr, &count), 2000);
  fdb_future_destroy(selected);
  FDBFuture* addresses = fdb_transaction_get_addresses_for_key(tr, bytes(key("k")), 1);
  ASSERT_EQ(wait_for(addresses), 0);
  EXPECT_EQ(fdb_future_get_string_array(addresses, nullptr, &count), 2000);
  fdb_future_destroy(addresses);
  fdb_transaction_destroy(tr);
}

TEST_F(FdbC, ReadYourWritesDisabledReadsTheDatabaseOnly) {
  FDBTransaction* tr = begin();
  ASSERT_EQ(fdb_transaction_set_option(tr, 51, nullptr, 0), 0);
  set(tr, "r", "mine");
  EXPECT_EQ(get(tr, "r"), std::nullopt);
  EXPECT_EQ(commit(tr), 0);
  FDBTransaction* later = begin();
  EXPECT_EQ(get(later, "r"), "mine");
  fdb_transaction_destroy(tr);
  fdb_transaction_destroy(later);
}

// As ReadYourWritesTransaction::setOption refuses READ_YOUR_WRITES_DISABLE only once its write
// map (or read cache) holds something: RYW's clear leaves the write map empty for an empty range
// (one whose long ends shorten to one key too) and for a key too long to exist, so the option is
// still taken after them. Before, any write call made it client_invalid_operation (2000).
TEST_F(FdbC, ReadYourWritesDisableIsTakenAfterClearsThatWriteNothing) {
  std::string too_long = key("long/");
  too_long.resize(10'009, 'k');
  const std::string a = key("a"), a_long = too_long + "a", b_long = too_long + "b";
  FDBTransaction* tr = begin();
  fdb_transaction_clear_range(tr, bytes(a), length(a), bytes(a), length(a));
  fdb_transaction_clear_range(tr, bytes(a_long), length(a_long), bytes(b_long), length(b_long));
  fdb_transaction_clear(tr, bytes(too_long), length(too_long));
  EXPECT_EQ(fdb_transaction_set_option(tr, 51, nullptr, 0), 0);
  EXPECT_EQ(read_error(tr), 0) << "the option was taken";
  set(tr, "a", "v");
  EXPECT_EQ(get(tr, "a"), std::nullopt) << "reads no longer see the transaction's writes";
  fdb_transaction_destroy(tr);
}

// As FoundationDB: READ_YOUR_WRITES_DISABLE once the transaction has read or written would
// change what its own earlier operations meant, so it is refused with client_invalid_operation
// (2000) — as FoundationDB's deferred error: the call answers 0, later reads and the commit 2000,
// and nothing is written. It takes no value: one answers invalid_option_value (2006), an empty
// one is no value. A write conflict range counts as a write. A retry (on_error) or reset starts
// afresh. Before, it was taken at any time;
// then (until FoundationDB's order was followed) the call itself answered 2000 and took a value.
TEST_F(FdbC, ReadYourWritesDisableAfterAReadOrAWriteIsRefused) {
  FDBTransaction* tr = begin();
  set(tr, "w", "mine");
  EXPECT_EQ(fdb_transaction_set_option(tr, 51, nullptr, 0), 0);
  EXPECT_EQ(read_error(tr), 2000);
  EXPECT_EQ(commit(tr), 2000);
  fdb_transaction_reset(tr);
  EXPECT_EQ(get(tr, "w"), std::nullopt) << "the refused transaction wrote nothing";
  EXPECT_EQ(fdb_transaction_set_option(tr, 51, nullptr, 0), 0);
  EXPECT_EQ(read_error(tr), 2000) << "after a read";
  FDBFuture* retry = fdb_transaction_on_error(tr, 1020);  // not_committed: retryable
  ASSERT_EQ(wait_for(retry), 0);
  fdb_future_destroy(retry);
  EXPECT_EQ(fdb_transaction_set_option(tr, 51, nullptr, 0), 0);
  EXPECT_EQ(read_error(tr), 0) << "a retry starts afresh";
  fdb_transaction_destroy(tr);
  EXPECT_EQ(option_answer(51, bytes("x"), 1), 2006);
  EXPECT_EQ(option_answer(51, bytes("x"), 0), 0);
  for (FDBConflictRangeType type : {FDB_CONFLICT_RANGE_TYPE_READ, FDB_CONFLICT_RANGE_TYPE_WRITE}) {
    tr = begin();
    EXPECT_EQ(fdb_transaction_add_conflict_range(tr, bytes("a"), 1, bytes("b"), 1, type), 0);
    EXPECT_EQ(fdb_transaction_set_option(tr, 51, nullptr, 0), 0);
    EXPECT_EQ(read_error(tr), type == FDB_CONFLICT_RANGE_TYPE_WRITE ? 2000 : 0)
        << "a write conflict range is a write (FoundationDB's write map holds it); a read "
           "conflict range is not a read";
    fdb_transaction_destroy(tr);
  }
}

// As fdb_c.cpp's fdb_transaction_on_error, which passes the code through
// Error::fromUnvalidatedCode: a code below 0 or above 30,000 is unknown_error (4000), answered
// as an error on_error does not retry (the transaction is cancelled); one within is itself.
// Before, the code was answered as given.
TEST_F(FdbC, OnErrorTakesACodeOutsideFoundationDBsRangeAsUnknownError) {
  for (const fdb_error_t code : {-1, 30'001, 12'345}) {
    FDBTransaction* tr = begin();
    EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, code)), code == 12'345 ? code : 4000)
        << code;
    EXPECT_EQ(read_error(tr), 1025) << code << ": cancelled";
    fdb_transaction_destroy(tr);
  }
  EXPECT_STREQ(fdb_get_error(4000), "An unknown error occurred");
}

// As FoundationDB's ReadYourWritesTransaction::onError: an error it does not retry (or one past
// the retry limit, or success, which answers client_invalid_operation — internal_error past the
// limit, where RYW rethrows it and flow's sendError asserts a code above 0) is answered and
// cancels the transaction — later reads and the commit answer transaction_cancelled (1025) until
// a reset. A transaction already ended (timed out, used during its commit) answers that, not a
// retry. A reset restores the first backoff (FoundationDB's fullReset). Before, such transactions
// went on being used, on_error(0) retried (and answered 2000 past the limit), a timed-out
// transaction was retried, and a reset kept the backoff that eight retries had grown (about a
// second before the first retry after it).
TEST_F(FdbC, OnErrorEndsATransactionItDoesNotRetry) {
  FDBTransaction* tr = begin();
  EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, 2000)), 2000);
  EXPECT_EQ(read_error(tr), 1025);
  EXPECT_EQ(commit(tr), 1025);
  fdb_transaction_reset(tr);
  EXPECT_EQ(read_error(tr), 0) << "a reset starts afresh";
  EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, 0)), 2000) << "success is no error";
  EXPECT_EQ(read_error(tr), 1025);
  fdb_transaction_reset(tr);
  const int64_t one = 1;
  ASSERT_EQ(fdb_transaction_set_option(tr, 501, reinterpret_cast<const uint8_t*>(&one), 8), 0);
  EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, 1020)), 0);
  EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, 1020)), 1020) << "the limit is hit";
  EXPECT_EQ(read_error(tr), 1025);
  fdb_transaction_reset(tr);
  const int64_t none = 0;
  ASSERT_EQ(fdb_transaction_set_option(tr, 501, reinterpret_cast<const uint8_t*>(&none), 8), 0);
  EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, 0)), 4100) << "success past the limit";
  EXPECT_EQ(read_error(tr), 1025);
  fdb_transaction_reset(tr);
  ASSERT_EQ(fdb_transaction_set_option(tr, 500, reinterpret_cast<const uint8_t*>(&one), 8), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, 1020)), 1031) << "timed out: no retry";
  fdb_transaction_reset(tr);
  {
    NetworkGate gate(*this, "gate");
    set(tr, "k", "v");
    FDBFuture* outstanding = fdb_transaction_commit(tr);
    set(tr, "k", "used during the commit");
    gate.release();
    EXPECT_EQ(wait_and_destroy(outstanding), 2017);
  }
  EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, 1020)), 2017) << "ended by the use";
  fdb_transaction_reset(tr);

  for (int i = 0; i < 8; ++i)
    ASSERT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, 1020)), 0);  // backoff ~1 s now
  std::chrono::milliseconds slowest{0};
  for (int round = 0; round < 4; ++round) {
    fdb_transaction_reset(tr);
    const auto start = std::chrono::steady_clock::now();
    ASSERT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, 1020)), 0);
    slowest = std::max(slowest, std::chrono::duration_cast<std::chrono::milliseconds>(
                                    std::chrono::steady_clock::now() - start));
  }
  // The first backoff is at most 10 ms; with a kept one, four retries all under 300 ms happen
  // about once in a hundred runs.
  EXPECT_LT(slowest.count(), 300) << "a reset transaction backs off from the first backoff";
  fdb_transaction_destroy(tr);
}

// fdb_transaction_get_committed_version has no check in FoundationDB: a cancel does not hide the
// version a commit had. A range's split points past \xff answer key_outside_legal_range (2004),
// as FoundationDB's getRangeSplitPoints; the addresses of a key in a cancelled transaction answer
// transaction_cancelled (1025). Before, 1025, 0 and 0.
TEST_F(FdbC, CommittedVersionSurvivesACancelAndSplitPointsStayInTheLegalRange) {
  FDBTransaction* tr = begin();
  set(tr, "k", "v");
  EXPECT_EQ(commit(tr), 0);
  fdb_transaction_cancel(tr);
  int64_t version = 0;
  EXPECT_EQ(fdb_transaction_get_committed_version(tr, &version), 0);
  EXPECT_GT(version, 0);
  fdb_transaction_destroy(tr);
  tr = begin();
  const std::string past("\xff\x01");
  EXPECT_EQ(wait_and_destroy(fdb_transaction_get_range_split_points(tr, bytes("a"), 1, bytes(past),
                                                                    length(past), 1000)),
            2004);
  EXPECT_EQ(wait_and_destroy(fdb_transaction_get_addresses_for_key(tr, bytes("a"), 1)), 0);
  fdb_transaction_cancel(tr);
  EXPECT_EQ(wait_and_destroy(fdb_transaction_get_addresses_for_key(tr, bytes("a"), 1)), 1025)
      << "as FoundationDB's getAddressesForKey of a cancelled transaction";
  fdb_transaction_destroy(tr);
}

// As FoundationDB's commitAndWatch: a versionstamp of a commit that failed answers
// transaction_invalid_version (2020), not the commit's error. Futures take any number of callbacks
// (ThreadMultiCallback), each run once; fdb_future_release_memory drops the value, and the future
// answers future_released (1102) from then on. Before: 1020; only the last callback ran; the
// value stayed.
TEST_F(FdbC, VersionstampsOfFailedCommitsCallbacksAndReleasedFuturesAnswerAsFoundationDBs) {
  auto [a, b] = racing_writers();
  FDBFuture* stamp = fdb_transaction_get_versionstamp(b);
  EXPECT_EQ(commit(a), 0);
  EXPECT_EQ(commit(b), 1020);
  EXPECT_EQ(wait_and_destroy(stamp), 2020);
  fdb_transaction_destroy(a);
  fdb_transaction_destroy(b);

  FDBTransaction* tr = begin();
  FDBFuture* w = watch(tr, "callbacks");
  std::atomic<int> first{0}, second{0};
  auto count = [](FDBFuture*, void* counter) { ++*static_cast<std::atomic<int>*>(counter); };
  ASSERT_EQ(fdb_future_set_callback(w, count, &first), 0);
  ASSERT_EQ(fdb_future_set_callback(w, count, &second), 0);
  ASSERT_EQ(commit(tr), 0);
  put("callbacks", "changed");
  ASSERT_EQ(wait_for(w), 0);
  for (int i = 0; i < 5'000 && (first.load() == 0 || second.load() == 0); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_EQ(first.load(), 1);
  EXPECT_EQ(second.load(), 1);
  fdb_future_destroy(w);
  fdb_transaction_destroy(tr);

  tr = begin();
  FDBFuture* f = fdb_transaction_get(tr, bytes(key("n")), length(key("n")), 0);
  ASSERT_EQ(wait_for(f), 0);
  fdb_bool_t present = 0;
  const uint8_t* value = nullptr;
  int value_length = 0;
  ASSERT_EQ(fdb_future_get_value(f, &present, &value, &value_length), 0);
  fdb_future_release_memory(f);
  EXPECT_EQ(fdb_future_get_value(f, &present, &value, &value_length), 1102);
  EXPECT_EQ(fdb_future_get_error(f), 1102);
  EXPECT_STREQ(fdb_get_error(1102), "The future has been released");
  fdb_future_destroy(f);
  fdb_transaction_destroy(tr);
}

// A retry keeps FoundationDB's persistent options only (TIMEOUT, RETRY_LIMIT, MAX_RETRY_DELAY):
// READ_YOUR_WRITES_DISABLE and SIZE_LIMIT are back to their defaults, as on FoundationDB, where a
// retry loop sets them again each time. Before, a retry kept them all.
TEST_F(FdbC, ARetryKeepsOnlyThePersistentOptions) {
  FDBTransaction* tr = begin();
  ASSERT_EQ(fdb_transaction_set_option(tr, 51, nullptr, 0), 0);
  const std::int64_t limit = 32, retries = 1;
  ASSERT_EQ(fdb_transaction_set_option(tr, 503, reinterpret_cast<const uint8_t*>(&limit), 8), 0);
  ASSERT_EQ(fdb_transaction_set_option(tr, 501, reinterpret_cast<const uint8_t*>(&retries), 8), 0);
  FDBFuture* retry = fdb_transaction_on_error(tr, 1020);
  ASSERT_EQ(wait_for(retry), 0);
  fdb_future_destroy(retry);
  set(tr, "kept", std::string(64, 'v'));
  EXPECT_EQ(get(tr, "kept"), std::string(64, 'v')) << "read-your-writes is on again";
  EXPECT_EQ(commit(tr), 0) << "the 32-byte size limit is gone";
  retry = fdb_transaction_on_error(tr, 1020);
  EXPECT_EQ(wait_for(retry), 1020) << "the retry limit of 1 stays";
  fdb_future_destroy(retry);
  fdb_transaction_destroy(tr);
}

// As FoundationDB's ThreadSafeTransaction::setOption: the option runs through onMainThreadVoid,
// whose doOnMainThreadVoid skips it while the transaction holds a deferred error (here a refused
// write's). The call still answers success. Once a retry clears the deferred error (resetRyow),
// options apply again. Before: the option applied, so the retry limit of 0 ended the first retry.
TEST_F(FdbC, AnOptionSetWhileADeferredErrorIsHeldIsNotApplied) {
  FDBTransaction* tr = begin();
  const std::string system("\xff\x01");
  fdb_transaction_set(tr, bytes(system), length(system), bytes("v"), 1);
  const std::int64_t none = 0;
  const auto* value = reinterpret_cast<const uint8_t*>(&none);
  EXPECT_EQ(fdb_transaction_set_option(tr, 501, value, 8), 0);
  EXPECT_EQ(read_error(tr), 2004) << "the refused write's deferred error stays";
  EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, 1020)), 0) << "no retry limit was set";
  EXPECT_EQ(fdb_transaction_set_option(tr, 501, value, 8), 0);
  EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, 1020)), 1020) << "now it was";
  fdb_transaction_destroy(tr);
}

// As FoundationDB 7.3's ReadYourWritesTransaction: a get of a key past the legal range is
// key_outside_legal_range, and one of a key longer than any key can be is absent, before the
// read — no read version is taken (set_read_version is still taken) and READ_YOUR_WRITES_DISABLE
// is still allowed — while a watch and get_addresses_for_key add their future to RYW's `reading`,
// after which READ_YOUR_WRITES_DISABLE is refused (client_invalid_operation, 2000). NativeAPI
// names no address for a key at or past \xff\xff. SNAPSHOT_RYW_ENABLE takes no value (2006).
// Before: the get took a read version (2010 after set_read_version), the watch and the address
// lookup left the option allowed, one address was named for every key, and 600's value was taken.
TEST_F(FdbC, WhatRYWAnswersBeforeReadingTakesNoReadVersion) {
  const int64_t version = fresh_read_version();

  FDBTransaction* tr = begin();
  const std::string system("\xff\x01"), long_key(10'009, 'k');
  EXPECT_EQ(wait_and_destroy(fdb_transaction_get(tr, bytes(system), length(system), 0)), 2004);
  FDBFuture* absent = fdb_transaction_get(tr, bytes(long_key), length(long_key), 0);
  ASSERT_EQ(wait_for(absent), 0);
  fdb_bool_t present = 1;
  const uint8_t* value = nullptr;
  int value_length = 0;
  ASSERT_EQ(fdb_future_get_value(absent, &present, &value, &value_length), 0);
  EXPECT_FALSE(present) << "no key that long exists";
  fdb_future_destroy(absent);
  fdb_transaction_set_read_version(tr, version);
  EXPECT_EQ(read_version_of(tr), version) << "no read version was taken before";
  fdb_transaction_reset(tr);
  wait_and_destroy(fdb_transaction_get(tr, bytes(system), length(system), 0));
  EXPECT_EQ(fdb_transaction_set_option(tr, 51, nullptr, 0), 0);
  EXPECT_EQ(read_error(tr), 0) << "the refused get read nothing";

  for (const char* call : {"watch", "addresses"}) {
    fdb_transaction_reset(tr);
    FDBFuture* f = std::string(call) == "watch" ? watch(tr, "w")
                                                : fdb_transaction_get_addresses_for_key(
                                                      tr, bytes(key("a")), length(key("a")));
    EXPECT_EQ(fdb_transaction_set_option(tr, 51, nullptr, 0), 0);
    EXPECT_EQ(read_error(tr), 2000) << call;
    fdb_future_destroy(f);
  }
  fdb_transaction_reset(tr);
  const std::string special("\xff\xff/x");
  FDBFuture* none = fdb_transaction_get_addresses_for_key(tr, bytes(special), length(special));
  ASSERT_EQ(wait_for(none), 0);
  const char** addresses = nullptr;
  int count = -1;
  ASSERT_EQ(fdb_future_get_string_array(none, &addresses, &count), 0);
  EXPECT_EQ(count, 0);
  fdb_future_destroy(none);
  EXPECT_EQ(option_answer(600, bytes("x"), 1), 2006);
  EXPECT_EQ(option_answer(600, nullptr, 0), 0);
  fdb_transaction_destroy(tr);
}

// As FoundationDB 7.3's ThreadSafeTransaction: its reads, watches, get_read_version, commit and
// get_versionstamp call checkDeferredError before RYW looks at its resetPromise, so a cancelled
// transaction holding a deferred error (a refused write's) answers that error; on_error does not
// check it and answers transaction_cancelled (1025). Before: 1025 everywhere.
TEST_F(FdbC, ACancelledTransactionAnswersItsDeferredErrorFirst) {
  FDBTransaction* tr = begin();
  const std::string system("\xff\x01");
  fdb_transaction_set(tr, bytes(system), length(system), bytes("v"), 1);
  fdb_transaction_cancel(tr);
  EXPECT_EQ(read_error(tr), 2004);
  EXPECT_EQ(wait_and_destroy(fdb_transaction_get_read_version(tr)), 2004);
  EXPECT_EQ(wait_and_destroy(watch(tr, "w")), 2004);
  EXPECT_EQ(commit(tr), 2004);
  EXPECT_EQ(wait_and_destroy(fdb_transaction_get_versionstamp(tr)), 2004);
  EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, 1020)), 1025);
  fdb_transaction_destroy(tr);
}

// As FoundationDB's ReadYourWritesTransaction: the timeout and cancel() each send their error to
// its resetPromise only if nothing was sent before, so a transaction that timed out answers
// transaction_timed_out (1031) after a later cancel too — its reads, commit, get_versionstamp
// (which waits on the resetPromise) and on_error. Before: 1025 once cancelled.
TEST_F(FdbC, ACancelAfterTheTimeoutLeavesTheTransactionTimedOut) {
  FDBTransaction* tr = begin();
  const int64_t one = 1;
  ASSERT_EQ(fdb_transaction_set_option(tr, 500, reinterpret_cast<const uint8_t*>(&one), 8), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(read_error(tr), 1031);
  fdb_transaction_cancel(tr);
  EXPECT_EQ(read_error(tr), 1031);
  EXPECT_EQ(wait_and_destroy(fdb_transaction_get_versionstamp(tr)), 1031);
  EXPECT_EQ(commit(tr), 1031);
  EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, 1020)), 1031);
  fdb_transaction_reset(tr);
  ASSERT_EQ(fdb_transaction_set_option(tr, 500, reinterpret_cast<const uint8_t*>(&one), 8), 0);
  fdb_transaction_cancel(tr);
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(read_error(tr), 1025) << "the cancel came before the timeout";
  fdb_transaction_destroy(tr);
}

// As FoundationDB's ReadYourWritesTransaction, whose timeout sends transaction_timed_out (1031)
// to its resetPromise when it fires, and whose versionstamp futures and watches wait on it: they
// fail at the timeout, with nothing more asked of the transaction. A TIMEOUT set later moves the
// deadline, and the futures of a reset attempt do not time out. Before: they waited until the
// commit, a reset or a cancel.
TEST_F(FdbC, WaitingFuturesFailWhenTheTimeoutFires) {
  auto set_timeout = [](FDBTransaction* tr, int64_t ms) {
    ASSERT_EQ(fdb_transaction_set_option(tr, 500, reinterpret_cast<const uint8_t*>(&ms), 8), 0);
  };
  FDBTransaction* tr = begin();
  FDBFuture* stamp = fdb_transaction_get_versionstamp(tr);
  FDBFuture* w = watch(tr, "w");
  set_timeout(tr, 60'000);
  EXPECT_FALSE(ready_within(stamp, std::chrono::milliseconds(50))) << "a minute to go";
  set_timeout(tr, 100);
  EXPECT_TRUE(ready_within(stamp, std::chrono::milliseconds(5'000))) << "the timeout fired";
  EXPECT_TRUE(ready_within(w, std::chrono::milliseconds(5'000)));
  EXPECT_EQ(wait_and_destroy(stamp), 1031);
  EXPECT_EQ(wait_and_destroy(w), 1031);
  fdb_transaction_reset(tr);
  stamp = fdb_transaction_get_versionstamp(tr);
  EXPECT_FALSE(ready_within(stamp, std::chrono::milliseconds(150))) << "no timeout since the reset";
  fdb_transaction_reset(tr);
  EXPECT_EQ(wait_and_destroy(stamp), 1025);
  fdb_transaction_destroy(tr);
}

// As FoundationDB 7.3's watch: until its read returns it waits on RYW's resetPromise, so a cancel
// (or the timeout, WaitingFuturesFailWhenTheTimeoutFires) fails it; RYW's commit waits for that
// read, and from then on the watch waits on NativeAPI's alone, which only
// Transaction::cancelWatches fails — a reset, a retry, the transaction's destruction
// (transaction_cancelled) and a failed commit (its error). A cancel or a use during an outstanding
// commit fails the commit and leaves the watch waiting. Before: the cancel failed it too.
TEST_F(FdbC, AWatchWhoseCommitStartedWaitsUntilItsWatchesAreCancelled) {
  FDBTransaction* tr = begin();
  FDBFuture* w = watch(tr, "w");
  fdb_transaction_cancel(tr);
  EXPECT_EQ(wait_and_destroy(w), 1025) << "cancelled before its commit: its read had not returned";

  fdb_transaction_reset(tr);
  w = watch(tr, "w");
  set(tr, "x", "v");
  NetworkGate gate(*this, "gate");
  FDBFuture* outstanding = fdb_transaction_commit(tr);
  fdb_transaction_cancel(tr);
  gate.release();
  EXPECT_EQ(wait_and_destroy(outstanding), 1025);
  EXPECT_FALSE(ready_within(w, std::chrono::milliseconds(50))) << "a cancel during the commit";
  fdb_transaction_reset(tr);
  EXPECT_EQ(wait_and_destroy(w), 1025) << "a reset cancels it";

  w = watch(tr, "w");
  set(tr, "x", "v");
  NetworkGate second_gate(*this, "gate2");
  outstanding = fdb_transaction_commit(tr);
  FDBFuture* read = fdb_transaction_get(tr, bytes(key("any")), length(key("any")), 0);
  second_gate.release();
  EXPECT_EQ(wait_and_destroy(read), 2017);
  EXPECT_EQ(wait_and_destroy(outstanding), 2017);
  EXPECT_FALSE(ready_within(w, std::chrono::milliseconds(50))) << "a use during the commit";
  EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, 2017)), 2017);
  EXPECT_FALSE(fdb_future_is_ready(w)) << "nor an on_error that does not retry";
  fdb_transaction_destroy(tr);
  EXPECT_EQ(wait_and_destroy(w), 1025) << "destroying its transaction cancels it";
}

// As FoundationDB 7.3's ThreadSafeTransaction::getVersionstamp, which calls checkDeferredError
// first, then ReadYourWritesTransaction::getVersionstamp, which answers used_during_commit (2017)
// once the commit started: after a commit, a deferred error held (an option's, left after the
// commit) answers, else 2017. Asked before the deferred error arose, the future waits for the
// commit, which that error fails without starting (a reset answers the future, with
// transaction_cancelled, 1025). Before: 2017 whatever deferred error was held.
TEST_F(FdbC, AVersionstampAnswersTheDeferredErrorFirst) {
  FDBTransaction* tr = begin();
  set(tr, "k", "v");
  ASSERT_EQ(commit(tr), 0);
  EXPECT_EQ(wait_and_destroy(fdb_transaction_get_versionstamp(tr)), 2017);
  const int32_t short_value = 1;  // TIMEOUT takes 8 bytes: invalid_option_value (2006)
  EXPECT_EQ(fdb_transaction_set_option(tr, 500, reinterpret_cast<const uint8_t*>(&short_value), 4),
            0);
  EXPECT_EQ(read_error(tr), 2006);
  EXPECT_EQ(wait_and_destroy(fdb_transaction_get_versionstamp(tr)), 2006);
  fdb_transaction_reset(tr);
  FDBFuture* stamp = fdb_transaction_get_versionstamp(tr);
  const std::string system("\xff\x01");
  fdb_transaction_set(tr, bytes(system), length(system), bytes("v"), 1);
  EXPECT_EQ(commit(tr), 2004);
  EXPECT_FALSE(fdb_future_is_ready(stamp)) << "asked before the deferred error arose";
  EXPECT_EQ(wait_and_destroy(fdb_transaction_get_versionstamp(tr)), 2004) << "asked after";
  fdb_transaction_reset(tr);
  EXPECT_EQ(wait_and_destroy(stamp), 1025);
  fdb_transaction_destroy(tr);
}

// As FoundationDB's: a read while the commit is outstanding answers used_during_commit (2017) in
// its future — RYW's checkUsedDuringCommit ends the attempt through its resetPromise, which fails
// the commit — but throws nothing on the network thread, so the transaction holds no deferred
// error and an option set afterwards is applied (READ_YOUR_WRITES_DISABLE, refused once the
// transaction wrote, leaves client_invalid_operation, 2000, which later reads answer first, as
// ThreadSafeTransaction checks the deferred error before RYW). A write during the commit throws
// used_during_commit there: that is the deferred error, and the option is skipped. An option's
// error left after the commit call does not fail the commit. Before, a read left 2017 as the
// deferred error (the option was skipped), and an option's error failed the outstanding commit.
TEST_F(FdbC, AReadDuringTheCommitLeavesNoDeferredErrorSoOptionsStillApply) {
  for (const char* use : {"read", "write"}) {
    FDBTransaction* tr = begin();
    NetworkGate gate(*this, std::string("gate_") + use);
    set(tr, use, "v");
    FDBFuture* outstanding = fdb_transaction_commit(tr);
    FDBFuture* read = nullptr;  // waited on once the network runs again
    if (std::string(use) == "read") {
      read = fdb_transaction_get(tr, bytes(key("any")), length(key("any")), 0);
    } else {
      set(tr, "other", "v");
    }
    EXPECT_EQ(fdb_transaction_set_option(tr, 51, nullptr, 0), 0);  // READ_YOUR_WRITES_DISABLE
    gate.release();
    if (read != nullptr) {
      EXPECT_EQ(wait_and_destroy(read), 2017);
    }
    EXPECT_EQ(wait_and_destroy(outstanding), 2017) << use << " during the commit";
    EXPECT_EQ(read_error(tr), std::string(use) == "read" ? 2000 : 2017) << use;
    EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, 1020)), 2017) << use;
    fdb_transaction_destroy(tr);
  }
  FDBTransaction* tr = begin();
  NetworkGate gate(*this, "gate_option");
  set(tr, "option", "v");
  FDBFuture* outstanding = fdb_transaction_commit(tr);
  const int32_t short_value = 1;  // TIMEOUT takes 8 bytes: invalid_option_value (2006)
  EXPECT_EQ(fdb_transaction_set_option(tr, 500, reinterpret_cast<const uint8_t*>(&short_value), 4),
            0);
  gate.release();
  EXPECT_EQ(wait_and_destroy(outstanding), 0) << "the commit is not failed by a deferred error";
  EXPECT_EQ(read_error(tr), 2006) << "the deferred error comes before used_during_commit";
  fdb_transaction_destroy(tr);
  FDBTransaction* reader = begin();
  EXPECT_EQ(get(reader, "option"), "v");
  fdb_transaction_destroy(reader);
}

// Sizes as FoundationDB's client counts them, with sizeof(MutationRef) = 40 and
// sizeof(KeyRangeRef) = 32: ReadYourWritesTransaction's approximateSize (set: k + v + 40 and the
// write conflict range 32 + 2k + 1; clear of a key: 2 * (32 + 2k + 1); a read conflict range:
// 32 + its ends) is what fdb_transaction_get_approximate_size answers, and NativeAPI
// commitMutations refuses a commit whose getSize (mutations, coalesced conflict ranges) is over
// SIZE_LIMIT with transaction_too_large (2101). Before: only the bytes counted (3k + v + 1 a set),
// so a commit FoundationDB refuses went through.
TEST_F(FdbC, TheApproximateSizeAndTheSizeLimitCountFoundationDBsStructs) {
  const std::string value(100, 'v');
  const auto k = static_cast<int64_t>(key("a").size());
  const int64_t one_set = 40 + k + 100 + 32 + 2 * k + 1;
  // Three sets of keys no conflict range of another touches, under SIZE_LIMIT `limit`.
  auto three_sets = [&](int64_t limit) {
    FDBTransaction* tr = begin();
    EXPECT_EQ(fdb_transaction_set_option(tr, 503, reinterpret_cast<const uint8_t*>(&limit), 8), 0);
    for (const char* name : {"a", "b", "c"})
      set(tr, name, value);
    EXPECT_EQ(approximate(tr), 3 * one_set);
    const fdb_error_t e = commit(tr);
    fdb_transaction_destroy(tr);
    return e;
  };
  EXPECT_EQ(three_sets(3 * one_set), 0) << "at the limit";
  EXPECT_EQ(three_sets(3 * one_set - 1), 2101) << "one byte over it";

  FDBTransaction* tr = begin();
  EXPECT_EQ(get(tr, "a"), value);
  EXPECT_EQ(approximate(tr), 32 + 2 * k + 1) << "the read's conflict range";
  fdb_transaction_clear(tr, bytes(key("b")), length(key("b")));
  EXPECT_EQ(approximate(tr), 32 + 2 * k + 1 + 2 * (32 + 2 * k + 1));
  fdb_transaction_destroy(tr);
}

// As NativeAPI's getMaxClearKeySize (10,000 bytes and a tenant prefix of 8 outside the system
// keys) decides in ReadYourWritesTransaction::clear: a clear of a key of up to 10,008 bytes is a
// write — counted in the approximate size, with its write conflict range — and one of a longer
// key none; a clear_range's end longer than that is shortened to 10,009 bytes, which clears
// nothing when it leaves the range empty. Before: no key over 10,000 bytes was cleared, and the
// ends were not shortened, so such an empty range conflicted.
TEST_F(FdbC, AClearOfAKeyTooLongToExistIsNoWriteAndLongRangeEndsAreShortened) {
  auto key_of_length = [&](std::size_t n) {
    std::string k = key("long/");
    k.resize(n, 'k');
    return k;
  };
  const std::string longest = key_of_length(10'008), too_long = key_of_length(10'009);
  FDBTransaction* tr = begin();
  fdb_transaction_clear(tr, bytes(too_long), length(too_long));
  EXPECT_EQ(approximate(tr), 0) << "no write";
  fdb_transaction_clear(tr, bytes(longest), length(longest));
  EXPECT_EQ(approximate(tr), 2 * (32 + 2 * int64_t{10'008} + 1));
  fdb_transaction_destroy(tr);

  // Whether `clear`, committed after a transaction that wrote read every key under "long/",
  // makes that transaction conflict.
  auto conflicts = [&](const std::function<void(FDBTransaction*)>& clear) {
    FDBTransaction* reader = begin();
    range(reader, "long/", "long0", 0, 0, FDB_STREAMING_MODE_WANT_ALL, false);
    set(reader, "written", "x");
    FDBTransaction* writer = begin();
    clear(writer);
    EXPECT_EQ(commit(writer), 0);
    const fdb_error_t e = commit(reader);
    fdb_transaction_destroy(writer);
    fdb_transaction_destroy(reader);
    EXPECT_TRUE(e == 0 || e == 1020) << e;
    return e == 1020;
  };
  EXPECT_TRUE(conflicts([&](FDBTransaction* w) {
    fdb_transaction_clear(w, bytes(longest), length(longest));
  })) << "a clear of a key of 10,008 bytes";
  EXPECT_FALSE(conflicts([&](FDBTransaction* w) {
    fdb_transaction_clear(w, bytes(too_long), length(too_long));
  })) << "a clear of a key of 10,009 bytes";
  const std::string a = too_long + "a", b = too_long + "b";
  EXPECT_FALSE(conflicts([&](FDBTransaction* w) {
    fdb_transaction_clear_range(w, bytes(a), length(a), bytes(b), length(b));
  })) << "a range whose ends shorten to the same key";
  EXPECT_TRUE(conflicts([&](FDBTransaction* w) {
    fdb_transaction_clear_range(w, bytes(longest), length(longest), bytes(b), length(b));
  })) << "a range from a key of 10,008 bytes to a shortened end";
}

// As ReadYourWritesTransaction::get (and NativeAPI's Transaction::get without read-your-writes)
// answer a key longer than getMaxReadKeySize (10,008 bytes outside the system keys) absent with
// no read conflict range, but read a shorter one, with its conflict range, even past the 10,000
// bytes a key may be written with. Before, no get of a key over 10,000 bytes had a conflict range.
TEST_F(FdbC, AGetOfAKeyOfUpTo10008BytesHasAReadConflictRange) {
  auto key_of_length = [&](std::size_t n) {
    std::string k = key("long/");
    k.resize(n, 'k');
    return k;
  };
  // Whether a transaction that got `k` (`snapshot`, read-your-writes disabled or not) and wrote
  // conflicts with a clear of every key under "long/" committed meanwhile.
  auto conflicts = [&](const std::string& k, bool snapshot, bool read_your_writes) {
    FDBTransaction* tr = begin();
    if (!read_your_writes) {
      EXPECT_EQ(fdb_transaction_set_option(tr, 51, nullptr, 0), 0);
    }
    EXPECT_EQ(wait_and_destroy(fdb_transaction_get(tr, bytes(k), length(k), snapshot)), 0);
    set(tr, "written", "x");
    FDBTransaction* clearer = begin();
    const std::string from = key("long/"), to = key("long0");
    fdb_transaction_clear_range(clearer, bytes(from), length(from), bytes(to), length(to));
    EXPECT_EQ(commit(clearer), 0);
    const fdb_error_t e = commit(tr);
    fdb_transaction_destroy(clearer);
    fdb_transaction_destroy(tr);
    EXPECT_TRUE(e == 0 || e == 1020) << e;
    return e == 1020;
  };
  const std::string longest = key_of_length(10'008), too_long = key_of_length(10'009);
  EXPECT_TRUE(conflicts(longest, false, true));
  EXPECT_TRUE(conflicts(longest, false, false)) << "without read-your-writes";
  EXPECT_FALSE(conflicts(longest, true, true)) << "a snapshot get";
  EXPECT_FALSE(conflicts(too_long, false, true));
}

// As ReadYourWritesTransaction::addReadConflictRange and addWriteConflictRange shorten an end
// longer than NativeAPI's getMaxReadKeySize or getMaxKeySize (10,008 bytes outside the system
// keys) to 10,009 bytes, and add nothing — not counted in the approximate size either — when that
// leaves the range empty. Before, such a range conflicted and was counted.
TEST_F(FdbC, AConflictRangeWhoseLongEndsShortenToOneKeyIsNone) {
  std::string long_key = key("long/");
  long_key.resize(10'009, 'k');
  const std::string a = long_key + "a", b = long_key + "b";
  // Whether a transaction that added a conflict range [a, b) of `type` and wrote "written"
  // conflicts with another that read or cleared every key under "long/" in the meantime.
  auto conflicts = [&](FDBConflictRangeType type) {
    FDBTransaction* tr = begin();
    EXPECT_EQ(
        fdb_transaction_add_conflict_range(tr, bytes(a), length(a), bytes(b), length(b), type), 0);
    EXPECT_EQ(approximate(tr), 0) << "nothing added";
    FDBTransaction* other = begin();
    const std::string from = key("long/"), to = key("long0");
    if (type == FDB_CONFLICT_RANGE_TYPE_WRITE) {
      range(other, "long/", "long0", 0, 0, FDB_STREAMING_MODE_WANT_ALL, false);
      set(other, "other", "x");
      set(tr, "written", "x");
      EXPECT_EQ(commit(tr), 0);
    } else {
      EXPECT_EQ(get(tr, "written", true), std::nullopt);  // its read version, before the clear
      set(tr, "written", "x");
      fdb_transaction_clear_range(other, bytes(from), length(from), bytes(to), length(to));
      EXPECT_EQ(commit(other), 0);
      std::swap(tr, other);  // the reader commits last
    }
    const fdb_error_t e = commit(other);
    fdb_transaction_destroy(tr);
    fdb_transaction_destroy(other);
    EXPECT_TRUE(e == 0 || e == 1020) << e;
    return e == 1020;
  };
  EXPECT_FALSE(conflicts(FDB_CONFLICT_RANGE_TYPE_READ));
  EXPECT_FALSE(conflicts(FDB_CONFLICT_RANGE_TYPE_WRITE));
}

// As ReadYourWritesTransaction::clear(KeyRef) hands the clear to NativeAPI, without
// read-your-writes, before the step that adds it to approximateSize: such a clear is not counted
// (a clear_range, counted before that step, is). Before, it was counted either way.
TEST_F(FdbC, WithoutReadYourWritesAClearOfAKeyIsNotCountedInTheApproximateSize) {
  const std::string k = key("k"), end = key("l");
  const auto n = static_cast<int64_t>(k.size());
  FDBTransaction* tr = begin();
  ASSERT_EQ(fdb_transaction_set_option(tr, 51, nullptr, 0), 0);
  fdb_transaction_clear(tr, bytes(k), length(k));
  EXPECT_EQ(approximate(tr), 0);
  fdb_transaction_clear_range(tr, bytes(k), length(k), bytes(end), length(end));
  EXPECT_EQ(approximate(tr), 40 + 2 * n + 32 + 2 * n);
  fdb_transaction_destroy(tr);
}

// As FoundationDB 7.3's ThreadSafeTransaction::getApproximateSize, which checks the deferred
// error, and ReadYourWritesTransaction's, which answers its running count whatever ended the
// attempt: fdb_transaction_get_approximate_size fails only with a deferred error — not after a
// cancel or after the timeout — and only a reset starts the count afresh. Before: the count with
// a deferred error held (and, earlier, transaction_cancelled (1025) or transaction_timed_out
// (1031)).
TEST_F(FdbC, TheApproximateSizeFailsOnlyWithTheDeferredError) {
  const auto k = static_cast<int64_t>(key("a").size());
  const int64_t one_set = 40 + k + 1 + 32 + 2 * k + 1;
  int64_t size = -1;
  FDBTransaction* tr = begin();
  set(tr, "a", "v");
  fdb_transaction_cancel(tr);
  EXPECT_EQ(approximate_size(tr, size), 0) << "cancelled";
  EXPECT_EQ(size, one_set);
  const std::string system("\xff\x01");
  fdb_transaction_set(tr, bytes(system), length(system), bytes("v"), 1);
  EXPECT_EQ(approximate_size(tr, size), 2004) << "a deferred error held";
  fdb_transaction_reset(tr);
  EXPECT_EQ(approximate_size(tr, size), 0) << "reset";
  EXPECT_EQ(size, 0);
  set(tr, "a", "v");
  const int64_t one = 1;
  ASSERT_EQ(fdb_transaction_set_option(tr, 500, reinterpret_cast<const uint8_t*>(&one), 8), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_EQ(read_error(tr), 1031);
  EXPECT_EQ(approximate_size(tr, size), 0) << "timed out";
  EXPECT_EQ(size, one_set);
  fdb_transaction_destroy(tr);
}

// As FoundationDB's ReadYourWritesTransaction::set and clear, which look at
// checkUsedDuringCommit but not at the resetPromise a cancel or the timeout sent to: writes after
// either are buffered — counted in the approximate size, and so READ_YOUR_WRITES_DISABLE is
// refused (2000) — while reads and the commit still answer transaction_cancelled (1025). Before:
// the writes were dropped.
TEST_F(FdbC, WritesAfterACancelAreBuffered) {
  const auto k = static_cast<int64_t>(key("a").size());
  const int64_t one_set = 40 + k + 1 + 32 + 2 * k + 1;
  FDBTransaction* tr = begin();
  fdb_transaction_cancel(tr);
  set(tr, "a", "v");
  EXPECT_EQ(approximate(tr), one_set);
  EXPECT_EQ(fdb_transaction_set_option(tr, 51, nullptr, 0), 0);
  EXPECT_EQ(read_error(tr), 2000) << "READ_YOUR_WRITES_DISABLE after a write";
  fdb_transaction_reset(tr);
  fdb_transaction_cancel(tr);
  set(tr, "a", "v");
  EXPECT_EQ(read_error(tr), 1025);
  EXPECT_EQ(commit(tr), 1025);
  fdb_transaction_reset(tr);
  const int64_t one = 1;
  ASSERT_EQ(fdb_transaction_set_option(tr, 500, reinterpret_cast<const uint8_t*>(&one), 8), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_EQ(read_error(tr), 1031);
  set(tr, "a", "v");
  EXPECT_EQ(approximate(tr), one_set) << "after the timeout";
  fdb_transaction_destroy(tr);
  FDBTransaction* reader = begin();
  EXPECT_EQ(get(reader, "a"), std::nullopt) << "nothing was committed";
  fdb_transaction_destroy(reader);
}

// As FoundationDB's client measures a commit — NativeAPI's getSize of the request, against
// SIZE_LIMIT — after ReadYourWritesTransaction's write map merged the writes
// (writeRangeToNativeTransaction): a key set three times sends one set, two 8-byte adds of a key
// one add, a versionstamped key its mutation and no write conflict range, and a key set inside a
// cleared range cuts that clear in two. Each such commit goes through at exactly its size and is
// refused with transaction_too_large (2101) a byte under it, while
// fdb_transaction_get_approximate_size, RYW's running count, still counts every write. Without
// read-your-writes NativeAPI holds every write and every write conflict range. A key rewritten 120
// times with a 90,000-byte value commits under the default 10,000,000 bytes. Before, every write
// counted, and a versionstamped key's possible keys as a write conflict range.
TEST_F(FdbC, TheSizeLimitMeasuresWhatFoundationDBsWriteMapLeavesOfTheWrites) {
  using Writes = std::function<void(FDBTransaction*)>;
  auto commit_under = [&](int64_t limit, bool read_your_writes, const Writes& writes) {
    FDBTransaction* tr = begin();
    if (!read_your_writes) {
      EXPECT_EQ(fdb_transaction_set_option(tr, 51, nullptr, 0), 0);
    }
    EXPECT_EQ(fdb_transaction_set_option(tr, 503, reinterpret_cast<const uint8_t*>(&limit), 8), 0);
    writes(tr);
    const fdb_error_t e = commit(tr);
    fdb_transaction_destroy(tr);
    return e;
  };
  auto measured_as = [&](int64_t size, bool read_your_writes, const Writes& writes) {
    EXPECT_EQ(commit_under(size, read_your_writes, writes), 0) << "at its size";
    EXPECT_EQ(commit_under(size - 1, read_your_writes, writes), 2101) << "a byte under it";
  };
  const std::string value(100, 'v');
  const auto ka = static_cast<int64_t>(key("a").size());
  const int64_t one_set = 40 + ka + 100 + 32 + 2 * ka + 1;
  const Writes three_sets = [&](FDBTransaction* tr) {
    for (const char* v : {"1", "2", "3"})
      set(tr, "a", value.substr(1) + v);
  };
  {
    FDBTransaction* tr = begin();
    three_sets(tr);
    EXPECT_EQ(approximate(tr), 3 * one_set) << "RYW's running count counts every write";
    fdb_transaction_destroy(tr);
  }
  measured_as(one_set, true, three_sets);
  measured_as(3 * one_set, false, three_sets);

  const int64_t eight = 8;
  measured_as(40 + ka + 8 + 32 + 2 * ka + 1, true, [&](FDBTransaction* tr) {
    for (int i = 0; i < 2; ++i)
      fdb_transaction_atomic_op(tr, bytes(key("a")), length(key("a")),
                                reinterpret_cast<const uint8_t*>(&eight), 8, FDB_MUTATION_TYPE_ADD);
  });

  std::string stamped = key("vs") + std::string(10, '\0');
  const auto offset = static_cast<uint32_t>(key("vs").size());
  stamped.append(reinterpret_cast<const char*>(&offset), 4);  // little-endian
  measured_as(40 + length(stamped) + 1, true, [&](FDBTransaction* tr) {
    fdb_transaction_atomic_op(tr, bytes(stamped), length(stamped), bytes("v"), 1,
                              FDB_MUTATION_TYPE_SET_VERSIONSTAMPED_KEY);
  });

  const auto kc = static_cast<int64_t>(key("c0").size());
  // clear [c0, c5) + set c5 + clear [c5\x00, c9), and the write conflict range [c0, c9).
  measured_as((40 + 2 * kc) + (40 + kc + 1) + (40 + 2 * kc + 1) + (32 + 2 * kc), true,
              [&](FDBTransaction* tr) {
                const std::string b = key("c0"), e = key("c9");
                fdb_transaction_clear_range(tr, bytes(b), length(b), bytes(e), length(e));
                set(tr, "c5", "v");
              });

  FDBTransaction* tr = begin();
  const std::string big(90'000, 'b');
  for (int i = 0; i < 120; ++i)
    set(tr, "big", big);
  EXPECT_EQ(commit(tr), 0) << "one 90,000-byte set is sent";
  fdb_transaction_destroy(tr);
}

// As NativeAPI's commitMutations measures a commit without read-your-writes: the request's read
// conflict ranges at its SIZE_LIMIT check are its gets' and those the program added; a range
// read's and get_key's (its extraConflictRanges) join the request only after the check, so they
// are not measured. Before, every read conflict range was, and such a commit was refused.
TEST_F(FdbC, WithoutReadYourWritesRangeReadsAndGetKeyAreNotMeasuredAgainstTheSizeLimit) {
  const auto k = static_cast<int64_t>(key("a").size());
  const int64_t one_set = 40 + k + 1 + 32 + 2 * k + 1;
  // A transaction without read-your-writes under a SIZE_LIMIT of one set: `read`, then the set.
  auto commit_after = [&](const std::function<void(FDBTransaction*)>& read) {
    FDBTransaction* tr = begin();
    EXPECT_EQ(fdb_transaction_set_option(tr, 51, nullptr, 0), 0);
    EXPECT_EQ(fdb_transaction_set_option(tr, 503, reinterpret_cast<const uint8_t*>(&one_set), 8),
              0);
    read(tr);
    set(tr, "a", "v");
    const fdb_error_t e = commit(tr);
    fdb_transaction_destroy(tr);
    return e;
  };
  EXPECT_EQ(commit_after([](FDBTransaction*) {}), 0) << "the set alone, at the limit";
  EXPECT_EQ(commit_after([&](FDBTransaction* tr) {
              range(tr, "b", "c", 0, 0, FDB_STREAMING_MODE_WANT_ALL, false);
            }),
            0)
      << "a range read";
  EXPECT_EQ(commit_after([&](FDBTransaction* tr) { get_key(tr, "b", false, 1); }), 0)
      << "a get_key";
  EXPECT_EQ(commit_after([&](FDBTransaction* tr) { get(tr, "b"); }), 2101) << "a get";
  EXPECT_EQ(commit_after([&](FDBTransaction* tr) {
              const std::string b = key("b"), c = key("c");
              EXPECT_EQ(fdb_transaction_add_conflict_range(tr, bytes(b), length(b), bytes(c),
                                                           length(c), FDB_CONFLICT_RANGE_TYPE_READ),
                        0);
            }),
            2101)
      << "an added read conflict range";
}

// As fdb_c.cpp's fdb_transaction_get_estimated_range_size_bytes and
// fdb_transaction_get_range_split_points, which build the KeyRangeRef (refusing an inverted
// range) before the transaction is called: inverted_range (2005) comes before the deferred error,
// a cancel or a use during the commit. Before, those answered first.
TEST_F(FdbC, AnInvertedRangeToMeasureOrSplitIsRefusedBeforeTheTransactionIsLookedAt) {
  const std::string b = key("b"), a = key("a"), system("\xff\x01");
  auto inverted_answers = [&](FDBTransaction* tr) {
    EXPECT_EQ(wait_and_destroy(fdb_transaction_get_estimated_range_size_bytes(
                  tr, bytes(b), length(b), bytes(a), length(a))),
              2005);
    EXPECT_EQ(wait_and_destroy(fdb_transaction_get_range_split_points(tr, bytes(b), length(b),
                                                                      bytes(a), length(a), 100)),
              2005);
  };
  FDBTransaction* tr = begin();
  fdb_transaction_set(tr, bytes(system), length(system), bytes("v"), 1);
  ASSERT_EQ(read_error(tr), 2004) << "a deferred error held";
  inverted_answers(tr);
  fdb_transaction_reset(tr);
  fdb_transaction_cancel(tr);
  inverted_answers(tr);
  fdb_transaction_destroy(tr);
}

// Checked against FoundationDB, already answered so: ReadYourWritesTransaction::
// getEstimatedRangeSizeBytes has no legal-range check (a range past \xff is measured), while
// getRangeSplitPoints refuses one with key_outside_legal_range. fdb_future_cancel of a commit's
// future (ThreadSingleAssignmentVarBase::cancel cancels doOnMainThread, whose catch answers
// operation_cancelled, 1101) leaves the commit running — it may apply — and the transaction's
// commit started: a later read is used_during_commit (2017).
TEST_F(FdbC, EstimatedSizesPastTheSystemKeysAndACancelledCommitFutureAnswerAsFoundationDBs) {
  FDBTransaction* tr = begin();
  const std::string past("\xff\x01");
  EXPECT_EQ(wait_and_destroy(fdb_transaction_get_estimated_range_size_bytes(
                tr, bytes("a"), 1, bytes(past), length(past))),
            0);
  set(tr, "k", "v");
  NetworkGate gate(*this, "gate");  // the commit stays outstanding until the gate opens
  FDBFuture* committing = fdb_transaction_commit(tr);
  fdb_future_cancel(committing);
  EXPECT_TRUE(fdb_future_is_ready(committing));
  EXPECT_EQ(fdb_future_get_error(committing), 1101);
  fdb_future_destroy(committing);
  gate.release();
  EXPECT_EQ(read_error(tr), 2017);
  fdb_transaction_destroy(tr);
}

// ---------------------------------------------------------------------------------------------
// Key selectors and range reads against a model of FoundationDB's client, written apart from the
// library. The transaction's view (the database with the transaction's own writes, or the database
// alone with read-your-writes disabled) is a std::map. A selector (key, or_equal, offset) names the
// key `offset` places after the last key <= key (or_equal) or < key: "" before the first key,
// "\xff" after the last. A range read returns the view's rows in [begin, end), in order, until its
// row limit, or until the bytes read reach its byte limit — each row its key, its value and the
// 32 bytes of a KeyValueRef, as a storage server counts them — which is fdb_c.cpp's: the smaller
// of target_bytes and the streaming mode's bytes (WANT_ALL as SERIAL, ITERATOR by iteration), at
// most a storage server's reply (80,000); 0 and -1 mean no limit. `more` is set exactly when a
// limit was reached (at the range's last row too). Each case first clears the whole legal key
// space, so the model knows every key a selector can reach.
namespace selector_model {

using View = std::map<std::string, std::string>;

struct Selector {
  std::string key;
  bool or_equal = false;
  int offset = 1;
};

std::string printable(const std::string& bytes) {
  std::string out;
  for (unsigned char c : bytes) {
    if (c >= 'a' && c <= 'z') {
      out += static_cast<char>(c);
    } else {
      constexpr char kHex[] = "0123456789abcdef";
      out += std::string("\\x") + kHex[c >> 4] + kHex[c & 15];
    }
  }
  return "\"" + out + "\"";
}

std::string describe(const Selector& s) {
  return "(" + printable(s.key) + (s.or_equal ? ", or_equal, " : ", ") + std::to_string(s.offset) +
         ")";
}

std::string resolve(const View& view, const Selector& s) {
  auto after_base = s.or_equal ? view.upper_bound(s.key) : view.lower_bound(s.key);
  if (s.offset >= 1) {
    for (std::int64_t step = 1; step < s.offset && after_base != view.end(); ++step)
      ++after_base;
    return after_base == view.end() ? std::string("\xff") : after_base->first;
  }
  for (std::int64_t step = 0; step < 1 - std::int64_t{s.offset}; ++step) {
    if (after_base == view.begin()) return "";
    --after_base;
  }
  return after_base->first;
}

constexpr int kIterationBytes[] = {4096,  6144,  9216,  13824, 20736,
                                   31104, 46656, 69984, 80000, 120000};
constexpr int kModeBytes[] = {-1, 256, 1000, 4096, 80000};  // EXACT (none), SMALL .. SERIAL

// The byte limit of one read, -1 for none: the mode's and target_bytes' smaller, at most what a
// storage server's reply holds (REPLY_BYTE_LIMIT, 80,000).
int byte_limit(int target_bytes, int mode, int iteration) {
  if (mode == FDB_STREAMING_MODE_WANT_ALL) mode = FDB_STREAMING_MODE_SERIAL;
  const int mode_bytes = mode == FDB_STREAMING_MODE_ITERATOR
                             ? kIterationBytes[std::min(iteration, 10) - 1]
                             : kModeBytes[mode];
  int bytes = mode_bytes;
  if (target_bytes != 0 && target_bytes != -1)
    bytes = mode_bytes == -1 ? target_bytes : std::min(target_bytes, mode_bytes);
  return bytes == -1 ? -1 : std::min(bytes, 80'000);
}

// What a storage server counts of a row against the byte limit: its key, its value and the
// KeyValueRef pointing at them (32 bytes).
constexpr std::int64_t kRowOverheadBytes = 32;

// A range read, or (in a case's reads) a get_key of its begin selector; snapshot for either.
struct Range {
  Selector begin, end;
  int limit = 0, target_bytes = 0, mode = FDB_STREAMING_MODE_WANT_ALL, iteration = 1;
  bool reverse = false;
  bool snapshot = false;
};

std::string describe(const Range& r) {
  return "get_range " + describe(r.begin) + " .. " + describe(r.end) +
         " limit=" + std::to_string(r.limit) + " target_bytes=" + std::to_string(r.target_bytes) +
         " mode=" + std::to_string(r.mode) + " iteration=" + std::to_string(r.iteration) +
         (r.reverse ? " reverse" : "") + (r.snapshot ? " snapshot" : "");
}

struct Rows {
  std::vector<std::pair<std::string, std::string>> rows;
  bool more = false;
};

// The rows the model allows, all of them (a read may stop at a limit; see the header comment).
std::vector<std::pair<std::string, std::string>> rows_in(const View& view, const Range& r) {
  const std::string begin = resolve(view, r.begin), end = resolve(view, r.end);
  std::vector<std::pair<std::string, std::string>> rows;
  if (!(begin < end)) return rows;
  for (auto it = view.lower_bound(begin); it != view.end() && it->first < end; ++it)
    rows.emplace_back(*it);
  if (r.reverse) std::reverse(rows.begin(), rows.end());
  return rows;
}

// How many of `rows` the read returns under its limits, and whether a limit stopped it there.
struct Returned {
  std::size_t count = 0;
  bool limit_reached = false;
  bool bytes_reached = false;
};
Returned rows_returned(const std::vector<std::pair<std::string, std::string>>& rows,
                       const Range& r) {
  const int bytes_max = byte_limit(r.target_bytes, r.mode, r.iteration);
  Returned out;
  std::int64_t bytes = 0;
  for (const auto& [key, value] : rows) {
    ++out.count;
    bytes += kRowOverheadBytes + static_cast<std::int64_t>(key.size() + value.size());
    out.bytes_reached = bytes_max != -1 && bytes >= bytes_max;
    out.limit_reached =
        out.bytes_reached || (r.limit > 0 && out.count == static_cast<std::size_t>(r.limit));
    if (out.limit_reached) break;
  }
  return out;
}

enum class WriteKind { set, clear, clear_range };
struct Write {
  WriteKind kind = WriteKind::set;
  std::string a, b;
};

void apply(View& view, const Write& w) {
  switch (w.kind) {
    case WriteKind::set:
      view[w.a] = w.b;
      break;
    case WriteKind::clear:
      view.erase(w.a);
      break;
    case WriteKind::clear_range:
      view.erase(view.lower_bound(w.a), view.lower_bound(w.b));
      break;
  }
}

rc::Gen<std::string> gen_key() {
  return rc::gen::element<std::string>("", "a", "b", "c", "d", "e");
}
// Values from 1 byte to 20,000, so that every streaming mode's byte limit can stop a read.
rc::Gen<std::string> gen_value() {
  auto sizes = rc::gen::weightedOneOf<int>(
      {{4, rc::gen::element(1, 40, 100, 150)}, {1, rc::gen::element(3000, 7000, 20000)}});
  return rc::gen::map(sizes,
                      [](int size) { return std::string(static_cast<std::size_t>(size), 'v'); });
}
rc::Gen<Selector> gen_selector() {
  auto keys = rc::gen::element<std::string>("", "a", std::string("a\0", 2), "b", "bb", "c", "d",
                                            "e", "f", "\xff");
  auto offsets = rc::gen::weightedOneOf<int>(
      {{8, rc::gen::inRange(-3, 5)},
       {1,
        rc::gen::element(std::numeric_limits<int>::min(), std::numeric_limits<int>::min() + 1,
                         std::numeric_limits<int>::max() - 1, std::numeric_limits<int>::max())}});
  return rc::gen::apply(
      [](std::string key, bool or_equal, int offset) {
        return Selector{std::move(key), or_equal, offset};
      },
      keys, rc::gen::arbitrary<bool>(), offsets);
}
// Half the ranges are wide (from at most "b" to the end of the keys), so that limits stop them.
rc::Gen<Range> gen_range() {
  auto wide_begin = rc::gen::apply(
      [](std::string key) {
        return Selector{std::move(key), false, 1};
      },
      rc::gen::element<std::string>("", "a", "b"));
  auto begins = rc::gen::oneOf(gen_selector(), wide_begin);
  auto ends = rc::gen::oneOf(gen_selector(), rc::gen::just(Selector{"\xff", false, 1}));
  return rc::gen::apply(
      [](Selector begin, Selector end, int limit, int target_bytes, int mode, int iteration,
         bool reverse, bool snapshot) {
        return Range{std::move(begin), std::move(end), limit,   target_bytes, mode,
                     iteration,        reverse,        snapshot};
      },
      begins, ends, rc::gen::element(-1, 0, 1, 2, 3, 5), rc::gen::element(-1, 0, 1, 100, 200, 1000),
      rc::gen::element<int>(FDB_STREAMING_MODE_WANT_ALL, FDB_STREAMING_MODE_ITERATOR,
                            FDB_STREAMING_MODE_EXACT, FDB_STREAMING_MODE_SMALL,
                            FDB_STREAMING_MODE_MEDIUM, FDB_STREAMING_MODE_LARGE,
                            FDB_STREAMING_MODE_SERIAL),
      rc::gen::element(1, 2, 9, 10, 11), rc::gen::arbitrary<bool>(),
      rc::gen::weightedElement<bool>({{1, true}, {3, false}}));
}
rc::Gen<Write> gen_write() {
  return rc::gen::mapcat(rc::gen::inRange(0, 3), [](int kind) {
    return rc::gen::apply(
        [kind](std::string a, std::string b, std::string value) {
          Write w{static_cast<WriteKind>(kind), std::move(a), std::move(b)};
          if (w.kind == WriteKind::set) w.b = std::move(value);
          if (w.kind == WriteKind::clear_range && w.b < w.a) std::swap(w.a, w.b);
          return w;
        },
        gen_key(), gen_key(), gen_value());
  });
}

// Replaces everything in the legal key space with `database`.
void replace_database(FDBDatabase* db, const View& database) {
  FDBTransaction* tr = nullptr;
  RC_ASSERT(fdb_database_create_transaction(db, &tr) == 0);
  const std::string everything_end("\xff");
  fdb_transaction_clear_range(tr, bytes(""), 0, bytes(everything_end), 1);
  for (const auto& [key, value] : database)
    fdb_transaction_set(tr, bytes(key), length(key), bytes(value), length(value));
  RC_ASSERT(wait_and_destroy(fdb_transaction_commit(tr)) == 0);
  fdb_transaction_destroy(tr);
}

std::optional<std::string> resolve_key(FDBTransaction* tr, const Selector& s, bool snapshot,
                                       fdb_error_t& error) {
  FDBFuture* f =
      fdb_transaction_get_key(tr, bytes(s.key), length(s.key), s.or_equal, s.offset, snapshot);
  error = wait_for(f);
  std::optional<std::string> out;
  const uint8_t* key = nullptr;
  int key_length = 0;
  if (error == 0 && fdb_future_get_key(f, &key, &key_length) == 0)
    out = std::string(reinterpret_cast<const char*>(key), static_cast<std::size_t>(key_length));
  fdb_future_destroy(f);
  return out;
}

std::optional<Rows> read_range(FDBTransaction* tr, const Range& r, fdb_error_t& error) {
  FDBFuture* f = fdb_transaction_get_range(
      tr, bytes(r.begin.key), length(r.begin.key), r.begin.or_equal, r.begin.offset,
      bytes(r.end.key), length(r.end.key), r.end.or_equal, r.end.offset, r.limit, r.target_bytes,
      static_cast<FDBStreamingMode>(r.mode), r.iteration, r.snapshot, r.reverse);
  error = wait_for(f);
  std::optional<Rows> out;
  const FDBKeyValue* kv = nullptr;
  int count = 0;
  fdb_bool_t more = 0;
  if (error == 0 && fdb_future_get_keyvalue_array(f, &kv, &count, &more) == 0) {
    out.emplace();
    for (int i = 0; i < count; ++i)
      out->rows.emplace_back(std::string(reinterpret_cast<const char*>(kv[i].key),
                                         static_cast<std::size_t>(kv[i].key_length)),
                             std::string(reinterpret_cast<const char*>(kv[i].value),
                                         static_cast<std::size_t>(kv[i].value_length)));
    out->more = more != 0;
  }
  fdb_future_destroy(f);
  return out;
}

void check_get_key(FDBTransaction* tr, const View& view, const Selector& s, bool snapshot) {
  fdb_error_t error = 0;
  const std::optional<std::string> key = resolve_key(tr, s, snapshot, error);
  RC_LOG() << "get_key " << describe(s) << (snapshot ? " snapshot" : "") << " -> "
           << (key ? printable(*key) : "error " + std::to_string(error)) << "\n";
  RC_ASSERT(error == 0);
  RC_ASSERT(key.has_value());
  RC_ASSERT(*key == resolve(view, s));
}

// How a checked range read ended, for the property's distribution of cases.
struct Stops {
  bool by_rows = false, by_bytes = false;
};

// FoundationDB answers a range read whose begin selector's key (the key after it, for or_equal)
// and offset are both at or past the end selector's without reading: no conflict range.
bool reads_nothing(const Range& r) {
  auto normal_key = [](const Selector& s) { return s.or_equal ? s.key + '\0' : s.key; };
  return r.begin.offset >= r.end.offset && normal_key(r.begin) >= normal_key(r.end);
}

bool exact_without_limits(const Range& r) {
  const bool no_limit =
      (r.limit == 0 || r.limit == -1) && (r.target_bytes == 0 || r.target_bytes == -1);
  return r.mode == FDB_STREAMING_MODE_EXACT && no_limit;
}

std::vector<std::pair<std::string, std::string>> expected_rows(const View& view, const Range& r) {
  const auto all = rows_in(view, r);
  const Returned returned = rows_returned(all, r);
  return {all.begin(), all.begin() + static_cast<std::ptrdiff_t>(returned.count)};
}

void check_get_range(FDBTransaction* tr, const View& view, const Range& r, Stops& stops) {
  fdb_error_t error = 0;
  const std::optional<Rows> got = read_range(tr, r, error);
  RC_LOG() << describe(r) << " -> "
           << (got ? std::to_string(got->rows.size()) + " rows" + (got->more ? ", more" : "")
                   : "error " + std::to_string(error))
           << "\n";
  if (exact_without_limits(r)) {
    RC_ASSERT(error == 2210);  // exact_mode_without_limits
    return;
  }
  RC_ASSERT(error == 0);
  RC_ASSERT(got.has_value());
  const auto all = rows_in(view, r);
  const Returned returned = rows_returned(all, r);
  if (returned.count < all.size()) (returned.bytes_reached ? stops.by_bytes : stops.by_rows) = true;
  RC_ASSERT(got->rows == expected_rows(view, r));
  RC_ASSERT(got->more == returned.limit_reached);
}

// One transaction's case: the database it starts from, its writes, then its reads (a get_key of
// the range's begin selector, or the range read).
struct Case {
  View database;
  std::vector<Write> writes;
  bool read_your_writes_disabled = false;
  std::vector<std::pair<bool, Range>> reads;
};

Case draw_case() {
  Case c;
  c.database = *rc::gen::container<View>(gen_key(), gen_value());
  c.writes = *rc::gen::container<std::vector<Write>>(gen_write());
  c.read_your_writes_disabled = *rc::gen::weightedElement<bool>({{1, true}, {4, false}});
  c.reads = *rc::gen::mapcat(rc::gen::inRange(1, 5), [](int count) {
    return rc::gen::container<std::vector<std::pair<bool, Range>>>(
        static_cast<std::size_t>(count), rc::gen::pair(rc::gen::arbitrary<bool>(), gen_range()));
  });
  return c;
}

// What the case's reads see: the database with the transaction's writes, or without them when
// read-your-writes is disabled.
View view_of(const View& database, const Case& c) {
  View view = database;
  if (!c.read_your_writes_disabled) {
    for (const Write& w : c.writes)
      apply(view, w);
  }
  return view;
}

void write(FDBTransaction* tr, const Write& w) {
  switch (w.kind) {
    case WriteKind::set:
      fdb_transaction_set(tr, bytes(w.a), length(w.a), bytes(w.b), length(w.b));
      break;
    case WriteKind::clear:
      fdb_transaction_clear(tr, bytes(w.a), length(w.a));
      break;
    case WriteKind::clear_range:
      fdb_transaction_clear_range(tr, bytes(w.a), length(w.a), bytes(w.b), length(w.b));
      break;
  }
}

// Replaces the database with the case's, then begins its transaction, makes its writes and its
// reads, checking each read against the model.
FDBTransaction* run_case(FDBDatabase* db, const Case& c, Stops& stops) {
  replace_database(db, c.database);
  FDBTransaction* tr = nullptr;
  RC_ASSERT(fdb_database_create_transaction(db, &tr) == 0);
  if (c.read_your_writes_disabled) RC_ASSERT(fdb_transaction_set_option(tr, 51, nullptr, 0) == 0);
  for (const Write& w : c.writes)
    write(tr, w);
  const View view = view_of(c.database, c);
  for (const auto& [is_get_key, range] : c.reads) {
    if (is_get_key) {
      check_get_key(tr, view, range.begin, range.snapshot);
    } else {
      check_get_range(tr, view, range, stops);
    }
  }
  return tr;
}

}  // namespace selector_model

RC_GTEST_PROP(FdbCSelectorModel, SelectorsAndRangeReadsAnswerAsTheModel, ()) {
  using namespace selector_model;
  const Case c = draw_case();
  FDBDatabase* db = nullptr;
  RC_ASSERT(fdb_create_database(nullptr, &db) == 0);
  Stops stops;
  fdb_transaction_destroy(run_case(db, c, stops));
  RC_TAG(stops.by_rows ? "a read stopped by its row limit" : "",
         stops.by_bytes ? "a read stopped by its byte limit" : "");
  fdb_database_destroy(db);
}

// The conflict ranges of selectors and limited reads never miss: when another transaction's
// commit, made after the case's reads, changes what one of its non-snapshot reads answers (the
// model's answer on the database before and after that commit differs), the case's transaction
// does not commit (not_committed, 1020). FoundationDB may also refuse a commit whose reads did not
// change (its conflict ranges cover what was examined), so the converse is asserted only where
// it holds on FoundationDB: a transaction whose reads are all snapshot reads, or range reads
// whose selectors name an empty range, commits.
RC_GTEST_PROP(FdbCSelectorModel, ACommitChangingWhatAReadAnsweredConflicts, ()) {
  using namespace selector_model;
  const Case c = draw_case();
  const auto others = *rc::gen::nonEmpty(rc::gen::container<std::vector<Write>>(gen_write()));
  FDBDatabase* db = nullptr;
  RC_ASSERT(fdb_create_database(nullptr, &db) == 0);
  Stops stops;
  FDBTransaction* tr = run_case(db, c, stops);
  const std::string marker = "marker";  // a write, so that the commit is checked for conflicts
  fdb_transaction_set(tr, bytes(marker), length(marker), bytes(marker), length(marker));
  FDBTransaction* other = nullptr;
  RC_ASSERT(fdb_database_create_transaction(db, &other) == 0);
  View database_after = c.database;
  for (const Write& w : others) {
    write(other, w);
    apply(database_after, w);
  }
  RC_ASSERT(wait_and_destroy(fdb_transaction_commit(other)) == 0);
  fdb_transaction_destroy(other);
  const View before = view_of(c.database, c), after = view_of(database_after, c);
  bool changed = false, conflicting_reads = false;
  for (const auto& [is_get_key, range] : c.reads) {
    conflicting_reads |= !range.snapshot && (is_get_key || !reads_nothing(range));
    if (range.snapshot) {
      continue;
    } else if (is_get_key) {
      changed |= resolve(before, range.begin) != resolve(after, range.begin);
    } else if (!exact_without_limits(range)) {
      changed |= expected_rows(before, range) != expected_rows(after, range);
    }
  }
  const fdb_error_t committed = wait_and_destroy(fdb_transaction_commit(tr));
  RC_TAG(changed ? "a read's answer changed" : "no read's answer changed",
         committed == 1020 ? "not committed" : "committed");
  if (changed) RC_ASSERT(committed == 1020);
  if (!conflicting_reads) RC_ASSERT(committed == 0);
  fdb_transaction_destroy(tr);
  fdb_database_destroy(db);
}

}  // namespace
