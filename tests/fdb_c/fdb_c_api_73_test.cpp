// contend's libfdb_c exports every function of FoundationDB 7.3's fdb_c.h (96), so that programs
// and bindings linked against them load — the Java binding's JNI library and the Python binding's
// ctypes set-up reach tenants, blob granules and client status — and each answers as a cluster of
// one in-process store does: a database from a connection string, completion hooks, one protocol
// version, no worker to reboot, tenants with the tenant mode disabled (tenants_disabled, 2136),
// and unsupported_operation (2108) for blob granules and the tag-throttling cost (mapped ranges
// are served: fdb_c_mapped_range_test).
// Before, 47 of the 96 were not exported: such a program failed to load with an undefined symbol.
#include "configured_network.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

using contend::fdb_testing::ConfiguredNetwork;
using contend::fdb_testing::wait_and_destroy;

[[maybe_unused]] auto* const network = ::testing::AddGlobalTestEnvironment(
    new ConfiguredNetwork("fdb_c_api_73_test", "seed = 5\n", ConfiguredNetwork::Log::none));

constexpr fdb_error_t kClientInvalidOperation = 2000, kFutureNotSet = 2015;
constexpr fdb_error_t kOperationCancelled = 1101;
constexpr fdb_error_t kUnsupportedOperation = 2108, kTenantsDisabled = 2136;
constexpr uint64_t kProtocolVersion73 = 0x0FDB00B073000000ULL;

// FoundationDB 7.3's structures, laid out as its header lays them out (64-bit).
static_assert(sizeof(FDBKeySelector) == 20);
static_assert(sizeof(FDBGetRangeReqAndResult) == 56);
static_assert(sizeof(FDBMappedKeyValue) == 112);
static_assert(sizeof(FDBKeyRange) == 24);
static_assert(sizeof(FDBGranuleSummary) == 56);
static_assert(sizeof(FDBBGTenantPrefix) == 16);
static_assert(sizeof(FDBBGEncryptionKey) == 40);
static_assert(sizeof(FDBBGEncryptionCtx) == 104);
static_assert(sizeof(FDBBGFilePointer) == 148);
static_assert(sizeof(FDBBGMutation) == 36);
static_assert(sizeof(FDBBGFileDescription) == 216);

// Every function FoundationDB 7.3's fdb_c.h declares, by name and as this library's header
// declares it.
struct Exported {
  const char* name;
  void* address;
};
#define CONTEND_EXPORTED(f)           \
  Exported {                          \
#f, reinterpret_cast < void*>(&f) \
  }
