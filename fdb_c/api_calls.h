// What every C entry point of contend's libfdb_c (api*.cpp) shares: the handles' definitions,
// the API version and network start-up state, and the wrappers that check a caller's arguments and
// turn an exception into an error code, so that none crosses into the caller.
// Invariants: a wrapper returns an error value for a malformed argument (client_invalid_operation)
// and for any exception (internal_error); the start-up state is never destroyed.
#pragma once

#include <atomic>
#include <memory>
#include <string>

#include "fdb_c/errors.h"
#include "fdb_c/future.h"
#include "fdb_c/network_startup.h"
#include "fdb_c/transaction.h"
#include "fdb_c/world.h"

// A database: its options and watch count (read and changed under the world's mutex; each of
// its transactions and watches shares them, and may outlive it as FoundationDB's do), and the
// cluster file or connection string it was opened with, which its client status names.
struct FDB_database {
  std::shared_ptr<contend::fdb::DatabaseState> state =
      std::make_shared<contend::fdb::DatabaseState>();
  std::string connection_record;
};

// A tenant of a database, by name. The database's tenant mode is disabled (api_tenants.cpp).
struct FDB_tenant {
  std::shared_ptr<contend::fdb::DatabaseState> database;
  contend::Bytes name;
};

// A synchronous result (blob granule reads, which contend does not model): only an error.
struct FDB_result {
  fdb_error_t error = 0;
};

namespace contend::fdb::api {

// The network's options and set-up (network_startup.h); never destroyed, as the world:
// fdb_stop_network may be called from an exit handler that runs after static destruction.
NetworkStartup& network_startup();

// fdb_create_database and fdb_create_database_from_connection_string: a handle on the one
// database, which names `connection_record` in its client status. api_version_unset before an
// API version is selected, network_not_setup before the network is; invalid_option_value when
// the configuration was refused.
// A connection string FoundationDB's client would not parse still opens the database, which holds
// the parse's error (DatabaseState::initialization_error).
fdb_error_t open_database(std::string connection_record, bool is_connection_string,
                          FDBDatabase** out_database);

// Thrown by view() for a byte string no valid call passes.
struct InvalidBytes {};

// A byte string a client passes: (nullptr, 0) and (p, 0) are empty. A negative length, or nullptr
// with a positive one, is a client's bug that FoundationDB's library does not check (it reads out
// of bounds); the call answers client_invalid_operation rather than use the empty key instead.
inline BytesView view(const uint8_t* bytes, int length) {
  if (length < 0 || (bytes == nullptr && length > 0)) throw InvalidBytes{};
  if (length == 0) return {};
  return BytesView(reinterpret_cast<const char*>(bytes), static_cast<std::size_t>(length));
}

// An option's value: as fdb_c.cpp's `value ? StringRef(value, value_length) : Optional()`, a null
// pointer is no value, whatever the length says (the option then answers as for a missing value).
inline BytesView option_value(const uint8_t* value, int length) {
  return value == nullptr ? BytesView() : view(value, length);
}

// Every call a client makes is noted: a deterministic network waits until the client is quiet.
inline void note_call() {
  World::get().network.note_client_call();
}

inline TransactionState& state_of(FDBTransaction* tr) {
  note_call();
  return *tr->state;
}

// Runs `body`; an exception becomes `on_exception`.
template <class Body, class Fallback>
auto guarded(Body&& body, Fallback&& on_exception) noexcept -> decltype(body()) {
  try {
    return body();
  } catch (...) {
    return on_exception();
  }
}

// A future that answers `error`, delivered by the network thread; nullptr when even that fails.
inline FDBFuture* failed_future(fdb_error_t error) noexcept {
  try {
    return ready_later(World::get(), error);
  } catch (...) {
    return nullptr;
  }
}

template <class Body>
FDBFuture* future_call(Body&& body) noexcept {
  try {
    return body();
  } catch (const InvalidBytes&) {
    return failed_future(kClientInvalidOperation);
  } catch (...) {
    return failed_future(kInternalError);
  }
}

template <class Body>
fdb_error_t error_call(Body&& body) noexcept {
  try {
    return body();
  } catch (const InvalidBytes&) {
    return kClientInvalidOperation;
  } catch (...) {
    return kInternalError;
  }
}

// A write answers nothing itself: its error stays with the transaction, whose next read or commit
// answers it (as FoundationDB's inverted clear range does), a malformed argument's too.
template <class Body>
void write_call(FDBTransaction* tr, Body&& body) noexcept {
  try {
    body();
  } catch (const InvalidBytes&) {
    guarded([&] { state_of(tr).fail_with(kClientInvalidOperation); }, [] {});
  } catch (...) {
  }
}

// Whether a client passed a null out-pointer: FoundationDB's library writes through it (a crash);
// contend's answers client_invalid_operation instead.
template <class... Pointee>
bool any_null(Pointee*... out) {
  return ((out == nullptr) || ...);
}

template <class T>
fdb_error_t get_value(FDBFuture* f, const T** out) {
  note_call();
  if (f == nullptr) return kClientInvalidOperation;
  return Future::from(f)->value(out);
}

// A getter of a kind no future of this library holds (api_not_modelled.cpp's calls answer only
// errors): the future's error, future_not_set, or client_invalid_operation.
inline fdb_error_t get_kind_never_held(FDBFuture* f) {
  note_call();
  if (f == nullptr) return kClientInvalidOperation;
  return Future::from(f)->kind_never_held();
}

}  // namespace contend::fdb::api
