// The simulated store, one FoundationDB rule per test.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/store_fixture.h"

namespace contend::testing {
namespace {

using ::testing::ElementsAre;

KeyRange range_of(const std::string& b, const std::string& e) {
  return KeyRange{b, e};
}

class StoreRules : public StoreFixture {};

TEST_F(StoreRules, ReadVersionIsTheLatestCommittedVersion) {
  Version v = put("a", "1");
  Transaction tr(db());
  auto value = get(tr, "a");
  ASSERT_TRUE(value.ok());
  EXPECT_EQ(*tr.read_version(), v);
  EXPECT_EQ(value.value(), std::optional<Bytes>("1"));
}

TEST_F(StoreRules, VersionsAdvanceOneMillionPerVirtualSecond) {
  env.set_now_us(2'000'000);
  Version v1 = put("a", "1");
  env.set_now_us(5'000'000 - 1000);
  Version v2 = put("a", "2");
  // A commit right after its read version takes now + 1; versions follow virtual time.
  EXPECT_EQ(v1, 2'001'001);
  EXPECT_EQ(v2, 5'000'001);
}

TEST_F(StoreRules, ReadVersionsFollowTimeEvenWithoutCommits) {
  put("a", "1");
  env.advance_us(60'000'000);
  Transaction tr(db());
  auto value = get(tr, "a");
  ASSERT_TRUE(value.ok()) << "an idle minute must not make a new transaction too old";
  EXPECT_EQ(*tr.read_version(), env.now_us());
  tr.set("b", "2");
  EXPECT_EQ(commit(tr), ErrorCode::success);
  EXPECT_GT(tr.committed_version(), *tr.read_version());
}

TEST_F(StoreRules, AReadAtAnOlderVersionDoesNotSeeLaterCommits) {
  put("a", "1");
  Transaction old(db());
  ASSERT_TRUE(get(old, "b").ok());  // takes the read version
  put("a", "2");
  put("c", "3");
  EXPECT_EQ(get(old, "a").value(), std::optional<Bytes>("1"));
  auto rows = get_range(old, range_of("a", "z"), {});
  ASSERT_TRUE(rows.ok());
  EXPECT_THAT(rows.value(), ElementsAre(KeyValue{"a", "1"}));
}

TEST_F(StoreRules, AnOldReadSeesAKeyClearedAfterItsReadVersion) {
  put("a", "1");
  put("b", "2");
  Transaction old(db());
  ASSERT_TRUE(get(old, "zz").ok());
  Transaction clearer(db());
  clearer.clear_range(range_of("a", "c"));
  env.advance_us(1000);
  ASSERT_EQ(commit(clearer), ErrorCode::success);
  auto rows = get_range(old, range_of("a", "z"), {.limit = 0, .reverse = true});
  EXPECT_THAT(rows.value(), ElementsAre(KeyValue{"b", "2"}, KeyValue{"a", "1"}));
}

TEST_F(StoreRules, ASnapshotReadNeverConflicts) {
  put("a", "1");
  Transaction reader(db(1));
  ASSERT_TRUE(get(reader, "a", /*snapshot=*/true).ok());
  ASSERT_TRUE(get_range(reader, range_of("a", "z"), {.snapshot = true}).ok());
  put("a", "2");
  put("m", "2");
  reader.set("x", "y");
  EXPECT_TRUE(reader.read_conflict_ranges().empty());
  EXPECT_EQ(commit(reader), ErrorCode::success);
}

TEST_F(StoreRules, AGetConflictsWithALaterWriteOfThatKeyOnly) {
  put("a", "1");
  Transaction reader(db(1));
  ASSERT_TRUE(get(reader, "a").ok());
  EXPECT_THAT(reader.read_conflict_ranges(), ElementsAre(single_key_range("a")));
  put("a\x01", "neighbour");
  reader.set("x", "y");
  Transaction reader2(db(2));
  ASSERT_TRUE(get(reader2, "a").ok());
  reader2.set("x2", "y");
  EXPECT_EQ(commit(reader), ErrorCode::success);
  put("a", "2");
  EXPECT_EQ(commit(reader2), ErrorCode::not_committed);
}

TEST_F(StoreRules, AnExhaustedRangeReadConflictsAnywhereInItsRange) {
  put("k1", "1");
  Transaction reader(db(1));
  auto rows = get_range(reader, range_of("k", "l"), {.limit = 5});
  ASSERT_EQ(rows.value().size(), 1u);
  EXPECT_THAT(reader.read_conflict_ranges(), ElementsAre(range_of("k", "l")));
  put("k9", "late");
  reader.set("x", "y");
  EXPECT_EQ(commit(reader), ErrorCode::not_committed);
}

TEST_F(StoreRules, ALimitedForwardReadConflictsOnlyUpToItsLastReturnedKey) {
  put("k1", "1");
  put("k2", "2");
  put("k3", "3");
  Transaction reader(db(1));
  auto rows = get_range(reader, range_of("k", "l"), {.limit = 1});
  ASSERT_THAT(rows.value(), ElementsAre(KeyValue{"k1", "1"}));
  EXPECT_THAT(reader.read_conflict_ranges(), ElementsAre(range_of("k", key_after("k1"))));
  put(key_after("k1"), "just past the last key");
  put("k5", "after");
  reader.set("x", "y");
  EXPECT_EQ(commit(reader), ErrorCode::success);
}

TEST_F(StoreRules, ALimitedForwardReadConflictsWithAWriteBeforeItsLastKey) {
  put("k2", "2");
  Transaction reader(db(1));
  ASSERT_TRUE(get_range(reader, range_of("k", "l"), {.limit = 1}).ok());
  put("k1", "inserted before the head");
  reader.set("x", "y");
  EXPECT_EQ(commit(reader), ErrorCode::not_committed);
  ASSERT_TRUE(reader.last_conflict().has_value());
  EXPECT_EQ(reader.last_conflict()->writer_range, single_key_range("k1"));
}

// The store logs a lone single-key write through its undo entry and any other writes apart:
// either way a conflict names the writer's range that met the read.
TEST_F(StoreRules, AConflictNamesTheWritersRangeThatMetTheRead) {
  struct Case {
    const char* what;
    void (*write)(Transaction&);
    KeyRange expected;
  };
  const Case cases[] = {
      {"one set", [](Transaction& w) { w.set("k1", "v"); }, single_key_range("k1")},
      {"two sets",
       [](Transaction& w) {
         w.set("a", "v");
         w.set("k1", "v");
       },
       single_key_range("k1")},
      {"a clear of an absent key", [](Transaction& w) { w.clear("k5"); }, single_key_range("k5")},
      {"a clear range",
       [](Transaction& w) {
         w.clear_range(KeyRangeRef{"k0", "k9"});
       },
       range_of("k0", "k9")},
      {"a write conflict range", [](Transaction& w) { w.add_write_conflict_key("k1"); },
       single_key_range("k1")},
  };
  for (const Case& c : cases) {
    put("k1", "1");
    Transaction reader(db(1));
    ASSERT_TRUE(get_range(reader, range_of("k", "l"), {}).ok());
    Transaction writer(db(2));
    c.write(writer);
    ASSERT_EQ(commit(writer), ErrorCode::success) << c.what;
    reader.set("x", "y");
    EXPECT_EQ(commit(reader), ErrorCode::not_committed) << c.what;
    ASSERT_TRUE(reader.last_conflict().has_value()) << c.what;
    EXPECT_EQ(reader.last_conflict()->writer_range, c.expected) << c.what;
    EXPECT_EQ(reader.last_conflict()->writer_transaction_id, writer.id()) << c.what;
  }
}

// A commit is checked against the commits after its read version by scanning them when there are
// at most Store::kScannedCommitsMax, else by the conflict history: either way it names the newest
// writer into its read, and a read nothing wrote into commits.
TEST_F(StoreRules, TheNewestWriterIntoAReadIsNamedHoweverManyCommitsFollowedIt) {
  const std::size_t scanned = Store::kScannedCommitsMax;
  for (const std::size_t others : {std::size_t{0}, scanned - 2, scanned - 1, 3 * scanned}) {
    for (const bool writers_last : {false, true}) {
      const std::string what = std::to_string(others + 2) + " commits after the read, writers " +
                               (writers_last ? "last" : "first");
      Transaction reader(db(1));
      ASSERT_TRUE(get_range(reader, range_of("k", "l"), {}).ok()) << what;
      Transaction bystander(db(2));
      ASSERT_TRUE(get_range(bystander, range_of("a", "b"), {}).ok()) << what;
      auto commit_others = [&] {
        for (std::size_t i = 0; i < others; ++i)
          put("other" + std::to_string(i), "v");
      };
      if (writers_last) commit_others();
      put("k1", "the older writer");
      const Version newest = put("k2", "the newest writer");
      if (!writers_last) commit_others();

      reader.set("x", "y");
      EXPECT_EQ(commit(reader), ErrorCode::not_committed) << what;
      ASSERT_TRUE(reader.last_conflict().has_value()) << what;
      EXPECT_EQ(reader.last_conflict()->writer_version, newest) << what;
      EXPECT_EQ(reader.last_conflict()->writer_range, single_key_range("k2")) << what;
      bystander.set("y", "z");
      EXPECT_EQ(commit(bystander), ErrorCode::success) << what;
    }
  }
}

// Asked (FoundationDB's report_conflicting_keys), a conflicting commit names every read range a
// newer write meets, in order, whether the commits after its read version are scanned or the
// conflict history answers; the first is the one the conflict names. Not asked: none.
TEST_F(StoreRules, AskedACommitNamesEveryConflictingReadRangeScannedOrFromTheHistory) {
  const std::size_t scanned = Store::kScannedCommitsMax;
  for (const std::size_t others : {std::size_t{0}, 3 * scanned}) {
    for (const bool asked : {false, true}) {
      const std::string what =
          std::to_string(others) + " other commits, " + (asked ? "asked" : "not asked");
      Transaction reader(db(1));
      for (const char* b : {"a", "c", "e", "g"}) {
        const std::string begin(b), end = begin + "\xff";
        ASSERT_TRUE(get_range(reader, range_of(begin, end), {}).ok()) << what;
      }
      put("c5", "into the second read");
      for (std::size_t i = 0; i < others; ++i)
        put("other" + std::to_string(i), "v");
      put("g5", "into the fourth read");
      reader.set("x", "y");
      reader.set_report_conflicting_read_ranges(asked);
      EXPECT_EQ(commit(reader), ErrorCode::not_committed) << what;
      ASSERT_TRUE(reader.last_conflict().has_value()) << what;
      EXPECT_EQ(reader.last_conflict()->read_range_index, 1u) << what;
      const std::vector<std::size_t> named(reader.last_conflicting_read_ranges().begin(),
                                           reader.last_conflicting_read_ranges().end());
      const std::vector<std::size_t> expected =
          asked ? std::vector<std::size_t>{1, 3} : std::vector<std::size_t>{};
      EXPECT_EQ(named, expected) << what;
    }
  }
}

// One commit after the read but with more write ranges than a check scans: the history answers.
TEST_F(StoreRules, AWriterOfManyRangesIsFoundByTheConflictHistory) {
  Transaction reader(db(1));
  ASSERT_TRUE(get_range(reader, range_of("k", "l"), {}).ok());
  Transaction writer(db(2));
  for (std::size_t i = 0; i <= Store::kScannedWritesMax; ++i) {
    const std::string disjoint = "m" + std::string(i < 10 ? "00" : "0") + std::to_string(i);
    writer.add_write_conflict_range(range_of(disjoint, disjoint + "z"));
  }
  writer.set("a", "v");  // two writes: both are logged as ranges, not through the undo entry
  writer.set("k5", "v");
  ASSERT_EQ(commit(writer), ErrorCode::success);
  reader.set("x", "y");
  EXPECT_EQ(commit(reader), ErrorCode::not_committed);
  ASSERT_TRUE(reader.last_conflict().has_value());
  EXPECT_EQ(reader.last_conflict()->writer_version, writer.committed_version());
  EXPECT_EQ(reader.last_conflict()->writer_range, single_key_range("k5"));
}

// The conflict history is brought up to date only when a check needs it; each time it must take
// in every commit since the last time, and none that the window has dropped.
TEST_F(StoreRules, TheConflictHistoryCatchesUpWithEveryCommitSinceItWasLastAsked) {
  const std::size_t stale = Store::kScannedCommitsMax + 1;
  auto commit_others = [&] {
    for (std::size_t i = 0; i < stale; ++i)
      put("other" + std::to_string(i), "v");
  };
  auto read_then = [&](auto&& between) {
    Transaction reader(db(1));
    EXPECT_TRUE(get_range(reader, range_of("k", "l"), {}).ok());
    between();
    reader.set("x", "y");
    const ErrorCode e = commit(reader);
    return std::pair{e, reader.last_conflict()};
  };
  // Fresh commits only: nothing asks the history. Then the window moves past them all.
  for (int i = 0; i < 10; ++i)
    put("k" + std::to_string(i), "before the window moved");
  env.advance_us(kMvccWindowVersions + 1'000'000);
  EXPECT_EQ(read_then(commit_others).first, ErrorCode::success)
      << "writes that left the window before the history caught up never conflict";

  const auto [e, conflict] = read_then([&] {
    put("k1", "after the first catch-up");
    commit_others();
  });
  EXPECT_EQ(e, ErrorCode::not_committed) << "a write between two catch-ups";
  ASSERT_TRUE(conflict.has_value());
  EXPECT_EQ(conflict->writer_range, single_key_range("k1"));

  Version newest = 0;
  const auto [e_newest, conflict_newest] = read_then([&] {
    commit_others();
    newest = put("k3", "the newest commit");
  });
  EXPECT_EQ(e_newest, ErrorCode::not_committed);
  ASSERT_TRUE(conflict_newest.has_value());
  EXPECT_EQ(conflict_newest->writer_version, newest);

  Version fresh = 0;
  const auto [e_fresh, conflict_fresh] =
      read_then([&] { fresh = put("k4", "a scanned check after stale ones"); });
  EXPECT_EQ(e_fresh, ErrorCode::not_committed);
  ASSERT_TRUE(conflict_fresh.has_value());
  EXPECT_EQ(conflict_fresh->writer_version, fresh);
}

TEST_F(StoreRules, ALimitedReverseReadConflictsOnlyFromTheSmallestReturnedKey) {
  put("k1", "1");
  put("k2", "2");
  put("k3", "3");
  Transaction reader(db(1));
  auto rows = get_range(reader, range_of("k", "l"), {.limit = 2, .reverse = true});
  ASSERT_THAT(rows.value(), ElementsAre(KeyValue{"k3", "3"}, KeyValue{"k2", "2"}));
  EXPECT_THAT(reader.read_conflict_ranges(), ElementsAre(range_of("k2", "l")));
  put("k1", "below the smallest returned key");
  reader.set("x", "y");
  EXPECT_EQ(commit(reader), ErrorCode::success);

  Transaction reader2(db(2));
  ASSERT_TRUE(get_range(reader2, range_of("k", "l"), {.limit = 1, .reverse = true}).ok());
  put("k4", "a new last key");
  reader2.set("x", "y");
  EXPECT_EQ(commit(reader2), ErrorCode::not_committed);
}

TEST_F(StoreRules, AReadAfterMyOwnClearRangeSeesNothingAndAddsNoConflictThere) {
  put("k1", "1");
  put("k2", "2");
  Transaction tr(db(1));
  tr.clear_range(range_of("k", "k5"));
  auto rows = get_range(tr, range_of("a", "z"), {});
  EXPECT_TRUE(rows.value().empty());
  EXPECT_THAT(tr.read_conflict_ranges(), ElementsAre(range_of("a", "k"), range_of("k5", "z")));
  put("k3", "written inside my cleared range");
  EXPECT_EQ(commit(tr), ErrorCode::success);
}

TEST_F(StoreRules, ReadsSeeMyOwnSetsAndClearsMergedInKeyOrder) {
  put("b", "db-b");
  put("d", "db-d");
  Transaction tr(db(1));
  tr.set("c", "mine");
  tr.clear("d");
  tr.set("a", "mine-a");
  auto forward = get_range(tr, range_of("a", "z"), {});
  EXPECT_THAT(forward.value(),
              ElementsAre(KeyValue{"a", "mine-a"}, KeyValue{"b", "db-b"}, KeyValue{"c", "mine"}));
  auto backward = get_range(tr, range_of("a", "z"), {.limit = 2, .reverse = true});
  EXPECT_THAT(backward.value(), ElementsAre(KeyValue{"c", "mine"}, KeyValue{"b", "db-b"}));
  EXPECT_EQ(get(tr, "d").value(), std::nullopt);
  EXPECT_EQ(get(tr, "c").value(), std::optional<Bytes>("mine"));
}

TEST_F(StoreRules, AReadOnlyCommitNeverConflicts) {
  put("a", "1");
  Transaction reader(db(1));
  ASSERT_TRUE(get(reader, "a").ok());
  put("a", "2");
  EXPECT_EQ(commit(reader), ErrorCode::success);
  EXPECT_EQ(reader.committed_version(), kInvalidVersion);
}

TEST_F(StoreRules, ATransactionOlderThanFiveSecondsIsTooOld) {
  put("a", "1");
  Transaction tr(db(1));
  ASSERT_TRUE(get(tr, "a").ok());
  env.advance_us(5'000'001);
  put("b", "moves the version on");
  auto late = get(tr, "a");
  EXPECT_EQ(late.error(), ErrorCode::transaction_too_old);
}

TEST_F(StoreRules, ABlindWriteOlderThanFiveSecondsIsTooOldAtCommit) {
  put("a", "1");
  Transaction tr(db(1));
  ASSERT_TRUE(run_inline(as_task(tr.get_read_version())) > 0);
  tr.set("b", "2");
  env.advance_us(6'000'000);
  EXPECT_EQ(commit(tr), ErrorCode::transaction_too_old);
}

// A client may set a read version ahead of every granted one (fdb_transaction_set_read_version).
// Granted ahead of time, it is read at, and every later commit lands above it. Never granted, it
// is read at by no one: a commit, which reads nothing, is resolved as at the newest granted
// version (no write follows either) and lands where time puts it, below it.
TEST_F(StoreRules, AReadVersionAheadOfTimeIsGrantedOrCommittedBelowIt) {
  put("a", "1");
  const Version ahead = env.now_us() + 500'000;
  store.grant_read_version_ahead(ahead);
  EXPECT_EQ(store.granted_version(), ahead);
  Transaction reader(db());
  reader.set_read_version(ahead);
  EXPECT_EQ(get(reader, "a").value(), std::optional<Bytes>("1"));
  EXPECT_GT(put("a", "2"), ahead);
  EXPECT_EQ(get(reader, "a").value(), std::optional<Bytes>("1")) << "the later commit is above";
  Transaction blind(db(1));
  const Version far = store.latest_version() + 10'000'000;
  blind.set_read_version(far);
  blind.set("b", "2");
  EXPECT_EQ(commit(blind), ErrorCode::success);
  EXPECT_LT(blind.committed_version(), far);
  EXPECT_LT(store.granted_version(), far) << "a commit grants nothing ahead";
}

TEST_F(StoreRules, AtomicAddsCommuteWithoutConflicts) {
  std::string one("\x01\x00\x00\x00", 4);
  Transaction a(db(1));
  Transaction b(db(2));
  ASSERT_GT(run_inline(as_task(a.get_read_version())), -1);
  ASSERT_GT(run_inline(as_task(b.get_read_version())), -1);
  a.atomic_op(MutationType::add, "n", one);
  b.atomic_op(MutationType::add, "n", one);
  EXPECT_TRUE(a.read_conflict_ranges().empty());
  EXPECT_EQ(commit(a), ErrorCode::success);
  EXPECT_EQ(commit(b), ErrorCode::success);
  Transaction reader(db(3));
  EXPECT_EQ(get(reader, "n").value(), std::optional<Bytes>(std::string("\x02\x00\x00\x00", 4)));
}

TEST_F(StoreRules, ReadingMyAtomicAddCombinesWithTheDatabaseAndConflicts) {
  put("n", std::string("\x05", 1));
  Transaction tr(db(1));
  tr.atomic_op(MutationType::add, "n", std::string("\x03", 1));
  EXPECT_EQ(get(tr, "n").value(), std::optional<Bytes>(std::string("\x08", 1)));
  EXPECT_THAT(tr.read_conflict_ranges(), ElementsAre(single_key_range("n")));
}

TEST_F(StoreRules, AtomicMinMaxAndByteMinMaxFollowFoundationDB) {
  EXPECT_EQ(apply_atomic(MutationType::max, Bytes("\x02\x01", 2), Bytes("\x01\x02", 2)),
            Bytes("\x01\x02", 2));
  EXPECT_EQ(apply_atomic(MutationType::min, Bytes("\x02\x01", 2), Bytes("\x01\x02", 2)),
            Bytes("\x02\x01", 2));
  EXPECT_EQ(apply_atomic(MutationType::min, std::nullopt, "x"), "x");
  EXPECT_EQ(apply_atomic(MutationType::byte_max, Bytes("abc"), "abd"), "abd");
  EXPECT_EQ(apply_atomic(MutationType::byte_min, Bytes("abc"), "abd"), "abc");
  EXPECT_EQ(apply_atomic(MutationType::add, Bytes("\xff\xff", 2), Bytes("\x01\x00\x00", 3)),
            Bytes("\x00\x00\x01", 3));
}

TEST_F(StoreRules, AVersionstampedKeyGetsTheCommitVersionAndIsUnreadableBeforeCommit) {
  Transaction tr(db(1));
  Bytes key = std::string("q") + std::string(10, '\0') + std::string("\x01\x00\x00\x00", 4);
  tr.atomic_op(MutationType::set_versionstamped_key, key, "item");
  EXPECT_EQ(get_range(tr, range_of("q", "r"), {}).error(), ErrorCode::accessed_unreadable);
  env.advance_us(1000);
  Transaction writer(db(1));
  writer.atomic_op(MutationType::set_versionstamped_key, key, "item");
  ASSERT_EQ(commit(writer), ErrorCode::success);
  Bytes expected = "q" + make_versionstamp(writer.committed_version(), 0);
  EXPECT_EQ(store.latest_state().count(expected), 1u);
  EXPECT_EQ(writer.versionstamp(), make_versionstamp(writer.committed_version(), 0));
}

TEST_F(StoreRules, AVersionstampedValueIsFilledAtCommit) {
  Transaction tr(db(1));
  Bytes param = std::string("v:") + std::string(10, '\0') + std::string("\x02\x00\x00\x00", 4);
  tr.atomic_op(MutationType::set_versionstamped_value, "k", param);
  EXPECT_EQ(get(tr, "k").error(), ErrorCode::accessed_unreadable);
  Transaction writer(db(1));
  writer.atomic_op(MutationType::set_versionstamped_value, "k", param);
  ASSERT_EQ(commit(writer), ErrorCode::success);
  EXPECT_EQ(store.latest_state().at("k"), "v:" + make_versionstamp(writer.committed_version(), 0));
}

// Found by mutation testing (tests/mutants): nothing checked the stamp's bytes against the commit
// version itself, nor the key at a clear range's end.
TEST_F(StoreRules, AVersionstampIsTheCommitVersionBigEndianSoStampsOrderLikeCommits) {
  const Bytes param =
      std::string("v:") + std::string(10, '\0') + std::string("\x02\x00\x00\x00", 4);
  Bytes previous;
  for (int i = 0; i < 3; ++i) {
    env.advance_us(300'007);  // the versions differ in more than their last byte
    Transaction writer(db(1));
    writer.atomic_op(MutationType::set_versionstamped_value, "k", param);
    ASSERT_EQ(commit(writer), ErrorCode::success);
    const Bytes stamp = store.latest_state().at("k").substr(2);
    Bytes expected(10, '\0');
    const auto v = static_cast<std::uint64_t>(writer.committed_version());
    for (int b = 0; b < 8; ++b)
      expected[static_cast<std::size_t>(b)] = static_cast<char>((v >> (56 - 8 * b)) & 0xff);
    EXPECT_EQ(to_hex(stamp), to_hex(expected));
    EXPECT_LT(previous, stamp);
    previous = stamp;
  }
}

TEST_F(StoreRules, AClearRangeLeavesTheKeyAtItsEnd) {
  put("a", "1");
  put("b", "2");
  put("c", "3");
  Transaction tr(db(1));
  tr.clear_range(range_of("a", "c"));
  ASSERT_EQ(commit(tr), ErrorCode::success);
  EXPECT_EQ(store.latest_state().size(), 1u);
  EXPECT_EQ(store.latest_state().count("c"), 1u);
}

TEST_F(StoreRules, AVersionstampOffsetPastTheEndIsAnInvalidOperation) {
  Transaction tr(db(1));
  tr.atomic_op(MutationType::set_versionstamped_key, std::string("short\x09\x00\x00\x00", 9), "v");
  EXPECT_EQ(commit(tr), ErrorCode::client_invalid_operation);
}

TEST_F(StoreRules, SizeLimitsAreFoundationDBs) {
  Transaction big_key(db(1));
  big_key.set(std::string(kKeySizeLimit + 1, 'k'), "v");
  EXPECT_EQ(commit(big_key), ErrorCode::key_too_large);
  Transaction big_value(db(1));
  big_value.set("k", std::string(kValueSizeLimit + 1, 'v'));
  EXPECT_EQ(commit(big_value), ErrorCode::value_too_large);
  Transaction big(db(1));
  for (int i = 0; i < 101; ++i)
    big.set("k" + std::to_string(i), std::string(kValueSizeLimit, 'v'));
  EXPECT_EQ(commit(big), ErrorCode::transaction_too_large);
  Transaction system(db(1));
  system.set("\xff/system", "v");
  EXPECT_EQ(commit(system), ErrorCode::key_outside_legal_range);
}

// As FoundationDB's atomicOp: an atomic op's key (a versionstamped key's template, offset bytes
// included) is held to the legal range and the key size, its operand to the value size. Before,
// an atomic add could store a value over 100,000 bytes, and a versionstamped key could be written
// among the system keys.
TEST_F(StoreRules, AtomicOpsTakeTheLimitsOfASet) {
  const std::string offset_zero("\x00\x00\x00\x00", 4);
  const std::string stamp(10, '\0');
  auto fails_with = [&](MutationType type, const std::string& key, const std::string& operand) {
    Transaction tr(db(1));
    tr.atomic_op(type, key, operand);
    return commit(tr);
  };
  const std::string big_operand(kValueSizeLimit + 1, '\x01');
  EXPECT_EQ(fails_with(MutationType::add, "n", big_operand), ErrorCode::value_too_large);
  EXPECT_EQ(fails_with(MutationType::byte_max, "n", big_operand), ErrorCode::value_too_large);
  EXPECT_EQ(fails_with(MutationType::set_versionstamped_value, "n", big_operand + offset_zero),
            ErrorCode::value_too_large);
  EXPECT_EQ(
      fails_with(MutationType::set_versionstamped_key, "k" + stamp + offset_zero, big_operand),
      ErrorCode::value_too_large);
  EXPECT_EQ(fails_with(MutationType::set_versionstamped_key, "\xff" + stamp + offset_zero, "v"),
            ErrorCode::key_outside_legal_range);
  EXPECT_EQ(fails_with(MutationType::set_versionstamped_key,
                       std::string(kKeySizeLimit - 3, 'k') + offset_zero, "v"),
            ErrorCode::key_too_large);
  EXPECT_EQ(fails_with(MutationType::max, std::string(kKeySizeLimit + 1, 'k'), "\x01"),
            ErrorCode::key_too_large);
  EXPECT_EQ(fails_with(MutationType::add, "n", std::string(kValueSizeLimit, '\x01')),
            ErrorCode::success)
      << "an operand of exactly the value size is allowed";
}

// As FoundationDB's get and clear: no key over the key size can exist, so reading one answers
// "absent" and clearing one does nothing — not key_too_large, which failed the attempt or the
// commit before — and a system key is outside the legal range.
TEST_F(StoreRules, AKeyTooLongToExistIsReadAsAbsentAndClearedAsNothing) {
  Transaction tr(db(1));
  auto long_key = get(tr, std::string(kKeySizeLimit + 1, 'k'));
  ASSERT_TRUE(long_key.ok()) << error_name(long_key.error());
  EXPECT_EQ(long_key.value(), std::nullopt);
  tr.set("after", "v");
  EXPECT_EQ(commit(tr), ErrorCode::success);
  Transaction clearer(db(1));
  clearer.clear(std::string(kKeySizeLimit + 1, 'k'));
  EXPECT_EQ(commit(clearer), ErrorCode::success) << "clearing it clears nothing";
  Transaction system(db(1));
  auto system_key = get(system, "\xff" + std::string(kKeySizeLimit, 'k'));
  ASSERT_FALSE(system_key.ok());
  EXPECT_EQ(system_key.error(), ErrorCode::key_outside_legal_range);
}

TEST_F(StoreRules, ExplicitConflictRangesBehaveLikeReadsAndClears) {
  Transaction reader(db(1));
  ASSERT_GT(run_inline(as_task(reader.get_read_version())), -1);
  reader.add_read_conflict_range(range_of("m", "n"));
  reader.set("x", "y");
  Transaction writer(db(2));
  writer.add_write_conflict_key("m5");
  writer.set("unrelated", "1");
  env.advance_us(1000);
  ASSERT_EQ(commit(writer), ErrorCode::success);
  EXPECT_EQ(commit(reader), ErrorCode::not_committed);
  EXPECT_EQ(reader.last_conflict()->writer_client, 2);
}

// A client that makes one read of several snapshot reads (libfdb_c's key selectors) logs it in
// their place: a non-snapshot read of the keys its conflict range covers, placed after the
// writes buffered so far; nothing for an empty range.
TEST_F(StoreRules, AReadLoggedInPlaceOfOthersReplacesThem) {
  env.log_reads_enabled = true;
  put("a", "1");
  put("b", "2");
  Transaction tr(db());
  ASSERT_TRUE(get(tr, "a").ok());
  tr.set("z", "mine");
  const std::size_t first = tr.read_log().size();
  ASSERT_TRUE(get_range(tr, range_of("a", "\xff"), {.limit = 2, .snapshot = true}).ok());
  ASSERT_TRUE(get_range(tr, range_of("a", "c"), {.snapshot = true}).ok());
  ASSERT_EQ(tr.read_log().size(), first + 2) << "snapshot reads are logged here";
  const RangeResult rows = {{"a", "1"}, {"b", "2"}};
  const KeyRange a_to_b = range_of("a", std::string("b\0", 2));
  tr.log_read_in_place_of(first, a_to_b, {.limit = 0, .snapshot = true}, rows);
  ASSERT_EQ(tr.read_log().size(), first + 1);
  const ReadRecord& logged = tr.read_log().back();
  EXPECT_TRUE(logged.range);
  EXPECT_EQ(logged.keys, a_to_b);
  EXPECT_FALSE(logged.snapshot) << "a read the caller took a conflict range for";
  EXPECT_FALSE(logged.options.snapshot);
  EXPECT_EQ(logged.mutations_before, 1u);
  EXPECT_EQ(logged.rows, rows);
  EXPECT_FALSE(tr.read_log().front().range) << "the reads before `first` stay";

  ASSERT_TRUE(get_range(tr, range_of("c", "d"), {.snapshot = true}).ok());
  tr.log_read_in_place_of(first + 1, range_of("c", "c"), {}, {});
  EXPECT_EQ(tr.read_log().size(), first + 1) << "an empty range logs nothing";
}

// FoundationDB's AddConflictRange::False (a client's NEXT_WRITE_NO_WRITE_CONFLICT_RANGE): the
// write changes the database but takes no write conflict range, so a transaction that read its
// keys before it committed still commits; a key another write of the transaction gave a range
// keeps it; a versionstamped key keeps the range of the keys it may become.
TEST_F(StoreRules, AWriteWithoutAConflictRangeChangesTheDatabaseButConflictsWithNoRead) {
  put("a", "1");
  put("c", "1");
  Transaction reader(db(1));
  ASSERT_TRUE(get_range(reader, range_of("a", "z"), {}).ok());
  reader.set("x", "y");
  Transaction quiet(db(2));
  quiet.set("a", "2", WriteConflict::none);
  quiet.clear("c", WriteConflict::none);
  quiet.clear_range(range_of("d", "e"), WriteConflict::none);
  quiet.atomic_op(MutationType::add, "f", std::string("\x01", 1), WriteConflict::none);
  EXPECT_TRUE(quiet.write_conflict_ranges().empty());
  EXPECT_TRUE(quiet.wrote_without_conflict_range());
  EXPECT_EQ(quiet.mutations().size(), 4u);
  env.advance_us(1000);
  ASSERT_EQ(commit(quiet), ErrorCode::success);
  EXPECT_EQ(commit(reader), ErrorCode::success) << "no write conflict range met its read";
  EXPECT_EQ(store.latest_state().at("a"), "2");
  EXPECT_EQ(store.latest_state().count("c"), 0u);
  EXPECT_EQ(store.latest_state().at("f"), std::string("\x01", 1));

  Transaction both(db(2));
  both.set("g", "1");
  both.set("g", "2", WriteConflict::none);
  both.set("h", "1", WriteConflict::none);
  both.set("h", "2");
  EXPECT_THAT(both.write_conflict_ranges(),
              ElementsAre(single_key_range("g"), single_key_range("h")));
  both.reset();
  EXPECT_FALSE(both.wrote_without_conflict_range()) << "a new attempt";
  Bytes stamped = std::string("q") + std::string(10, '\0') + std::string("\x01\x00\x00\x00", 4);
  both.atomic_op(MutationType::set_versionstamped_key, stamped, "item", WriteConflict::none);
  EXPECT_EQ(both.write_conflict_ranges().size(), 1u) << "every key the versionstamp may make";
}

TEST_F(StoreRules, OnErrorBacksOffWithFullJitterDoublingToOneSecond) {
  Transaction tr(db(1));
  std::int64_t expected_cap = kDefaultBackoffUs;
  for (int i = 0; i < 10; ++i) {
    std::int64_t before = env.now_us();
    EXPECT_EQ(run_inline(as_task(tr.on_error(ErrorCode::not_committed))), ErrorCode::success);
    std::int64_t waited = env.now_us() - before;
    EXPECT_GE(waited, 0);
    EXPECT_LT(waited, expected_cap) << "attempt " << i;
    expected_cap = std::min(expected_cap * 2, kMaxBackoffUs);
    EXPECT_EQ(tr.backoff_us(), expected_cap);
  }
}

TEST_F(StoreRules, OnErrorWaitsAFlatTenMillisecondsForTooOldAndFutureVersion) {
  Transaction tr(db(1));
  for (ErrorCode e : {ErrorCode::transaction_too_old, ErrorCode::future_version}) {
    std::int64_t before = env.now_us();
    EXPECT_EQ(run_inline(as_task(tr.on_error(e))), ErrorCode::success);
    EXPECT_EQ(env.now_us() - before, kFutureVersionRetryDelayUs);
    EXPECT_EQ(tr.backoff_us(), kDefaultBackoffUs);
  }
}

TEST_F(StoreRules, ANewTransactionStartsCleanWhateverTheLastOneLeftInItsPooledBuffers) {
  {
    Transaction first(db(1));
    first.set("a-key-longer-than-the-small-string-buffer", "1");
    first.clear_range(range_of("m", "n"));
    ASSERT_TRUE(get(first, "z").ok());
  }  // its buffers go back to the pool with their storage
  Transaction second(db(1));
  EXPECT_TRUE(second.mutations().empty());
  EXPECT_TRUE(second.write_conflict_ranges().empty());
  EXPECT_TRUE(second.read_conflict_ranges().empty());
  EXPECT_EQ(get(second, "a-key-longer-than-the-small-string-buffer").value(), std::nullopt)
      << "an earlier transaction's write is visible";
  EXPECT_EQ(commit(second), ErrorCode::success);
}

TEST_F(StoreRules, OwnWritesInAnyOrderAreReadBackInKeyOrder) {
  Transaction tr(db(1));
  for (const char* key : {"k5", "k1", "k9", "k3", "k1", "k7"})
    tr.set(key, std::string("v") + key);
  tr.clear("k9");
  auto rows = get_range(tr, range_of("k", "l"), {});
  ASSERT_TRUE(rows.ok());
  EXPECT_THAT(rows.value(), ElementsAre(KeyValue{"k1", "vk1"}, KeyValue{"k3", "vk3"},
                                        KeyValue{"k5", "vk5"}, KeyValue{"k7", "vk7"}));
  auto reversed = get_range(tr, range_of("k", "l"), {.limit = 2, .reverse = true});
  ASSERT_TRUE(reversed.ok());
  EXPECT_THAT(reversed.value(), ElementsAre(KeyValue{"k7", "vk7"}, KeyValue{"k5", "vk5"}));
}

TEST_F(StoreRules, KeysClearedAndWrittenAgainReadCorrectlyAtEveryVersion) {
  // Cleared keys' map nodes are recycled for new keys: old versions must still read old values.
  Version v1 = put("a-long-key-number-one-xxxxxxxxxxxxxxxx", "1");
  Transaction at_v1(db(1));
  ASSERT_TRUE(get(at_v1, "zz").ok());
  Transaction clearer(db(2));
  clearer.clear("a-long-key-number-one-xxxxxxxxxxxxxxxx");
  ASSERT_EQ(commit(clearer), ErrorCode::success);
  put("a-long-key-number-two-xxxxxxxxxxxxxxxx", "2");
  EXPECT_EQ(*at_v1.read_version(), v1);
  EXPECT_EQ(get(at_v1, "a-long-key-number-one-xxxxxxxxxxxxxxxx").value(),
            std::optional<Bytes>("1"));
  EXPECT_EQ(get(at_v1, "a-long-key-number-two-xxxxxxxxxxxxxxxx").value(), std::nullopt);
  Transaction now(db(3));
  auto rows = get_range(now, range_of("a", "b"), {});
  ASSERT_TRUE(rows.ok());
  EXPECT_THAT(rows.value(), ElementsAre(KeyValue{"a-long-key-number-two-xxxxxxxxxxxxxxxx", "2"}));
}

TEST_F(StoreRules, AWriteMayNameAKeyHeldByTheTransactionsOwnMutations) {
  // Growing the buffers moves what they hold; a key viewing one of them must still be read whole.
  Transaction tr(db(1));
  tr.set("k0", "v");
  for (int i = 1; i <= 64; ++i) {
    const BytesView previous_key = tr.mutations().back().param1;
    tr.set(previous_key, std::to_string(i));
    tr.clear(tr.mutations().back().param1);
    tr.set(std::string("k") + std::to_string(i), "v");
  }
  ASSERT_EQ(tr.mutations().size(), 1u + 64 * 3);
  for (std::size_t i = 0; i < tr.mutations().size(); ++i) {
    EXPECT_EQ(tr.mutations()[i].param1.substr(0, 1), "k") << "mutation " << i << " lost its key";
  }
  EXPECT_EQ(commit(tr), ErrorCode::success);
  Transaction reader(db(2));
  auto rows = get_range(reader, range_of("k", "l"), {});
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ(rows.value().size(), 1u) << "only the last key survives its own clear";
}

TEST_F(StoreRules, OnErrorReturnsNonRetryableErrors) {
  Transaction tr(db(1));
  tr.set("a", "1");
  EXPECT_EQ(run_inline(as_task(tr.on_error(ErrorCode::key_too_large))), ErrorCode::key_too_large);
  EXPECT_EQ(tr.mutations().size(), 1u) << "a non-retryable error must not reset the transaction";
}

TEST_F(StoreRules, RunRetriesCommitUnknownResultBlindly) {
  int commits = 0;
  env.commit_fault_hook = [&](ClientId) {
    return ++commits == 1 ? CommitFault::unknown_result_applied : CommitFault::none;
  };
  auto result = run_inline(run(db(1), [](Transaction& tr) -> Task<void> {
    tr.atomic_op(MutationType::add, "counter", std::string("\x01", 1));
    co_return;
  }));
  EXPECT_TRUE(result.ok());
  EXPECT_EQ(result.attempts, 2);
  EXPECT_TRUE(result.maybe_committed_earlier);
  EXPECT_EQ(store.latest_state().at("counter"), std::string("\x02", 1))
      << "the first attempt applied, and the blind retry applied again";
}

TEST_F(StoreRules, AFailedReadAbandonsTheAttemptAndRunRetriesIt) {
  put("a", "1");
  int reads = 0;
  env.read_fault_hook = [&](ClientId) {
    return ++reads == 1 ? ReadFault::future_version : ReadFault::none;
  };
  int bodies_finished = 0;
  auto result = run_inline(run(db(1), [&](Transaction& tr) -> Task<std::optional<Bytes>> {
    auto v = co_await tr.get("a");
    ++bodies_finished;
    co_return v;
  }));
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result.attempts, 2);
  EXPECT_EQ(bodies_finished, 1) << "the failed read must not resume the body";
  EXPECT_EQ(*result.value, std::optional<Bytes>("1"));
}

TEST_F(StoreRules, RunStopsAtItsRetryLimitAndSaysSo) {
  env.commit_fault_hook = [](ClientId) { return CommitFault::not_committed_before; };
  auto result = run_inline(run(
      db(1),
      [](Transaction& tr) -> Task<void> {
        tr.set("a", "1");
        co_return;
      },
      RunOptions{.retry_limit = 5}));
  EXPECT_FALSE(result.ok());
  EXPECT_TRUE(result.retry_limit_reached);
  EXPECT_EQ(result.attempts, 5);
  EXPECT_EQ(result.error, ErrorCode::not_committed);
}

}  // namespace
}  // namespace contend::testing