const std::vector<Exported>& foundationdb_73_functions() {
  static const std::vector<Exported> functions{
      CONTEND_EXPORTED(fdb_get_error),
      CONTEND_EXPORTED(fdb_error_predicate),
      CONTEND_EXPORTED(fdb_network_set_option),
      CONTEND_EXPORTED(fdb_setup_network),
      CONTEND_EXPORTED(fdb_run_network),
      CONTEND_EXPORTED(fdb_stop_network),
      CONTEND_EXPORTED(fdb_add_network_thread_completion_hook),
      CONTEND_EXPORTED(fdb_future_cancel),
      CONTEND_EXPORTED(fdb_future_release_memory),
      CONTEND_EXPORTED(fdb_future_destroy),
      CONTEND_EXPORTED(fdb_future_block_until_ready),
      CONTEND_EXPORTED(fdb_future_is_ready),
      CONTEND_EXPORTED(fdb_future_set_callback),
      CONTEND_EXPORTED(fdb_future_get_error),
      CONTEND_EXPORTED(fdb_future_get_bool),
      CONTEND_EXPORTED(fdb_future_get_int64),
      CONTEND_EXPORTED(fdb_future_get_uint64),
      CONTEND_EXPORTED(fdb_future_get_double),
      CONTEND_EXPORTED(fdb_future_get_key),
      CONTEND_EXPORTED(fdb_future_get_value),
      CONTEND_EXPORTED(fdb_future_get_keyvalue_array),
      CONTEND_EXPORTED(fdb_future_get_mappedkeyvalue_array),
      CONTEND_EXPORTED(fdb_future_get_key_array),
      CONTEND_EXPORTED(fdb_future_get_string_array),
      CONTEND_EXPORTED(fdb_future_get_keyrange_array),
      CONTEND_EXPORTED(fdb_future_get_granule_summary_array),
      CONTEND_EXPORTED(fdb_future_readbg_get_descriptions),
      CONTEND_EXPORTED(fdb_readbg_parse_snapshot_file),
      CONTEND_EXPORTED(fdb_readbg_parse_delta_file),
      CONTEND_EXPORTED(fdb_result_destroy),
      CONTEND_EXPORTED(fdb_result_get_keyvalue_array),
      CONTEND_EXPORTED(fdb_result_get_bg_mutations_array),
      CONTEND_EXPORTED(fdb_create_database),
      CONTEND_EXPORTED(fdb_create_database_from_connection_string),
      CONTEND_EXPORTED(fdb_database_destroy),
      CONTEND_EXPORTED(fdb_database_set_option),
      CONTEND_EXPORTED(fdb_database_open_tenant),
      CONTEND_EXPORTED(fdb_database_create_transaction),
      CONTEND_EXPORTED(fdb_database_reboot_worker),
      CONTEND_EXPORTED(fdb_database_force_recovery_with_data_loss),
      CONTEND_EXPORTED(fdb_database_create_snapshot),
      CONTEND_EXPORTED(fdb_database_get_main_thread_busyness),
      CONTEND_EXPORTED(fdb_database_get_server_protocol),
      CONTEND_EXPORTED(fdb_database_purge_blob_granules),
      CONTEND_EXPORTED(fdb_database_wait_purge_granules_complete),
      CONTEND_EXPORTED(fdb_database_blobbify_range),
      CONTEND_EXPORTED(fdb_database_blobbify_range_blocking),
      CONTEND_EXPORTED(fdb_database_unblobbify_range),
      CONTEND_EXPORTED(fdb_database_list_blobbified_ranges),
      CONTEND_EXPORTED(fdb_database_verify_blob_range),
      CONTEND_EXPORTED(fdb_database_flush_blob_range),
      CONTEND_EXPORTED(fdb_database_get_client_status),
      CONTEND_EXPORTED(fdb_tenant_create_transaction),
      CONTEND_EXPORTED(fdb_tenant_purge_blob_granules),
      CONTEND_EXPORTED(fdb_tenant_wait_purge_granules_complete),
      CONTEND_EXPORTED(fdb_tenant_blobbify_range),
      CONTEND_EXPORTED(fdb_tenant_blobbify_range_blocking),
      CONTEND_EXPORTED(fdb_tenant_unblobbify_range),
      CONTEND_EXPORTED(fdb_tenant_list_blobbified_ranges),
      CONTEND_EXPORTED(fdb_tenant_verify_blob_range),
      CONTEND_EXPORTED(fdb_tenant_flush_blob_range),
      CONTEND_EXPORTED(fdb_tenant_get_id),
      CONTEND_EXPORTED(fdb_tenant_destroy),
      CONTEND_EXPORTED(fdb_transaction_destroy),
      CONTEND_EXPORTED(fdb_transaction_cancel),
      CONTEND_EXPORTED(fdb_transaction_set_option),
      CONTEND_EXPORTED(fdb_transaction_set_read_version),
      CONTEND_EXPORTED(fdb_transaction_get_read_version),
      CONTEND_EXPORTED(fdb_transaction_get),
      CONTEND_EXPORTED(fdb_transaction_get_key),
      CONTEND_EXPORTED(fdb_transaction_get_addresses_for_key),
      CONTEND_EXPORTED(fdb_transaction_get_range),
      CONTEND_EXPORTED(fdb_transaction_get_mapped_range),
      CONTEND_EXPORTED(fdb_transaction_set),
      CONTEND_EXPORTED(fdb_transaction_atomic_op),
      CONTEND_EXPORTED(fdb_transaction_clear),
      CONTEND_EXPORTED(fdb_transaction_clear_range),
      CONTEND_EXPORTED(fdb_transaction_watch),
      CONTEND_EXPORTED(fdb_transaction_commit),
      CONTEND_EXPORTED(fdb_transaction_get_committed_version),
      CONTEND_EXPORTED(fdb_transaction_get_tag_throttled_duration),
      CONTEND_EXPORTED(fdb_transaction_get_total_cost),
      CONTEND_EXPORTED(fdb_transaction_get_approximate_size),
      CONTEND_EXPORTED(fdb_transaction_get_versionstamp),
      CONTEND_EXPORTED(fdb_transaction_on_error),
      CONTEND_EXPORTED(fdb_transaction_reset),
      CONTEND_EXPORTED(fdb_transaction_add_conflict_range),
      CONTEND_EXPORTED(fdb_transaction_get_estimated_range_size_bytes),
      CONTEND_EXPORTED(fdb_transaction_get_range_split_points),
      CONTEND_EXPORTED(fdb_transaction_get_blob_granule_ranges),
      CONTEND_EXPORTED(fdb_transaction_read_blob_granules),
      CONTEND_EXPORTED(fdb_transaction_summarize_blob_granules),
      CONTEND_EXPORTED(fdb_transaction_read_blob_granules_description),
      CONTEND_EXPORTED(fdb_select_api_version_impl),
      CONTEND_EXPORTED(fdb_get_max_api_version),
      CONTEND_EXPORTED(fdb_get_client_version),
  };
  return functions;
}
#undef CONTEND_EXPORTED

