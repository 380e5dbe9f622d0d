// contend's libfdb_c: a database's options that set every transaction's (TRANSACTION_TIMEOUT,
// TRANSACTION_RETRY_LIMIT, TRANSACTION_MAX_RETRY_DELAY, TRANSACTION_SIZE_LIMIT,
// TRANSACTION_REPORT_CONFLICTING_KEYS, ...), as FoundationDB's
// DatabaseContext::transactionDefaults: each transaction the database creates starts with them, a
// retry applies them again, a reset takes them as the database holds them then. Before,
// fdb_database_set_option accepted every code and did nothing: a program that bounded its
// transactions on the database (as the bindings' `db.options.set_transaction_timeout` do) ran them
// unbounded, and every test here failed. MAX_WATCHES bounds the database's outstanding watches
// (it was accepted with no effect, under one limit for the whole process), and a network option
// FoundationDB does not know, or whose value FoundationDB's client refuses, is refused (every
// code was accepted, whatever its value): those tests failed too.
#include "configured_network.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>

namespace {

using contend::fdb_testing::ConfiguredNetwork;
using contend::fdb_testing::read_version_of;
using contend::fdb_testing::wait_and_destroy;

[[maybe_unused]] auto* const network = ::testing::AddGlobalTestEnvironment(new ConfiguredNetwork(
    "fdb_c_database_options_test", "seed = 3\ndeterministic = true\nquiet_us = 1000\n",
    ConfiguredNetwork::Log::none));

// Database options (fdb_c_options.g.h's FDB_DB_OPTION_*) and a transaction option.
constexpr int kDbLocationCacheSize = 10, kDbMaxWatches = 20;
constexpr int kDbTimeout = 500, kDbRetryLimit = 501, kDbMaxRetryDelay = 502, kDbSizeLimit = 503;
constexpr int kDbBypassUnreadable = 700, kDbReportConflictingKeys = 702;
constexpr int kSizeLimit = 503;

class FdbCDatabaseOptions : public contend::fdb_testing::DatabaseTest {
 protected:
  fdb_error_t db_int(int option, int64_t value) {
    return fdb_database_set_option(db_, option, reinterpret_cast<const uint8_t*>(&value), 8);
  }
  static fdb_error_t tr_int(FDBTransaction* tr, int option, int64_t value) {
    return fdb_transaction_set_option(tr, option, reinterpret_cast<const uint8_t*>(&value), 8);
  }
  static fdb_error_t retry(FDBTransaction* tr) {
    return wait_and_destroy(fdb_transaction_on_error(tr, 1020));
  }
  // The error `f` is ready with within a few seconds (it is destroyed), or -1 when it is still
  // waiting then (a watch accepted where it should have been refused fails the test, never hangs).
  static fdb_error_t error_soon(FDBFuture* f) {
    return contend::fdb_testing::error_within(f, std::chrono::seconds(5));
  }
  // This test's own key `name`.
  static std::string key_of(const std::string& name) {
    return std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "/" +
           name;
  }
  static FDBFuture* watch(FDBTransaction* tr, const std::string& name) {
    const std::string key = key_of(name);
    return fdb_transaction_watch(tr, reinterpret_cast<const uint8_t*>(key.data()),
                                 static_cast<int>(key.size()));
  }
  // Commits a set of this test's key `name` to `value` in a transaction of `db`.
  static void set_committed(FDBDatabase* db, const std::string& name, const std::string& value) {
    FDBTransaction* tr = nullptr;
    ASSERT_EQ(fdb_database_create_transaction(db, &tr), 0);
    const std::string key = key_of(name);
    fdb_transaction_set(
        tr, reinterpret_cast<const uint8_t*>(key.data()), static_cast<int>(key.size()),
        reinterpret_cast<const uint8_t*>(value.data()), static_cast<int>(value.size()));
    ASSERT_EQ(wait_and_destroy(fdb_transaction_commit(tr)), 0);
    fdb_transaction_destroy(tr);
  }
  // Whether a watch on key `name` (one not changed before), made in a new transaction of `db` and
  // committed, is accepted: a change of the key then fires it (success), where a refused one
  // answers too_many_watches.
  static fdb_error_t watch_and_fire(FDBDatabase* db, const std::string& name) {
    FDBTransaction* tr = nullptr;
    EXPECT_EQ(fdb_database_create_transaction(db, &tr), 0);
    FDBFuture* w = watch(tr, name);
    EXPECT_EQ(wait_and_destroy(fdb_transaction_commit(tr)), 0);
    fdb_transaction_destroy(tr);
    set_committed(db, name, "changed");
    return wait_and_destroy(w);
  }
  // Commits a write of `bytes` bytes of value to this test's own key.
  static fdb_error_t commit_value_of(FDBTransaction* tr, int bytes) {
    const std::string key = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    const std::string value(static_cast<std::size_t>(bytes), 'x');
    fdb_transaction_set(
        tr, reinterpret_cast<const uint8_t*>(key.data()), static_cast<int>(key.size()),
        reinterpret_cast<const uint8_t*>(value.data()), static_cast<int>(value.size()));
    return wait_and_destroy(fdb_transaction_commit(tr));
  }
};

TEST_F(FdbCDatabaseOptions, ARetryLimitOnTheDatabaseBoundsEveryTransactionsRetries) {
  ASSERT_EQ(db_int(kDbRetryLimit, 1), 0);
  for (int transaction = 0; transaction < 2; ++transaction) {
    FDBTransaction* tr = begin();
    EXPECT_EQ(retry(tr), 0) << "transaction " << transaction << ": the one retry allowed";
    EXPECT_EQ(retry(tr), 1020) << "transaction " << transaction << ": the limit is hit";
    fdb_transaction_destroy(tr);
  }
}

TEST_F(FdbCDatabaseOptions, ATimeoutOnTheDatabaseTimesEveryTransactionOut) {
  ASSERT_EQ(db_int(kDbTimeout, 5), 0);  // ms of virtual time, from the transaction's creation
  FDBTransaction* tr = begin();
  // Each retry backs off (10 ms, doubling, drawn below): within a few the 5 ms have passed.
  fdb_error_t answered = 0;
  for (int attempt = 0; attempt < 8 && answered == 0; ++attempt)
    answered = retry(tr);
  EXPECT_EQ(answered, 1031) << "transaction_timed_out, and no more retries";
  fdb_transaction_destroy(tr);
}

TEST_F(FdbCDatabaseOptions, AMaxRetryDelayOnTheDatabaseLetsTheBackoffGrowPastASecond) {
  ASSERT_EQ(db_int(kDbMaxRetryDelay, 100'000), 0);
  FDBTransaction* tr = begin();
  int64_t slowest = 0;
  for (int i = 0; i < 14; ++i) {  // the backoff doubles from 10 ms to 82 s
    const int64_t before = read_version_of(tr);
    ASSERT_EQ(retry(tr), 0);
    slowest = std::max(slowest, read_version_of(tr) - before);
  }
  EXPECT_GT(slowest, 1'000'000) << "past FoundationDB's default 1 s";
  fdb_transaction_destroy(tr);
}

// The size limit is not a persistent option: a retry drops the transaction's own and the
// database's comes back; a reset takes the database's again too.
TEST_F(FdbCDatabaseOptions, ASizeLimitOnTheDatabaseComesBackAfterARetryOrAReset) {
  ASSERT_EQ(db_int(kDbSizeLimit, 100), 0);
  FDBTransaction* tr = begin();
  EXPECT_EQ(commit_value_of(tr, 200), 2101) << "transaction_too_large over the database's limit";
  fdb_transaction_reset(tr);
  ASSERT_EQ(tr_int(tr, kSizeLimit, 10'000), 0);
  EXPECT_EQ(commit_value_of(tr, 200), 0) << "the transaction's own limit replaces it";
  fdb_transaction_reset(tr);
  ASSERT_EQ(tr_int(tr, kSizeLimit, 10'000), 0);
  ASSERT_EQ(retry(tr), 0);
  EXPECT_EQ(commit_value_of(tr, 200), 2101) << "after a retry, the database's limit";
  fdb_transaction_reset(tr);
  ASSERT_EQ(tr_int(tr, kSizeLimit, 10'000), 0);
  fdb_transaction_reset(tr);
  EXPECT_EQ(commit_value_of(tr, 200), 2101) << "after a reset, the database's limit";
  fdb_transaction_destroy(tr);
}

// A transaction keeps the defaults it took until its next reset, as RYW's persistent options do.
TEST_F(FdbCDatabaseOptions, AResetTakesTheDatabasesDefaultsAsTheyAreThen) {
  FDBTransaction* tr = begin();
  ASSERT_EQ(db_int(kDbRetryLimit, 0), 0);
  EXPECT_EQ(retry(tr), 0) << "created before the limit was set: unbounded";
  fdb_transaction_reset(tr);
  EXPECT_EQ(retry(tr), 1020) << "reset: the database's limit of 0 retries";
  fdb_transaction_destroy(tr);
  FDBTransaction* later = begin();
  EXPECT_EQ(retry(later), 1020) << "created after it was set";
  fdb_transaction_destroy(later);
}

TEST_F(FdbCDatabaseOptions, ReportConflictingKeysOnTheDatabaseAppliesToEveryTransaction) {
  ASSERT_EQ(fdb_database_set_option(db_, kDbReportConflictingKeys, nullptr, 0), 0);
  const std::string key = "conflicted";
  auto k = [&] { return reinterpret_cast<const uint8_t*>(key.data()); };
  FDBTransaction* reader = begin();
  EXPECT_EQ(wait_and_destroy(fdb_transaction_get(reader, k(), static_cast<int>(key.size()), 0)), 0);
  FDBTransaction* writer = begin();
  fdb_transaction_set(writer, k(), static_cast<int>(key.size()), k(), 1);
  ASSERT_EQ(wait_and_destroy(fdb_transaction_commit(writer)), 0);
  fdb_transaction_set(reader, k(), static_cast<int>(key.size()), k(), 1);
  ASSERT_EQ(wait_and_destroy(fdb_transaction_commit(reader)), 1020);
  const std::string begin_key = "\xff\xff/transaction/conflicting_keys/";
  const std::string end_key = "\xff\xff/transaction/conflicting_keys0";
  // first_greater_or_equal(begin) .. first_greater_or_equal(end): or_equal 0, offset 1.
  FDBFuture* f = fdb_transaction_get_range(
      reader, reinterpret_cast<const uint8_t*>(begin_key.data()),
      static_cast<int>(begin_key.size()), 0, 1, reinterpret_cast<const uint8_t*>(end_key.data()),
      static_cast<int>(end_key.size()), 0, 1, 0, 0, FDB_STREAMING_MODE_WANT_ALL, 1, 0, 0);
  ASSERT_EQ(fdb_future_block_until_ready(f), 0);
  const FDBKeyValue* rows = nullptr;
  int count = 0;
  fdb_bool_t more = 0;
  ASSERT_EQ(fdb_future_get_keyvalue_array(f, &rows, &count, &more), 0);
  EXPECT_EQ(count, 2) << "the conflicting read range, as its begin and end";
  fdb_future_destroy(f);
  fdb_transaction_destroy(writer);
  fdb_transaction_destroy(reader);
}

TEST_F(FdbCDatabaseOptions, AnOptionFoundationDBDoesNotKnowOrContendRefusesIsRefused) {
  EXPECT_EQ(fdb_database_set_option(db_, 12345, nullptr, 0), 2007) << "invalid_option";
  EXPECT_EQ(fdb_database_set_option(db_, kDbBypassUnreadable, nullptr, 0), 2007);
  const int32_t four_bytes = 5;
  EXPECT_EQ(
      fdb_database_set_option(db_, kDbTimeout, reinterpret_cast<const uint8_t*>(&four_bytes), 4),
      2006)
      << "invalid_option_value: an integer option takes 8 bytes";
  EXPECT_EQ(db_int(kDbRetryLimit, -2), 2006) << "below RETRY_LIMIT's -1";
  EXPECT_EQ(db_int(kDbLocationCacheSize, 1000), 0) << "the database's own: no effect here";
  FDBTransaction* tr = begin();
  EXPECT_EQ(retry(tr), 0) << "no refused option became a default";
  fdb_transaction_destroy(tr);
}

// FoundationDB's DatabaseContext counts a watch from its read until it fires or fails, and
// refuses one more at MAX_WATCHES with too_many_watches (1032); each database has its own count.
TEST_F(FdbCDatabaseOptions, MaxWatchesBoundsTheDatabasesOutstandingWatches) {
  ASSERT_EQ(db_int(kDbMaxWatches, 2), 0);
  FDBTransaction* tr = begin();
  FDBFuture* first = watch(tr, "a");
  FDBFuture* second = watch(tr, "b");
  EXPECT_EQ(error_soon(watch(tr, "c")), 1032) << "a third, before the commit";
  ASSERT_EQ(wait_and_destroy(fdb_transaction_commit(tr)), 0);
  fdb_transaction_destroy(tr);
  EXPECT_EQ(watch_and_fire(db_, "c"), 1032) << "the committed two are still outstanding";
  FDBDatabase* other = nullptr;
  ASSERT_EQ(fdb_create_database(nullptr, &other), 0);
  EXPECT_EQ(watch_and_fire(other, "other"), 0) << "another database counts its own";
  fdb_database_destroy(other);
  set_committed(db_, "a", "changed");
  EXPECT_EQ(wait_and_destroy(first), 0) << "the first fired";
  EXPECT_EQ(watch_and_fire(db_, "d"), 0) << "the fired one is no longer outstanding";
  fdb_future_cancel(second);
  EXPECT_EQ(wait_and_destroy(second), 1101) << "operation_cancelled";
  FDBTransaction* after = begin();
  FDBFuture* third = watch(after, "e");
  FDBFuture* fourth = watch(after, "f");
  EXPECT_EQ(error_soon(watch(after, "g")), 1032) << "a third outstanding";
  fdb_transaction_reset(after);
  EXPECT_EQ(wait_and_destroy(third), 1025) << "a reset fails its watches: transaction_cancelled";
  EXPECT_EQ(wait_and_destroy(fourth), 1025) << "accepted: the cancelled watch was uncounted";
  EXPECT_EQ(watch_and_fire(db_, "h"), 0) << "and they are no longer outstanding";
  fdb_transaction_destroy(after);
  FDBTransaction* holder = begin();
  FDBFuture* held = watch(holder, "i");
  FDBFuture* kept = watch(holder, "j");
  fdb_future_cancel(held);
  EXPECT_EQ(wait_and_destroy(held), 1101);
  EXPECT_EQ(watch_and_fire(db_, "k"), 0)
      << "a watch cancelled before its transaction commits is no longer outstanding either";
  fdb_transaction_destroy(holder);
  EXPECT_EQ(wait_and_destroy(kept), 1025);
}

TEST_F(FdbCDatabaseOptions, MaxWatchesTakesAnIntegerUpToAMillionAndZeroRefusesEveryWatch) {
  EXPECT_EQ(db_int(kDbMaxWatches, -1), 2006) << "invalid_option_value";
  EXPECT_EQ(db_int(kDbMaxWatches, 1'000'001), 2006) << "above ABSOLUTE_MAX_WATCHES";
  EXPECT_EQ(fdb_database_set_option(db_, kDbMaxWatches, nullptr, 0), 2006) << "no value";
  EXPECT_EQ(watch_and_fire(db_, "a"), 0) << "a refused value left the default";
  EXPECT_EQ(db_int(kDbMaxWatches, 1'000'000), 0);
  ASSERT_EQ(db_int(kDbMaxWatches, 0), 0);
  FDBTransaction* tr = begin();
  EXPECT_EQ(error_soon(watch(tr, "b")), 1032);
  fdb_transaction_destroy(tr);
}

TEST(FdbCNetworkOptions, AnOptionFoundationDBDoesNotKnowIsRefused) {
  const std::string knob = "min_trace_severity=5";
  EXPECT_EQ(fdb_network_set_option(static_cast<FDBNetworkOption>(40),
                                   reinterpret_cast<const uint8_t*>(knob.data()),
                                   static_cast<int>(knob.size())),
            0)
      << "KNOB: known, with no effect here";
  EXPECT_EQ(fdb_network_set_option(static_cast<FDBNetworkOption>(70), nullptr, 0), 0)
      << "DISABLE_CLIENT_STATISTICS_LOGGING";
  EXPECT_EQ(fdb_network_set_option(static_cast<FDBNetworkOption>(44), nullptr, 0), 2007)
      << "invalid_option: no network option has code 44";
  EXPECT_EQ(fdb_network_set_option(static_cast<FDBNetworkOption>(12345), nullptr, 0), 2007);
  EXPECT_EQ(fdb_network_set_option(static_cast<FDBNetworkOption>(0), nullptr, 0), 2007);
}

// As FoundationDB's client (MultiVersionApi::setNetworkOptionInternal, then NativeAPI's
// setNetworkOption): an option's value must have the shape it takes — an Int 8 bytes within its
// bounds, a name FoundationDB knows, a value where one is wanted and none where none is — else
// invalid_option_value (2006); DISABLE_LOCAL_CLIENT and CLIENT_THREADS_PER_VERSION after
// fdb_setup_network are invalid_option (2007). (This program's network is set up by its
// environment before any test runs.) Before, every known code was accepted, whatever its value.
TEST(FdbCNetworkOptions, AValueOfTheWrongShapeIsRefusedAsFoundationDBsClientRefusesIt) {
  auto text = [](int option, const std::string& value) {
    return fdb_network_set_option(static_cast<FDBNetworkOption>(option),
                                  reinterpret_cast<const uint8_t*>(value.data()),
                                  static_cast<int>(value.size()));
  };
  auto integer = [](int option, int64_t value) {
    return fdb_network_set_option(static_cast<FDBNetworkOption>(option),
                                  reinterpret_cast<const uint8_t*>(&value), 8);
  };
  auto absent = [](int option) {
    return fdb_network_set_option(static_cast<FDBNetworkOption>(option), nullptr, 0);
  };
  constexpr int kTraceRollSize = 31, kTraceFormat = 34, kTraceClockSource = 35;
  constexpr int kTraceFileIdentifier = 36, kKnob = 40, kTlsCertPath = 43;
  constexpr int kExternalClientLibrary = 62, kDisableLocalClient = 64;
  constexpr int kClientThreadsPerVersion = 65, kDisableClientStatisticsLogging = 70;
  constexpr int kBuggifyFiredProbability = 83, kDistributedClientTracer = 90;

  EXPECT_EQ(integer(kTraceRollSize, 10'000'000), 0);
  EXPECT_EQ(integer(kTraceRollSize, -1), 2006) << "below 0";
  EXPECT_EQ(text(kTraceRollSize, "1000"), 2006) << "an Int is 8 bytes";
  EXPECT_EQ(absent(kTraceRollSize), 2006);
  EXPECT_EQ(text(kTraceFormat, "JSON"), 0) << "either case";
  EXPECT_EQ(text(kTraceFormat, "yaml"), 2006);
  EXPECT_EQ(text(kTraceClockSource, "realtime"), 0);
  EXPECT_EQ(text(kTraceClockSource, "wall"), 2006);
  EXPECT_EQ(text(kTraceFileIdentifier, "worker_7"), 0);
  EXPECT_EQ(text(kTraceFileIdentifier, "worker-7"), 2006) << "alphanumerics and _ only";
  EXPECT_EQ(text(kTraceFileIdentifier, std::string(51, 'a')), 2006) << "50 bytes at most";
  EXPECT_EQ(text(kKnob, "min_trace_severity"), 2006) << "a knob is name=value";
  EXPECT_EQ(text(kKnob, "no_such_knob=1"), 0) << "an unknown knob is ignored, as FoundationDB's";
  EXPECT_EQ(text(kTlsCertPath, "/etc/fdb/cert.pem"), 0);
  EXPECT_EQ(absent(kTlsCertPath), 2006) << "a path is wanted";
  EXPECT_EQ(text(kExternalClientLibrary, ""), 2006) << "an empty path";
  EXPECT_EQ(text(kDisableClientStatisticsLogging, "yes"), 2006) << "a flag takes no value";
  EXPECT_EQ(text(kDisableClientStatisticsLogging, ""), 0) << "an empty value is none";
  EXPECT_EQ(integer(kBuggifyFiredProbability, 100), 0);
  EXPECT_EQ(integer(kBuggifyFiredProbability, 101), 2006) << "a percentage";
  EXPECT_EQ(text(kDistributedClientTracer, "log_file"), 0);
  EXPECT_EQ(text(kDistributedClientTracer, "jaeger"), 2006);
  EXPECT_EQ(absent(kDisableLocalClient), 2007) << "after fdb_setup_network";
  EXPECT_EQ(text(kDisableLocalClient, "x"), 2006) << "the value is looked at first";
  EXPECT_EQ(integer(kClientThreadsPerVersion, 2), 2007) << "after fdb_setup_network";
  EXPECT_EQ(absent(kClientThreadsPerVersion), 2006) << "the value is looked at first";
  EXPECT_EQ(fdb_network_set_option(static_cast<FDBNetworkOption>(kKnob), nullptr, 3), 2006)
      << "no bytes is no value, whatever the length";
  const std::string knob = "a=1";
  EXPECT_EQ(fdb_network_set_option(static_cast<FDBNetworkOption>(kKnob),
                                   reinterpret_cast<const uint8_t*>(knob.data()), -1),
            2000)
      << "a negative length: client_invalid_operation (FoundationDB's would read out of bounds)";
}

}  // namespace
