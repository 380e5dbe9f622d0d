/* contend's libfdb_c: FoundationDB's C client API, served by contend's simulated store.
 *
 * The declarations follow FoundationDB's documented C API (api-c, versions 630 to 730): the same
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
#error "define FDB_API_VERSION (630..730) before including fdb_c.h"
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

#define fdb_select_api_version(v) fdb_select_api_version_impl(v, FDB_API_VERSION)

/* ---- futures ---- */
CONTEND_FDB_EXPORT void fdb_future_cancel(FDBFuture* f);
CONTEND_FDB_EXPORT void fdb_future_release_memory(FDBFuture* f);
CONTEND_FDB_EXPORT void fdb_future_destroy(FDBFuture* f);
CONTEND_FDB_EXPORT fdb_error_t fdb_future_block_until_ready(FDBFuture* f);
CONTEND_FDB_EXPORT fdb_bool_t fdb_future_is_ready(FDBFuture* f);
CONTEND_FDB_EXPORT fdb_error_t fdb_future_set_callback(FDBFuture* f, FDBCallback callback,
                                                       void* callback_parameter);
CONTEND_FDB_EXPORT fdb_error_t fdb_future_get_error(FDBFuture* f);
CONTEND_FDB_EXPORT fdb_error_t fdb_future_get_int64(FDBFuture* f, int64_t* out);
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

/* ---- database ---- */
CONTEND_FDB_EXPORT fdb_error_t fdb_create_database(const char* cluster_file_path,
                                                   FDBDatabase** out_database);
CONTEND_FDB_EXPORT void fdb_database_destroy(FDBDatabase* d);
CONTEND_FDB_EXPORT fdb_error_t fdb_database_set_option(FDBDatabase* d, FDBDatabaseOption option,
                                                       const uint8_t* value, int value_length);
CONTEND_FDB_EXPORT fdb_error_t fdb_database_create_transaction(FDBDatabase* d,
                                                               FDBTransaction** out_transaction);

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
CONTEND_FDB_EXPORT FDBFuture* fdb_transaction_get_versionstamp(FDBTransaction* tr);
CONTEND_FDB_EXPORT FDBFuture* fdb_transaction_on_error(FDBTransaction* tr, fdb_error_t error);
CONTEND_FDB_EXPORT fdb_error_t fdb_transaction_add_conflict_range(
    FDBTransaction* tr, const uint8_t* begin_key_name, int begin_key_name_length,
    const uint8_t* end_key_name, int end_key_name_length, FDBConflictRangeType type);

#ifdef __cplusplus
}
#endif

#endif /* CONTEND_FDB_C_H */