const uint8_t* bytes(const std::string& s) {
  return reinterpret_cast<const uint8_t*>(s.data());
}
int length(const std::string& s) {
  return static_cast<int>(s.size());
}

// The error `f` is ready with (it is destroyed), or -1 when it is not ready within two seconds.
fdb_error_t error_soon(FDBFuture* f) {
  return contend::fdb_testing::error_within(f, std::chrono::seconds(2));
}

TEST(FdbCExports, EveryFunctionOfFoundationDB73sHeaderIsExportedUnderItsName) {
  ASSERT_EQ(foundationdb_73_functions().size(), 96u);
  void* library = dlopen(CONTEND_FDB_C_LIBRARY, RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(library, nullptr) << dlerror();
  std::vector<std::string> missing, elsewhere;
  for (const Exported& f : foundationdb_73_functions()) {
    void* found = dlsym(library, f.name);
    if (found == nullptr)
      missing.push_back(f.name);
    else if (found != f.address)
      elsewhere.push_back(f.name);
  }
  dlclose(library);
  EXPECT_TRUE(missing.empty()) << "not exported: " << ::testing::PrintToString(missing);
  EXPECT_TRUE(elsewhere.empty()) << "exported apart from the header's declaration: "
                                 << ::testing::PrintToString(elsewhere);
}

class FdbCApi73 : public contend::fdb_testing::DatabaseTest {};

TEST_F(FdbCApi73, TheNewFutureKindsAreReadOnlyFromFuturesOfTheirKind) {
  FDBTransaction* tr = begin();
  FDBFuture* version = fdb_transaction_get_read_version(tr);
  ASSERT_EQ(fdb_future_block_until_ready(version), 0);
  fdb_bool_t flag = 7;
  uint64_t unsigned_value = 7;
  double real = 7;
  EXPECT_EQ(fdb_future_get_bool(version, &flag), kClientInvalidOperation);
  EXPECT_EQ(fdb_future_get_uint64(version, &unsigned_value), kClientInvalidOperation);
  EXPECT_EQ(fdb_future_get_double(version, &real), kClientInvalidOperation);
  const FDBKeyRange* ranges = nullptr;
  const FDBMappedKeyValue* mapped = nullptr;
  const FDBGranuleSummary* summaries = nullptr;
  FDBBGFileDescription* descriptions = nullptr;
  int count = 7;
  fdb_bool_t more = 7;
  EXPECT_EQ(fdb_future_get_keyrange_array(version, &ranges, &count), kClientInvalidOperation);
  EXPECT_EQ(fdb_future_get_mappedkeyvalue_array(version, &mapped, &count, &more),
            kClientInvalidOperation);
  EXPECT_EQ(fdb_future_get_granule_summary_array(version, &summaries, &count),
            kClientInvalidOperation);
  EXPECT_EQ(fdb_future_readbg_get_descriptions(version, &descriptions, &count),
            kClientInvalidOperation);
  EXPECT_EQ(fdb_future_get_double(version, nullptr), kClientInvalidOperation);
  EXPECT_EQ(std::make_tuple(flag, unsigned_value, real, count, more),
            std::make_tuple(7, 7u, 7.0, 7, 7))
      << "a refused get writes nothing";
  fdb_future_destroy(version);

  FDBFuture* throttled = fdb_transaction_get_tag_throttled_duration(tr);
  ASSERT_EQ(fdb_future_block_until_ready(throttled), 0);
  EXPECT_EQ(fdb_future_get_double(throttled, &real), 0);
  EXPECT_EQ(real, 0.0) << "no proxy queues a transaction here";
  int64_t signed_value = 0;
  EXPECT_EQ(fdb_future_get_int64(throttled, &signed_value), kClientInvalidOperation);
  fdb_future_destroy(throttled);
  fdb_transaction_destroy(tr);
}

TEST_F(FdbCApi73, ADatabaseFromAConnectionStringIsTheSameDatabase) {
  FDBDatabase* other = nullptr;
  EXPECT_EQ(fdb_create_database_from_connection_string(nullptr, &other), kClientInvalidOperation);
  ASSERT_EQ(fdb_create_database_from_connection_string("test:abcd@127.0.0.1:4500", &other), 0);
  const std::string key = "connection-string/key", value = "written through the first handle";
  FDBTransaction* writer = begin();
  fdb_transaction_set(writer, bytes(key), length(key), bytes(value), length(value));
  ASSERT_EQ(wait_and_destroy(fdb_transaction_commit(writer)), 0);
  fdb_transaction_destroy(writer);

  FDBTransaction* reader = nullptr;
  ASSERT_EQ(fdb_database_create_transaction(other, &reader), 0);
  FDBFuture* read = fdb_transaction_get(reader, bytes(key), length(key), 0);
  ASSERT_EQ(fdb_future_block_until_ready(read), 0);
  fdb_bool_t present = 0;
  const uint8_t* held = nullptr;
  int held_length = 0;
  ASSERT_EQ(fdb_future_get_value(read, &present, &held, &held_length), 0);
  EXPECT_TRUE(present);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(held), held_length), value);
  fdb_future_destroy(read);
  fdb_transaction_destroy(reader);

  FDBFuture* status = fdb_database_get_client_status(other);
  ASSERT_EQ(fdb_future_block_until_ready(status), 0);
  const uint8_t* text = nullptr;
  int text_length = 0;
  ASSERT_EQ(fdb_future_get_key(status, &text, &text_length), 0);
  const auto json = nlohmann::json::parse(
      std::string(reinterpret_cast<const char*>(text), text_length), nullptr, false);
  ASSERT_TRUE(json.is_object()) << "the client status is a JSON object";
  // Without an external client the multi-version client is bypassed: the status is the
  // database's own (fdb_c_api_versions_test has the multi-version client's).
  EXPECT_EQ(json.value("Healthy", false), true);
  EXPECT_FALSE(json.contains("AvailableClients"));
  ASSERT_TRUE(json.contains("Coordinators") && json["Coordinators"].is_array());
  EXPECT_EQ(json["Coordinators"].size(), 1U);
  EXPECT_EQ(json.value("CurrentCoordinator", ""), "127.0.0.1:4500");
  EXPECT_EQ(json.value("ClusterID", "").size(), 32U) << "a UID's text";
  ASSERT_TRUE(json.contains("Connections") && json["Connections"].is_array());
  EXPECT_EQ(json["Connections"][0].value("ProtocolVersion", ""), "fdb00b073000000");
  fdb_future_destroy(status);
  fdb_database_destroy(other);
}

