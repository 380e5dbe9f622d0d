// Test support: one store, an inline environment, and helpers that run a single read or a whole
// transaction to completion so store rules can be stated one per test.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "sim/runtime/immediate_environment.h"
#include "sim/store/retry.h"
#include "sim/store/store.h"
#include "sim/store/transaction.h"

namespace contend::testing {

// Wraps one awaitable store operation in a task so run_inline can drive it.
template <class Awaitable>
auto as_task(Awaitable awaitable) -> Task<decltype(awaitable.await_resume())> {
  co_return co_await awaitable;
}

// A store and an inline environment with helpers; usable from gtest fixtures and properties.
struct StoreHarness {
  Database db(ClientId client = 0) { return Database{&store, &env, client}; }

  // Commits key=value in its own transaction (advancing the clock 1 ms first).
  Version put(const std::string& key, const std::string& value) {
    env.advance_us(1000);
    Transaction tr(db());
    tr.set(key, value);
    EXPECT_EQ(run_inline(as_task(tr.commit())), ErrorCode::success);
    return tr.committed_version();
  }

  static ErrorOr<std::optional<Bytes>> get(Transaction& tr, const std::string& key,
                                           bool snapshot = false) {
    return run_inline(attempt(tr, [key, snapshot](Transaction& t) -> Task<std::optional<Bytes>> {
      co_return co_await t.get(key, snapshot);
    }));
  }

  static ErrorOr<RangeResult> get_range(Transaction& tr, KeyRange range, RangeOptions options) {
    return run_inline(attempt(tr, [range, options](Transaction& t) -> Task<RangeResult> {
      co_return co_await t.get_range(range, options);
    }));
  }

  static ErrorCode commit(Transaction& tr) { return run_inline(as_task(tr.commit())); }

  Store store;
  ImmediateEnvironment env;
};

class StoreFixture : public ::testing::Test, public StoreHarness {};

}  // namespace contend::testing
