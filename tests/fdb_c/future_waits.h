// How the tests of contend's libfdb_c wait for futures: each wait is bounded, so that a future a
// regression leaves unready fails its test at the bound instead of hanging the suite until
// CTest's timeout. The wait polls fdb_future_is_ready, which is not a client call (a
// deterministic network is not kept from going quiet by it), then confirms the future with
// fdb_future_block_until_ready, which returns at once.
#pragma once

#ifndef FDB_API_VERSION
#define FDB_API_VERSION 730
#endif
#include "fdb_c.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <thread>

namespace contend::fdb_testing {

// How long a future a test expects to become ready may take: far beyond any delay a test's
// configuration draws (backoffs of seconds, commit latencies of milliseconds).
inline constexpr std::chrono::seconds kReadyBound{60};

// Whether `f` is ready within `bound`.
inline bool ready_within(FDBFuture* f, std::chrono::milliseconds bound) {
  const auto deadline = std::chrono::steady_clock::now() + bound;
  while (fdb_future_is_ready(f) == 0) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return true;
}

// The error `f` is ready with, waited for at most kReadyBound; past it a test failure, and -1
// (which no future answers). `f` stays the caller's.
inline fdb_error_t wait_for(FDBFuture* f) {
  if (!ready_within(f, kReadyBound)) {
    ADD_FAILURE() << "a future was not ready within " << kReadyBound.count() << " s";
    return -1;
  }
  EXPECT_EQ(fdb_future_block_until_ready(f), 0);
  return fdb_future_get_error(f);
}

// wait_for(f), then destroys `f` (a future still waiting is cancelled by it).
inline fdb_error_t wait_and_destroy(FDBFuture* f) {
  const fdb_error_t e = wait_for(f);
  fdb_future_destroy(f);
  return e;
}

// The read version of `tr` (waited for), or -1 with a test failure.
inline int64_t read_version_of(FDBTransaction* tr) {
  FDBFuture* f = fdb_transaction_get_read_version(tr);
  EXPECT_EQ(wait_for(f), 0);
  int64_t version = -1;
  EXPECT_EQ(fdb_future_get_int64(f, &version), 0);
  fdb_future_destroy(f);
  return version;
}

// The error `f` is ready with within `bound` (it is destroyed), or -1 when it is still waiting
// then: for a future that should be ready at once, where waiting the full bound would only slow
// a failing test down.
inline fdb_error_t error_within(FDBFuture* f, std::chrono::milliseconds bound) {
  const fdb_error_t e = ready_within(f, bound) ? fdb_future_get_error(f) : -1;
  fdb_future_destroy(f);
  return e;
}

}  // namespace contend::fdb_testing
