// For test programs of contend's libfdb_c that run it with a fault file (and a transaction log):
// a gtest environment that writes the TOML it is given to a scratch file, names it in
// CONTEND_FDB_CONFIG (and a scratch log in CONTEND_FDB_LOG), selects API version 730 and runs the
// network on a thread of its own; teardown stops it and removes both files. The library reads
// both variables once, when the network is set up, so a program holds one such environment.
// It reads the log back (log_lines) and has `contend serializable` judge a test's own lines.
// DatabaseTest: a fixture that opens the database before each test and closes it after.
#pragma once

#ifndef FDB_API_VERSION
#define FDB_API_VERSION 730
#endif
#include "fdb_c.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "future_waits.h"

namespace contend::fdb_testing {

// `bytes` in lowercase hex, as the transaction log writes keys and values.
inline std::string hex(const std::string& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

class ConfiguredNetwork : public ::testing::Environment {
 public:
  enum class Log { none, scratch };
  ConfiguredNetwork(std::string name, std::string config_toml, Log log)
      : config_toml_(std::move(config_toml)),
        config_path(scratch(name, "config.toml")),
        log_path(log == Log::scratch ? scratch(name, "log.jsonl") : std::string()) {}

  void SetUp() override {
    std::ofstream(config_path) << config_toml_;
    setenv("CONTEND_FDB_CONFIG", config_path.c_str(), 1);
    if (!log_path.empty()) setenv("CONTEND_FDB_LOG", log_path.c_str(), 1);
    ASSERT_EQ(fdb_select_api_version(FDB_API_VERSION), 0);
    ASSERT_EQ(fdb_setup_network(), 0);
    thread_ = std::thread([] { fdb_run_network(); });
  }
  void TearDown() override {
    fdb_stop_network();
    thread_.join();
    std::remove(config_path.c_str());
    if (!log_path.empty()) std::remove(log_path.c_str());
  }

 private:
  static std::string scratch(const std::string& name, const std::string& file) {
    return ::testing::TempDir() + "contend_" + name + "_" + std::to_string(getpid()) + "_" + file;
  }
  std::string config_toml_;

 public:
  const std::string config_path, log_path;  // log_path is empty without a log

  // The transaction log's lines so far.
  std::vector<std::string> log_lines() const {
    std::ifstream log(log_path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(log, line);)
      lines.push_back(line);
    return lines;
  }
  // `contend serializable`'s exit status (from std::system) for the log's lines from `from` on,
  // run by `contend` (the binary's path), and what it said into `said`: a test judges its own
  // commits (its keys alone) where other tests of the program wrote without conflict ranges.
  int judge_serializable(const std::string& contend, std::size_t from, std::string& said) const {
    const std::vector<std::string> lines = log_lines();
    const std::string own_log = log_path + ".judged", said_path = log_path + ".said";
    {
      std::ofstream out(own_log);
      for (std::size_t i = from; i < lines.size(); ++i)
        out << lines[i] << "\n";
    }
    const std::string command = contend + " serializable " + own_log + " > " + said_path + " 2>&1";
    const int status = std::system(command.c_str());
    std::ifstream said_file(said_path);
    said.assign(std::istreambuf_iterator<char>(said_file), std::istreambuf_iterator<char>());
    std::remove(said_path.c_str());
    std::remove(own_log.c_str());
    return status;
  }

 private:
  std::thread thread_;
};

// Each test with the database open; begin() starts a transaction of it (the test destroys it).
class DatabaseTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(fdb_create_database(nullptr, &db_), 0); }
  void TearDown() override { fdb_database_destroy(db_); }

  FDBTransaction* begin() {
    FDBTransaction* tr = nullptr;
    EXPECT_EQ(fdb_database_create_transaction(db_, &tr), 0);
    return tr;
  }

  FDBDatabase* db_ = nullptr;
};

}  // namespace contend::fdb_testing
