/* contend's libfdb_c: FoundationDB's C client API, served by contend's simulated store.
 *
 * The declarations follow FoundationDB's documented C API (api-c, versions 610 to 730): the same
 * names, signatures, error codes, option and mutation codes, and the same memory layout for
 * FDBKey and FDBKeyValue (packed to 4 bytes), so programs and bindings built against
 * FoundationDB's header load this library unchanged. One in-process database serves every
 * fdb_create_database call; the cluster file path is accepted and ignored. What contend does
 * not model is answered with a documented FoundationDB error (docs/fdb_c.md lists it).
 *
 * Define FDB_API_VERSION before including, as with FoundationDB's header. */
#ifndef CONTEND_FDB_C_H
#define CONTEND_FDB_C_H

#include <stdint.h>

#ifndef FDB_API_VERSION
#error "define FDB_API_VERSION (610..730) before including fdb_c.h"
#endif

#if defined(__GNUC__)
#define CONTEND_FDB_EXPORT __attribute__((visibility("default")))
#else
#define CONTEND_FDB_EXPORT
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef int fdb_error_t;
typedef int fdb_bool_t;

typedef struct FDB_future FDBFuture;
typedef struct FDB_database FDBDatabase;
typedef struct FDB_transaction FDBTransaction;
typedef struct FDB_tenant FDBTenant;
typedef struct FDB_result FDBResult;

typedef void (*FDBCallback)(FDBFuture* future, void* callback_parameter);

#pragma pack(push, 4)
typedef struct key {
  const uint8_t* key;
  int key_length;
} FDBKey;
typedef struct keyvalue {
  const uint8_t* key;
  int key_length;
  const uint8_t* value;
  int value_length;
} FDBKeyValue;
#pragma pack(pop)

/* A mapped range read's rows (fdb_transaction_get_mapped_range), laid out as FoundationDB's
 * MappedKeyValueRef: 112 bytes on 64-bit platforms. */
typedef struct keyselector {
  FDBKey key;
  fdb_bool_t orEqual;
  int offset;
} FDBKeySelector;
typedef struct getrangereqandresult {
  FDBKeySelector begin;
  FDBKeySelector end;
  FDBKeyValue* data;
  int m_size, m_capacity;
} FDBGetRangeReqAndResult;
typedef struct mappedkeyvalue {
  FDBKey key;
  FDBKey value;
  FDBGetRangeReqAndResult getRange;
  unsigned char buffer[32];
} FDBMappedKeyValue;

/* Key ranges and blob granule summaries. */
#pragma pack(push, 4)
typedef struct keyrange {
  const uint8_t* begin_key;
  int begin_key_length;
  const uint8_t* end_key;
  int end_key_length;
} FDBKeyRange;
typedef struct granulesummary {
  FDBKeyRange key_range;
  int64_t snapshot_version;
  int64_t snapshot_size;
  int64_t delta_version;
  int64_t delta_size;
} FDBGranuleSummary;
#pragma pack(pop)

/* Blob granule reads: the caller's file loader, and what a read describes. contend models no blob
 * granules (every call answers unsupported_operation); the types are FoundationDB 7.3's, so that
 * programs compile and link unchanged. */
typedef struct readgranulecontext {
  void* userContext;
  int64_t (*start_load_f)(const char* filename, int filenameLength, int64_t offset, int64_t length,
                          int64_t fullFileLength, void* context);
  uint8_t* (*get_load_f)(int64_t loadId, void* context);
  void (*free_load_f)(int64_t loadId, void* context);
  fdb_bool_t debugNoMaterialize;
  int granuleParallelism;
} FDBReadBlobGranuleContext;

typedef enum {
  FDB_BG_MUTATION_TYPE_SET_VALUE = 0,
  FDB_BG_MUTATION_TYPE_CLEAR_RANGE = 1
} FDBBGMutationType;