// Connection strings as FoundationDB 7.3's client parses them (ClusterConnectionString,
// NetworkAddress::parse, Hostname::isHostname), each with what its database answers: 0 for one
// it parses; connection_string_invalid (2104) or, for a bracketed address whose port std::stoi
// cannot read, unknown_error (4000). Before, every string opened a working database.
struct ConnectionStringCase {
  std::string text;
  fdb_error_t error;
};
const std::vector<ConnectionStringCase>& connection_string_cases() {
  static const std::vector<ConnectionStringCase> cases = {
      {"desc:id@127.0.0.1:4500", 0},
      {"desc:id@127.0.0.1:4500,host.example:4500:tls", 0},
      {"a_b:C9@[::1]:4500,[::1]:4501", 0},
      {"asdf:2345@localhost:1234", 0},
      {"#a comment\n a:b@ 1.1.1.1:1 \n# and another", 0},
      {":@127.0.0.1:4500", 0},
      {"a:b@127.0.0.1:4500:tls,127.0.0.1:4500", 0},
      {"a:b@localhost:4500,127.0.0.1:4500", 0},
      {"a:b@123:4500", 0},
      {"a:b@[127.0.0.1]:4500", 0},
      {"a:b@[fe80::1%eth0]:4500,[fe80::1%1]:4501,[::1%]:4500", 0},
      {"a:b@[fe80::1%eth0]:4500,[fe80::1%lo]:4500", 2104},
      {"a:b@[127.0.0.1%eth0]:4500", 2104},
      {"a:b@[fe80::1%eth0:4500", 2104},
      {"desc:id", 2104},
      {"", 2104},
      {"descid@1.1.1.1:1", 2104},
      {"de-sc:id@1.1.1.1:1", 2104},
      {"desc:i_d@1.1.1.1:1", 2104},
      {"desc:a:b@1.1.1.1:1", 2104},
      {"a:b@", 2104},
      {"a:b@1.1.1.1:1,", 2104},
      {"a:b@,1.1.1.1:1", 2104},
      {"a:b@1.1.1.1:345,1.1.1.1:345", 2104},
      {"a:b@[127.0.0.1]:4500,127.0.0.1:4500", 2104},
      {"a:b@localhost:1234,localhost:1234", 2104},
      {"a:b@localhost", 2104},
      {"a:b@localhost:http", 2104},
      {"a:b@localhost:4500:TLS", 2104},
      {"a:b@1.2.3.4.5:6", 2104},
      {"a:b@1234:5", 2104},
      {"a:b@1.2.3.4:5x", 2104},
      {"a:b@::1:4500", 2104},
      {"a:b@[::1]4500", 2104},
      {"a:b@[zz::1]:1", 2104},
      {"a:b@[::1]:", 4000},
      {"a:b@[::1]:abc", 4000},
  };
  return cases;
}

