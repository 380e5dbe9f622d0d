// contend's libfdb_c serving fdb_transaction_get_mapped_range as FoundationDB 7.3 does: the rows
// of a range (an index, say), each joined with what its mapper names — the range a tuple prefix
// built from the row's key and value elements covers ("{...}"), or one key — read at the read
// version with read conflict ranges on the rows and every lookup; a read of what the transaction
// itself wrote, a snapshot read and one without read-your-writes are refused, as are mappers that
// do not parse. Before, the call was not exported at all (fdb_c_api_73_test), and then answered
// unsupported_operation: every test here failed.
#include "configured_network.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

using contend::fdb_testing::ConfiguredNetwork;
using contend::fdb_testing::hex;
using contend::fdb_testing::wait_and_destroy;

ConfiguredNetwork* const network =
    static_cast<ConfiguredNetwork*>(::testing::AddGlobalTestEnvironment(new ConfiguredNetwork(
        "fdb_c_mapped_range_test", "seed = 9\n", ConfiguredNetwork::Log::scratch)));

constexpr fdb_error_t kNotCommitted = 1020, kClientInvalidOperation = 2000;
constexpr fdb_error_t kUnsupportedOperation = 2108, kMapperBadIndex = 2030;
constexpr fdb_error_t kMapperBadRangeDescriptor = 2032, kQuickGetKeyValuesHasMore = 2033;
constexpr fdb_error_t kReadsYourWrites = 2039, kKeyNotTuple = 2041, kValueNotTuple = 2042;
constexpr fdb_error_t kMapperNotTuple = 2043;
constexpr int kReadYourWritesDisable = 51;

// Tuple elements packed as FoundationDB's tuple layer packs them (no 0x00 inside).
std::string text(const std::string& s) {
  return "\x02" + s + std::string(1, '\0');
}
std::string byte_string(const std::string& s) {
  return "\x01" + s + std::string(1, '\0');
}
std::string small_int(int n) {
  return "\x15" + std::string(1, static_cast<char>(n));
}

const uint8_t* bytes(const std::string& s) {
  return reinterpret_cast<const uint8_t*>(s.data());
}
int length(const std::string& s) {
  return static_cast<int>(s.size());
}
std::string as_string(const uint8_t* data, int size) {
  return std::string(reinterpret_cast<const char*>(data), static_cast<std::size_t>(size));
}

// One mapped row as the test reads it back.
struct Row {
  std::string key, value, begin, end;
  std::vector<std::pair<std::string, std::string>> found;
};
struct Answer {
  fdb_error_t error = -1;
  std::vector<Row> rows;
  bool more = false;
};

class FdbCMappedRange : public contend::fdb_testing::DatabaseTest {
 protected:
  // This test's own prefix, a tuple element: every key it writes starts with it.
  std::string own() const {
    return text(::testing::UnitTest::GetInstance()->current_test_info()->name());
  }
  void commit(const std::vector<std::pair<std::string, std::string>>& writes) {
    FDBTransaction* tr = begin();
    for (const auto& [key, value] : writes)
      fdb_transaction_set(tr, bytes(key), length(key), bytes(value), length(value));
    ASSERT_EQ(wait_and_destroy(fdb_transaction_commit(tr)), 0);
    fdb_transaction_destroy(tr);
  }
  // Three index rows (own, "idx", name, id) and, for ids 1 and 2, records (own, "rec", id, field).
  void write_index_and_records() {
    commit({{own() + text("idx") + text("ann") + small_int(1), ""},
            {own() + text("idx") + text("bob") + small_int(2), ""},
            {own() + text("idx") + text("cat") + small_int(3), ""},
            {own() + text("rec") + small_int(1) + text("age"), "31"},
            {own() + text("rec") + small_int(1) + text("city"), "Oslo"},
            {own() + text("rec") + small_int(2) + text("age"), "42"}});
  }
  // The mapped range [begin, end) of `tr` through `mapper`, waited for and read back.
  static Answer mapped(FDBTransaction* tr, const std::string& begin, const std::string& end,
                       const std::string& mapper, int limit = 0, fdb_bool_t snapshot = 0,
                       int end_offset = 1) {
    // The end selector: firstGreaterOrEqual(end), or end_offset - 1 keys after it.
    FDBFuture* f = fdb_transaction_get_mapped_range(
        tr, FDB_KEYSEL_FIRST_GREATER_OR_EQUAL(bytes(begin), length(begin)), bytes(end), length(end),
        0, end_offset, bytes(mapper), length(mapper), limit, 0, FDB_STREAMING_MODE_WANT_ALL, 1,
        snapshot, 0);
    Answer answer;
    EXPECT_EQ(fdb_future_block_until_ready(f), 0);
    const FDBMappedKeyValue* kvs = nullptr;
    int count = 0;
    fdb_bool_t more = 0;
    answer.error = fdb_future_get_mappedkeyvalue_array(f, &kvs, &count, &more);
    if (answer.error == 0) {
      answer.more = more != 0;
      for (int i = 0; i < count; ++i) {
        const FDBMappedKeyValue& kv = kvs[i];
        Row row{as_string(kv.key.key, kv.key.key_length),
                as_string(kv.value.key, kv.value.key_length),
                as_string(kv.getRange.begin.key.key, kv.getRange.begin.key.key_length),
                as_string(kv.getRange.end.key.key, kv.getRange.end.key.key_length),
                {}};
        EXPECT_EQ(kv.getRange.begin.orEqual, 0);
        EXPECT_EQ(kv.getRange.begin.offset, 1) << "firstGreaterOrEqual";
        for (int j = 0; j < kv.getRange.m_size; ++j) {
          const FDBKeyValue& found = kv.getRange.data[j];
          row.found.emplace_back(as_string(found.key, found.key_length),
                                 as_string(found.value, found.value_length));
        }
        answer.rows.push_back(row);
      }
    }
    fdb_future_destroy(f);
    return answer;
  }
  std::string index_begin() const { return own() + text("idx"); }
  std::string index_end() const { return own() + text("idx") + "\xff"; }
};

