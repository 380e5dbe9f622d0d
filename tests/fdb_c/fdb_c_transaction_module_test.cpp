// contend's libfdb_c serving FoundationDB's \xff\xff/transaction/ special key module through the
// C API: REPORT_CONFLICTING_KEYS (712) and the conflicting read ranges of a failed commit, the
// read and write conflict ranges of the transaction, each in FoundationDB's boundary encoding
// (prefix + begin = "1", prefix + end = "0", overlapping and adjacent ranges merged), read with
// key selectors, limits and in reverse. Before, 712 was refused with invalid_option (2007) and
// every read of the module answered key_outside_legal_range (2004): every test here failed.
#include "configured_network.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

using contend::fdb_testing::ConfiguredNetwork;
using contend::fdb_testing::hex;
using contend::fdb_testing::wait_and_destroy;
using contend::fdb_testing::wait_for;

ConfiguredNetwork* const network =
    static_cast<ConfiguredNetwork*>(::testing::AddGlobalTestEnvironment(
        new ConfiguredNetwork("fdb_c_transaction_module_test", "deterministic = true\n",
                              ConfiguredNetwork::Log::scratch)));

constexpr int kReportConflictingKeys = 712, kSpecialKeySpaceRelaxed = 713;
constexpr int kReadYourWritesDisable = 51;
const std::string kConflicting = "\xff\xff/transaction/conflicting_keys/";
const std::string kReadRanges = "\xff\xff/transaction/read_conflict_range/";
const std::string kWriteRanges = "\xff\xff/transaction/write_conflict_range/";
const std::string kRangeEnd("\xff\xff", 2);

using Row = std::pair<std::string, std::string>;
using Rows = std::vector<Row>;

const uint8_t* bytes(const std::string& s) {
  return reinterpret_cast<const uint8_t*>(s.data());
}
int length(const std::string& s) {
  return static_cast<int>(s.size());
}

// A selector as fdb_c.h's macros spell it.
struct Selector {
  std::string key;
  bool or_equal = false;
  int offset = 1;
};

struct RangeAnswer {
  fdb_error_t error = 0;
  Rows rows;
  bool more = false;
};

