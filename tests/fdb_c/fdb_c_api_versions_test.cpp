// contend's libfdb_c at the API versions a program may select (610 to 730), each case in a child
// process of its own (a version is selected once per process): what FoundationDB 7.3's client
// answers differently below 630, 700 and 720 (fdb_c/api_version.h) — special keys read and
// written, a storage server's address, the read version after a commit, USE_GRV_CACHE, and
// which special key modules serve anything. Before, versions below 630 were refused, and every
// version was answered as 730. The same children show the client status of each client set-up.
#define FDB_API_VERSION 730
#include "fdb_c.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <string_view>
#include <thread>

// Exported for programs built with a header below 620 (fdb_c.h declares it for those only).
extern "C" fdb_error_t fdb_future_get_version(FDBFuture* f, int64_t* out_version);

namespace {

constexpr fdb_error_t kKeyOutsideLegalRange = 2004, kInvalidOption = 2007, kNetworkNotSetup = 2008;
constexpr fdb_error_t kReadVersionAlreadySet = 2010, kClientInvalidOperation = 2000;
constexpr fdb_error_t kSpecialKeysWriteDisabled = 2114, kApiVersionNotSupported = 2203;
constexpr int kIncludePortInAddress = 23, kUseGrvCache = 1101, kDisableClientBypass = 72;

// What a child process found: each check that did not hold, a line each.
class Checks {
 public:
  explicit Checks(int version) : version_(version) {}
  void equal(int64_t actual, int64_t expected, std::string_view what) {
    if (actual != expected) {
      failures_ += "API " + std::to_string(version_) + ", " + std::string(what) + ": " +
                   std::to_string(actual) + ", expected " + std::to_string(expected) + "\n";
    }
  }
  void text(std::string_view actual, std::string_view expected, std::string_view what) {
    if (actual != expected) {
      failures_ += "API " + std::to_string(version_) + ", " + std::string(what) + ": \"" +
                   std::string(actual) + "\", expected \"" + std::string(expected) + "\"\n";
    }
  }
  void holds(bool condition, std::string_view what) {
    if (!condition)
      failures_ += "API " + std::to_string(version_) + ": " + std::string(what) + "\n";
  }
  const std::string& failures() const { return failures_; }

 private:
  int version_;
  std::string failures_;
};

const uint8_t* bytes(std::string_view s) {
  return reinterpret_cast<const uint8_t*>(s.data());
}
int length(std::string_view s) {
  return static_cast<int>(s.size());
}

// Waits for `f`, keeps it for `read` (when given), destroys it, and returns its error.
fdb_error_t wait(FDBFuture* f, const std::function<void(FDBFuture*)>& read = {}) {
  fdb_future_block_until_ready(f);
  const fdb_error_t e = fdb_future_get_error(f);
  if (e == 0 && read) read(f);
  fdb_future_destroy(f);
  return e;
}

// A transaction of the child's database, destroyed with it.
class Transaction {
 public:
  explicit Transaction(FDBDatabase* db) {
    if (fdb_database_create_transaction(db, &tr_) != 0) std::abort();
  }
  ~Transaction() { fdb_transaction_destroy(tr_); }
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  FDBTransaction* operator*() const { return tr_; }

  fdb_error_t get(std::string_view key) {
    return wait(fdb_transaction_get(tr_, bytes(key), length(key), 0));
  }
  fdb_error_t range(std::string_view begin, std::string_view end) {
    return wait(fdb_transaction_get_range(
        tr_, FDB_KEYSEL_FIRST_GREATER_OR_EQUAL(bytes(begin), length(begin)),
        FDB_KEYSEL_FIRST_GREATER_OR_EQUAL(bytes(end), length(end)), 0, 0,
        FDB_STREAMING_MODE_WANT_ALL, 0, 0, 0));
  }
  fdb_error_t mapped(std::string_view begin, std::string_view end) {
    constexpr std::string_view kMapper("\x01{K[1]}\x00\x00", 10);  // ("{K[1]}",)
    return wait(fdb_transaction_get_mapped_range(
        tr_, FDB_KEYSEL_FIRST_GREATER_OR_EQUAL(bytes(begin), length(begin)),
        FDB_KEYSEL_FIRST_GREATER_OR_EQUAL(bytes(end), length(end)), bytes(kMapper), length(kMapper),
        0, 0, FDB_STREAMING_MODE_WANT_ALL, 0, 0, 0));
  }
  int64_t read_version() {
    int64_t version = -1;
    wait(fdb_transaction_get_read_version(tr_),
         [&](FDBFuture* f) { fdb_future_get_int64(f, &version); });
    return version;
  }
  fdb_error_t commit() { return wait(fdb_transaction_commit(tr_)); }
  std::string address() {
    std::string first;
    wait(fdb_transaction_get_addresses_for_key(tr_, bytes("k"), 1), [&](FDBFuture* f) {
      const char** strings = nullptr;
      int count = 0;
      if (fdb_future_get_string_array(f, &strings, &count) == 0 && count > 0) first = strings[0];
    });
    return first;
  }
  fdb_error_t flag(int option) {
    return fdb_transaction_set_option(tr_, static_cast<FDBTransactionOption>(option), nullptr, 0);
  }