TEST_F(FdbCApi73, AConnectionStringFoundationDBCannotParseFailsItsDatabasesUses) {
  constexpr int kUnknownOption = 99999, kTransactionTimeout = 500;
  EXPECT_STREQ(fdb_get_error(2104), "Connection string invalid");
  for (const ConnectionStringCase& c : connection_string_cases()) {
    SCOPED_TRACE("connection string \"" + c.text + "\"");
    FDBDatabase* db = nullptr;
    ASSERT_EQ(fdb_create_database_from_connection_string(c.text.c_str(), &db), 0)
        << "FoundationDB parses it on its network thread, after the call";
    FDBTransaction* tr = nullptr;
    ASSERT_EQ(fdb_database_create_transaction(db, &tr), 0);
    EXPECT_EQ(error_soon(fdb_transaction_get_read_version(tr)), c.error);
    EXPECT_EQ(error_soon(fdb_transaction_get(tr, bytes("k"), 1, 0)), c.error);
    fdb_transaction_reset(tr);
    EXPECT_EQ(error_soon(fdb_transaction_commit(tr)), c.error) << "after a reset too";
    fdb_transaction_destroy(tr);
    EXPECT_EQ(error_soon(fdb_database_get_server_protocol(db, 0)), c.error);
    const int64_t timeout_ms = 1000;
    EXPECT_EQ(fdb_database_set_option(db, static_cast<FDBDatabaseOption>(kTransactionTimeout),
                                      reinterpret_cast<const uint8_t*>(&timeout_ms), 8),
              0);
    EXPECT_EQ(
        fdb_database_set_option(db, static_cast<FDBDatabaseOption>(kUnknownOption), nullptr, 0),
        2007);
    FDBFuture* status = fdb_database_get_client_status(db);
    ASSERT_EQ(fdb_future_block_until_ready(status), 0);
    const uint8_t* text = nullptr;
    int text_length = 0;
    ASSERT_EQ(fdb_future_get_key(status, &text, &text_length), 0);
    const std::string report(reinterpret_cast<const char*>(text), text_length);
    if (c.error == 0) {
      EXPECT_NE(report.find("\"Healthy\":true"), std::string::npos) << report;
    } else {
      EXPECT_EQ(report, "{\"InitializationError\":" + std::to_string(c.error) + "}");
    }
    fdb_future_destroy(status);
    fdb_database_destroy(db);
  }
}

TEST_F(FdbCApi73, TheClusterAnswersAsOneInProcessStore) {
  FDBFuture* protocol = fdb_database_get_server_protocol(db_, 0);
  ASSERT_EQ(fdb_future_block_until_ready(protocol), 0);
  uint64_t version = 0;
  EXPECT_EQ(fdb_future_get_uint64(protocol, &version), 0);
  EXPECT_EQ(version, kProtocolVersion73);
  fdb_future_destroy(protocol);
  FDBFuture* changed = fdb_database_get_server_protocol(db_, 0x0FDB00B072000000ULL);
  ASSERT_EQ(fdb_future_block_until_ready(changed), 0);
  EXPECT_EQ(fdb_future_get_uint64(changed, &version), 0);
  EXPECT_EQ(version, kProtocolVersion73) << "a version other than the expected one answers now";
  fdb_future_destroy(changed);
  FDBFuture* unchanged = fdb_database_get_server_protocol(db_, kProtocolVersion73);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(fdb_future_is_ready(unchanged)) << "it waits for the version to change";
  EXPECT_EQ(fdb_future_get_uint64(unchanged, &version), kFutureNotSet);
  fdb_future_cancel(unchanged);
  EXPECT_EQ(error_soon(unchanged), kOperationCancelled);
  fdb_future_destroy(fdb_database_get_server_protocol(db_, kProtocolVersion73));

  const std::string address = "127.0.0.1:4500";
  FDBFuture* reboot = fdb_database_reboot_worker(db_, bytes(address), length(address), 0, 0);
  ASSERT_EQ(fdb_future_block_until_ready(reboot), 0);
  int64_t sent = -1;
  EXPECT_EQ(fdb_future_get_int64(reboot, &sent), 0);
  EXPECT_EQ(sent, 0) << "no worker is rebooted";
  fdb_future_destroy(reboot);
  EXPECT_EQ(fdb_database_get_main_thread_busyness(db_), 0.0);
  const std::string uid = "0123456789abcdef0123456789abcdef", command = "snap";
  EXPECT_EQ(error_soon(fdb_database_create_snapshot(db_, bytes(uid), length(uid), bytes(command),
                                                    length(command))),
            kUnsupportedOperation);
  EXPECT_EQ(error_soon(fdb_database_force_recovery_with_data_loss(db_, bytes(uid), 4)),
            kUnsupportedOperation);
  EXPECT_EQ(error_soon(fdb_database_force_recovery_with_data_loss(db_, bytes(uid), -1)),
            kClientInvalidOperation);
  EXPECT_EQ(error_soon(fdb_database_get_client_status(nullptr)), kClientInvalidOperation);
  EXPECT_STREQ(fdb_get_error(kUnsupportedOperation), "Operation is not supported");
  EXPECT_STREQ(fdb_get_error(kTenantsDisabled), "Tenants have been disabled in the cluster");
}