class FdbCTransactionModule : public contend::fdb_testing::DatabaseTest {
 protected:
  // Keys of this test's own, so that tests sharing the database do not meet.
  std::string key(const std::string& name) const {
    return std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "/" +
           name;
  }
  static void option(FDBTransaction* tr, int code) {
    ASSERT_EQ(fdb_transaction_set_option(tr, static_cast<FDBTransactionOption>(code), nullptr, 0),
              0);
  }
  void set(FDBTransaction* tr, const std::string& name, const std::string& value) {
    const std::string k = key(name);
    fdb_transaction_set(tr, bytes(k), length(k), bytes(value), length(value));
  }
  static fdb_error_t commit(FDBTransaction* tr) {
    return wait_and_destroy(fdb_transaction_commit(tr));
  }
  // A range read of this test's keys [b, e), its conflict range with it.
  fdb_error_t read(FDBTransaction* tr, const std::string& b, const std::string& e) {
    return range(tr, {key(b)}, {key(e)}).error;
  }
  fdb_error_t get_error(FDBTransaction* tr, const std::string& name) {
    const std::string k = key(name);
    return wait_and_destroy(fdb_transaction_get(tr, bytes(k), length(k), 0));
  }
  static RangeAnswer range(FDBTransaction* tr, const Selector& b, const Selector& e, int limit = 0,
                           bool reverse = false) {
    FDBFuture* f = fdb_transaction_get_range(tr, bytes(b.key), length(b.key), b.or_equal, b.offset,
                                             bytes(e.key), length(e.key), e.or_equal, e.offset,
                                             limit, 0, FDB_STREAMING_MODE_WANT_ALL, 1, 0, reverse);
    RangeAnswer answer;
    answer.error = wait_for(f);
    const FDBKeyValue* kvs = nullptr;
    int count = 0;
    fdb_bool_t more = 0;
    if (answer.error == 0 && fdb_future_get_keyvalue_array(f, &kvs, &count, &more) == 0) {
      for (int i = 0; i < count; ++i) {
        answer.rows.emplace_back(
            std::string(reinterpret_cast<const char*>(kvs[i].key), kvs[i].key_length),
            std::string(reinterpret_cast<const char*>(kvs[i].value), kvs[i].value_length));
      }
      answer.more = more != 0;
    }
    fdb_future_destroy(f);
    return answer;
  }
  static int64_t approximate_size(FDBTransaction* tr) {
    FDBFuture* f = fdb_transaction_get_approximate_size(tr);
    int64_t size = -1;
    EXPECT_EQ(wait_for(f), 0);
    EXPECT_EQ(fdb_future_get_int64(f, &size), 0);
    fdb_future_destroy(f);
    return size;
  }
  // All rows of one of the module's ranges.
  static Rows module_rows(FDBTransaction* tr, const std::string& prefix) {
    const RangeAnswer answer = range(tr, {prefix}, {prefix + kRangeEnd});
    EXPECT_EQ(answer.error, 0) << "reading " << prefix;
    EXPECT_FALSE(answer.more);
    return answer.rows;
  }
  // The boundary rows of this test's ranges [b, e) under `prefix`.
  Rows boundaries(const std::string& prefix,
                  const std::vector<std::pair<std::string, std::string>>& ranges) const {
    Rows rows;
    for (const auto& [b, e] : ranges) {
      rows.emplace_back(prefix + key(b), "1");
      rows.emplace_back(prefix + key(e), "0");
    }
    return rows;
  }
  // A transaction (with REPORT_CONFLICTING_KEYS when `report`) that reads `reads` and writes x,
  // and a writer that commits `written` after those reads: the first's commit answers
  // not_committed. The caller destroys the first.
  FDBTransaction* conflicted(const std::vector<std::pair<std::string, std::string>>& reads,
                             const std::vector<std::string>& written, bool report = true) {
    FDBTransaction* reader = begin();
    if (report) option(reader, kReportConflictingKeys);
    for (const auto& [b, e] : reads)
      EXPECT_EQ(read(reader, b, e), 0);
    set(reader, "x", "mine");
    FDBTransaction* writer = begin();
    for (const std::string& w : written)
      set(writer, w, "theirs");
    EXPECT_EQ(commit(writer), 0);
    fdb_transaction_destroy(writer);
    EXPECT_EQ(commit(reader), 1020);
    return reader;
  }
};

// As NativeAPI's setOption: REPORT_CONFLICTING_KEYS is a flag, a value is invalid_option_value
// (2006) as the deferred error.
TEST_F(FdbCTransactionModule, ReportConflictingKeysIsAFlag) {
  FDBTransaction* tr = begin();
  EXPECT_EQ(fdb_transaction_set_option(tr, static_cast<FDBTransactionOption>(712), nullptr, 0), 0);
  EXPECT_EQ(get_error(tr, "k"), 0);
  EXPECT_EQ(fdb_transaction_set_option(tr, static_cast<FDBTransactionOption>(712), bytes("x"), 1),
            0);
  EXPECT_EQ(get_error(tr, "k"), 2006);
  fdb_transaction_destroy(tr);
}

// The contention a user studies: a writer commits into one of two ranges the reader read; the
// reader's commit fails with not_committed and its conflicting_keys name exactly that range, as
// NativeAPI's tryCommit encodes the ranges the resolver reports — a get of a boundary answers its
// value, and a key between two boundaries is no row.
TEST_F(FdbCTransactionModule, AFailedCommitNamesExactlyTheReadRangeAnotherCommitWroteInto) {
  FDBTransaction* reader = conflicted({{"a", "b"}, {"c", "d"}}, {"a5"});
  EXPECT_EQ(module_rows(reader, kConflicting), boundaries(kConflicting, {{"a", "b"}}))
      << "[c, d) was read too, and nothing wrote there";
  const std::string begin_key = kConflicting + key("a"), inside = kConflicting + key("a5");
  FDBFuture* f = fdb_transaction_get(reader, bytes(begin_key), length(begin_key), 0);
  ASSERT_EQ(fdb_future_block_until_ready(f), 0);
  fdb_bool_t present = 0;
  const uint8_t* value = nullptr;
  int value_length = 0;
  ASSERT_EQ(fdb_future_get_value(f, &present, &value, &value_length), 0);
  EXPECT_TRUE(present);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(value), value_length), "1");
  fdb_future_destroy(f);
  f = fdb_transaction_get(reader, bytes(inside), length(inside), 0);
  ASSERT_EQ(fdb_future_block_until_ready(f), 0);
  ASSERT_EQ(fdb_future_get_value(f, &present, &value, &value_length), 0);
  EXPECT_FALSE(present);
  fdb_future_destroy(f);
  fdb_transaction_destroy(reader);
}