#pragma pack(push, 4)
typedef struct bgtenantprefix {
  fdb_bool_t present;
  FDBKey prefix;
} FDBBGTenantPrefix;
typedef struct bgencryptionkey {
  int64_t domain_id;
  uint64_t base_key_id;
  uint32_t base_kcv;
  uint64_t random_salt;
  FDBKey base_key;
} FDBBGEncryptionKey;
typedef struct bgencryptionctx {
  fdb_bool_t present;
  FDBBGEncryptionKey textKey;
  uint32_t textKCV;
  FDBBGEncryptionKey headerKey;
  uint32_t headerKCV;
  FDBKey iv;
} FDBBGEncryptionCtx;
typedef struct bgfilepointer {
  const uint8_t* filename_ptr;
  int filename_length;
  int64_t file_offset;
  int64_t file_length;
  int64_t full_file_length;
  int64_t file_version;
  FDBBGEncryptionCtx encryption_ctx;
} FDBBGFilePointer;
typedef struct bgmutation {
  uint8_t type; /* FDBBGMutationType */
  int64_t version;
  const uint8_t* param1_ptr;
  int param1_length;
  const uint8_t* param2_ptr;
  int param2_length;
} FDBBGMutation;
typedef struct bgfiledescription {
  FDBKeyRange key_range;
  fdb_bool_t snapshot_present;
  FDBBGFilePointer snapshot_file_pointer;
  int delta_file_count;
  FDBBGFilePointer* delta_files;
  int memory_mutation_count;
  FDBBGMutation* memory_mutations;
  FDBBGTenantPrefix tenant_prefix;
} FDBBGFileDescription;
#pragma pack(pop)

/* In C++ each enum has int as its underlying type, so that any int a program passes (as a C
 * program may, and bindings do) is a value of the type rather than undefined behaviour; the
 * calls take an int either way. */
#ifdef __cplusplus
#define CONTEND_FDB_ENUM_BASE : int
#else
#define CONTEND_FDB_ENUM_BASE
#endif

typedef enum CONTEND_FDB_ENUM_BASE {
  FDB_STREAMING_MODE_WANT_ALL = -2,
  FDB_STREAMING_MODE_ITERATOR = -1,
  FDB_STREAMING_MODE_EXACT = 0,
  FDB_STREAMING_MODE_SMALL = 1,
  FDB_STREAMING_MODE_MEDIUM = 2,
  FDB_STREAMING_MODE_LARGE = 3,
  FDB_STREAMING_MODE_SERIAL = 4
} FDBStreamingMode;

typedef enum CONTEND_FDB_ENUM_BASE {
  FDB_MUTATION_TYPE_ADD = 2,
  FDB_MUTATION_TYPE_BIT_AND = 6,
  FDB_MUTATION_TYPE_BIT_OR = 7,
  FDB_MUTATION_TYPE_BIT_XOR = 8,
  FDB_MUTATION_TYPE_APPEND_IF_FITS = 9,
  FDB_MUTATION_TYPE_MAX = 12,
  FDB_MUTATION_TYPE_MIN = 13,
  FDB_MUTATION_TYPE_SET_VERSIONSTAMPED_KEY = 14,
  FDB_MUTATION_TYPE_SET_VERSIONSTAMPED_VALUE = 15,
  FDB_MUTATION_TYPE_BYTE_MIN = 16,
  FDB_MUTATION_TYPE_BYTE_MAX = 17,
  FDB_MUTATION_TYPE_COMPARE_AND_CLEAR = 20
} FDBMutationType;

typedef enum CONTEND_FDB_ENUM_BASE {
  FDB_CONFLICT_RANGE_TYPE_READ = 0,
  FDB_CONFLICT_RANGE_TYPE_WRITE = 1
} FDBConflictRangeType;

typedef enum CONTEND_FDB_ENUM_BASE {
  FDB_ERROR_PREDICATE_RETRYABLE = 50000,
  FDB_ERROR_PREDICATE_MAYBE_COMMITTED = 50001,
  FDB_ERROR_PREDICATE_RETRYABLE_NOT_COMMITTED = 50002
} FDBErrorPredicate;

/* Options are plain codes here; those contend acts on are named in docs/fdb_c.md. */
typedef int FDBNetworkOption;
typedef int FDBDatabaseOption;
typedef int FDBTransactionOption;