TEST_F(FdbCApi73, ATenantsTransactionIsRefusedAtItsFirstUseWithTenantsDisabled) {
  const std::string name = "tenant";
  FDBTenant* tenant = nullptr;
  EXPECT_EQ(fdb_database_open_tenant(db_, bytes(name), -1, &tenant), kClientInvalidOperation);
  ASSERT_EQ(fdb_database_open_tenant(db_, bytes(name), length(name), &tenant), 0);
  EXPECT_EQ(error_soon(fdb_tenant_get_id(tenant)), kTenantsDisabled);
  FDBTransaction* tr = nullptr;
  ASSERT_EQ(fdb_tenant_create_transaction(tenant, &tr), 0);
  const std::string key = "tenant/key", end = "tenant/kez";
  EXPECT_EQ(error_soon(fdb_transaction_get_read_version(tr)), 0) << "a read version is given";
  EXPECT_EQ(error_soon(fdb_transaction_get(tr, bytes(key), length(key), 0)), kTenantsDisabled);
  EXPECT_EQ(error_soon(fdb_transaction_get_range(
                tr, FDB_KEYSEL_FIRST_GREATER_OR_EQUAL(bytes(key), length(key)),
                FDB_KEYSEL_FIRST_GREATER_OR_EQUAL(bytes(end), length(end)), 0, 0,
                FDB_STREAMING_MODE_WANT_ALL, 1, 0, 0)),
            kTenantsDisabled);
  EXPECT_EQ(error_soon(fdb_transaction_watch(tr, bytes(key), length(key))), kTenantsDisabled);
  fdb_transaction_set(tr, bytes(key), length(key), bytes(key), length(key));
  EXPECT_EQ(error_soon(fdb_transaction_commit(tr)), kTenantsDisabled);
  EXPECT_EQ(error_soon(fdb_transaction_on_error(tr, kTenantsDisabled)), kTenantsDisabled)
      << "not retryable";
  fdb_transaction_reset(tr);
  EXPECT_EQ(error_soon(fdb_transaction_get(tr, bytes(key), length(key), 0)), kTenantsDisabled)
      << "after a reset too";
  fdb_transaction_destroy(tr);
  fdb_tenant_destroy(tenant);

  FDBTransaction* plain = begin();
  FDBFuture* read = fdb_transaction_get(plain, bytes(key), length(key), 0);
  ASSERT_EQ(fdb_future_block_until_ready(read), 0);
  fdb_bool_t present = 1;
  const uint8_t* value = nullptr;
  int value_length = 0;
  ASSERT_EQ(fdb_future_get_value(read, &present, &value, &value_length), 0);
  EXPECT_FALSE(present) << "the tenant's write was never committed";
  fdb_future_destroy(read);
  fdb_transaction_destroy(plain);
}

// A call of what the store does not model, answering a future.
struct NotModelledCall {
  std::string what;
  FDBFuture* future;
  bool takes_range;  // begin and end keys: an inverted range is inverted_range (2005)
};