// As FoundationDB's resolver (ConflictBatch::checkReadConflictRanges checks every read range),
// every conflicting read range is named, not only the first.
TEST_F(FdbCTransactionModule, EveryReadRangeAnotherCommitWroteIntoIsNamed) {
  FDBTransaction* reader = conflicted({{"a", "b"}, {"c", "d"}}, {"a5", "c5"});
  EXPECT_EQ(module_rows(reader, kConflicting), boundaries(kConflicting, {{"a", "b"}, {"c", "d"}}));
  fdb_transaction_destroy(reader);
}

// RYW sends its read conflict ranges coalesced: two adjacent reads are one range to the resolver,
// which conflicts whole when a write meets either part.
TEST_F(FdbCTransactionModule, AdjacentReadsConflictAsTheOneRangeTheResolverSaw) {
  FDBTransaction* reader = conflicted({{"a", "b"}, {"b", "c"}}, {"b5"});
  EXPECT_EQ(module_rows(reader, kConflicting), boundaries(kConflicting, {{"a", "c"}}));
  fdb_transaction_destroy(reader);
}

// Without the option the resolver names no range: nothing is served. With it, what a failed
// commit left stays through on_error and reset (TransactionState::cloneAndReset keeps
// conflictingKeys) until the next conflict replaces it — here one without the option: none.
TEST_F(FdbCTransactionModule, ConflictingKeysAreServedOnlyWhenAskedAndLastUntilTheNextConflict) {
  FDBTransaction* reader = conflicted({{"a", "b"}}, {"a5"}, false);
  EXPECT_EQ(module_rows(reader, kConflicting), Rows{}) << "not asked";
  fdb_transaction_destroy(reader);

  reader = conflicted({{"a", "b"}, {"c", "d"}}, {"c5"});
  const Rows named = boundaries(kConflicting, {{"c", "d"}});
  EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(reader, 1020)), 0);
  EXPECT_EQ(module_rows(reader, kConflicting), named) << "after on_error";
  fdb_transaction_reset(reader);
  EXPECT_EQ(module_rows(reader, kConflicting), named) << "after reset";
  ASSERT_EQ(read(reader, "a", "b"), 0);
  set(reader, "x", "mine");
  FDBTransaction* writer = begin();
  set(writer, "a6", "theirs");
  ASSERT_EQ(commit(writer), 0);
  ASSERT_EQ(commit(reader), 1020);
  EXPECT_EQ(module_rows(reader, kConflicting), Rows{}) << "a conflict without the option";
  fdb_transaction_destroy(writer);
  fdb_transaction_destroy(reader);
}

// RYW's readConflicts and write map, coalesced: a get's key, range reads and an added read range
// that touch merge; a read of a key the transaction wrote first takes no conflict range; sets,
// clears and added write ranges are the write conflict ranges. Snapshot reads take none.
TEST_F(FdbCTransactionModule, TheReadAndWriteConflictRangesAreServedCoalesced) {
  FDBTransaction* tr = begin();
  set(tr, "w", "v");
  EXPECT_EQ(get_error(tr, "w"), 0);
  EXPECT_EQ(get_error(tr, "k"), 0);
  ASSERT_EQ(read(tr, "r", "s"), 0);
  const std::string s = key("s"), t = key("t"), y = key("y"), z = key("z");
  ASSERT_EQ(fdb_transaction_add_conflict_range(tr, bytes(s), length(s), bytes(t), length(t),
                                               FDB_CONFLICT_RANGE_TYPE_READ),
            0);
  const std::string snapshot = key("p");
  EXPECT_EQ(wait_and_destroy(fdb_transaction_get(tr, bytes(snapshot), length(snapshot), 1)), 0);
  const std::string x = key("x");
  fdb_transaction_clear_range(tr, bytes(x), length(x), bytes(y), length(y));
  ASSERT_EQ(fdb_transaction_add_conflict_range(tr, bytes(y), length(y), bytes(z), length(z),
                                               FDB_CONFLICT_RANGE_TYPE_WRITE),
            0);
  EXPECT_EQ(module_rows(tr, kReadRanges),
            boundaries(kReadRanges, {{"k", "k" + std::string(1, '\0')}, {"r", "t"}}));
  EXPECT_EQ(module_rows(tr, kWriteRanges),
            boundaries(kWriteRanges, {{"w", "w" + std::string(1, '\0')}, {"x", "z"}}));
  fdb_transaction_destroy(tr);
}