/* ---- API version and network ---- */
CONTEND_FDB_EXPORT fdb_error_t fdb_select_api_version_impl(int runtime_version, int header_version);
CONTEND_FDB_EXPORT int fdb_get_max_api_version(void);
CONTEND_FDB_EXPORT const char* fdb_get_client_version(void);
CONTEND_FDB_EXPORT const char* fdb_get_error(fdb_error_t code);
CONTEND_FDB_EXPORT fdb_bool_t fdb_error_predicate(int predicate_test, fdb_error_t code);
CONTEND_FDB_EXPORT fdb_error_t fdb_network_set_option(FDBNetworkOption option, const uint8_t* value,
                                                      int value_length);
CONTEND_FDB_EXPORT fdb_error_t fdb_setup_network(void);
CONTEND_FDB_EXPORT fdb_error_t fdb_run_network(void);
CONTEND_FDB_EXPORT fdb_error_t fdb_stop_network(void);
CONTEND_FDB_EXPORT fdb_error_t fdb_add_network_thread_completion_hook(void (*hook)(void*),
                                                                      void* hook_parameter);

#define fdb_select_api_version(v) fdb_select_api_version_impl(v, FDB_API_VERSION)
#define fdb_select_api_version_capped(v)                                     \
  fdb_select_api_version_impl(v, FDB_API_VERSION < fdb_get_max_api_version() \
                                     ? FDB_API_VERSION                       \
                                     : fdb_get_max_api_version())

/* A key selector as the (key, key_length, or_equal, offset) arguments of the read calls. */
#define FDB_KEYSEL_LAST_LESS_THAN(k, l) k, l, 0, 0
#define FDB_KEYSEL_LAST_LESS_OR_EQUAL(k, l) k, l, 1, 0
#define FDB_KEYSEL_FIRST_GREATER_THAN(k, l) k, l, 1, 1
#define FDB_KEYSEL_FIRST_GREATER_OR_EQUAL(k, l) k, l, 0, 1

/* ---- futures ---- */
CONTEND_FDB_EXPORT void fdb_future_cancel(FDBFuture* f);
CONTEND_FDB_EXPORT void fdb_future_release_memory(FDBFuture* f);
CONTEND_FDB_EXPORT void fdb_future_destroy(FDBFuture* f);
CONTEND_FDB_EXPORT fdb_error_t fdb_future_block_until_ready(FDBFuture* f);
CONTEND_FDB_EXPORT fdb_bool_t fdb_future_is_ready(FDBFuture* f);
CONTEND_FDB_EXPORT fdb_error_t fdb_future_set_callback(FDBFuture* f, FDBCallback callback,
                                                       void* callback_parameter);
CONTEND_FDB_EXPORT fdb_error_t fdb_future_get_error(FDBFuture* f);
CONTEND_FDB_EXPORT fdb_error_t fdb_future_get_bool(FDBFuture* f, fdb_bool_t* out);
CONTEND_FDB_EXPORT fdb_error_t fdb_future_get_int64(FDBFuture* f, int64_t* out);
#if FDB_API_VERSION < 620
/* Before header version 620, fdb_future_get_int64's name for a version's future. A program built
 * with a later header that calls it anyway is answered client_invalid_operation (FoundationDB's
 * library aborts). */
CONTEND_FDB_EXPORT fdb_error_t fdb_future_get_version(FDBFuture* f, int64_t* out_version);
#endif
CONTEND_FDB_EXPORT fdb_error_t fdb_future_get_uint64(FDBFuture* f, uint64_t* out);
CONTEND_FDB_EXPORT fdb_error_t fdb_future_get_double(FDBFuture* f, double* out);
CONTEND_FDB_EXPORT fdb_error_t fdb_future_get_key(FDBFuture* f, const uint8_t** out_key,
                                                  int* out_key_length);
CONTEND_FDB_EXPORT fdb_error_t fdb_future_get_value(FDBFuture* f, fdb_bool_t* out_present,
                                                    const uint8_t** out_value,
                                                    int* out_value_length);