TEST_F(FdbCMappedRange, EachIndexRowIsJoinedWithTheRecordRangeItsKeyNames) {
  write_index_and_records();
  FDBTransaction* tr = begin();
  const std::string mapper = own() + text("rec") + text("{K[3]}") + text("{...}");
  const Answer answer = mapped(tr, index_begin(), index_end(), mapper);
  ASSERT_EQ(answer.error, 0);
  ASSERT_EQ(answer.rows.size(), 3u);
  EXPECT_FALSE(answer.more);
  const std::string rec1 = own() + text("rec") + small_int(1);
  EXPECT_EQ(answer.rows[0].key, own() + text("idx") + text("ann") + small_int(1));
  EXPECT_EQ(answer.rows[0].begin, rec1);
  EXPECT_EQ(answer.rows[0].end, own() + text("rec") + "\x15\x02") << "strinc of the prefix";
  const std::vector<std::pair<std::string, std::string>> ann{{rec1 + text("age"), "31"},
                                                             {rec1 + text("city"), "Oslo"}};
  EXPECT_EQ(answer.rows[0].found, ann);
  ASSERT_EQ(answer.rows[1].found.size(), 1u);
  EXPECT_EQ(answer.rows[1].found[0].second, "42");
  EXPECT_TRUE(answer.rows[2].found.empty()) << "id 3 has no record";
  EXPECT_EQ(answer.rows[2].key, own() + text("idx") + text("cat") + small_int(3))
      << "a range lookup keeps every row's key";

  const Answer limited = mapped(tr, index_begin(), index_end(), mapper, 2);
  ASSERT_EQ(limited.error, 0);
  EXPECT_EQ(limited.rows.size(), 2u);
  EXPECT_TRUE(limited.more);
  fdb_transaction_destroy(tr);
}

TEST_F(FdbCMappedRange, AMapperWithoutARangeLooksUpOneKey) {
  commit({{own() + text("idx") + small_int(1), text("a")},
          {own() + text("idx") + small_int(2), text("b")},
          {own() + text("idx") + small_int(3), text("c")},
          {own() + byte_string("v{") + text("a"), "found a"},
          {own() + byte_string("v{") + text("c"), "found c"}});
  FDBTransaction* tr = begin();
  // "{V[0]}": the row's value's first element; "v{{" unescapes to the byte string "v{".
  const std::string mapper = own() + text("v{{") + text("{V[0]}");
  const Answer answer = mapped(tr, index_begin(), index_end(), mapper);
  ASSERT_EQ(answer.error, 0);
  ASSERT_EQ(answer.rows.size(), 3u);
  const std::string a = own() + byte_string("v{") + text("a");
  EXPECT_EQ(answer.rows[0].begin, a);
  EXPECT_EQ(answer.rows[0].end, a + std::string(1, '\0'));
  ASSERT_EQ(answer.rows[0].found.size(), 1u);
  EXPECT_EQ(answer.rows[0].found[0].second, "found a");
  EXPECT_TRUE(answer.rows[1].found.empty()) << "no key (own, b\"v{\", \"b\")";
  EXPECT_EQ(answer.rows[2].found.at(0).second, "found c");
  EXPECT_EQ(answer.rows[0].key, own() + text("idx") + small_int(1));
  EXPECT_EQ(answer.rows[1].key, "") << "a one-key lookup keeps only the first and last keys";
  EXPECT_EQ(answer.rows[2].value, text("c"));
  fdb_transaction_destroy(tr);
}