// Without read-your-writes a read does not see the transaction's writes, so it depends on the
// database at their keys too: its range is whole (NativeAPI's), and served (FoundationDB's
// getReadConflictRangeIntersecting coalesces NativeAPI's ranges then).
TEST_F(FdbCTransactionModule, WithoutReadYourWritesAReadOfAWrittenKeyIsAReadConflictRange) {
  FDBTransaction* tr = begin();
  option(tr, kReadYourWritesDisable);
  set(tr, "w", "v");
  EXPECT_EQ(get_error(tr, "w"), 0);
  EXPECT_EQ(module_rows(tr, kReadRanges),
            boundaries(kReadRanges, {{"w", "w" + std::string(1, '\0')}}));
  EXPECT_EQ(module_rows(tr, kWriteRanges),
            boundaries(kWriteRanges, {{"w", "w" + std::string(1, '\0')}}));
  fdb_transaction_destroy(tr);
}

// SpecialKeySpace's getRangeAggregationActor: key selectors are resolved over the module's rows,
// a row limit ends the read with more set, reverse reads from the end; a selector moved past the
// module's rows stops at its boundary.
TEST_F(FdbCTransactionModule, SelectorsLimitsAndReverseWorkOverTheModulesRows) {
  FDBTransaction* tr = begin();
  for (const char* b : {"a", "c", "e"}) {
    const std::string from(b);
    ASSERT_EQ(read(tr, from, from + "z"), 0);
  }
  const Rows all = boundaries(kReadRanges, {{"a", "az"}, {"c", "cz"}, {"e", "ez"}});
  const std::string end = kReadRanges + kRangeEnd;
  ASSERT_EQ(module_rows(tr, kReadRanges), all);

  RangeAnswer first_two = range(tr, {kReadRanges}, {end}, 2);
  EXPECT_EQ(first_two.error, 0);
  EXPECT_EQ(first_two.rows, Rows(all.begin(), all.begin() + 2));
  EXPECT_TRUE(first_two.more);

  RangeAnswer last_two = range(tr, {kReadRanges}, {end}, 2, true);
  EXPECT_EQ(last_two.rows, (Rows{all[5], all[4]}));
  EXPECT_TRUE(last_two.more);

  // firstGreaterThan(a's begin row) + 1: the third row; lastLessThan(the module's end): the last.
  RangeAnswer middle = range(tr, {all[0].first, true, 2}, {end, false, 0});
  EXPECT_EQ(middle.rows, Rows(all.begin() + 2, all.end() - 1));
  RangeAnswer past = range(tr, {kReadRanges, false, 10}, {end});
  EXPECT_EQ(past.error, 0);
  EXPECT_TRUE(past.rows.empty()) << "moved past every row: the module's end, an empty range";
  fdb_transaction_destroy(tr);
}

// The module checks stay: without SPECIAL_KEY_SPACE_RELAXED a read from the transaction module
// into another is special_keys_cross_module_read (2112); relaxed, what another module serves is
// not modelled (2004), while keys no module serves answer no rows beside the transaction
// module's.
TEST_F(FdbCTransactionModule, ModuleChecksStandAndRelaxedReadsServeTheTransactionModule) {
  FDBTransaction* tr = begin();
  ASSERT_EQ(read(tr, "a", "b"), 0);
  const Rows rows = boundaries(kReadRanges, {{"a", "b"}});
  EXPECT_EQ(range(tr, {kReadRanges}, {"\xff\xff/worker_interfaces/"}).error, 2112);
  EXPECT_EQ(range(tr, {"\xff\xff/transaction/"}, {"\xff\xff/transaction0"}).rows, rows);
  option(tr, kSpecialKeySpaceRelaxed);
  EXPECT_EQ(range(tr, {"\xff\xff/tracing0"}, {"\xff\xff/transaction0"}).rows, rows)
      << "from a gap into the transaction module";
  EXPECT_EQ(range(tr, {kReadRanges}, {"\xff\xff/worker_interfaces0"}).error, 2004);
  EXPECT_EQ(range(tr, {kReadRanges}, {"\xff\xff/worker_interfaces0"}, 2).rows, rows)
      << "a limit reached before another module's keys";
  fdb_transaction_destroy(tr);
}

}  // namespace