CONTEND_FDB_EXPORT fdb_error_t fdb_future_get_keyvalue_array(FDBFuture* f,
                                                             const FDBKeyValue** out_kv,
                                                             int* out_count, fdb_bool_t* out_more);
CONTEND_FDB_EXPORT fdb_error_t fdb_future_get_key_array(FDBFuture* f, const FDBKey** out_key_array,
                                                        int* out_count);
CONTEND_FDB_EXPORT fdb_error_t fdb_future_get_string_array(FDBFuture* f, const char*** out_strings,
                                                           int* out_count);
CONTEND_FDB_EXPORT fdb_error_t fdb_future_get_mappedkeyvalue_array(FDBFuture* f,
                                                                   const FDBMappedKeyValue** out_kv,
                                                                   int* out_count,
                                                                   fdb_bool_t* out_more);
CONTEND_FDB_EXPORT fdb_error_t fdb_future_get_keyrange_array(FDBFuture* f,
                                                             const FDBKeyRange** out_ranges,
                                                             int* out_count);
CONTEND_FDB_EXPORT fdb_error_t fdb_future_get_granule_summary_array(
    FDBFuture* f, const FDBGranuleSummary** out_summaries, int* out_count);
CONTEND_FDB_EXPORT fdb_error_t fdb_future_readbg_get_descriptions(FDBFuture* f,
                                                                  FDBBGFileDescription** out,
                                                                  int* desc_count);

/* ---- synchronous results (blob granule reads) ---- */
CONTEND_FDB_EXPORT FDBResult* fdb_readbg_parse_snapshot_file(
    const uint8_t* file_data, int file_len, const FDBBGTenantPrefix* tenant_prefix,
    const FDBBGEncryptionCtx* encryption_ctx);
CONTEND_FDB_EXPORT FDBResult* fdb_readbg_parse_delta_file(const uint8_t* file_data, int file_len,
                                                          const FDBBGTenantPrefix* tenant_prefix,
                                                          const FDBBGEncryptionCtx* encryption_ctx);
CONTEND_FDB_EXPORT void fdb_result_destroy(FDBResult* r);
CONTEND_FDB_EXPORT fdb_error_t fdb_result_get_keyvalue_array(FDBResult* r,
                                                             const FDBKeyValue** out_kv,
                                                             int* out_count, fdb_bool_t* out_more);
CONTEND_FDB_EXPORT fdb_error_t fdb_result_get_bg_mutations_array(
    FDBResult* r, const FDBBGMutation** out_mutations, int* out_count);

/* ---- database ---- */
CONTEND_FDB_EXPORT fdb_error_t fdb_create_database(const char* cluster_file_path,
                                                   FDBDatabase** out_database);
CONTEND_FDB_EXPORT void fdb_database_destroy(FDBDatabase* d);
CONTEND_FDB_EXPORT fdb_error_t fdb_database_set_option(FDBDatabase* d, FDBDatabaseOption option,
                                                       const uint8_t* value, int value_length);
CONTEND_FDB_EXPORT fdb_error_t fdb_database_create_transaction(FDBDatabase* d,
                                                               FDBTransaction** out_transaction);
CONTEND_FDB_EXPORT fdb_error_t fdb_create_database_from_connection_string(
    const char* connection_string, FDBDatabase** out_database);
CONTEND_FDB_EXPORT FDBFuture* fdb_database_reboot_worker(FDBDatabase* db, const uint8_t* address,
                                                         int address_length, fdb_bool_t check,
                                                         int duration);
CONTEND_FDB_EXPORT FDBFuture* fdb_database_force_recovery_with_data_loss(FDBDatabase* db,
                                                                         const uint8_t* dcid,
                                                                         int dcid_length);
CONTEND_FDB_EXPORT FDBFuture* fdb_database_create_snapshot(FDBDatabase* db, const uint8_t* uid,
                                                           int uid_length,
                                                           const uint8_t* snap_command,
                                                           int snap_command_length);
