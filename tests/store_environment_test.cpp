// The store against a mocked Environment (GoogleMock): the clock and the fault source are
// stand-ins, so each test states exactly which fault happens where and what the store must do.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sim/store/retry.h"
#include "tests/support/store_fixture.h"

namespace contend::testing {
namespace {

using ::testing::_;
using ::testing::AtLeast;
using ::testing::Invoke;
using ::testing::NiceMock;
using ::testing::Return;

class MockEnvironment : public Environment {
 public:
  MOCK_METHOD(std::int64_t, now_us, (), (const, override));
  MOCK_METHOD(std::coroutine_handle<>, submit, (PendingOp & op), (override));
  MOCK_METHOD(std::uint64_t, random_u64, (ClientId client), (override));
  MOCK_METHOD(ReadFault, read_fault, (ClientId client), (override));
  MOCK_METHOD(CommitFault, commit_fault, (ClientId client), (override));
  MOCK_METHOD(void, on_attempt_end, (Transaction & tr, ErrorCode outcome), (override));

  MockEnvironment() {
    ON_CALL(*this, now_us()).WillByDefault(Invoke([this] { return clock; }));
    ON_CALL(*this, submit(_)).WillByDefault(Invoke([this](PendingOp& op) {
      if (op.kind == StepKind::sleep) {
        slept.push_back(op.delay_us);
        clock += op.delay_us;
      }
      op.complete();
      return op.continuation;
    }));
    ON_CALL(*this, read_fault(_)).WillByDefault(Return(ReadFault::none));
    ON_CALL(*this, commit_fault(_)).WillByDefault(Return(CommitFault::none));
    ON_CALL(*this, random_u64(_)).WillByDefault(Return(0));
  }
  std::int64_t clock = 1'000'000;
  std::vector<std::int64_t> slept;
};

Task<ErrorCode> set_and_commit(Transaction& tr, std::string key) {
  tr.set(key, "v");
  co_return co_await tr.commit();
}

TEST(StoreWithMockedEnvironment, EachReadAsksTheFaultSourceAndAFaultAbandonsTheAttempt) {
  Store store;
  NiceMock<MockEnvironment> env;
  EXPECT_CALL(env, read_fault(7))
      .WillOnce(Return(ReadFault::none))
      .WillOnce(Return(ReadFault::transaction_too_old));
  EXPECT_CALL(env, on_attempt_end(_, ErrorCode::transaction_too_old)).Times(1);
  Transaction tr(Database{&store, &env, 7});
  int after_second_read = 0;
  auto r = run_inline(attempt(tr, [&](Transaction& t) -> Task<void> {
    co_await t.get("a");
    co_await t.get("b");
    ++after_second_read;
  }));
  EXPECT_EQ(r.error(), ErrorCode::transaction_too_old);
  EXPECT_EQ(after_second_read, 0);
}

TEST(StoreWithMockedEnvironment, AnUnknownResultThatDidNotApplyLeavesTheStoreUnchanged) {
  Store store;
  NiceMock<MockEnvironment> env;
  EXPECT_CALL(env, commit_fault(_)).WillOnce(Return(CommitFault::unknown_result_not_applied));
  Transaction tr(Database{&store, &env, 1});
  EXPECT_EQ(run_inline(set_and_commit(tr, "k")), ErrorCode::commit_unknown_result);
  EXPECT_EQ(store.key_count(), 0u);
}

TEST(StoreWithMockedEnvironment, AnUnknownResultThatAppliedLeavesTheWrite) {
  Store store;
  NiceMock<MockEnvironment> env;
  EXPECT_CALL(env, commit_fault(_)).WillOnce(Return(CommitFault::unknown_result_applied));
  Transaction tr(Database{&store, &env, 1});
  EXPECT_EQ(run_inline(set_and_commit(tr, "k")), ErrorCode::commit_unknown_result);
  EXPECT_EQ(store.key_count(), 1u);
}

TEST(StoreWithMockedEnvironment, BackoffJitterComesFromTheClientsRandomStream) {
  Store store;
  NiceMock<MockEnvironment> env;
  // The largest draw waits just under the current backoff; the smallest waits nothing.
  EXPECT_CALL(env, random_u64(3))
      .WillOnce(Return(~0ULL))
      .WillOnce(Return(0))
      .WillOnce(Return(~0ULL));
  Transaction tr(Database{&store, &env, 3});
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(run_inline(as_task(tr.on_error(ErrorCode::not_committed))), ErrorCode::success);
  }
  ASSERT_EQ(env.slept.size(), 3u);
  EXPECT_EQ(env.slept[0], kDefaultBackoffUs - 1);
  EXPECT_EQ(env.slept[1], 0);
  EXPECT_EQ(env.slept[2], 4 * kDefaultBackoffUs - 1);
}

TEST(StoreWithMockedEnvironment, TheStoreReadsTimeOnlyFromTheClock) {
  Store store;
  NiceMock<MockEnvironment> env;
  EXPECT_CALL(env, now_us()).Times(AtLeast(1));
  Transaction tr(Database{&store, &env, 1});
  auto first = run_inline(attempt(tr, [](Transaction& t) -> Task<void> { co_await t.get("a"); }));
  ASSERT_TRUE(first.ok());
  env.clock += 6'000'000;  // the mocked clock moves past the MVCC window
  auto late = run_inline(attempt(tr, [](Transaction& t) -> Task<void> { co_await t.get("a"); }));
  EXPECT_EQ(late.error(), ErrorCode::transaction_too_old);
}

TEST(StoreWithMockedEnvironment, EveryAwaitedStepIsSubmittedAsASchedulingPoint) {
  Store store;
  NiceMock<MockEnvironment> env;
  std::vector<StepKind> kinds;
  ON_CALL(env, submit(_)).WillByDefault(Invoke([&](PendingOp& op) {
    kinds.push_back(op.kind);
    op.complete();
    return op.continuation;
  }));
  auto r = run_inline(run(Database{&store, &env, 1}, [](Transaction& t) -> Task<void> {
    co_await t.get("a");
    t.set("a", "1");
  }));
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(kinds, (std::vector<StepKind>{StepKind::read, StepKind::commit}));
}

}  // namespace
}  // namespace contend::testing
