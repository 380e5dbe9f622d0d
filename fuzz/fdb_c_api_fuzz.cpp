// Fuzz target: contend's libfdb_c driven through its C API by a program the input spells. Up to
// three transactions read (get, get_key, get_range and get_mapped_range with any selector, limit,
// byte limit, mode, iteration and mapper), ask 7.3's other questions (tag-throttled duration,
// total cost, blob granule ranges), write (set, clear, clear_range, any atomic op; keys and values
// of any length, system keys included), set options, add conflict ranges, watch, commit, retry,
// reset and cancel, in any order, and databases open from connection strings (most of them
// malformed); the futures they answer are waited on, read as any kind of value,
// given callbacks, cancelled and destroyed in any order. What the API forbids a program (using a
// handle after destroying it, blocking inside a callback) is never done; everything else may be.
//
// Checked: no crash or sanitizer report, no hang (every future becomes ready, a watch or a
// versionstamp once its transaction is gone or it is cancelled), no
// internal_error (4100: an exception inside the library), and every error a call answers, except
// on_error's (which gives back a non-retryable code it is given, and answers success given past
// the retry limit with internal_error, as FoundationDB's), is one fdb_get_error describes.
// Retries are kept fast: every transaction's MAX_RETRY_DELAY is 0 ms. The API version selected
// is CONTEND_FUZZ_API_VERSION's (610 to 730) when it is set, else 730: below 630 and 700 the
// library answers special keys, addresses and a commit's read version otherwise.
#define FDB_API_VERSION 730
#include "fdb_c.h"

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "base/invariant.h"

