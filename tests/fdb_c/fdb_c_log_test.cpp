// contend's libfdb_c with injected faults and a transaction log: clients increment counters
// through conflicts, not_committed and unknown results (applied and not), and `contend
// serializable` judges the log the library wrote. Two checks that could fail: the log replays
// serially, and each counter holds exactly the increments whose commits the log says applied. Half
// the clients read without read-your-writes.
#include "configured_network.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

namespace {

using contend::fdb_testing::ConfiguredNetwork;
using contend::fdb_testing::hex;
using contend::fdb_testing::wait_and_destroy;
using contend::fdb_testing::wait_for;

std::string scratch(const std::string& name) {
  return ::testing::TempDir() + "contend_fdb_c_log_test_" + std::to_string(getpid()) + "_" + name;
}

ConfiguredNetwork* const network =
    static_cast<ConfiguredNetwork*>(::testing::AddGlobalTestEnvironment(new ConfiguredNetwork(
        "fdb_c_log_test",
        "seed = 11\n[faults]\nnot_committed = 0.1\nunknown_result_applied = 0.1\n"
        "unknown_result_not_applied = 0.1\n[latency.commit]\nmin_us = 50\nmean_us = 200\n",
        ConfiguredNetwork::Log::scratch)));

// The 4-byte big-endian counter a ready get future holds (0 when the key is absent).
uint32_t counter_in(FDBFuture* f) {
  fdb_bool_t present = 0;
  const uint8_t* v = nullptr;
  int n = 0;
  EXPECT_EQ(fdb_future_get_value(f, &present, &v, &n), 0);
  if (!present || n != 4) return 0;
  return uint32_t{v[0]} << 24 | uint32_t{v[1]} << 16 | uint32_t{v[2]} << 8 | uint32_t{v[3]};
}

// Adds 1 to the 4-byte big-endian counter at `key` with FoundationDB's retry loop; returns the
// commit's last error (0, or commit_unknown_result when the loop gave up on an unknown result).
// Without read-your-writes, each attempt clears the counter before reading it: the reads see the
// database, not the clear, and the commit must conflict when another commit changed the counter.
void increment(FDBDatabase* db, const std::string& key, bool read_your_writes_disabled) {
  FDBTransaction* tr = nullptr;
  ASSERT_EQ(fdb_database_create_transaction(db, &tr), 0);
  const auto* k = reinterpret_cast<const uint8_t*>(key.data());
  for (int attempt = 0; attempt < 1000; ++attempt) {
    if (read_your_writes_disabled) {
      const FDBTransactionOption read_your_writes_disable = static_cast<FDBTransactionOption>(51);
      ASSERT_EQ(fdb_transaction_set_option(tr, read_your_writes_disable, nullptr, 0), 0);
      fdb_transaction_clear(tr, k, static_cast<int>(key.size()));
    }
    FDBFuture* f = fdb_transaction_get(tr, k, static_cast<int>(key.size()), 0);
    fdb_error_t e = wait_and_destroy(f);
    if (e == 0) {
      f = fdb_transaction_get(tr, k, static_cast<int>(key.size()), 0);
      EXPECT_EQ(wait_for(f), 0);
      uint32_t count = counter_in(f);
      fdb_future_destroy(f);
      ++count;
      const uint8_t next[4] = {uint8_t(count >> 24), uint8_t(count >> 16), uint8_t(count >> 8),
                               uint8_t(count)};
      fdb_transaction_set(tr, k, static_cast<int>(key.size()), next, 4);
      e = wait_and_destroy(fdb_transaction_commit(tr));
      if (e == 0) break;
    }
    ASSERT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, e)), 0) << "error " << e;
  }
  fdb_transaction_destroy(tr);
}

uint32_t read_counter(FDBDatabase* db, const std::string& key) {
  FDBTransaction* tr = nullptr;
  EXPECT_EQ(fdb_database_create_transaction(db, &tr), 0);
  FDBFuture* f =
      fdb_transaction_get(tr, reinterpret_cast<const uint8_t*>(key.data()), int(key.size()), 0);
  EXPECT_EQ(wait_for(f), 0);
  const uint32_t count = counter_in(f);
  fdb_future_destroy(f);
  fdb_transaction_destroy(tr);
  return count;
}

