// The serializability replay: it accepts a serial log and names the read that a serial order at
// its commit position cannot give.
#include <gtest/gtest.h>

#include "sim/runtime/serializability.h"

namespace contend {
namespace {

ReadRecord get_of(const std::string& key, std::optional<Bytes> value,
                  std::size_t mutations_before = 0) {
  ReadRecord r;
  r.keys = single_key_range(key);
  r.value = std::move(value);
  r.mutations_before = mutations_before;
  return r;
}

Mutation set_of(const std::string& k, const std::string& v) {
  return Mutation{MutationType::set_value, k, v};
}

TEST(Serializability, AcceptsReadsThatReplayInCommitOrder) {
  std::vector<CommittedTransaction> log = {
      {1, 1, 0, 10, {get_of("a", std::nullopt)}, {set_of("a", "1")}},
      {2, 2, 12, 20, {get_of("a", "1"), get_of("b", "own", 1)}, {set_of("b", "own")}},
      {3, 3, 15, kInvalidVersion, {get_of("a", "1")}, {}},  // read-only at its read version
  };
  EXPECT_FALSE(check_serializable(log).has_value());
}

TEST(Serializability, NamesAReadNoSerialOrderGives) {
  // Both read "a" absent and both commit: a lost update the resolver should have refused.
  std::vector<CommittedTransaction> log = {
      {1, 1, 5, 10, {get_of("a", std::nullopt)}, {set_of("a", "1")}},
      {2, 2, 5, 11, {get_of("a", std::nullopt)}, {set_of("a", "2")}},
  };
  auto error = check_serializable(log);
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("client 2 tx#2"), std::string::npos) << *error;
}

TEST(Serializability, NamesTheReadByItsPlaceAmongTheNonSnapshotReads) {
  // A log may hold the snapshot reads or not (Environment::log_snapshot_reads): the name is the
  // same either way.
  ReadRecord stale = get_of("a", std::nullopt);
  stale.snapshot = true;
  for (bool with_snapshot : {false, true}) {
    std::vector<ReadRecord> reads = {get_of("b", std::nullopt), get_of("a", std::nullopt)};
    if (with_snapshot) reads.insert(reads.begin(), stale);
    std::vector<CommittedTransaction> log = {
        {1, 1, 5, 10, {}, {set_of("a", "1")}},
        {2, 2, 5, 11, reads, {set_of("b", "x")}},
    };
    auto error = check_serializable(log);
    ASSERT_TRUE(error.has_value());
    EXPECT_NE(error->find("non-snapshot read 2 of"), std::string::npos) << *error;
  }
}

TEST(Serializability, SnapshotReadsMaySeeAnOlderState) {
  ReadRecord stale = get_of("a", std::nullopt);
  stale.snapshot = true;
  std::vector<CommittedTransaction> log = {
      {1, 1, 5, 10, {}, {set_of("a", "1")}},
      {2, 2, 5, 11, {stale}, {set_of("b", "x")}},
  };
  EXPECT_FALSE(check_serializable(log).has_value());
}

}  // namespace
}  // namespace contend