// NEXT_WRITE_NO_WRITE_CONFLICT_RANGE (30), as RYW's nextWriteDisableConflictRange: the next set,
// clear, clear_range or atomic operation takes it and gives its keys no write conflict range;
// the write after it takes one again, and a key another write gave one keeps it. Before, the
// option was accepted with no effect: every write kept its range, and each test below failed.
class FdbCNextWriteNoWriteConflictRange : public FdbCTransactionModule {
 protected:
  static constexpr int kNextWriteNoWriteConflictRange = 30;
  void quietly(FDBTransaction* tr) { option(tr, kNextWriteNoWriteConflictRange); }
  void clear(FDBTransaction* tr, const std::string& name) {
    const std::string k = key(name);
    fdb_transaction_clear(tr, bytes(k), length(k));
  }
  void clear_range(FDBTransaction* tr, const std::string& b, const std::string& e) {
    const std::string kb = key(b), ke = key(e);
    fdb_transaction_clear_range(tr, bytes(kb), length(kb), bytes(ke), length(ke));
  }
  void add_one(FDBTransaction* tr, const std::string& name) {
    const std::string k = key(name), one("\x01", 1);
    fdb_transaction_atomic_op(tr, bytes(k), length(k), bytes(one), length(one),
                              FDB_MUTATION_TYPE_ADD);
  }
  // The write conflict range of this test's key `name` alone.
  Rows just(const std::string& name) const {
    return boundaries(kWriteRanges, {{name, name + std::string(1, '\0')}});
  }
};

TEST_F(FdbCNextWriteNoWriteConflictRange, TheNextWriteOfEachKindTakesNoWriteConflictRange) {
  FDBTransaction* tr = begin();
  quietly(tr);
  set(tr, "a", "1");
  set(tr, "b", "1");
  quietly(tr);
  clear(tr, "c");
  quietly(tr);
  clear_range(tr, "d", "e");
  quietly(tr);
  add_one(tr, "f");
  set(tr, "g", "1");
  quietly(tr);
  set(tr, "g", "2");
  quietly(tr);
  set(tr, "h", "1");
  set(tr, "h", "2");
  const std::string after(1, '\0');
  EXPECT_EQ(module_rows(tr, kWriteRanges),
            boundaries(kWriteRanges, {{"b", "b" + after}, {"g", "g" + after}, {"h", "h" + after}}))
      << "a, c, [d, e) and f wrote without one; g kept its first write's; h took its second's";
  EXPECT_EQ(commit(tr), 0);
  fdb_transaction_destroy(tr);
}

TEST_F(FdbCNextWriteNoWriteConflictRange, NoReadConflictsWithTheWrite) {
  FDBTransaction* reader = begin();
  EXPECT_EQ(read(reader, "k", "l"), 0);
  set(reader, "x", "mine");
  FDBTransaction* writer = begin();
  quietly(writer);
  set(writer, "k", "theirs");
  EXPECT_EQ(commit(writer), 0);
  EXPECT_EQ(commit(reader), 0) << "the write of k took no conflict range for the read to meet";
  FDBTransaction* later = begin();
  EXPECT_EQ(range(later, {key("k")}, {key("l")}).rows, (Rows{{key("k"), "theirs"}}))
      << "the write changed the database all the same";
  // The same write with its conflict range fails the reader, as any other.
  FDBTransaction* second = conflicted({{"k", "l"}}, {"k"}, /*report=*/false);
  fdb_transaction_destroy(second);
  fdb_transaction_destroy(later);
  fdb_transaction_destroy(writer);
  fdb_transaction_destroy(reader);
}