TEST(FdbCWithFaults, TheLogOfAFaultyRunReplaysSeriallyAndExplainsEveryCounter) {
  FDBDatabase* db = nullptr;
  ASSERT_EQ(fdb_create_database(nullptr, &db), 0);
  const std::vector<std::string> keys = {"counter/a", "counter/b"};
  std::vector<std::thread> clients;
  for (int c = 0; c < 6; ++c) {
    clients.emplace_back([&, c] {
      for (int i = 0; i < 25; ++i)
        increment(db, keys[(c + i) % 2], c % 2 == 1);
    });
  }
  for (std::thread& t : clients)
    t.join();
  std::map<std::string, uint32_t> counters;
  for (const std::string& key : keys)
    counters[hex(key)] = read_counter(db, key);
  fdb_database_destroy(db);

  const std::string command = std::string(CONTEND_BINARY) + " serializable " + network->log_path +
                              " > " + scratch("out.txt") + " 2>&1";
  const int status = std::system(command.c_str());
  std::ifstream out(scratch("out.txt"));
  const std::string said((std::istreambuf_iterator<char>(out)), std::istreambuf_iterator<char>());
  std::remove(scratch("out.txt").c_str());
  EXPECT_EQ(status, 0) << said;
  EXPECT_NE(said.find("serializable: "), std::string::npos) << said;

  std::ifstream log(network->log_path);
  int unknown_applied = 0, unknown_not_applied = 0, not_committed = 0, lines = 0;
  int without_read_your_writes = 0, unlogged_reads = 0;
  std::map<std::string, uint32_t> applied_writes;
  for (std::string line; std::getline(log, line); ++lines) {
    for (const auto& [key, value] : counters) {
      const bool writes_key = line.find("\"param1\":\"" + key + "\"") != std::string::npos;
      applied_writes[key] += writes_key && line.find("\"applied\":true") != std::string::npos;
    }
    const bool unknown = line.find("\"outcome\":\"commit_unknown_result\"") != std::string::npos;
    const bool applied = line.find("\"applied\":true") != std::string::npos;
    unknown_applied += unknown && applied;
    unknown_not_applied += unknown && !applied;
    not_committed += line.find("\"outcome\":\"not_committed\"") != std::string::npos;
    const bool clears = line.find("\"type\":\"clear_range\"") != std::string::npos;
    without_read_your_writes += clears;
    unlogged_reads += clears && line.find("\"reads\":[]") != std::string::npos;
  }
  EXPECT_GE(lines, 150);
  EXPECT_EQ(applied_writes, counters) << "each applied increment is in the log, and only those";
  EXPECT_GT(unknown_applied, 0) << "the injected faults show in the log";
  EXPECT_GT(unknown_not_applied, 0);
  EXPECT_GT(not_committed, 0);
  EXPECT_GT(without_read_your_writes, 0);
  EXPECT_EQ(unlogged_reads, 0) << "reads without read-your-writes are in the log";
}

// As FoundationDB's tryCommit, which sets the committed version only when the commit succeeds: a
// commit answered commit_unknown_result has committed version -1 even when the store applied it,
// and its versionstamp answers transaction_invalid_version (2020). Before, the version the store
// gave, and 1021.
TEST(FdbCWithFaults, AnUnknownResultHasNoCommittedVersionNorVersionstamp) {
  FDBDatabase* db = nullptr;
  ASSERT_EQ(fdb_create_database(nullptr, &db), 0);
  int unknown = 0;
  for (int i = 0; i < 500 && unknown < 5; ++i) {
    FDBTransaction* tr = nullptr;
    ASSERT_EQ(fdb_database_create_transaction(db, &tr), 0);
    const std::string k = "unknown/" + std::to_string(i);
    fdb_transaction_set(tr, reinterpret_cast<const uint8_t*>(k.data()), int(k.size()),
                        reinterpret_cast<const uint8_t*>("v"), 1);
    FDBFuture* stamp = fdb_transaction_get_versionstamp(tr);
    const fdb_error_t e = wait_and_destroy(fdb_transaction_commit(tr));
    int64_t version = 0;
    EXPECT_EQ(fdb_transaction_get_committed_version(tr, &version), 0);
    const fdb_error_t stamp_error = wait_and_destroy(stamp);
    if (e == 1021) {
      ++unknown;
      EXPECT_EQ(version, -1) << "commit " << i;
      EXPECT_EQ(stamp_error, 2020) << "commit " << i;
    } else if (e == 0) {
      EXPECT_GT(version, 0) << "commit " << i;
      EXPECT_EQ(stamp_error, 0) << "commit " << i;
    }
    fdb_transaction_destroy(tr);
  }
  EXPECT_EQ(unknown, 5) << "a fifth of 500 commits answer commit_unknown_result here";
  fdb_database_destroy(db);
}

}  // namespace
