// The C entry points for what contend's store does not model (fdb_c.h, docs/fdb_c.md): blob
// granules of a database, a tenant or a transaction, the synchronous results of granule reads, a
// transaction's tag-throttling cost, a forced recovery and a snapshot. Each checks its arguments
// as every call does — a null handle or a malformed byte string is client_invalid_operation, an
// inverted range inverted_range — then answers the deferred error FoundationDB's
// checkDeferredError finds first (a database's connection string's, a transaction's), and
// otherwise unsupported_operation (2108), FoundationDB's answer for an operation its client cannot
// serve, so that programs and bindings that link these calls load and run, and learn at the call
// that the simulation has no such thing.
#include <cstdint>

#include "fdb_c/api_calls.h"
#include "fdb_c/errors.h"

namespace contend::fdb::api {
namespace {

// A future answering, once `handle` and the byte strings are checked, what `answer` makes: the
// deferred error FoundationDB's checkDeferredError finds first (a database's connection string's,
// a transaction's), else unsupported_operation. For a call taking a range (`range`), an inverted
// one answers inverted_range before that: FoundationDB's fdb_c.cpp builds a KeyRangeRef, which
// throws it out of the call (a crash there).
template <class Answer>
FDBFuture* not_modelled_call(const void* handle, Answer&& answer, const uint8_t* first,
                             int first_length, const uint8_t* second, int second_length,
                             bool range) noexcept {
  return future_call([&]() -> FDBFuture* {
    if (handle == nullptr) return failed_future(kClientInvalidOperation);
    note_call();
    const BytesView first_bytes = view(first, first_length);
    const BytesView second_bytes = view(second, second_length);
    if (range && second_bytes < first_bytes) return failed_future(kInvertedRange);
    return answer();
  });
}

// After `deferred` (success when none is held), unsupported_operation.
FDBFuture* refused_after(fdb_error_t deferred) {
  return failed_future(deferred != kSuccess ? deferred : kUnsupportedOperation);
}

// A database's call, or a tenant's (`db` its database, null for a null handle): its connection
// string's error first, as ThreadSafeDatabase and ThreadSafeTenant check it.
FDBFuture* database_call(const void* handle, const DatabaseState* db, const uint8_t* first,
                         int first_length, const uint8_t* second = nullptr,
                         int second_length = 0) noexcept {
  auto answer = [&] { return refused_after(db->initialization_error); };
  return not_modelled_call(handle, answer, first, first_length, second, second_length, false);
}
FDBFuture* database_range_call(const void* handle, const DatabaseState* db, const uint8_t* begin,
                               int begin_length, const uint8_t* end, int end_length) noexcept {
  auto answer = [&] { return refused_after(db->initialization_error); };
  return not_modelled_call(handle, answer, begin, begin_length, end, end_length, true);
}
const DatabaseState* database_of(const FDBDatabase* db) {
  return db == nullptr ? nullptr : db->state.get();
}
const DatabaseState* database_of(const FDBTenant* tenant) {
  return tenant == nullptr ? nullptr : tenant->database.get();
}

// A transaction's call: its deferred error first (TransactionState::not_modelled).
FDBFuture* transaction_range_call(FDBTransaction* tr, const uint8_t* begin, int begin_length,
                                  const uint8_t* end, int end_length) noexcept {
  auto answer = [&] { return tr->state->not_modelled(); };
  return not_modelled_call(tr, answer, begin, begin_length, end, end_length, true);
}

// The same, as a synchronous result (`has_handle`: the call's handle, if it takes one, is not
// null; `range`: the strings are a range, which fdb_c.cpp refuses inverted with inverted_range in
// the result); nullptr only when memory ran out. No deferred error is checked: 7.3's
// ThreadSafeTransaction::readBlobGranules answers unsupported_operation at once.
FDBResult* not_modelled_result(bool has_handle, const uint8_t* first, int first_length,
                               const uint8_t* second = nullptr, int second_length = 0,
                               bool range = false) noexcept {
  return guarded(
      [&]() -> FDBResult* {
        note_call();
        fdb_error_t error = kUnsupportedOperation;
        if (!has_handle) {
          error = kClientInvalidOperation;
        } else {
          try {
            const BytesView first_bytes = view(first, first_length);
            const BytesView second_bytes = view(second, second_length);
            if (range && second_bytes < first_bytes) error = kInvertedRange;
          } catch (const InvalidBytes&) {
            error = kClientInvalidOperation;
          }
        }
        return new FDB_result{error};
      },
      []() -> FDBResult* { return nullptr; });
}

// A result's error (it holds no value of any kind).
fdb_error_t result_error(const FDBResult* r) {
  return r == nullptr ? kClientInvalidOperation : r->error;
}

}  // namespace
}  // namespace contend::fdb::api

using namespace contend;
using namespace contend::fdb;
using namespace contend::fdb::api;