// Every such call on `db`, `tenant` and `tr`, with the keys `b` and `e` ([b, e) where a call
// takes a range).
std::vector<NotModelledCall> not_modelled_calls(FDBDatabase* db, FDBTenant* tenant,
                                                FDBTransaction* tr, const std::string& b,
                                                const std::string& e) {
  const uint8_t *bp = bytes(b), *ep = bytes(e);
  const int bn = length(b), en = length(e);
  return {
      {"database purge", fdb_database_purge_blob_granules(db, bp, bn, ep, en, 1, 0), true},
      {"database wait purge", fdb_database_wait_purge_granules_complete(db, bp, bn), false},
      {"database blobbify", fdb_database_blobbify_range(db, bp, bn, ep, en), true},
      {"database blobbify blocking", fdb_database_blobbify_range_blocking(db, bp, bn, ep, en),
       true},
      {"database unblobbify", fdb_database_unblobbify_range(db, bp, bn, ep, en), true},
      {"database list", fdb_database_list_blobbified_ranges(db, bp, bn, ep, en, 10), true},
      {"database verify", fdb_database_verify_blob_range(db, bp, bn, ep, en, 1), true},
      {"database flush", fdb_database_flush_blob_range(db, bp, bn, ep, en, 0, 1), true},
      {"database recovery", fdb_database_force_recovery_with_data_loss(db, bp, bn), false},
      {"database snapshot", fdb_database_create_snapshot(db, bp, bn, ep, en), false},
      {"tenant purge", fdb_tenant_purge_blob_granules(tenant, bp, bn, ep, en, 1, 0), true},
      {"tenant wait purge", fdb_tenant_wait_purge_granules_complete(tenant, bp, bn), false},
      {"tenant blobbify", fdb_tenant_blobbify_range(tenant, bp, bn, ep, en), true},
      {"tenant blobbify blocking", fdb_tenant_blobbify_range_blocking(tenant, bp, bn, ep, en),
       true},
      {"tenant unblobbify", fdb_tenant_unblobbify_range(tenant, bp, bn, ep, en), true},
      {"tenant list", fdb_tenant_list_blobbified_ranges(tenant, bp, bn, ep, en, 10), true},
      {"tenant verify", fdb_tenant_verify_blob_range(tenant, bp, bn, ep, en, 1), true},
      {"tenant flush", fdb_tenant_flush_blob_range(tenant, bp, bn, ep, en, 0, 1), true},
      {"granule ranges", fdb_transaction_get_blob_granule_ranges(tr, bp, bn, ep, en, 9), true},
      {"summarize", fdb_transaction_summarize_blob_granules(tr, bp, bn, ep, en, 1, 9), true},
      {"description",
       fdb_transaction_read_blob_granules_description(tr, bp, bn, ep, en, 0, 1, nullptr), true},
      {"total cost", fdb_transaction_get_total_cost(tr), false},
  };
}

TEST_F(FdbCApi73, WhatTheStoreDoesNotModelAnswersUnsupportedOperation) {
  const std::string b = "a", e = "b";
  FDBTenant* tenant = nullptr;
  ASSERT_EQ(fdb_database_open_tenant(db_, bytes(b), length(b), &tenant), 0);
  FDBTransaction* tr = begin();
  std::vector<NotModelledCall> calls = not_modelled_calls(db_, tenant, tr, b, e);
  for (auto& [what, future, takes_range] : calls) {
    ASSERT_NE(future, nullptr) << what;
    EXPECT_EQ(fdb_future_block_until_ready(future), 0) << what;
    const FDBKeyRange* ranges = nullptr;
    int count = 0;
    EXPECT_EQ(fdb_future_get_keyrange_array(future, &ranges, &count), kUnsupportedOperation)
        << what << ": a getter answers the future's error";
    EXPECT_EQ(error_soon(future), kUnsupportedOperation) << what;
  }
  EXPECT_EQ(error_soon(fdb_database_blobbify_range(db_, bytes(b), -1, bytes(e), 1)),
            kClientInvalidOperation);
  EXPECT_EQ(error_soon(fdb_tenant_blobbify_range(nullptr, bytes(b), 1, bytes(e), 1)),
            kClientInvalidOperation);
  EXPECT_EQ(error_soon(fdb_transaction_get_mapped_range(
                tr, FDB_KEYSEL_FIRST_GREATER_OR_EQUAL(bytes(b), 1),
                FDB_KEYSEL_FIRST_GREATER_OR_EQUAL(bytes(e), 1), nullptr, 3, 0, 0,
                FDB_STREAMING_MODE_WANT_ALL, 1, 0, 0)),
            kClientInvalidOperation)
      << "a null mapper with a length";

  FDBReadBlobGranuleContext context{};
  FDBResult* read = fdb_transaction_read_blob_granules(tr, bytes(b), 1, bytes(e), 1, 0, 1, context);
  ASSERT_NE(read, nullptr);
  const FDBKeyValue* rows = nullptr;
  int count = 0;
  fdb_bool_t more = 0;
  EXPECT_EQ(fdb_result_get_keyvalue_array(read, &rows, &count, &more), kUnsupportedOperation);
  const FDBBGMutation* mutations = nullptr;
  EXPECT_EQ(fdb_result_get_bg_mutations_array(read, &mutations, &count), kUnsupportedOperation);
  EXPECT_EQ(fdb_result_get_keyvalue_array(read, nullptr, &count, &more), kClientInvalidOperation);
  fdb_result_destroy(read);
  FDBResult* parsed = fdb_readbg_parse_snapshot_file(bytes(b), -4, nullptr, nullptr);
  ASSERT_NE(parsed, nullptr);
  EXPECT_EQ(fdb_result_get_keyvalue_array(parsed, &rows, &count, &more), kClientInvalidOperation);
  fdb_result_destroy(parsed);
  parsed = fdb_readbg_parse_delta_file(bytes(b), 1, nullptr, nullptr);
  EXPECT_EQ(fdb_result_get_keyvalue_array(parsed, &rows, &count, &more), kUnsupportedOperation);
  fdb_result_destroy(parsed);
  fdb_transaction_destroy(tr);
  fdb_tenant_destroy(tenant);
}