CONTEND_FDB_EXPORT double fdb_database_get_main_thread_busyness(FDBDatabase* db);
CONTEND_FDB_EXPORT FDBFuture* fdb_database_get_server_protocol(FDBDatabase* db,
                                                               uint64_t expected_version);
CONTEND_FDB_EXPORT FDBFuture* fdb_database_get_client_status(FDBDatabase* db);

/* ---- blob granules of a database (none: unsupported_operation) ---- */
CONTEND_FDB_EXPORT FDBFuture* fdb_database_purge_blob_granules(
    FDBDatabase* db, const uint8_t* begin_key_name, int begin_key_name_length,
    const uint8_t* end_key_name, int end_key_name_length, int64_t purge_version, fdb_bool_t force);
CONTEND_FDB_EXPORT FDBFuture* fdb_database_wait_purge_granules_complete(
    FDBDatabase* db, const uint8_t* purge_key_name, int purge_key_name_length);
CONTEND_FDB_EXPORT FDBFuture* fdb_database_blobbify_range(FDBDatabase* db,
                                                          const uint8_t* begin_key_name,
                                                          int begin_key_name_length,
                                                          const uint8_t* end_key_name,
                                                          int end_key_name_length);
CONTEND_FDB_EXPORT FDBFuture* fdb_database_blobbify_range_blocking(FDBDatabase* db,
                                                                   const uint8_t* begin_key_name,
                                                                   int begin_key_name_length,
                                                                   const uint8_t* end_key_name,
                                                                   int end_key_name_length);
CONTEND_FDB_EXPORT FDBFuture* fdb_database_unblobbify_range(FDBDatabase* db,
                                                            const uint8_t* begin_key_name,
                                                            int begin_key_name_length,
                                                            const uint8_t* end_key_name,
                                                            int end_key_name_length);
CONTEND_FDB_EXPORT FDBFuture* fdb_database_list_blobbified_ranges(
    FDBDatabase* db, const uint8_t* begin_key_name, int begin_key_name_length,
    const uint8_t* end_key_name, int end_key_name_length, int rangeLimit);
CONTEND_FDB_EXPORT FDBFuture* fdb_database_verify_blob_range(
    FDBDatabase* db, const uint8_t* begin_key_name, int begin_key_name_length,
    const uint8_t* end_key_name, int end_key_name_length, int64_t version);
CONTEND_FDB_EXPORT FDBFuture* fdb_database_flush_blob_range(
    FDBDatabase* db, const uint8_t* begin_key_name, int begin_key_name_length,
    const uint8_t* end_key_name, int end_key_name_length, fdb_bool_t compact, int64_t version);

/* ---- tenants (the database's tenant mode is disabled: see docs/fdb_c.md) ---- */
CONTEND_FDB_EXPORT fdb_error_t fdb_database_open_tenant(FDBDatabase* d, const uint8_t* tenant_name,
                                                        int tenant_name_length,
                                                        FDBTenant** out_tenant);
CONTEND_FDB_EXPORT fdb_error_t fdb_tenant_create_transaction(FDBTenant* tenant,
                                                             FDBTransaction** out_transaction);
CONTEND_FDB_EXPORT FDBFuture* fdb_tenant_get_id(FDBTenant* tenant);
CONTEND_FDB_EXPORT void fdb_tenant_destroy(FDBTenant* tenant);
CONTEND_FDB_EXPORT FDBFuture* fdb_tenant_purge_blob_granules(
    FDBTenant* tenant, const uint8_t* begin_key_name, int begin_key_name_length,
    const uint8_t* end_key_name, int end_key_name_length, int64_t purge_version, fdb_bool_t force);
CONTEND_FDB_EXPORT FDBFuture* fdb_tenant_wait_purge_granules_complete(FDBTenant* tenant,
                                                                      const uint8_t* purge_key_name,
                                                                      int purge_key_name_length);
CONTEND_FDB_EXPORT FDBFuture* fdb_tenant_blobbify_range(FDBTenant* tenant,
                                                        const uint8_t* begin_key_name,
                                                        int begin_key_name_length,
                                                        const uint8_t* end_key_name,
                                                        int end_key_name_length);