 private:
  FDBTransaction* tr_ = nullptr;
};

// Runs `body` in a child process that selected API `version` (with header version `header`), set
// `network_flags`, set up and runs the network, and opened the database (refused before the
// set-up: network_not_setup, as MultiVersionApi's); the child exits 0 when every check held,
// else 1 after writing those that did not to stderr (which the failure shows).
void at_api_version(int version, const std::function<void(Checks&, FDBDatabase*)>& body,
                    std::initializer_list<int> network_flags = {}, int header = FDB_API_VERSION) {
  EXPECT_EXIT(
      {
        unsetenv("CONTEND_FDB_CONFIG");
        unsetenv("CONTEND_FDB_LOG");
        Checks checks(version);
        checks.equal(fdb_select_api_version_impl(version, header), 0, "selected");
        for (int option : network_flags)
          fdb_network_set_option(static_cast<FDBNetworkOption>(option), nullptr, 0);
        FDBDatabase* db = nullptr;
        checks.equal(fdb_create_database(nullptr, &db), kNetworkNotSetup,
                     "a database before the network is set up");
        checks.equal(fdb_setup_network(), 0, "network set up");
        std::thread network([] { fdb_run_network(); });
        checks.equal(fdb_create_database(nullptr, &db), 0, "database");
        if (db != nullptr) body(checks, db);
        fdb_database_destroy(db);
        fdb_stop_network();
        network.join();
        std::fputs(checks.failures().c_str(), stderr);
        std::exit(checks.failures().empty() ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

// fdb_future_get_version on a read version's future: `expected`, and the version when it answers.
void legacy_get_version(Checks& checks, FDBDatabase* db, fdb_error_t expected) {
  Transaction tr(db);
  FDBFuture* f = fdb_transaction_get_read_version(*tr);
  checks.equal(fdb_future_block_until_ready(f), 0, "read version");
  int64_t version = -1;
  checks.equal(fdb_future_get_version(f, &version), expected, "fdb_future_get_version");
  checks.holds(expected != 0 || version > 0, "the version read through fdb_future_get_version");
  fdb_future_destroy(f);
}

TEST(FdbCApiVersions, VersionsFrom610AreServedAndTheHeaderVersionKeepsLegacyNames) {
  EXPECT_EXIT(
      std::exit(fdb_select_api_version_impl(609, FDB_API_VERSION) == kApiVersionNotSupported ? 0
                                                                                             : 1),
      ::testing::ExitedWithCode(0), "")
      << "609 is refused";
  at_api_version(
      610, [](Checks& c, FDBDatabase* db) { legacy_get_version(c, db, 0); }, {}, 610);
  // FoundationDB's library aborts the process; this one answers.
  at_api_version(
      730, [](Checks& c, FDBDatabase* db) { legacy_get_version(c, db, kClientInvalidOperation); });
}

// Reads of the special key space, which RYW serves from API 630; below, each is a read past the
// legal range, but a mapped read from \xff\xff/worker_interfaces (client_invalid_operation).
void special_key_reads(Checks& checks, FDBDatabase* db, bool served) {
  const std::string_view read_ranges = "\xff\xff/transaction/read_conflict_range/";
  const std::string_view module_end = "\xff\xff/transaction0";
  const fdb_error_t refused = served ? 0 : kKeyOutsideLegalRange;
  checks.equal(Transaction(db).get(read_ranges), refused, "get of a special key");
  checks.equal(Transaction(db).range(read_ranges, module_end), refused, "range of special keys");
  if (!served) {  // RYW's own answer below 630: every worker's interface (not modelled)
    checks.equal(Transaction(db).range("\xff\xff/worker_interfaces", "\xff\xff/worker_interfaces0"),
                 kKeyOutsideLegalRange, "range from \\xff\\xff/worker_interfaces");
  }
  checks.equal(Transaction(db).mapped(read_ranges, module_end),
               served ? kClientInvalidOperation : kKeyOutsideLegalRange,
               "mapped range of special keys");
  checks.equal(Transaction(db).mapped("\xff\xff/worker_interfaces", module_end),
               kClientInvalidOperation, "mapped range from \\xff\\xff/worker_interfaces");
}

TEST(FdbCApiVersions, SpecialKeysAreReadFromTheSpecialKeySpaceFrom630) {
  at_api_version(620, [](Checks& c, FDBDatabase* db) { special_key_reads(c, db, false); });
  at_api_version(630, [](Checks& c, FDBDatabase* db) { special_key_reads(c, db, true); });
  at_api_version(730, [](Checks& c, FDBDatabase* db) { special_key_reads(c, db, true); });
}

// Writes of special keys, the reboot key's too: the special key space refuses them from API 700
// (special_keys_write_disabled), a write past the legal range below. Deferred: the next read
// answers it.
void special_key_writes(Checks& checks, FDBDatabase* db, fdb_error_t expected) {
  for (std::string_view key : {"\xff\xff/management/options/x", "\xff\xff/reboot_worker"}) {
    Transaction set(db);
    fdb_transaction_set(*set, bytes(key), length(key), bytes("v"), 1);
    checks.equal(set.get("a"), expected, "a read after a set of " + std::string(key.substr(2)));
    Transaction clear(db);
    fdb_transaction_clear(*clear, bytes(key), length(key));
    checks.equal(clear.get("a"), expected, "a read after a clear of " + std::string(key.substr(2)));
  }
  Transaction clear_range(db);
  fdb_transaction_clear_range(*clear_range, bytes("\xff\xff/a"), 4, bytes("\xff\xff/b"), 4);
  checks.equal(clear_range.get("a"), expected, "a read after a clear of a special range");
}

TEST(FdbCApiVersions, SpecialKeysAreWrittenToTheSpecialKeySpaceFrom700) {
  at_api_version(
      620, [](Checks& c, FDBDatabase* db) { special_key_writes(c, db, kKeyOutsideLegalRange); });
  at_api_version(
      699, [](Checks& c, FDBDatabase* db) { special_key_writes(c, db, kKeyOutsideLegalRange); });
  at_api_version(700, [](Checks& c, FDBDatabase* db) {
    special_key_writes(c, db, kSpecialKeysWriteDisabled);
  });
}

// Which modules serve what: below 700 only the tenant map of the management module is served
// (not modelled here: key_outside_legal_range), the rest of it and the modules registered from
// 700 answer nothing; from 700 those are served (not modelled). The error message module holds
// no message at any version (no special key is ever written here).
void special_key_modules(Checks& checks, FDBDatabase* db, bool from_700) {
  const fdb_error_t later = from_700 ? kKeyOutsideLegalRange : 0;
  checks.equal(Transaction(db).get("\xff\xff/management/tenant/map/t"), kKeyOutsideLegalRange,
               "the tenant map");
  checks.equal(Transaction(db).get("\xff\xff/management/options/x"), later,
               "the management module's options");
  checks.equal(Transaction(db).get("\xff\xff/configuration/coordinators"), later,
               "the configuration module");
  checks.equal(Transaction(db).get("\xff\xff/global_config/x"), later, "global configuration");
  checks.equal(Transaction(db).get("\xff\xff/error_message"), 0, "the error message");
  checks.equal(Transaction(db).get("\xff\xff/metrics/health/x"), kKeyOutsideLegalRange,
               "the metrics module (from 630)");
}

TEST(FdbCApiVersions, ManagementModulesServeFrom700) {
  at_api_version(630, [](Checks& c, FDBDatabase* db) { special_key_modules(c, db, false); });
  at_api_version(710, [](Checks& c, FDBDatabase* db) { special_key_modules(c, db, true); });
}

TEST(FdbCApiVersions, AddressesNameThePortFrom630OrWhenAsked) {
  at_api_version(620, [](Checks& checks, FDBDatabase* db) {
    checks.text(Transaction(db).address(), "127.0.0.1", "an address");
    Transaction asked(db);
    checks.equal(asked.flag(kIncludePortInAddress), 0, "INCLUDE_PORT_IN_ADDRESS");
    checks.text(asked.address(), "127.0.0.1:4500", "an address with INCLUDE_PORT_IN_ADDRESS");
    // The database's default of it (TRANSACTION_INCLUDE_PORT_IN_ADDRESS, 505).
    checks.equal(fdb_database_set_option(db, static_cast<FDBDatabaseOption>(505), nullptr, 0), 0,
                 "TRANSACTION_INCLUDE_PORT_IN_ADDRESS");
    checks.text(Transaction(db).address(), "127.0.0.1:4500", "an address by the default");
  });
  at_api_version(630, [](Checks& checks, FDBDatabase* db) {
    checks.text(Transaction(db).address(), "127.0.0.1:4500", "an address");
  });
}

// After a commit is answered, below 700 the read version is asked anew (and may be set again);
// from 700 it is the one the transaction read at.
void read_version_after_commit(Checks& checks, FDBDatabase* db, bool asked_anew) {
  Transaction tr(db);
  const int64_t before = tr.read_version();
  fdb_transaction_set(*tr, bytes("k"), 1, bytes("v"), 1);
  checks.equal(tr.commit(), 0, "the commit");
  int64_t committed = -1;
  checks.equal(fdb_transaction_get_committed_version(*tr, &committed), 0, "committed version");
  const int64_t after = tr.read_version();
  if (asked_anew) {
    checks.holds(after >= committed && after > before,
                 "the read version after the commit is a new one, at least the commit's");
  } else {
    checks.equal(after, before, "the read version after the commit");
  }
  Transaction set_after(db);
  const int64_t granted = set_after.read_version();
  checks.equal(set_after.commit(), 0, "a read-only commit");
  fdb_transaction_set_read_version(*set_after, granted);
  checks.equal(wait(fdb_transaction_get_read_version(*set_after)),
               asked_anew ? 0 : kReadVersionAlreadySet, "a read version set after the commit");
}

TEST(FdbCApiVersions, ACommitResetsTheReadVersionBelow700) {
  at_api_version(630, [](Checks& c, FDBDatabase* db) { read_version_after_commit(c, db, true); });
  at_api_version(700, [](Checks& c, FDBDatabase* db) { read_version_after_commit(c, db, false); });
}

// USE_GRV_CACHE from 720 wants the cluster's shared state, which only the multi-version client
// makes (an external client, or DISABLE_CLIENT_BYPASS): invalid_option, deferred, without it.
void grv_cache(Checks& checks, FDBDatabase* db, fdb_error_t expected) {
  Transaction tr(db);
  checks.equal(tr.flag(kUseGrvCache), 0, "USE_GRV_CACHE (the call)");
  checks.equal(tr.get("a"), expected, "a read after USE_GRV_CACHE");
}

TEST(FdbCApiVersions, TheGrvCacheWantsTheMultiVersionClientFrom720) {
  at_api_version(710, [](Checks& c, FDBDatabase* db) { grv_cache(c, db, 0); });
  at_api_version(720, [](Checks& c, FDBDatabase* db) { grv_cache(c, db, kInvalidOption); });
  at_api_version(730, [](Checks& c, FDBDatabase* db) { grv_cache(c, db, 0); },
                 {kDisableClientBypass});
}

// The client status: without an external client MultiVersionApi bypasses the multi-version client
// (DISABLE_MULTI_VERSION_CLIENT_API too), and the database's own status answers; with
// DISABLE_CLIENT_BYPASS the multi-version database's, which holds it. Before, the multi-version
// client's answered by default and nothing with DISABLE_MULTI_VERSION_CLIENT_API.
std::string client_status(FDBDatabase* db) {
  std::string status;
  wait(fdb_database_get_client_status(db), [&](FDBFuture* f) {
    const uint8_t* text = nullptr;
    int text_length = 0;
    if (fdb_future_get_key(f, &text, &text_length) == 0)
      status.assign(reinterpret_cast<const char*>(text), text_length);
  });
  return status;
}

void database_status_answers(Checks& checks, FDBDatabase* db, bool multi_version) {
  const std::string status = client_status(db);
  const auto has = [&](std::string_view field) {
    return status.find("\"" + std::string(field) + "\":") != std::string::npos;
  };
  checks.holds(has("Coordinators") && has("StorageServers") && has("Healthy"),
               "the database's status in: " + status);
  checks.holds(
      has("AvailableClients") == multi_version && has("DatabaseStatus") == multi_version,
      std::string(multi_version ? "" : "no ") + "multi-version client's status: " + status);
  // A database whose connection string does not parse holds the parse's error.
  FDBDatabase* broken = nullptr;
  checks.equal(fdb_create_database_from_connection_string("no-at-sign", &broken), 0, "opened");
  const std::string failed = client_status(broken);
  const std::string expected =
      multi_version ? R"("InitializationError":2104,"InitializationState":"initialization_failed")"
                    : R"({"InitializationError":2104})";
  checks.holds(failed.find(expected) != std::string::npos, "a broken database's status: " + failed);
  fdb_database_destroy(broken);
}

TEST(FdbCApiVersions, TheClientStatusIsTheMultiVersionClientsOnlyWhenItIsUsed) {
  constexpr int kDisableMultiVersionClientApi = 60;
  at_api_version(730, [](Checks& c, FDBDatabase* db) { database_status_answers(c, db, false); });
  at_api_version(730, [](Checks& c, FDBDatabase* db) { database_status_answers(c, db, false); },
                 {kDisableMultiVersionClientApi});
  at_api_version(730, [](Checks& c, FDBDatabase* db) { database_status_answers(c, db, true); },
                 {kDisableClientBypass});
}

}  // namespace