TEST_F(FdbCNextWriteNoWriteConflictRange, TheSizeLeavesTheRangeOutAndAResetOrRetryDropsTheOption) {
  FDBTransaction* tr = begin();
  const auto k = static_cast<int64_t>(key("k").size());
  quietly(tr);
  set(tr, "k", "v");
  EXPECT_EQ(approximate_size(tr), 40 + k + 1) << "RYW set: the MutationRef and its bytes alone";
  set(tr, "k2", "v");
  EXPECT_EQ(approximate_size(tr), (40 + k + 1) + (40 + (k + 1) + 1) + (32 + 2 * (k + 1) + 1))
      << "the next set counts its range: 32 and its two ends";
  quietly(tr);
  fdb_transaction_reset(tr);
  set(tr, "k", "v");
  EXPECT_EQ(module_rows(tr, kWriteRanges), just("k")) << "a reset drops the option";
  quietly(tr);
  EXPECT_EQ(wait_and_destroy(fdb_transaction_on_error(tr, 1020)), 0);
  set(tr, "k", "v");
  EXPECT_EQ(module_rows(tr, kWriteRanges), just("k")) << "so does a retry";
  fdb_transaction_destroy(tr);
}

TEST_F(FdbCNextWriteNoWriteConflictRange, WithoutReadYourWritesTheWriteTakesNoneEither) {
  FDBTransaction* tr = begin();
  option(tr, kReadYourWritesDisable);
  quietly(tr);
  set(tr, "k", "v");
  EXPECT_EQ(module_rows(tr, kWriteRanges), Rows{}) << "RYW hands it to NativeAPI without one";
  set(tr, "j", "v");
  EXPECT_EQ(module_rows(tr, kWriteRanges), just("j"));
  fdb_transaction_destroy(tr);
}

// A range read's read conflict range with key selectors as RYW's addConflictRange makes it, from
// the selectors' keys rather than the reads that resolved them: an end selector with offset 0 or
// less reaches its key even where a limit stopped the rows before it, and a reverse read from a
// begin selector with offset above 1 reaches that selector's key. Before, the range was the union
// of the resolving reads and the read of the rows, which left a gap in both cases (the first two
// tests failed). An end selector with offset above 1 took the key it resolved to besides, and
// the approximate size counted each read's range: RYW's range is now taken alone (the next two
// failed), reaching the database's ends where a selector ran off them, as the resolving reads'
// ranges did (the two after fail without that), and the transaction log holds the rows as one read
// (the last).
class FdbCSelectorConflicts : public FdbCTransactionModule {
 protected:
  // This test's keys a, b, c and d, committed.
  void write_a_to_d() {
    FDBTransaction* writer = begin();
    for (const char* name : {"a", "b", "c", "d"})
      set(writer, name, "v");
    EXPECT_EQ(commit(writer), 0);
    fdb_transaction_destroy(writer);
  }
  // A reverse read of [firstGreaterOrEqual(a) + 1, e) = [b, e), one row (d), takes [a, e): a
  // write of c5, between the key the begin selector named and the row, fails its commit.
  void expect_a_reverse_read_to_reach_its_begin_selectors_key(bool read_your_writes) {
    write_a_to_d();
    FDBTransaction* tr = begin();
    if (!read_your_writes) option(tr, kReadYourWritesDisable);
    set(tr, "x", "mine");
    const RangeAnswer answer =
        range(tr, {key("a"), false, 2}, {key("e")}, /*limit=*/1, /*reverse=*/true);
    ASSERT_EQ(answer.rows, (Rows{{key("d"), "v"}}));
    EXPECT_EQ(module_rows(tr, kReadRanges), boundaries(kReadRanges, {{"a", "e"}}));
    write_one("c5");
    EXPECT_EQ(commit(tr), 1020) << "a write between the begin selector's key and the row read";
    fdb_transaction_destroy(tr);
  }
  // A read of [a, firstGreaterOrEqual(a) + 2) = [a, c), rows a and b, takes [a, b + \x00): a
  // write of b5 (between b and c) changes which key the end selector names, not the rows, and
  // the reader commits after it.
  void expect_an_end_selector_above_one_to_end_past_the_last_row(bool read_your_writes) {
    write_a_to_d();
    FDBTransaction* tr = begin();
    if (!read_your_writes) option(tr, kReadYourWritesDisable);
    set(tr, "x", "mine");
    const RangeAnswer answer = range(tr, {key("a")}, {key("a"), false, 3});
    ASSERT_EQ(answer.rows, (Rows{{key("a"), "v"}, {key("b"), "v"}}));
    EXPECT_EQ(module_rows(tr, kReadRanges),
              boundaries(kReadRanges, {{"a", "b" + std::string(1, '\0')}}));
    write_one("b5");
    ASSERT_EQ(commit(tr), 0) << "a write past the rows, before the key the end selector named";
    fdb_transaction_destroy(tr);
  }
  // Another transaction's write of `name`, committed.
  void write_one(const std::string& name) {
    FDBTransaction* writer = begin();
    set(writer, name, "theirs");
    EXPECT_EQ(commit(writer), 0);
    fdb_transaction_destroy(writer);
  }
};