extern "C" {

// ---- futures of kinds only these calls would make ----

fdb_error_t fdb_future_get_keyrange_array(FDBFuture* f, const FDBKeyRange** out_ranges,
                                          int* out_count) {
  if (any_null(out_ranges, out_count)) return kClientInvalidOperation;
  return get_kind_never_held(f);
}
fdb_error_t fdb_future_get_granule_summary_array(FDBFuture* f,
                                                 const FDBGranuleSummary** out_summaries,
                                                 int* out_count) {
  if (any_null(out_summaries, out_count)) return kClientInvalidOperation;
  return get_kind_never_held(f);
}
fdb_error_t fdb_future_readbg_get_descriptions(FDBFuture* f, FDBBGFileDescription** out,
                                               int* desc_count) {
  if (any_null(out, desc_count)) return kClientInvalidOperation;
  return get_kind_never_held(f);
}

// ---- synchronous results ----

FDBResult* fdb_readbg_parse_snapshot_file(const uint8_t* file_data, int file_len,
                                          const FDBBGTenantPrefix*, const FDBBGEncryptionCtx*) {
  return not_modelled_result(true, file_data, file_len);
}
FDBResult* fdb_readbg_parse_delta_file(const uint8_t* file_data, int file_len,
                                       const FDBBGTenantPrefix*, const FDBBGEncryptionCtx*) {
  return not_modelled_result(true, file_data, file_len);
}
void fdb_result_destroy(FDBResult* r) {
  delete r;
}
fdb_error_t fdb_result_get_keyvalue_array(FDBResult* r, const FDBKeyValue** out_kv, int* out_count,
                                          fdb_bool_t* out_more) {
  if (any_null(out_kv, out_count, out_more)) return kClientInvalidOperation;
  return result_error(r);
}
fdb_error_t fdb_result_get_bg_mutations_array(FDBResult* r, const FDBBGMutation** out_mutations,
                                              int* out_count) {
  if (any_null(out_mutations, out_count)) return kClientInvalidOperation;
  return result_error(r);
}

// ---- a cluster's recovery and snapshots ----

FDBFuture* fdb_database_force_recovery_with_data_loss(FDBDatabase* db, const uint8_t* dcid,
                                                      int dcid_length) {
  return database_call(db, database_of(db), dcid, dcid_length);
}
FDBFuture* fdb_database_create_snapshot(FDBDatabase* db, const uint8_t* uid, int uid_length,
                                        const uint8_t* snap_command, int snap_command_length) {
  return database_call(db, database_of(db), uid, uid_length, snap_command, snap_command_length);
}

// ---- blob granules of a database ----

FDBFuture* fdb_database_purge_blob_granules(FDBDatabase* db, const uint8_t* begin_key_name,
                                            int begin_key_name_length, const uint8_t* end_key_name,
                                            int end_key_name_length, int64_t, fdb_bool_t) {
  return database_range_call(db, database_of(db), begin_key_name, begin_key_name_length,
                             end_key_name, end_key_name_length);
}
FDBFuture* fdb_database_wait_purge_granules_complete(FDBDatabase* db, const uint8_t* purge_key_name,
                                                     int purge_key_name_length) {
  return database_call(db, database_of(db), purge_key_name, purge_key_name_length);
}
FDBFuture* fdb_database_blobbify_range(FDBDatabase* db, const uint8_t* begin_key_name,
                                       int begin_key_name_length, const uint8_t* end_key_name,
                                       int end_key_name_length) {
  return database_range_call(db, database_of(db), begin_key_name, begin_key_name_length,
                             end_key_name, end_key_name_length);
}
FDBFuture* fdb_database_blobbify_range_blocking(FDBDatabase* db, const uint8_t* begin_key_name,
                                                int begin_key_name_length,
                                                const uint8_t* end_key_name,
                                                int end_key_name_length) {
  return database_range_call(db, database_of(db), begin_key_name, begin_key_name_length,
                             end_key_name, end_key_name_length);
}
FDBFuture* fdb_database_unblobbify_range(FDBDatabase* db, const uint8_t* begin_key_name,
                                         int begin_key_name_length, const uint8_t* end_key_name,
                                         int end_key_name_length) {
  return database_range_call(db, database_of(db), begin_key_name, begin_key_name_length,
                             end_key_name, end_key_name_length);
}
FDBFuture* fdb_database_list_blobbified_ranges(FDBDatabase* db, const uint8_t* begin_key_name,
                                               int begin_key_name_length,
                                               const uint8_t* end_key_name, int end_key_name_length,
                                               int) {
  return database_range_call(db, database_of(db), begin_key_name, begin_key_name_length,
                             end_key_name, end_key_name_length);
}
FDBFuture* fdb_database_verify_blob_range(FDBDatabase* db, const uint8_t* begin_key_name,
                                          int begin_key_name_length, const uint8_t* end_key_name,
                                          int end_key_name_length, int64_t) {
  return database_range_call(db, database_of(db), begin_key_name, begin_key_name_length,
                             end_key_name, end_key_name_length);
}
FDBFuture* fdb_database_flush_blob_range(FDBDatabase* db, const uint8_t* begin_key_name,
                                         int begin_key_name_length, const uint8_t* end_key_name,
                                         int end_key_name_length, fdb_bool_t, int64_t) {
  return database_range_call(db, database_of(db), begin_key_name, begin_key_name_length,
                             end_key_name, end_key_name_length);
}

// ---- blob granules of a tenant ----

FDBFuture* fdb_tenant_purge_blob_granules(FDBTenant* tenant, const uint8_t* begin_key_name,
                                          int begin_key_name_length, const uint8_t* end_key_name,
                                          int end_key_name_length, int64_t, fdb_bool_t) {
  return database_range_call(tenant, database_of(tenant), begin_key_name, begin_key_name_length,
                             end_key_name, end_key_name_length);
}
FDBFuture* fdb_tenant_wait_purge_granules_complete(FDBTenant* tenant, const uint8_t* purge_key_name,
                                                   int purge_key_name_length) {
  return database_call(tenant, database_of(tenant), purge_key_name, purge_key_name_length);
}
FDBFuture* fdb_tenant_blobbify_range(FDBTenant* tenant, const uint8_t* begin_key_name,
                                     int begin_key_name_length, const uint8_t* end_key_name,
                                     int end_key_name_length) {
  return database_range_call(tenant, database_of(tenant), begin_key_name, begin_key_name_length,
                             end_key_name, end_key_name_length);
}
FDBFuture* fdb_tenant_blobbify_range_blocking(FDBTenant* tenant, const uint8_t* begin_key_name,
                                              int begin_key_name_length,
                                              const uint8_t* end_key_name,
                                              int end_key_name_length) {
  return database_range_call(tenant, database_of(tenant), begin_key_name, begin_key_name_length,
                             end_key_name, end_key_name_length);
}
FDBFuture* fdb_tenant_unblobbify_range(FDBTenant* tenant, const uint8_t* begin_key_name,
                                       int begin_key_name_length, const uint8_t* end_key_name,
                                       int end_key_name_length) {
  return database_range_call(tenant, database_of(tenant), begin_key_name, begin_key_name_length,
                             end_key_name, end_key_name_length);
}
FDBFuture* fdb_tenant_list_blobbified_ranges(FDBTenant* tenant, const uint8_t* begin_key_name,
                                             int begin_key_name_length, const uint8_t* end_key_name,
                                             int end_key_name_length, int) {
  return database_range_call(tenant, database_of(tenant), begin_key_name, begin_key_name_length,
                             end_key_name, end_key_name_length);
}
FDBFuture* fdb_tenant_verify_blob_range(FDBTenant* tenant, const uint8_t* begin_key_name,
                                        int begin_key_name_length, const uint8_t* end_key_name,
                                        int end_key_name_length, int64_t) {
  return database_range_call(tenant, database_of(tenant), begin_key_name, begin_key_name_length,
                             end_key_name, end_key_name_length);
}
FDBFuture* fdb_tenant_flush_blob_range(FDBTenant* tenant, const uint8_t* begin_key_name,
                                       int begin_key_name_length, const uint8_t* end_key_name,
                                       int end_key_name_length, fdb_bool_t, int64_t) {
  return database_range_call(tenant, database_of(tenant), begin_key_name, begin_key_name_length,
                             end_key_name, end_key_name_length);
}

// ---- a transaction's cost and blob granules ----

// The cost NativeAPI's tag throttler measures (pages read and written) is not modelled.
FDBFuture* fdb_transaction_get_total_cost(FDBTransaction* tr) {
  auto answer = [&] { return tr->state->not_modelled(); };
  return not_modelled_call(tr, answer, nullptr, 0, nullptr, 0, false);
}

FDBFuture* fdb_transaction_get_blob_granule_ranges(FDBTransaction* tr,
                                                   const uint8_t* begin_key_name,
                                                   int begin_key_name_length,
                                                   const uint8_t* end_key_name,
                                                   int end_key_name_length, int) {
  return transaction_range_call(tr, begin_key_name, begin_key_name_length, end_key_name,
                                end_key_name_length);
}
FDBResult* fdb_transaction_read_blob_granules(FDBTransaction* tr, const uint8_t* begin_key_name,
                                              int begin_key_name_length,
                                              const uint8_t* end_key_name, int end_key_name_length,
                                              int64_t, int64_t, FDBReadBlobGranuleContext) {
  return not_modelled_result(tr != nullptr, begin_key_name, begin_key_name_length, end_key_name,
                             end_key_name_length, true);
}
FDBFuture* fdb_transaction_summarize_blob_granules(FDBTransaction* tr,
                                                   const uint8_t* begin_key_name,
                                                   int begin_key_name_length,
                                                   const uint8_t* end_key_name,
                                                   int end_key_name_length, int64_t, int) {
  return transaction_range_call(tr, begin_key_name, begin_key_name_length, end_key_name,
                                end_key_name_length);
}
FDBFuture* fdb_transaction_read_blob_granules_description(
    FDBTransaction* tr, const uint8_t* begin_key_name, int begin_key_name_length,
    const uint8_t* end_key_name, int end_key_name_length, int64_t, int64_t, int64_t*) {
  return transaction_range_call(tr, begin_key_name, begin_key_name_length, end_key_name,
                                end_key_name_length);
}

}  // extern "C"