CONTEND_FDB_EXPORT FDBFuture* fdb_tenant_blobbify_range_blocking(FDBTenant* tenant,
                                                                 const uint8_t* begin_key_name,
                                                                 int begin_key_name_length,
                                                                 const uint8_t* end_key_name,
                                                                 int end_key_name_length);
CONTEND_FDB_EXPORT FDBFuture* fdb_tenant_unblobbify_range(FDBTenant* tenant,
                                                          const uint8_t* begin_key_name,
                                                          int begin_key_name_length,
                                                          const uint8_t* end_key_name,
                                                          int end_key_name_length);
CONTEND_FDB_EXPORT FDBFuture* fdb_tenant_list_blobbified_ranges(
    FDBTenant* tenant, const uint8_t* begin_key_name, int begin_key_name_length,
    const uint8_t* end_key_name, int end_key_name_length, int rangeLimit);
CONTEND_FDB_EXPORT FDBFuture* fdb_tenant_verify_blob_range(
    FDBTenant* tenant, const uint8_t* begin_key_name, int begin_key_name_length,
    const uint8_t* end_key_name, int end_key_name_length, int64_t version);
CONTEND_FDB_EXPORT FDBFuture* fdb_tenant_flush_blob_range(
    FDBTenant* tenant, const uint8_t* begin_key_name, int begin_key_name_length,
    const uint8_t* end_key_name, int end_key_name_length, fdb_bool_t compact, int64_t version);

/* ---- transactions ---- */
CONTEND_FDB_EXPORT void fdb_transaction_destroy(FDBTransaction* tr);
CONTEND_FDB_EXPORT void fdb_transaction_cancel(FDBTransaction* tr);
CONTEND_FDB_EXPORT void fdb_transaction_reset(FDBTransaction* tr);
CONTEND_FDB_EXPORT fdb_error_t fdb_transaction_set_option(FDBTransaction* tr,
                                                          FDBTransactionOption option,
                                                          const uint8_t* value, int value_length);
CONTEND_FDB_EXPORT void fdb_transaction_set_read_version(FDBTransaction* tr, int64_t version);
CONTEND_FDB_EXPORT FDBFuture* fdb_transaction_get_read_version(FDBTransaction* tr);
CONTEND_FDB_EXPORT FDBFuture* fdb_transaction_get(FDBTransaction* tr, const uint8_t* key_name,
                                                  int key_name_length, fdb_bool_t snapshot);
CONTEND_FDB_EXPORT FDBFuture* fdb_transaction_get_key(FDBTransaction* tr, const uint8_t* key_name,
                                                      int key_name_length, fdb_bool_t or_equal,
                                                      int offset, fdb_bool_t snapshot);
CONTEND_FDB_EXPORT FDBFuture* fdb_transaction_get_range(
    FDBTransaction* tr, const uint8_t* begin_key_name, int begin_key_name_length,
    fdb_bool_t begin_or_equal, int begin_offset, const uint8_t* end_key_name,
    int end_key_name_length, fdb_bool_t end_or_equal, int end_offset, int limit, int target_bytes,
    FDBStreamingMode mode, int iteration, fdb_bool_t snapshot, fdb_bool_t reverse);
CONTEND_FDB_EXPORT FDBFuture* fdb_transaction_get_mapped_range(
    FDBTransaction* tr, const uint8_t* begin_key_name, int begin_key_name_length,
    fdb_bool_t begin_or_equal, int begin_offset, const uint8_t* end_key_name,
    int end_key_name_length, fdb_bool_t end_or_equal, int end_offset, const uint8_t* mapper_name,
    int mapper_name_length, int limit, int target_bytes, FDBStreamingMode mode, int iteration,
    fdb_bool_t snapshot, fdb_bool_t reverse);
CONTEND_FDB_EXPORT FDBFuture* fdb_transaction_get_addresses_for_key(FDBTransaction* tr,
                                                                    const uint8_t* key_name,
                                                                    int key_name_length);
CONTEND_FDB_EXPORT FDBFuture* fdb_transaction_get_estimated_range_size_bytes(
    FDBTransaction* tr, const uint8_t* begin_key_name, int begin_key_name_length,
    const uint8_t* end_key_name, int end_key_name_length);