TEST_F(FdbCSelectorConflicts, AnEndSelectorWithOffsetZeroOrLessReachesItsKeyPastALimit) {
  write_a_to_d();
  FDBTransaction* tr = begin();
  set(tr, "c5", "mine");
  // [a, lastLessThan(e)) = [a, d), one row.
  const RangeAnswer answer = range(tr, {key("a")}, {key("e"), false, 0}, /*limit=*/1);
  ASSERT_EQ(answer.rows, (Rows{{key("a"), "v"}}));
  EXPECT_TRUE(answer.more);
  const std::string after(1, '\0');
  EXPECT_EQ(module_rows(tr, kReadRanges),
            boundaries(kReadRanges, {{"a", "c5"}, {"c5" + after, "e"}}))
      << "[a, e) less the key the transaction wrote (RYW's updateConflictMap)";
  write_one("b5");
  EXPECT_EQ(commit(tr), 1020) << "a write between the row read and the end selector's key";
  fdb_transaction_destroy(tr);
}

TEST_F(FdbCSelectorConflicts, AReverseReadReachesABeginSelectorWithOffsetAboveOne) {
  expect_a_reverse_read_to_reach_its_begin_selectors_key(/*read_your_writes=*/true);
}

TEST_F(FdbCSelectorConflicts, AnEndSelectorWithOffsetAboveOneConflictsUpToTheLastRow) {
  expect_an_end_selector_above_one_to_end_past_the_last_row(/*read_your_writes=*/true);
}

TEST_F(FdbCSelectorConflicts, ASelectorReadCountsOneRangeInTheApproximateSize) {
  // The reads that resolved the end selector and read the rows take no range: RYW's alone,
  // [a, b + \x00), is counted (32 and its ends).
  write_a_to_d();
  FDBTransaction* tr = begin();
  EXPECT_EQ(range(tr, {key("a")}, {key("a"), false, 3}).rows.size(), 2u);
  const auto a = static_cast<int64_t>(key("a").size());
  EXPECT_EQ(approximate_size(tr), 32 + a + (a + 1));
  fdb_transaction_destroy(tr);
}

TEST_F(FdbCSelectorConflicts, ASelectorThatRanOffTheKeysReachesTheDatabasesEnd) {
  // An end selector past every key (RYW's readThroughEnd): the range reaches \xff, where RYW's
  // formula alone would end after the last row.
  write_a_to_d();
  FDBTransaction* tr = begin();
  const RangeAnswer answer = range(tr, {key("c")}, {key("d"), false, 1000000});
  ASSERT_EQ(answer.error, 0);
  ASSERT_GE(answer.rows.size(), 2u);
  EXPECT_EQ(module_rows(tr, kReadRanges),
            (Rows{{kReadRanges + key("c"), "1"}, {kReadRanges + "\xff", "0"}}));
  fdb_transaction_destroy(tr);
}

TEST_F(FdbCSelectorConflicts, ASelectorThatRanOffTheKeysReachesTheDatabasesBeginning) {
  // A begin selector before every key (RYW's readToBegin): the range starts at the empty key,
  // where RYW's formula alone would start at the first row.
  write_a_to_d();
  FDBTransaction* tr = begin();
  const RangeAnswer answer = range(tr, {key("b"), false, -1000000}, {key("b")});
  ASSERT_EQ(answer.error, 0);
  ASSERT_GE(answer.rows.size(), 1u);
  EXPECT_EQ(module_rows(tr, kReadRanges),
            (Rows{{kReadRanges, "1"}, {kReadRanges + key("b"), "0"}}));
  fdb_transaction_destroy(tr);
}