TEST_F(FdbCMappedRange, TheRowsAndEveryLookupTakeReadConflictRanges) {
  write_index_and_records();
  const std::string mapper = own() + text("rec") + text("{K[3]}") + text("{...}");
  const std::string mine = own() + text("mine");
  auto read_then_commit_after = [&](const std::string& other_key) {
    FDBTransaction* tr = begin();
    EXPECT_EQ(mapped(tr, index_begin(), index_end(), mapper).error, 0);
    fdb_transaction_set(tr, bytes(mine), length(mine), bytes(mine), length(mine));
    commit({{other_key, "changed"}});
    const fdb_error_t e = wait_and_destroy(fdb_transaction_commit(tr));
    fdb_transaction_destroy(tr);
    return e;
  };
  EXPECT_EQ(read_then_commit_after(own() + text("rec") + small_int(2) + text("age")), kNotCommitted)
      << "a record a lookup read";
  EXPECT_EQ(read_then_commit_after(own() + text("rec") + small_int(3) + text("new")), kNotCommitted)
      << "a key of a lookup's range that held nothing";
  EXPECT_EQ(read_then_commit_after(own() + text("idx") + text("dan") + small_int(4)), kNotCommitted)
      << "a key of the index range";
  EXPECT_EQ(read_then_commit_after(own() + text("rec") + small_int(5)), 0)
      << "a key no read reached";
}

// The rows' conflict range is RYW's for a range read (addConflictRange, made of the selectors'
// keys): with an end selector of offset 0 and a limit, it reaches the selector's key. Before, it
// ended after the last row read, and the write below did not conflict.
// The transaction log holds a mapped read as the reads its conflict ranges cover — the rows, then
// each lookup — for `contend serializable` to replay. Before, it held the snapshot reads the
// library made, which the replay skips.
TEST_F(FdbCMappedRange, TheLogHoldsTheRowsAndEveryLookupAsReadsThatReplay) {
  const std::size_t before = network->log_lines().size();
  write_index_and_records();
  FDBTransaction* tr = begin();
  const std::string mapper = own() + text("rec") + text("{K[3]}") + text("{...}");
  ASSERT_EQ(mapped(tr, index_begin(), index_end(), mapper).rows.size(), 3u);
  const std::string mine = own() + text("mine");
  fdb_transaction_set(tr, bytes(mine), length(mine), bytes(mine), length(mine));
  ASSERT_EQ(wait_and_destroy(fdb_transaction_commit(tr)), 0);
  fdb_transaction_destroy(tr);

  const std::vector<std::string> lines = network->log_lines();
  ASSERT_EQ(lines.size(), before + 2);
  const nlohmann::json reads = nlohmann::json::parse(lines.back())["reads"];
  ASSERT_EQ(reads.size(), 4u) << "the rows and three lookups: " << lines.back();
  const std::string rec = own() + text("rec");
  const std::vector<std::pair<std::string, std::string>> expected = {
      {index_begin(), index_end()},
      {rec + small_int(1), rec + "\x15\x02"},
      {rec + small_int(2), rec + "\x15\x03"},
      {rec + small_int(3), rec + "\x15\x04"}};
  const std::vector<std::size_t> rows = {3, 2, 1, 0};
  for (std::size_t i = 0; i < reads.size(); ++i) {
    EXPECT_EQ(reads[i]["snapshot"], false) << "read " << i;
    EXPECT_EQ(reads[i]["begin"], hex(expected[i].first)) << "read " << i;
    EXPECT_EQ(reads[i]["end"], hex(expected[i].second)) << "read " << i;
    EXPECT_EQ(reads[i]["rows"].size(), rows[i]) << "read " << i;
  }
  std::string said;
  EXPECT_EQ(network->judge_serializable(CONTEND_BINARY, before, said), 0) << said;
}

TEST_F(FdbCMappedRange, TheRowsConflictRangeReachesAnEndSelectorsKeyPastALimit) {
  write_index_and_records();
  const std::string mapper = own() + text("rec") + text("{K[3]}") + text("{...}");
  const std::string mine = own() + text("mine");
  FDBTransaction* tr = begin();
  // [idx, lastLessThan(idx \xff)) = [ann, cat), one row.
  const Answer answer = mapped(tr, index_begin(), index_end(), mapper, 1, 0, /*end_offset=*/0);
  ASSERT_EQ(answer.error, 0);
  ASSERT_EQ(answer.rows.size(), 1u);
  EXPECT_TRUE(answer.more);
  fdb_transaction_set(tr, bytes(mine), length(mine), bytes(mine), length(mine));
  commit({{own() + text("idx") + text("bz") + small_int(9), ""}});
  EXPECT_EQ(wait_and_destroy(fdb_transaction_commit(tr)), kNotCommitted)
      << "an index row between the row read and the end selector's key";
  fdb_transaction_destroy(tr);
}

