// contend's libfdb_c when its transaction log cannot be written: the process stops at the first
// commit the log would lack (status 74, the path and the commit on stderr) instead of going on
// with a log that `contend serializable` would misjudge. Its own binary: the library reads
// CONTEND_FDB_LOG once, when the network is first set up, and the death test sets it up in a
// child process of its own.
#define FDB_API_VERSION 730
#include "fdb_c.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>

#include "future_waits.h"

namespace {

using contend::fdb_testing::wait_and_destroy;

// Sets up the network with its log at `log_path` and commits one write; returns the commit's
// error (it does not return when the library stops the process).
fdb_error_t commit_one_write(const char* log_path) {
  setenv("CONTEND_FDB_LOG", log_path, 1);
  unsetenv("CONTEND_FDB_CONFIG");
  if (fdb_select_api_version(FDB_API_VERSION) != 0 || fdb_setup_network() != 0) return -1;
  std::thread network([] { fdb_run_network(); });
  network.detach();
  FDBDatabase* db = nullptr;
  FDBTransaction* tr = nullptr;
  if (fdb_create_database(nullptr, &db) != 0 || fdb_database_create_transaction(db, &tr) != 0)
    return -1;
  const uint8_t key[] = {'k'};
  const uint8_t value[] = {'v'};
  fdb_transaction_set(tr, key, 1, value, 1);
  return wait_and_destroy(fdb_transaction_commit(tr));
}

TEST(FdbCLogFullDisk, ACommitTheLogCannotHoldStopsTheProcessSayingWhy) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full here";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(std::exit(commit_one_write("/dev/full") == 0 ? 0 : 1), ::testing::ExitedWithCode(74),
              "contend libfdb_c: /dev/full: No space left on device \\(writing the transaction "
              "log\\); the log would lack client 0's commit of transaction [0-9]+, so the process "
              "stops");
}

}  // namespace