namespace {

const uint8_t* u8(const std::string& s) {
  return reinterpret_cast<const uint8_t*>(s.data());
}
int len(const std::string& s) {
  return static_cast<int>(s.size());
}

// The input, read a byte or a number at a time; zeros once it is used up.
class Program {
 public:
  Program(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  bool done() const { return at_ >= size_; }
  std::uint8_t byte() { return at_ < size_ ? data_[at_++] : 0; }
  int pick(int choices) { return byte() % choices; }
  template <class T>
  T from(std::initializer_list<T> table) {
    return table.begin()[pick(static_cast<int>(table.size()))];
  }
  std::int64_t int64() {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
      v = v << 8 | byte();
    return static_cast<std::int64_t>(v);
  }
  std::string bytes(std::size_t most) {
    std::string out;
    for (std::size_t n = byte() % (most + 1); n > 0 && !done(); --n)
      out += static_cast<char>(byte());
    return out;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

constexpr int kIntMin = std::numeric_limits<int>::min();
constexpr int kIntMax = std::numeric_limits<int>::max();

std::string key(Program& p) {
  switch (p.pick(10)) {
    case 0:
      return "";
    case 1:
      return std::string("\xff", 1);
    case 2:
      return std::string("\xff\x01", 2);
    case 3:
      return std::string(10'001, 'k');  // one byte over the key size
    case 4:
      return p.bytes(8);
    default:
      return std::string(1, static_cast<char>('a' + p.pick(6)));
  }
}

std::string value(Program& p) {
  switch (p.pick(8)) {
    case 0:
      return std::string(100'001, 'v');  // one byte over the value size
    case 1:
      return p.bytes(16);
    case 2:
      return std::string(8, '\x01');
    default:
      return std::string(1 + p.pick(4), 'v');
  }
}

// A mapper of a mapped range read: one that every row fits (a prefix range with no reference to
// the row), references to its key's or value's elements (which rows of non-tuple keys refuse),
// an escape, a misplaced "{...}", or any bytes.
std::string mapper(Program& p) {
  static const std::string kNul(1, '\0');
  auto text = [&](const std::string& s) { return "\x02" + s + kNul; };
  switch (p.pick(6)) {
    case 0:
      return text("m") + text("{...}");
    case 1:
      return text("m") + text("{K[0]}") + text("{...}");
    case 2:
      return text("{V[1]}");
    case 3:
      return text("{{m}}") + text("{K[-1]}");
    case 4:
      return text("{...}") + text("m");
    default:
      return p.bytes(12);
  }
}

int offset(Program& p) {
  return p.pick(4) == 0 ? p.from({kIntMin, kIntMin + 1, kIntMax, -100, 100}) : p.pick(7) - 3;
}

struct Handle {
  FDBFuture* future = nullptr;
  bool pending = false;   // a watch or a versionstamp: ready only when something else happens
  bool on_error = false;  // answers the code it was given when that code is not retryable (4100
                          // for success past the retry limit)
};

std::atomic<int> callbacks_run{0};
void count_callback(FDBFuture*, void*) {
  ++callbacks_run;
}

// `given_back`: on_error's answer, which may be any code the program gave it.
void check_answer(fdb_error_t e, bool given_back) {
  if (given_back) return;
  CONTEND_ASSERT(e != 4100, "no exception escapes the library (internal_error)");
  CONTEND_ASSERT(std::strcmp(fdb_get_error(e), "Unknown error") != 0,
                 "every error the library answers is described");
}

void check_future(const Handle& h) {
  check_answer(fdb_future_get_error(h.future), h.on_error);
}

void apply_max_retry_delay(FDBTransaction* tr) {
  const std::int64_t zero_ms = 0;
  CONTEND_ASSERT(fdb_transaction_set_option(tr, static_cast<FDBTransactionOption>(502),
                                            reinterpret_cast<const uint8_t*>(&zero_ms), 8) == 0,
                 "MAX_RETRY_DELAY 0 is taken");
}

class Run {
 public:
  explicit Run(FDBDatabase* db) : db_(db) {}

  void step(Program& p) {
    const int op = p.pick(32);
    if (op >= 27) return future_step(p, op);
    if (op == 0) {
      if (!create()) open_by_connection_string(p);  // every slot taken
      return;
    }
    FDBTransaction* tr = transaction(p);
    if (tr == nullptr) {
      create();
      return;
    }
    transaction_step(p, op, tr);
  }

  // Destroys the transactions, then waits for every future (cancelling a watch or versionstamp
  // still pending), checks it and destroys it.
  void finish() {
    for (FDBTransaction*& tr : transactions_) {
      if (tr != nullptr) fdb_transaction_destroy(tr);
      tr = nullptr;
    }
    for (Handle& h : futures_)
      settle(h);
    futures_.clear();
  }

 private:
  // A transaction in the first free slot; false when every slot is taken.
  bool create() {
    for (FDBTransaction*& tr : transactions_) {
      if (tr != nullptr) continue;
      CONTEND_ASSERT(fdb_database_create_transaction(db_, &tr) == 0, "a transaction is made");
      apply_max_retry_delay(tr);
      return true;
    }
    return false;
  }
  // A database opened from a connection string (most of them malformed: it then holds the
  // parse's error), read through once, asked its approximate size, its client status and a blob
  // granule call (each checks the parse's error first); the futures are kept, the transaction and
  // the database destroyed at once (futures outlive them, as FoundationDB's).
  void open_by_connection_string(Program& p) {
    std::string text;
    switch (p.pick(3)) {
      case 0:
        text = p.from<const char*>({"a:b@127.0.0.1:4500", "a:b@[::1]:", "a:b@h:1,h:1",
                                    "#c\na:b@ 1.2.3.4:5:tls", "a:b@[::1]:70000000000", ""});
        break;
      case 1:
        text = "a:b@" + p.bytes(24);
        break;
      default:
        text = p.bytes(32);
    }
    FDBDatabase* db = nullptr;
    CONTEND_ASSERT(fdb_create_database_from_connection_string(text.c_str(), &db) == 0,
                   "a connection string opens a database, parsed or not");
    FDBTransaction* tr = nullptr;
    CONTEND_ASSERT(fdb_database_create_transaction(db, &tr) == 0, "a transaction is made");
    keep(fdb_transaction_get(tr, u8("a"), 1, p.pick(2)));
    keep(fdb_transaction_get_approximate_size(tr));
    keep(fdb_database_get_client_status(db));
    keep(fdb_database_list_blobbified_ranges(db, u8("a"), 1, u8("b"), 1, 10));
    fdb_transaction_destroy(tr);
    fdb_database_destroy(db);
  }
  FDBTransaction* transaction(Program& p) {
    return transactions_[static_cast<std::size_t>(p.pick(3))];
  }
  void keep(FDBFuture* f, bool pending = false, bool on_error = false) {
    CONTEND_ASSERT(f != nullptr, "every call that answers a future answers one");
    if (futures_.size() == kFuturesMax) {
      settle(futures_.front());
      futures_.erase(futures_.begin());
    }
    futures_.push_back(Handle{f, pending, on_error});
  }
  void settle(Handle& h) {
    if (h.pending && !fdb_future_is_ready(h.future)) fdb_future_cancel(h.future);
    CONTEND_ASSERT(fdb_future_block_until_ready(h.future) == 0, "a future becomes ready");
    check_future(h);
    fdb_future_destroy(h.future);
  }

  void transaction_step(Program& p, int op, FDBTransaction* tr);
  void read_step(Program& p, int op, FDBTransaction* tr);
  void future_step(Program& p, int op);

  static constexpr std::size_t kFuturesMax = 12;
  FDBDatabase* db_;
  std::array<FDBTransaction*, 3> transactions_{};
  std::vector<Handle> futures_;
  std::int64_t last_int64_ = 0;  // the last number a future answered
};

void Run::read_step(Program& p, int op, FDBTransaction* tr) {
  const bool snapshot = p.pick(2) == 1;
  const std::string k = key(p);
  switch (op) {
    case 6:
      return keep(fdb_transaction_get(tr, u8(k), len(k), snapshot));
    case 7:
      return keep(fdb_transaction_get_key(tr, u8(k), len(k), p.pick(2), offset(p), snapshot));
    default: {
      const std::string end = key(p);
      const int limit = p.from({-2, -1, 0, 1, 2, 5, kIntMax});
      const int target_bytes = p.from({-2, -1, 0, 1, 300, 100'000});
      const auto mode = static_cast<FDBStreamingMode>(p.pick(9) - 3);  // -3 .. 5
      const int iteration = p.pick(14) - 1;
      if (op == 26) {  // a mapped range read instead of the third plain one
        const std::string m = mapper(p);
        return keep(fdb_transaction_get_mapped_range(
            tr, u8(k), len(k), p.pick(2), offset(p), u8(end), len(end), p.pick(2), offset(p), u8(m),
            len(m), limit, target_bytes, mode, iteration, snapshot, p.pick(2)));
      }
      keep(fdb_transaction_get_range(tr, u8(k), len(k), p.pick(2), offset(p), u8(end), len(end),
                                     p.pick(2), offset(p), limit, target_bytes, mode, iteration,
                                     snapshot, p.pick(2)));
    }
  }
}

void Run::transaction_step(Program& p, int op, FDBTransaction* tr) {
  switch (op) {
    case 1:
      fdb_transaction_destroy(tr);
      for (FDBTransaction*& slot : transactions_)
        if (slot == tr) slot = nullptr;
      return;
    case 2: {
      const std::string k = key(p), v = value(p);
      return fdb_transaction_set(tr, u8(k), len(k), u8(v), len(v));
    }
    case 3: {
      const std::string k = key(p);
      return fdb_transaction_clear(tr, u8(k), len(k));
    }
    case 4: {
      const std::string b = key(p), e = key(p);
      return fdb_transaction_clear_range(tr, u8(b), len(b), u8(e), len(e));
    }
    case 5: {
      const std::string k = key(p), v = value(p);
      return fdb_transaction_atomic_op(tr, u8(k), len(k), u8(v), len(v),
                                       static_cast<FDBMutationType>(p.pick(22)));
    }
    case 6:
    case 7:
    case 8:
      return read_step(p, op, tr);
    case 9: {
      const int option = p.from(
          {51, 500, 501, 503, 30, 20, 200, 7, 99999, 300, 700, 701, 702, 600, 601});  // not 502
      const std::int64_t number = p.from<std::int64_t>({-1, 0, 1, 32, 100, 10'000'001});
      switch (p.pick(3)) {
        case 0:
          return check_answer(
              fdb_transaction_set_option(tr, static_cast<FDBTransactionOption>(option), nullptr, 0),
              false);
        case 1:
          return check_answer(
              fdb_transaction_set_option(tr, static_cast<FDBTransactionOption>(option),
                                         reinterpret_cast<const uint8_t*>(&number), 8),
              false);
        default: {
          const std::string raw = p.bytes(9);
          return check_answer(fdb_transaction_set_option(
                                  tr, static_cast<FDBTransactionOption>(option), u8(raw), len(raw)),
                              false);
        }
      }
    }
    case 10: {
      const std::string b = key(p), e = key(p);
      return check_answer(
          fdb_transaction_add_conflict_range(tr, u8(b), len(b), u8(e), len(e),
                                             static_cast<FDBConflictRangeType>(p.pick(3))),
          false);
    }
    case 11: {
      const std::string k = key(p);
      return keep(fdb_transaction_watch(tr, u8(k), len(k)), true);
    }
    case 12:
      return keep(fdb_transaction_commit(tr));
    case 13:
      return keep(fdb_transaction_on_error(tr, p.from({1020, 1007, 1009, 1021, 1025, 1037, 1039,
                                                       1079, 2000, 0, 4100, -5})),
                  false, true);
    case 14:
      fdb_transaction_reset(tr);
      return apply_max_retry_delay(tr);  // a reset clears every option
    case 15:
      return fdb_transaction_cancel(tr);
    case 16:
      return keep(fdb_transaction_get_versionstamp(tr), true);
    case 17:
      return keep(fdb_transaction_get_read_version(tr));
    case 18: {
      // Past the last number answered (a read version: then within the storage's wait or not).
      const auto past = [&](std::int64_t by) {
        return last_int64_ > std::numeric_limits<std::int64_t>::max() - by ? last_int64_
                                                                           : last_int64_ + by;
      };
      return fdb_transaction_set_read_version(
          tr, p.from<std::int64_t>(
                  {-1, 0, 1, 100'000'000, p.int64(), past(1), past(500'000), past(2'000'000)}));
    }
    case 19: {
      std::int64_t version = 0;
      return check_answer(fdb_transaction_get_committed_version(tr, &version), false);
    }
    case 20:
      return keep(fdb_transaction_get_approximate_size(tr));
    case 21: {
      const std::string b = key(p), e = key(p);
      return keep(fdb_transaction_get_estimated_range_size_bytes(tr, u8(b), len(b), u8(e), len(e)));
    }
    case 22: {
      const std::string b = key(p), e = key(p);
      return keep(fdb_transaction_get_range_split_points(tr, u8(b), len(b), u8(e), len(e),
                                                         p.from<std::int64_t>({-1, 0, 1, 1000})));
    }
    case 23: {
      const std::string k = key(p);
      return keep(fdb_transaction_get_addresses_for_key(tr, u8(k), len(k)));
    }
    case 24:  // what a transaction of FoundationDB 7.3 answers besides reads
      switch (p.pick(3)) {
        case 0:
          return keep(fdb_transaction_get_tag_throttled_duration(tr));
        case 1:
          return keep(fdb_transaction_get_total_cost(tr));
        default: {
          const std::string b = key(p), e = key(p);
          return keep(fdb_transaction_get_blob_granule_ranges(tr, u8(b), len(b), u8(e), len(e),
                                                              p.from({-1, 0, 10})));
        }
      }
    case 25:
      return read_step(p, 6 + p.pick(2), tr);
    default:  // 26: a range read, or a mapped one
      return read_step(p, p.pick(2) == 0 ? 8 : 26, tr);
  }
}

void Run::future_step(Program& p, int op) {
  if (futures_.empty()) return;
  const std::size_t at = static_cast<std::size_t>(p.pick(static_cast<int>(futures_.size())));
  Handle& h = futures_[at];
  switch (op) {
    case 27:  // wait (a watch or versionstamp only when it is ready: it may never be)
      if (!h.pending || fdb_future_is_ready(h.future)) {
        CONTEND_ASSERT(fdb_future_block_until_ready(h.future) == 0, "a future becomes ready");
        check_future(h);
      }
      return;
    case 28: {  // read it as any kind, ready or not
      fdb_bool_t present = 0, more = 0;
      const uint8_t* bytes = nullptr;
      const FDBKey* keys = nullptr;
      const FDBKeyValue* rows = nullptr;
      const char** strings = nullptr;
      int length = 0;
      std::int64_t number = 0;
      const FDBMappedKeyValue* mapped = nullptr;
      const FDBKeyRange* ranges = nullptr;
      std::uint64_t unsigned_number = 0;
      double real = 0;
      switch (p.pick(10)) {
        case 6:
          return check_answer(
              fdb_future_get_mappedkeyvalue_array(h.future, &mapped, &length, &more), h.on_error);
        case 7:
          return check_answer(fdb_future_get_keyrange_array(h.future, &ranges, &length),
                              h.on_error);
        case 8:
          return check_answer(fdb_future_get_uint64(h.future, &unsigned_number), h.on_error);
        case 9:
          return check_answer(fdb_future_get_double(h.future, &real), h.on_error);
        case 0:
          return check_answer(fdb_future_get_value(h.future, &present, &bytes, &length),
                              h.on_error);
        case 1:
          return check_answer(fdb_future_get_key(h.future, &bytes, &length), h.on_error);
        case 2:
          return check_answer(fdb_future_get_keyvalue_array(h.future, &rows, &length, &more),
                              h.on_error);
        case 3: {
          const fdb_error_t e = fdb_future_get_int64(h.future, &number);
          if (e == 0) last_int64_ = number;  // a read version, often: a version to set past
          return check_answer(e, h.on_error);
        }
        case 4:
          return check_answer(fdb_future_get_key_array(h.future, &keys, &length), h.on_error);
        default:
          return check_answer(fdb_future_get_string_array(h.future, &strings, &length), h.on_error);
      }
    }
    case 29:
      check_answer(fdb_future_set_callback(h.future, &count_callback, nullptr), false);
      return;
    case 30:
      fdb_future_cancel(h.future);
      return;
    default:
      if (p.pick(2) == 0) {
        fdb_future_release_memory(h.future);
        return;
      }
      settle(h);
      futures_.erase(futures_.begin() + static_cast<std::ptrdiff_t>(at));
  }
}

// The network, started once per process and stopped at its exit, before the library's own statics
// are destroyed (the handler is registered after the first database is made).
struct Network {
  std::thread thread;
  FDBDatabase* db = nullptr;
};

// CONTEND_FUZZ_API_VERSION, or 730 when it is not set.
int api_version() {
  const char* text = std::getenv("CONTEND_FUZZ_API_VERSION");
  if (text == nullptr) return FDB_API_VERSION;
  char* end = nullptr;
  const long version = std::strtol(text, &end, 10);
  CONTEND_ASSERT(*text != '\0' && *end == '\0' && version >= 610 && version <= FDB_API_VERSION,
                 "CONTEND_FUZZ_API_VERSION is a version from 610 to 730");
  return static_cast<int>(version);
}

FDBDatabase* database() {
  static Network* const network = [] {
    auto* n = new Network;  // reachable until exit; the handler below stops it
    CONTEND_ASSERT(fdb_select_api_version_impl(api_version(), FDB_API_VERSION) == 0,
                   "the API version is taken");
    CONTEND_ASSERT(fdb_setup_network() == 0, "the network is set up");
    n->thread = std::thread([] { fdb_run_network(); });
    CONTEND_ASSERT(fdb_create_database(nullptr, &n->db) == 0, "the database opens");
    std::atexit([] {
      fdb_database_destroy(network->db);
      fdb_stop_network();
      network->thread.join();
    });
    return n;
  }();
  return network->db;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Program program(data, size);
  Run run(database());
  for (int steps = 0; !program.done() && steps < 2000; ++steps)
    run.step(program);
  run.finish();
  return 0;
}