TEST_F(FdbCSelectorConflicts, TheLogHoldsTheRowsAsOneReadThatReplaysSerially) {
  // The reads that resolved the selector are not the log's: the rows are, as a read of
  // [a, b + \x00) (what both the resolved keys and the conflict range hold). Logged as a read of
  // [a, c), `contend serializable` would find it replays otherwise after the write of b5. This
  // test's lines alone are judged: another test here writes without a write conflict range, which
  // a serial replay rightly refuses.
  const std::vector<std::string> before = network->log_lines();
  write_a_to_d();
  FDBTransaction* tr = begin();
  set(tr, "x", "mine");
  ASSERT_EQ(range(tr, {key("a")}, {key("a"), false, 3}).rows.size(), 2u);
  write_one("b5");
  ASSERT_EQ(commit(tr), 0);
  fdb_transaction_destroy(tr);

  const std::vector<std::string> lines = network->log_lines();
  ASSERT_EQ(lines.size(), before.size() + 3) << "a to d, b5, and the reader's commit";
  const nlohmann::json commit_line = nlohmann::json::parse(lines.back());
  ASSERT_EQ(commit_line["reads"].size(), 1u) << lines.back();
  const nlohmann::json& read = commit_line["reads"][0];
  EXPECT_EQ(read["begin"], hex(key("a")));
  EXPECT_EQ(read["end"], hex(key("b") + std::string(1, '\0')));
  EXPECT_EQ(read["snapshot"], false);
  EXPECT_EQ(read["rows"].size(), 2u);
  std::string said;
  EXPECT_EQ(network->judge_serializable(CONTEND_BINARY, before.size(), said), 0) << said;
}

// Without read-your-writes, NativeAPI's getRangeFinished range. A reverse read from a begin
// selector with offset above 1 reaches that selector's key: the resolving read and the rows'
// read left a gap between the key the begin selector resolved to and the row read, and a write
// there committed where FoundationDB's commit fails (this failed before).
TEST_F(FdbCSelectorConflicts, WithoutReadYourWritesAReverseReadReachesABeginSelectorsKey) {
  expect_a_reverse_read_to_reach_its_begin_selectors_key(/*read_your_writes=*/false);
}

// ... and an end selector with offset above 1 ends past the last row, not at the key it resolved
// to (the resolving read's range reached that key: this failed before). The log holds the rows
// as one read placed before the transaction's writes, which it did not see.
TEST_F(FdbCSelectorConflicts, WithoutReadYourWritesAnEndSelectorAboveOneEndsPastTheLastRow) {
  const std::vector<std::string> before = network->log_lines();
  expect_an_end_selector_above_one_to_end_past_the_last_row(/*read_your_writes=*/false);
  if (HasFatalFailure()) return;

  const std::vector<std::string> lines = network->log_lines();
  ASSERT_EQ(lines.size(), before.size() + 3);
  const nlohmann::json reads = nlohmann::json::parse(lines.back())["reads"];
  ASSERT_EQ(reads.size(), 1u) << lines.back();
  EXPECT_EQ(reads[0]["end"], hex(key("b") + std::string(1, '\0')));
  EXPECT_EQ(reads[0]["mutations_before"], 0) << "the read did not see the write of x";
  std::string said;
  EXPECT_EQ(network->judge_serializable(CONTEND_BINARY, before.size(), said), 0) << said;
}

TEST_F(FdbCSelectorConflicts, APlainRangeReadTakesOneConflictRange) {
  // firstGreaterOrEqual and firstGreaterThan ends: the read of the rows took RYW's range, which
  // the approximate size counts once (32 and its ends), as RYW's.
  write_a_to_d();
  FDBTransaction* tr = begin();
  EXPECT_EQ(range(tr, {key("a")}, {key("c"), true, 1}, /*limit=*/1).rows.size(), 1u);
  const auto a = static_cast<int64_t>(key("a").size());
  EXPECT_EQ(approximate_size(tr), 32 + a + (a + 1)) << "[a, a + \\x00)";
  fdb_transaction_destroy(tr);
}