CONTEND_FDB_EXPORT FDBFuture* fdb_transaction_get_range_split_points(
    FDBTransaction* tr, const uint8_t* begin_key_name, int begin_key_name_length,
    const uint8_t* end_key_name, int end_key_name_length, int64_t chunk_size);
CONTEND_FDB_EXPORT void fdb_transaction_set(FDBTransaction* tr, const uint8_t* key_name,
                                            int key_name_length, const uint8_t* value,
                                            int value_length);
CONTEND_FDB_EXPORT void fdb_transaction_atomic_op(FDBTransaction* tr, const uint8_t* key_name,
                                                  int key_name_length, const uint8_t* param,
                                                  int param_length, FDBMutationType operation_type);
CONTEND_FDB_EXPORT void fdb_transaction_clear(FDBTransaction* tr, const uint8_t* key_name,
                                              int key_name_length);
CONTEND_FDB_EXPORT void fdb_transaction_clear_range(FDBTransaction* tr,
                                                    const uint8_t* begin_key_name,
                                                    int begin_key_name_length,
                                                    const uint8_t* end_key_name,
                                                    int end_key_name_length);
CONTEND_FDB_EXPORT FDBFuture* fdb_transaction_watch(FDBTransaction* tr, const uint8_t* key_name,
                                                    int key_name_length);
CONTEND_FDB_EXPORT FDBFuture* fdb_transaction_commit(FDBTransaction* tr);
CONTEND_FDB_EXPORT fdb_error_t fdb_transaction_get_committed_version(FDBTransaction* tr,
                                                                     int64_t* out_version);
CONTEND_FDB_EXPORT FDBFuture* fdb_transaction_get_approximate_size(FDBTransaction* tr);
CONTEND_FDB_EXPORT FDBFuture* fdb_transaction_get_tag_throttled_duration(FDBTransaction* tr);
CONTEND_FDB_EXPORT FDBFuture* fdb_transaction_get_total_cost(FDBTransaction* tr);
CONTEND_FDB_EXPORT FDBFuture* fdb_transaction_get_versionstamp(FDBTransaction* tr);
CONTEND_FDB_EXPORT FDBFuture* fdb_transaction_on_error(FDBTransaction* tr, fdb_error_t error);
CONTEND_FDB_EXPORT fdb_error_t fdb_transaction_add_conflict_range(
    FDBTransaction* tr, const uint8_t* begin_key_name, int begin_key_name_length,
    const uint8_t* end_key_name, int end_key_name_length, FDBConflictRangeType type);

/* ---- blob granules of a transaction (none: unsupported_operation) ---- */
CONTEND_FDB_EXPORT FDBFuture* fdb_transaction_get_blob_granule_ranges(
    FDBTransaction* tr, const uint8_t* begin_key_name, int begin_key_name_length,
    const uint8_t* end_key_name, int end_key_name_length, int rangeLimit);
CONTEND_FDB_EXPORT FDBResult* fdb_transaction_read_blob_granules(
    FDBTransaction* tr, const uint8_t* begin_key_name, int begin_key_name_length,
    const uint8_t* end_key_name, int end_key_name_length, int64_t beginVersion, int64_t readVersion,
    FDBReadBlobGranuleContext granuleContext);
CONTEND_FDB_EXPORT FDBFuture* fdb_transaction_summarize_blob_granules(
    FDBTransaction* tr, const uint8_t* begin_key_name, int begin_key_name_length,
    const uint8_t* end_key_name, int end_key_name_length, int64_t summaryVersion, int rangeLimit);
CONTEND_FDB_EXPORT FDBFuture* fdb_transaction_read_blob_granules_description(
    FDBTransaction* tr, const uint8_t* begin_key_name, int begin_key_name_length,
    const uint8_t* end_key_name, int end_key_name_length, int64_t begin_version,
    int64_t read_version, int64_t* read_version_out);

#ifdef __cplusplus
}
#endif

#endif /* CONTEND_FDB_C_H */