TEST_F(FdbCMappedRange, ReadingWhatTheTransactionWroteIsRefused) {
  write_index_and_records();
  const std::string mapper = own() + text("rec") + text("{K[3]}") + text("{...}");
  const std::string record = own() + text("rec") + small_int(2) + text("age");
  FDBTransaction* tr = begin();
  fdb_transaction_set(tr, bytes(record), length(record), bytes(record), length(record));
  EXPECT_EQ(mapped(tr, index_begin(), index_end(), mapper).error, kReadsYourWrites)
      << "a lookup's range was written";
  fdb_transaction_reset(tr);
  const std::string index_row = own() + text("idx") + text("bob") + small_int(2);
  fdb_transaction_clear(tr, bytes(index_row), length(index_row));
  EXPECT_EQ(mapped(tr, index_begin(), index_end(), mapper).error, kReadsYourWrites)
      << "the index range was written";
  fdb_transaction_reset(tr);
  const std::string elsewhere = own() + text("elsewhere");
  fdb_transaction_set(tr, bytes(elsewhere), length(elsewhere), bytes(elsewhere), length(elsewhere));
  EXPECT_EQ(mapped(tr, index_begin(), index_end(), mapper).error, 0) << "a write elsewhere";
  EXPECT_EQ(mapped(tr, index_begin(), index_end(), mapper, 0, 1).error, kUnsupportedOperation)
      << "a snapshot read";
  fdb_transaction_destroy(tr);

  FDBTransaction* without_ryw = begin();
  ASSERT_EQ(fdb_transaction_set_option(without_ryw, kReadYourWritesDisable, nullptr, 0), 0);
  EXPECT_EQ(mapped(without_ryw, index_begin(), index_end(), mapper).error, kUnsupportedOperation)
      << "read-your-writes disabled";
  fdb_transaction_destroy(without_ryw);
}

TEST_F(FdbCMappedRange, AMapperThatDoesNotFitItsRowsIsRefused) {
  write_index_and_records();
  commit({{own() + text("raw") + "\x05", "\x05"}});
  FDBTransaction* tr = begin();
  auto error_of = [&](const std::string& mapper, const std::string& prefix = "idx") {
    const std::string b = own() + text(prefix);
    return mapped(tr, b, b + "\xff", mapper).error;
  };
  EXPECT_EQ(error_of("\x02unterminated"), kMapperNotTuple);
  EXPECT_STREQ(fdb_get_error(kMapperNotTuple), "The mapper cannot be parsed as a tuple");
  EXPECT_EQ(error_of(text("{...}") + text("{K[1]}")), kMapperBadRangeDescriptor);
  EXPECT_EQ(error_of(text("{K[one]}")), kMapperBadIndex);
  EXPECT_EQ(error_of(text("{K[9]}")), kMapperBadIndex) << "past the key's elements";
  EXPECT_EQ(error_of(text("{K[-1]}")), kMapperBadIndex);
  EXPECT_EQ(error_of(text("{K[-1]}"), "none"), 0) << "a negative index is refused at a row";
  EXPECT_EQ(error_of(text("{V[0]}")), kMapperBadIndex) << "an empty value is the empty tuple";
  EXPECT_EQ(error_of(text("{K[2]}"), "raw"), kKeyNotTuple);
  EXPECT_EQ(error_of(text("{V[0]}"), "raw"), kValueNotTuple);
  const std::string special = "\xff\xff/transaction/";
  FDBFuture* f = fdb_transaction_get_mapped_range(
      tr, FDB_KEYSEL_FIRST_GREATER_OR_EQUAL(bytes(special), length(special)),
      FDB_KEYSEL_FIRST_GREATER_OR_EQUAL(bytes(special), length(special) - 1), bytes(special), 0, 0,
      0, FDB_STREAMING_MODE_WANT_ALL, 1, 0, 0);
  EXPECT_EQ(wait_and_destroy(f), kClientInvalidOperation) << "the special key space";
  fdb_transaction_destroy(tr);
}

TEST_F(FdbCMappedRange, ALookupOfMoreThan2000RowsIsRefused) {
  std::vector<std::pair<std::string, std::string>> writes{{own() + text("idx") + small_int(1), ""}};
  for (int i = 0; i < 2001; ++i)
    writes.emplace_back(own() + text("rec") + small_int(1) + text(std::to_string(10000 + i)), "");
  commit(writes);
  FDBTransaction* tr = begin();
  const std::string mapper = own() + text("rec") + text("{K[2]}") + text("{...}");
  EXPECT_EQ(mapped(tr, index_begin(), index_end(), mapper).error, kQuickGetKeyValuesHasMore);
  fdb_transaction_destroy(tr);
}

}  // namespace
