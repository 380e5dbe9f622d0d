// The C entry points for the cluster behind a database (fdb_c.h): opening one from a connection
// string, the network thread's completion hooks, and the administration calls of FoundationDB
// 7.3 — answered as a cluster of one in-process store answers them (docs/fdb_c.md): no worker to
// reboot, the network thread never busy, one protocol version (a recovery or a snapshot is
// api_not_modelled.cpp's).
#include <charconv>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "fdb_c/api_calls.h"
#include "fdb_c/errors.h"
#include "fdb_c/future.h"
#include "fdb_c/world.h"

namespace contend::fdb::api {
namespace {

// FoundationDB 7.3's protocol version (ProtocolVersion::withTenantGroups and later, flags clear),
// as a 7.3 cluster reports it.
constexpr std::uint64_t kProtocolVersion = 0x0FDB00B073000000ULL;

// The protocol version as MultiVersionApi's status writes it: lower-case hex, no prefix.
std::string protocol_version_hex() {
  char digits[16];
  const auto end = std::to_chars(std::begin(digits), std::end(digits), kProtocolVersion, 16).ptr;
  return std::string(std::begin(digits), end);
}

// The cluster's and its storage server's ids (UID::toString: 32 hex digits), fixed: one cluster.
constexpr std::string_view kClusterId = "00000000000000000000000000c0a7e1";
constexpr std::string_view kStorageServerId = "00000000000000000000000000000001";

// DatabaseContext::getClientStatus (ClientStatusReport.cpp) of a cluster of one process, connected
// and healthy — or only the error that kept the database from being made. Of the connection's
// peer counters (bytes, pings, times) none is reported: nothing here is sent over a network.
// nlohmann::json writes its keys sorted, as json_spirit's map does.
nlohmann::json database_status(const FDB_database& database) {
  nlohmann::json status;
  if (database.state->initialization_error != kSuccess) {
    status["InitializationError"] = database.state->initialization_error;
    return status;
  }
  const std::string address(kStoreAddress);
  status["Coordinators"] = nlohmann::json::array({address});
  status["CurrentCoordinator"] = address;
  status["ClusterID"] = std::string(kClusterId);
  status["GrvProxies"] = nlohmann::json::array({address});
  status["CommitProxies"] = nlohmann::json::array({address});
  status["StorageServers"] =
      nlohmann::json::array({{{"SSID", std::string(kStorageServerId)}, {"Address", address}}});
  status["Connections"] = nlohmann::json::array({{{"Address", address},
                                                  {"Status", "connected"},
                                                  {"ConnectFailedCount", 0},
                                                  {"Compatible", true},
                                                  {"ProtocolVersion", protocol_version_hex()}}});
  status["NumConnectionsFailed"] = 0;
  status["Healthy"] = true;
  return status;
}

// MultiVersionDatabase's client status, of what contend has: one local client, the database's own
// status within — or, for a database that could not be made, its error (its version monitor's
// protocol request failed with it).
nlohmann::json multi_version_status(const FDB_database& database) {
  const std::string protocol = protocol_version_hex();
  nlohmann::json status;
  status["ConnectionRecord"] = database.connection_record;
  status["AvailableClients"] = nlohmann::json::array({{{"ProtocolVersion", protocol},
                                                       {"ReleaseVersion", fdb_get_client_version()},
                                                       {"ThreadIndex", 0}}});
  if (const fdb_error e = database.state->initialization_error; e != kSuccess) {
    status["InitializationState"] = "initialization_failed";
    status["InitializationError"] = e;
    status["Healthy"] = false;
    return status;
  }
  status["Healthy"] = true;
  status["InitializationState"] = "created";
  status["ProtocolVersion"] = protocol;
  status["DatabaseStatus"] = database_status(database);
  return status;
}

}  // namespace
}  // namespace contend::fdb::api

using namespace contend;
using namespace contend::fdb;
using namespace contend::fdb::api;

extern "C" {

fdb_error_t fdb_add_network_thread_completion_hook(void (*hook)(void*), void* hook_parameter) {
  return error_call([&] { return network_startup().add_completion_hook(hook, hook_parameter); });
}

fdb_error_t fdb_create_database_from_connection_string(const char* connection_string,
                                                       FDBDatabase** out_database) {
  // As the cluster file path, the connection string names the one in-process database.
  if (connection_string == nullptr) return kClientInvalidOperation;
  return error_call([&] { return open_database(connection_string, true, out_database); });
}

FDBFuture* fdb_database_reboot_worker(FDBDatabase* db, const uint8_t* address, int address_length,
                                      fdb_bool_t, int) {
  // rebootWorker answers 0 (not sent) for an address no worker of the cluster has: contend's
  // store has no worker process to reboot.
  return future_call([&]() -> FDBFuture* {
    if (db == nullptr) return failed_future(kClientInvalidOperation);
    view(address, address_length);
    if (const fdb_error e = db->state->initialization_error) return ready_later(World::get(), e);
    return ready_later(World::get(), kSuccess, std::int64_t{0});
  });
}

double fdb_database_get_main_thread_busyness(FDBDatabase*) {
  // The network thread only delivers futures and runs commits' tasks: never measured busy.
  return 0.0;
}

FDBFuture* fdb_database_get_server_protocol(FDBDatabase* db, uint64_t expected_version) {
  return future_call([&]() -> FDBFuture* {
    if (db == nullptr) return failed_future(kClientInvalidOperation);
    note_call();
    if (const fdb_error e = db->state->initialization_error) return ready_later(World::get(), e);
    // As FoundationDB's: with the cluster's own version expected, the future waits for it to
    // change, which here it never does: it is ready only when cancelled or destroyed.
    if (expected_version == kProtocolVersion) return new Future;
    return ready_later(World::get(), kSuccess, Uint64Value{kProtocolVersion});
  });
}

FDBFuture* fdb_database_get_client_status(FDBDatabase* db) {
  return future_call([&]() -> FDBFuture* {
    if (db == nullptr) return failed_future(kClientInvalidOperation);
    // Bypassed (MultiVersionApi's default without an external client), the database is the
    // local client's, whose status is its DatabaseContext's; through the multi-version client, the
    // multi-version database's, which holds that one.
    const bool multi_version = network_startup().uses_multi_version_client();
    Key status;
    status.key = (multi_version ? multi_version_status(*db) : database_status(*db)).dump();
    return ready_later(World::get(), kSuccess, std::move(status));
  });
}

}  // extern "C"
