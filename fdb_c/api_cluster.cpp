// The C entry points for the cluster behind a database (fdb_c.h): opening one from a connection
// string, the network thread's completion hooks, and the administration calls of FoundationDB
// 7.3 — answered as a cluster of one in-process store answers them (docs/fdb_c.md): no worker to
// reboot, the network thread never busy, one protocol version (a recovery or a snapshot is
// api_not_modelled.cpp's).
#include <charconv>
#include <cstdint>
#include <iterator>
#include <string>

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

// MultiVersionDatabase's client status, of what contend has: one local client, healthy.
std::string client_status_json(const FDB_database& database) {
  const std::string protocol = protocol_version_hex();
  nlohmann::ordered_json status;
  status["Healthy"] = true;
  status["InitializationState"] = "created";
  status["ConnectionRecord"] = database.connection_record;
  status["ProtocolVersion"] = protocol;
  status["DatabaseStatus"] = {{"Healthy", true}};
  status["AvailableClients"] =
      nlohmann::ordered_json::array({{{"ProtocolVersion", protocol},
                                      {"ReleaseVersion", fdb_get_client_version()},
                                      {"ThreadIndex", 0}}});
  return status.dump();
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
  return error_call([&] { return open_database(connection_string, out_database); });
}

FDBFuture* fdb_database_reboot_worker(FDBDatabase* db, const uint8_t* address, int address_length,
                                      fdb_bool_t, int) {
  // rebootWorker answers 0 (not sent) for an address no worker of the cluster has: contend's
  // store has no worker process to reboot.
  return future_call([&]() -> FDBFuture* {
    if (db == nullptr) return failed_future(kClientInvalidOperation);
    view(address, address_length);
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
    // As FoundationDB's: with the cluster's own version expected, the future waits for it to
    // change, which here it never does: it is ready only when cancelled or destroyed.
    if (expected_version == kProtocolVersion) return new Future;
    return ready_later(World::get(), kSuccess, Uint64Value{kProtocolVersion});
  });
}

FDBFuture* fdb_database_get_client_status(FDBDatabase* db) {
  return future_call([&]() -> FDBFuture* {
    if (db == nullptr) return failed_future(kClientInvalidOperation);
    // Without the multi-version client, FoundationDB's status is empty.
    Key status;
    if (!network_startup().multi_version_bypassed()) status.key = client_status_json(*db);
    return ready_later(World::get(), kSuccess, std::move(status));
  });
}

}  // extern "C"
