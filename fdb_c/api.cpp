// The C entry points of contend's libfdb_c (fdb_c.h) for the API version, the network, futures,
// databases and transactions: argument checks (api_calls.h), then the world (world.h), futures
// (future.h) and transactions (transaction.h). The calls for what contend does not model are in
// api_not_modelled.cpp; tenants in api_tenants.cpp; the cluster's administration in
// api_cluster.cpp.
#include <atomic>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <string_view>

#include "fdb_c/api_calls.h"
#include "fdb_c/api_version.h"
#include "fdb_c/connection_string.h"
#include "fdb_c/errors.h"
#include "fdb_c/future.h"
#include "fdb_c/network_startup.h"
#include "fdb_c/options.h"
#include "fdb_c/transaction.h"
#include "fdb_c/world.h"

namespace contend::fdb::api {

NetworkStartup& network_startup() {
  static NetworkStartup* startup = new NetworkStartup;
  return *startup;
}

fdb_error_t open_database(std::string connection_record, bool is_connection_string,
                          FDBDatabase** out_database) {
  if (out_database == nullptr) return kClientInvalidOperation;
  if (selected_runtime_api_version() == 0) return kApiVersionUnset;
  // MultiVersionApi::createDatabase: which client serves it is known once the network is set up.
  if (!network_startup().is_set_up()) return kNetworkNotSetup;
  if (!World::get().config_error.empty()) return kInvalidOptionValue;
  auto database = std::make_unique<FDB_database>();
  database->connection_record = std::move(connection_record);
  if (is_connection_string)
    database->state->initialization_error = connection_string_error(database->connection_record);
  database->state->has_cluster_shared_state =
      api_version_at_least(kApiClusterSharedState) && network_startup().uses_multi_version_client();
  *out_database = database.release();
  return kSuccess;
}

namespace {
// A range read's arguments as the C API passes them.
RangeRequest range_request(BytesView begin, fdb_bool_t begin_or_equal, int begin_offset,
                           BytesView end, fdb_bool_t end_or_equal, int end_offset, int limit,
                           int target_bytes, int mode, int iteration, fdb_bool_t snapshot,
                           fdb_bool_t reverse) {
  RangeRequest r;
  r.begin = KeySelector{Bytes(begin), begin_or_equal != 0, begin_offset};
  r.end = KeySelector{Bytes(end), end_or_equal != 0, end_offset};
  r.limit = limit;
  r.target_bytes = target_bytes;
  r.mode = mode;
  r.iteration = iteration;
  r.snapshot = snapshot != 0;
  r.reverse = reverse != 0;
  return r;
}
}  // namespace

}  // namespace contend::fdb::api

namespace {
std::atomic<bool> network_started{false};
}  // namespace

using namespace contend;
using namespace contend::fdb;
using namespace contend::fdb::api;