// 7.3's ThreadSafeDatabase, ThreadSafeTenant and ThreadSafeTransaction call checkDeferredError
// before each of these calls, and before get_approximate_size, get_versionstamp and
// get_tag_throttled_duration: a database whose connection string FoundationDB cannot parse
// answers connection_string_invalid (2104) — its tenants' and transactions' calls too — and a
// transaction holding a deferred error (a write's) answers it. A range handed inverted is
// inverted_range (2005) before either (FoundationDB's fdb_c.cpp throws it out of the call).
// Before: unsupported_operation (2108) for each, the approximate size and 0.0 for the others, and
// a versionstamp future that waited.
TEST_F(FdbCApi73, TheDeferredErrorComesFirstAsFoundationDB73ChecksIt) {
  const std::string b = "a", e = "b";
  auto expect_each = [](std::vector<NotModelledCall> calls, fdb_error_t error,
                        fdb_error_t range_error, const char* scope) {
    for (auto& [what, future, takes_range] : calls)
      EXPECT_EQ(error_soon(future), takes_range ? range_error : error) << scope << ": " << what;
  };
  // With no error held, the versionstamp waits for a commit: it is not ready.
  auto expect_checked = [](FDBTransaction* tr, fdb_error_t error, const char* scope) {
    EXPECT_EQ(error_soon(fdb_transaction_get_approximate_size(tr)), error) << scope;
    EXPECT_EQ(error_soon(fdb_transaction_get_tag_throttled_duration(tr)), error) << scope;
    FDBFuture* stamp = fdb_transaction_get_versionstamp(tr);
    if (error != 0) {
      EXPECT_EQ(error_soon(stamp), error) << scope;
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      EXPECT_FALSE(fdb_future_is_ready(stamp)) << scope;
      fdb_future_destroy(stamp);
    }
  };

  FDBDatabase* broken = nullptr;
  ASSERT_EQ(fdb_create_database_from_connection_string("desc:id", &broken), 0);
  FDBTenant* tenant = nullptr;
  ASSERT_EQ(fdb_database_open_tenant(broken, bytes(b), length(b), &tenant), 0);
  FDBTransaction* tr = nullptr;
  ASSERT_EQ(fdb_database_create_transaction(broken, &tr), 0);
  expect_each(not_modelled_calls(broken, tenant, tr, b, e), 2104, 2104, "broken database");
  expect_each(not_modelled_calls(broken, tenant, tr, e, b), 2104, 2005, "inverted ranges");
  expect_checked(tr, 2104, "a transaction of the broken database");
  FDBReadBlobGranuleContext context{};
  for (bool inverted : {false, true}) {
    const std::string& first = inverted ? e : b;
    const std::string& second = inverted ? b : e;
    FDBResult* read =
        fdb_transaction_read_blob_granules(tr, bytes(first), 1, bytes(second), 1, 0, 1, context);
    const FDBKeyValue* rows = nullptr;
    int count = 0;
    fdb_bool_t more = 0;
    EXPECT_EQ(fdb_result_get_keyvalue_array(read, &rows, &count, &more),
              inverted ? 2005 : kUnsupportedOperation)
        << "a synchronous read checks no deferred error (inverted: " << inverted << ")";
    fdb_result_destroy(read);
  }
  fdb_transaction_destroy(tr);
  fdb_tenant_destroy(tenant);
  fdb_database_destroy(broken);

  ASSERT_EQ(fdb_database_open_tenant(db_, bytes(b), length(b), &tenant), 0);
  tr = begin();
  expect_checked(tr, 0, "nothing held");
  const std::string system("\xff\x01");
  fdb_transaction_set(tr, bytes(system), length(system), bytes("v"), 1);
  expect_checked(tr, 2004, "a write's deferred error");
  std::vector<NotModelledCall> calls = not_modelled_calls(db_, tenant, tr, b, e);
  for (auto& [what, future, takes_range] : calls) {
    const bool transactions = what == "granule ranges" || what == "summarize" ||
                              what == "description" || what == "total cost";
    EXPECT_EQ(error_soon(future), transactions ? 2004 : kUnsupportedOperation) << what;
  }
  fdb_transaction_reset(tr);
  expect_checked(tr, 0, "reset");
  fdb_transaction_destroy(tr);
  fdb_tenant_destroy(tenant);
}

}  // namespace
