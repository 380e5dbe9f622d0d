// An FDBFuture: a result that becomes ready once, holding an error or one kind of value, with any
// number of callbacks (FoundationDB's ThreadMultiCallback), run in the order they were set.
// Readiness is delivered by the network thread (network.h), so a callback runs
// there — or at once on the calling thread when the future is ready before the callback is set,
// as FoundationDB documents. The fdb_future_get_* accessors hand out views into the future's own
// storage, valid until fdb_future_destroy.
// Invariants: a future is made ready at most once; its value is written before it is ready and
// after only by fdb_future_release_memory (which drops it); a callback is called at most once,
// never while a lock of this library is held, and none after the future was destroyed.
// Ownership: the caller of the API holds one reference, and whoever will make it ready (a network
// task) holds another; the future is freed when both are gone.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#define FDB_API_VERSION 730
#include "fdb_c/errors.h"
#include "fdb_c/fdb_c.h"
#include "sim/store/transaction.h"

struct FDB_future {};

namespace contend::fdb {

// What a ready future holds besides an error.
struct NoValue {};
struct KeyValues {
  RangeResult rows;
  bool more = false;
  std::vector<FDBKeyValue> views;  // into rows
};
struct KeyList {
  std::vector<Bytes> keys;
  std::vector<FDBKey> views;  // into keys
};
struct StringList {
  std::vector<std::string> strings;
  std::vector<const char*> views;  // into strings
};
struct Key {
  Bytes key;
};
// The kinds fdb_future_get_bool, _uint64 and _double read, wrapped so that an int64 or a literal
// never converts to them by accident.
struct BoolValue {
  bool value = false;
};
struct Uint64Value {
  std::uint64_t value = 0;
};
struct DoubleValue {
  double value = 0;
};
// A mapped range read's rows: each row of the range, and the range its lookup read with the rows
// found there (FDBMappedKeyValue's getRange: firstGreaterOrEqual of `begin` and of `end`).
struct MappedKeyValues {
  struct Row {
    Bytes key;
    Bytes value;
    Bytes begin;
    Bytes end;
    RangeResult found;
  };
  std::vector<Row> rows;
  bool more = false;
  std::vector<std::vector<FDBKeyValue>> found_views;  // into rows[i].found
  std::vector<FDBMappedKeyValue> views;               // into rows and found_views
};
using FutureValue =
    std::variant<NoValue, std::int64_t, std::optional<Bytes>, Key, KeyValues, KeyList, StringList,
                 BoolValue, Uint64Value, DoubleValue, MappedKeyValues>;

class Future : public FDB_future {
 public:
  Future() = default;
  Future(const Future&) = delete;
  Future& operator=(const Future&) = delete;

  static Future* from(FDBFuture* f) { return static_cast<Future*>(f); }

  // Sets the outcome; the future is not yet ready (deliver() makes it so). Returns false when it
  // was already set (by a cancel).
  bool set(fdb_error_t error, FutureValue value = NoValue{});
  // Makes a set future ready and runs its callback, if one is set. Idempotent. Returns whether
  // a callback ran.
  bool deliver();
  // Whether deliver() ran a callback (the future is then awaited by its client: network.h).
  bool called_back() const;
  // Sets operation_cancelled and delivers, unless already set.
  void cancel();
  // fdb_future_destroy of a future that may not be ready: its callbacks are dropped, then cancel().
  void abandon();
  // fdb_future_release_memory: the value is dropped, and the future answers future_released from
  // then on (an error it holds stays); one not yet set is set so, and delivered.
  void release_memory();

  fdb_error_t set_callback(FDBCallback callback, void* parameter);
  bool is_ready() const;
  void block_until_ready();
  fdb_error_t error() const;
  // The value, or the error that says why there is none of that kind: future_not_set (not
  // ready), the future's error, or client_invalid_operation (a value of another kind).
  template <class T>
  fdb_error_t value(const T** out) const;
  // What a getter of a kind no future of this library holds (a blob granule summary's) answers:
  // future_not_set, the future's error, or client_invalid_operation.
  fdb_error_t kind_never_held() const;

  // Reference counting: the API's handle and the pending delivery each hold one.
  void retain() { refs_.fetch_add(1, std::memory_order_relaxed); }
  void release();

 private:
  mutable std::mutex mutex_;
  std::condition_variable ready_changed_;
  bool set_ = false;
  bool ready_ = false;
  bool called_back_ = false;
  fdb_error_t error_ = 0;
  FutureValue value_;
  struct Callback {
    FDBCallback function;
    void* parameter;
  };
  std::vector<Callback> callbacks_;
  bool abandoned_ = false;
  std::atomic<int> refs_{1};
};

template <class T>
fdb_error_t Future::value(const T** out) const {
  std::lock_guard lock(mutex_);
  if (!ready_) return kFutureNotSet;
  if (error_ != 0) return error_;
  const T* held = std::get_if<T>(&value_);
  if (held == nullptr) return kClientInvalidOperation;
  *out = held;
  return 0;
}

}  // namespace contend::fdb