extern "C" {

fdb_error_t fdb_select_api_version_impl(int runtime_version, int header_version) {
  // fdb_c.cpp's order: a version is selected once only (the same one again is refused too), then
  // the runtime version may not pass the header's, nor the header's this library's. contend
  // serves API versions from 610 on only (FoundationDB's from 13: api_version.h).
  if (selected_runtime_api_version() != 0) return kApiVersionAlreadySet;
  if (runtime_version > header_version) return kApiVersionInvalid;
  if (header_version > kApiVersionMax || runtime_version < kApiVersionMin)
    return kApiVersionNotSupported;
  return select_api_version(runtime_version, header_version) ? kSuccess : kApiVersionAlreadySet;
}

int fdb_get_max_api_version(void) {
  return kApiVersionMax;
}
const char* fdb_get_client_version(void) {
  return "contend libfdb_c 0.1.0 (FoundationDB C API 730)";
}
const char* fdb_get_error(fdb_error_t code) {
  return error_description(code);
}
fdb_bool_t fdb_error_predicate(int predicate_test, fdb_error_t code) {
  return error_predicate(predicate_test, code) ? 1 : 0;
}

fdb_error_t fdb_network_set_option(FDBNetworkOption option, const uint8_t* value,
                                   int value_length) {
  if (selected_runtime_api_version() == 0) return kApiVersionUnset;
  // Refused as FoundationDB's client refuses it (network_startup.h); an accepted one (trace, TLS,
  // knobs, client libraries) has no meaning for an in-process store.
  return error_call([&] {
    return network_startup().set_option(option, option_value(value, value_length),
                                        value != nullptr);
  });
}

fdb_error_t fdb_setup_network(void) {
  if (selected_runtime_api_version() == 0) return kApiVersionUnset;
  return error_call([] {
    if (fdb_error e = network_startup().set_up(); e != kSuccess) return e;
    // A refused CONTEND_FDB_CONFIG (the message went to stderr) stops the network here.
    return World::get().config_error.empty() ? kSuccess : kInvalidOptionValue;
  });
}

fdb_error_t fdb_run_network(void) {
  if (!network_startup().is_set_up()) return kNetworkNotSetup;
  bool expected = false;
  if (!network_started.compare_exchange_strong(expected, true)) return kNetworkCannotBeRestarted;
  return error_call([] {
    World::get().network.run();
    // As FoundationDB's runNetwork: the completion hooks run on the network thread, once it ends.
    network_startup().run_completion_hooks();
    return kSuccess;
  });
}

fdb_error_t fdb_stop_network(void) {
  if (!network_startup().is_set_up()) return kNetworkNotSetup;
  World::get().network.stop();
  return kSuccess;
}

// ---- futures ----

void fdb_future_cancel(FDBFuture* f) {
  if (f != nullptr) guarded([&] { Future::from(f)->cancel(); }, [] {});
}
void fdb_future_release_memory(FDBFuture* f) {
  if (f != nullptr) guarded([&] { Future::from(f)->release_memory(); }, [] {});
}
void fdb_future_destroy(FDBFuture* f) {
  if (f == nullptr) return;
  note_call();
  guarded(
      [&] {
        Future* future = Future::from(f);
        if (future->called_back()) World::get().network.note_consumed();
        future->abandon();
        future->release();
      },
      [] {});
}
fdb_error_t fdb_future_block_until_ready(FDBFuture* f) {
  if (f == nullptr) return kClientInvalidOperation;
  Future::from(f)->block_until_ready();
  return kSuccess;
}
fdb_bool_t fdb_future_is_ready(FDBFuture* f) {
  return f != nullptr && Future::from(f)->is_ready() ? 1 : 0;
}
fdb_error_t fdb_future_set_callback(FDBFuture* f, FDBCallback callback, void* parameter) {
  if (f == nullptr || callback == nullptr) return kClientInvalidOperation;
  note_call();
  return Future::from(f)->set_callback(callback, parameter);
}
fdb_error_t fdb_future_get_error(FDBFuture* f) {
  if (f == nullptr) return kClientInvalidOperation;
  return Future::from(f)->error();
}
fdb_error_t fdb_future_get_bool(FDBFuture* f, fdb_bool_t* out) {
  if (any_null(out)) return kClientInvalidOperation;
  const BoolValue* value = nullptr;
  if (fdb_error_t e = get_value(f, &value)) return e;
  *out = value->value ? 1 : 0;
  return kSuccess;
}
fdb_error_t fdb_future_get_int64(FDBFuture* f, int64_t* out) {
  if (any_null(out)) return kClientInvalidOperation;
  const std::int64_t* value = nullptr;
  if (fdb_error_t e = get_value(f, &value)) return e;
  *out = *value;
  return kSuccess;
}
// fdb_c.h declares it for header versions below 620 only (FoundationDB's FDB_API_REMOVED).
CONTEND_FDB_EXPORT fdb_error_t fdb_future_get_version(FDBFuture* f, int64_t* out_version);
fdb_error_t fdb_future_get_version(FDBFuture* f, int64_t* out_version) {
  constexpr int kRemovedAtHeaderVersion = 620;
  if (selected_header_api_version() >= kRemovedAtHeaderVersion) return kClientInvalidOperation;
  return fdb_future_get_int64(f, out_version);
}
fdb_error_t fdb_future_get_uint64(FDBFuture* f, uint64_t* out) {
  if (any_null(out)) return kClientInvalidOperation;
  const Uint64Value* value = nullptr;
  if (fdb_error_t e = get_value(f, &value)) return e;
  *out = value->value;
  return kSuccess;
}
fdb_error_t fdb_future_get_double(FDBFuture* f, double* out) {
  if (any_null(out)) return kClientInvalidOperation;
  const DoubleValue* value = nullptr;
  if (fdb_error_t e = get_value(f, &value)) return e;
  *out = value->value;
  return kSuccess;
}
fdb_error_t fdb_future_get_key(FDBFuture* f, const uint8_t** out_key, int* out_key_length) {
  if (any_null(out_key, out_key_length)) return kClientInvalidOperation;
  const Key* key = nullptr;
  if (fdb_error_t e = get_value(f, &key)) return e;
  *out_key = reinterpret_cast<const uint8_t*>(key->key.data());
  *out_key_length = static_cast<int>(key->key.size());
  return kSuccess;
}
fdb_error_t fdb_future_get_value(FDBFuture* f, fdb_bool_t* out_present, const uint8_t** out_value,
                                 int* out_value_length) {
  if (any_null(out_present, out_value, out_value_length)) return kClientInvalidOperation;
  const std::optional<Bytes>* value = nullptr;
  if (fdb_error_t e = get_value(f, &value)) return e;
  *out_present = value->has_value() ? 1 : 0;
  *out_value = value->has_value() ? reinterpret_cast<const uint8_t*>((*value)->data()) : nullptr;
  *out_value_length = value->has_value() ? static_cast<int>((*value)->size()) : 0;
  return kSuccess;
}
fdb_error_t fdb_future_get_keyvalue_array(FDBFuture* f, const FDBKeyValue** out_kv, int* out_count,
                                          fdb_bool_t* out_more) {
  if (any_null(out_kv, out_count, out_more)) return kClientInvalidOperation;
  const KeyValues* kvs = nullptr;
  if (fdb_error_t e = get_value(f, &kvs)) return e;
  *out_kv = kvs->views.data();
  *out_count = static_cast<int>(kvs->views.size());
  *out_more = kvs->more ? 1 : 0;
  return kSuccess;
}
fdb_error_t fdb_future_get_mappedkeyvalue_array(FDBFuture* f, const FDBMappedKeyValue** out_kv,
                                                int* out_count, fdb_bool_t* out_more) {
  if (any_null(out_kv, out_count, out_more)) return kClientInvalidOperation;
  const MappedKeyValues* mapped = nullptr;
  if (fdb_error_t e = get_value(f, &mapped)) return e;
  *out_kv = mapped->views.data();
  *out_count = static_cast<int>(mapped->views.size());
  *out_more = mapped->more ? 1 : 0;
  return kSuccess;
}
fdb_error_t fdb_future_get_key_array(FDBFuture* f, const FDBKey** out_key_array, int* out_count) {
  if (any_null(out_key_array, out_count)) return kClientInvalidOperation;
  const KeyList* keys = nullptr;
  if (fdb_error_t e = get_value(f, &keys)) return e;
  *out_key_array = keys->views.data();
  *out_count = static_cast<int>(keys->views.size());
  return kSuccess;
}
fdb_error_t fdb_future_get_string_array(FDBFuture* f, const char*** out_strings, int* out_count) {
  if (any_null(out_strings, out_count)) return kClientInvalidOperation;
  const StringList* strings = nullptr;
  if (fdb_error_t e = get_value(f, &strings)) return e;
  *out_strings = const_cast<const char**>(strings->views.data());
  *out_count = static_cast<int>(strings->views.size());
  return kSuccess;
}

// ---- database ----

fdb_error_t fdb_create_database(const char* cluster_file_path, FDBDatabase** out_database) {
  return error_call([&] {
    return open_database(cluster_file_path != nullptr ? cluster_file_path : "", false,
                         out_database);
  });
}
void fdb_database_destroy(FDBDatabase* d) {
  delete d;
}
fdb_error_t fdb_database_set_option(FDBDatabase* d, FDBDatabaseOption option, const uint8_t* value,
                                    int value_length) {
  if (d == nullptr) return kClientInvalidOperation;
  return error_call([&] {
    const std::lock_guard<std::mutex> lock(World::get().mutex);
    // ThreadSafeDatabase::setOption refuses an unknown option; for a database that could not be
    // made, its network thread throws the database's error before the option is looked at.
    const bool broken = d->state->initialization_error != kSuccess;
    DatabaseOptions scratch;
    const fdb_error e = apply_database_option(broken ? scratch : d->state->options, option,
                                              option_value(value, value_length), value != nullptr);
    return broken && e != kInvalidOption ? kSuccess : e;
  });
}
fdb_error_t fdb_database_create_transaction(FDBDatabase* d, FDBTransaction** out_transaction) {
  if (d == nullptr || out_transaction == nullptr) return kClientInvalidOperation;
  return error_call([&] {
    *out_transaction = new FDB_transaction{make_transaction(World::get(), d->state)};
    return kSuccess;
  });
}

// ---- transactions ----

void fdb_transaction_destroy(FDBTransaction* tr) {
  // As FoundationDB's ~ReadYourWritesTransaction: what is outstanding (a commit, watches not yet
  // committed, versionstamps) answers transaction_cancelled; a commit outstanding writes nothing.
  guarded(
      [&] {
        const std::unique_ptr<FDBTransaction> owned(tr);
        if (owned != nullptr) state_of(tr).cancel();
      },
      [] {});
}
void fdb_transaction_cancel(FDBTransaction* tr) {
  guarded([&] { state_of(tr).cancel(); }, [] {});
}
void fdb_transaction_reset(FDBTransaction* tr) {
  guarded([&] { state_of(tr).reset(); }, [] {});
}
fdb_error_t fdb_transaction_set_option(FDBTransaction* tr, FDBTransactionOption option,
                                       const uint8_t* value, int value_length) {
  return error_call([&] {
    return state_of(tr).set_option(option, option_value(value, value_length), value != nullptr);
  });
}
void fdb_transaction_set_read_version(FDBTransaction* tr, int64_t version) {
  guarded([&] { state_of(tr).set_read_version(version); }, [] {});
}
FDBFuture* fdb_transaction_get_read_version(FDBTransaction* tr) {
  return future_call([&] { return state_of(tr).get_read_version(); });
}
FDBFuture* fdb_transaction_get(FDBTransaction* tr, const uint8_t* key_name, int key_name_length,
                               fdb_bool_t snapshot) {
  return future_call([&] { return state_of(tr).get(view(key_name, key_name_length), snapshot); });
}
FDBFuture* fdb_transaction_get_key(FDBTransaction* tr, const uint8_t* key_name, int key_name_length,
                                   fdb_bool_t or_equal, int offset, fdb_bool_t snapshot) {
  return future_call([&] {
    KeySelector s{Bytes(view(key_name, key_name_length)), or_equal != 0, offset};
    return state_of(tr).get_key(s, snapshot != 0);
  });
}
FDBFuture* fdb_transaction_get_range(FDBTransaction* tr, const uint8_t* begin_key_name,
                                     int begin_key_name_length, fdb_bool_t begin_or_equal,
                                     int begin_offset, const uint8_t* end_key_name,
                                     int end_key_name_length, fdb_bool_t end_or_equal,
                                     int end_offset, int limit, int target_bytes,
                                     FDBStreamingMode mode, int iteration, fdb_bool_t snapshot,
                                     fdb_bool_t reverse) {
  return future_call([&] {
    const RangeRequest r =
        range_request(view(begin_key_name, begin_key_name_length), begin_or_equal, begin_offset,
                      view(end_key_name, end_key_name_length), end_or_equal, end_offset, limit,
                      target_bytes, mode, iteration, snapshot, reverse);
    return state_of(tr).get_range(r);
  });
}
FDBFuture* fdb_transaction_get_mapped_range(FDBTransaction* tr, const uint8_t* begin_key_name,
                                            int begin_key_name_length, fdb_bool_t begin_or_equal,
                                            int begin_offset, const uint8_t* end_key_name,
                                            int end_key_name_length, fdb_bool_t end_or_equal,
                                            int end_offset, const uint8_t* mapper_name,
                                            int mapper_name_length, int limit, int target_bytes,
                                            FDBStreamingMode mode, int iteration,
                                            fdb_bool_t snapshot, fdb_bool_t reverse) {
  return future_call([&] {
    const RangeRequest r =
        range_request(view(begin_key_name, begin_key_name_length), begin_or_equal, begin_offset,
                      view(end_key_name, end_key_name_length), end_or_equal, end_offset, limit,
                      target_bytes, mode, iteration, snapshot, reverse);
    return state_of(tr).get_mapped_range(r, view(mapper_name, mapper_name_length));
  });
}
FDBFuture* fdb_transaction_get_addresses_for_key(FDBTransaction* tr, const uint8_t* key_name,
                                                 int key_name_length) {
  return future_call(
      [&] { return state_of(tr).addresses_for_key(view(key_name, key_name_length)); });
}
FDBFuture* fdb_transaction_get_estimated_range_size_bytes(FDBTransaction* tr,
                                                          const uint8_t* begin_key_name,
                                                          int begin_key_name_length,
                                                          const uint8_t* end_key_name,
                                                          int end_key_name_length) {
  return future_call([&] {
    return state_of(tr).estimated_range_size(view(begin_key_name, begin_key_name_length),
                                             view(end_key_name, end_key_name_length));
  });
}
FDBFuture* fdb_transaction_get_range_split_points(FDBTransaction* tr, const uint8_t* begin_key_name,
                                                  int begin_key_name_length,
                                                  const uint8_t* end_key_name,
                                                  int end_key_name_length, int64_t chunk_size) {
  return future_call([&] {
    return state_of(tr).range_split_points(view(begin_key_name, begin_key_name_length),
                                           view(end_key_name, end_key_name_length), chunk_size);
  });
}
void fdb_transaction_set(FDBTransaction* tr, const uint8_t* key_name, int key_name_length,
                         const uint8_t* value, int value_length) {
  write_call(tr,
             [&] { state_of(tr).set(view(key_name, key_name_length), view(value, value_length)); });
}
void fdb_transaction_atomic_op(FDBTransaction* tr, const uint8_t* key_name, int key_name_length,
                               const uint8_t* param, int param_length,
                               FDBMutationType operation_type) {
  write_call(tr, [&] {
    state_of(tr).atomic_op(view(key_name, key_name_length), view(param, param_length),
                           operation_type);
  });
}
void fdb_transaction_clear(FDBTransaction* tr, const uint8_t* key_name, int key_name_length) {
  write_call(tr, [&] { state_of(tr).clear(view(key_name, key_name_length)); });
}
void fdb_transaction_clear_range(FDBTransaction* tr, const uint8_t* begin_key_name,
                                 int begin_key_name_length, const uint8_t* end_key_name,
                                 int end_key_name_length) {
  write_call(tr, [&] {
    state_of(tr).clear_range(view(begin_key_name, begin_key_name_length),
                             view(end_key_name, end_key_name_length));
  });
}
FDBFuture* fdb_transaction_watch(FDBTransaction* tr, const uint8_t* key_name, int key_name_length) {
  return future_call([&] { return state_of(tr).watch(view(key_name, key_name_length)); });
}
FDBFuture* fdb_transaction_commit(FDBTransaction* tr) {
  return future_call([&] { return state_of(tr).commit(); });
}
fdb_error_t fdb_transaction_get_committed_version(FDBTransaction* tr, int64_t* out_version) {
  if (out_version == nullptr) return kClientInvalidOperation;
  return error_call([&] { return state_of(tr).committed_version(out_version); });
}
FDBFuture* fdb_transaction_get_approximate_size(FDBTransaction* tr) {
  return future_call([&] { return state_of(tr).approximate_size(); });
}
FDBFuture* fdb_transaction_get_tag_throttled_duration(FDBTransaction* tr) {
  return future_call([&] { return state_of(tr).tag_throttled_duration(); });
}
FDBFuture* fdb_transaction_get_versionstamp(FDBTransaction* tr) {
  return future_call([&] { return state_of(tr).versionstamp(); });
}
FDBFuture* fdb_transaction_on_error(FDBTransaction* tr, fdb_error_t error) {
  // fdb_c.cpp passes the code through Error::fromUnvalidatedCode.
  return future_call([&] { return state_of(tr).on_error(validated_error(error)); });
}
fdb_error_t fdb_transaction_add_conflict_range(FDBTransaction* tr, const uint8_t* begin_key_name,
                                               int begin_key_name_length,
                                               const uint8_t* end_key_name, int end_key_name_length,
                                               FDBConflictRangeType type) {
  return error_call([&] {
    return state_of(tr).add_conflict_range(view(begin_key_name, begin_key_name_length),
                                           view(end_key_name, end_key_name_length), type);
  });
}

}  // extern "C"
