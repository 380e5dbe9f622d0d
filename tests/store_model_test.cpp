// Property tests of the store against plain ordered maps:
// 1. serializability: random transactions interleaved on the store; the committed ones, replayed
//    in commit-version order on a std::map, reproduce every value they read — snapshot reads at
//    their read version, non-snapshot reads also at their commit position;
// 2. FoundationDB's ConflictRange oracle: a read-only-plus-marker transaction conflicts exactly
//    when re-reading its reads after the other commits would give a different result.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <map>
#include <set>
#include <sstream>
#include <variant>

#include "tests/support/store_fixture.h"

namespace contend::testing {
namespace {

using Map = std::map<Bytes, Bytes>;

enum class OpKind { get, range, set, clear, clear_range, add };

struct Op {
  OpKind kind = OpKind::get;
  Bytes a, b;
  int limit = 0;
  bool reverse = false;
  bool snapshot = false;
};

std::string describe(const Op& op) {
  static const char* names[] = {"get", "range", "set", "clear", "clear_range", "add"};
  std::ostringstream out;
  out << names[static_cast<int>(op.kind)] << "(" << op.a;
  if (!op.b.empty()) out << "," << printable(op.b);
  if (op.kind == OpKind::range) out << ",limit=" << op.limit << (op.reverse ? ",rev" : "");
  if (op.snapshot) out << ",snap";
  return out.str() + ")";
}

rc::Gen<Bytes> gen_key() {
  return rc::gen::element<Bytes>("a", "b", "c", "d", "e", "f");
}

rc::Gen<Op> gen_op() {
  return rc::gen::mapcat(rc::gen::inRange(0, 6), [](int kind) {
    return rc::gen::apply(
        [kind](Bytes a, Bytes b, int limit, bool reverse, bool snapshot, int value) {
          Op op;
          op.kind = static_cast<OpKind>(kind);
          op.a = a;
          if (op.kind == OpKind::range || op.kind == OpKind::clear_range) {
            if (b < a) std::swap(a, b);
            op.a = a;
            op.b = b + "z";
          }
          if (op.kind == OpKind::set) op.b = "v" + std::to_string(value);
          if (op.kind == OpKind::add) op.b = Bytes(1, static_cast<char>(value % 7 + 1));
          op.limit = limit;
          op.reverse = reverse;
          op.snapshot = snapshot;
          return op;
        },
        gen_key(), gen_key(), rc::gen::inRange(0, 3), rc::gen::arbitrary<bool>(),
        rc::gen::arbitrary<bool>(), rc::gen::inRange(0, 1000));
  });
}

using ReadResult = std::variant<std::optional<Bytes>, RangeResult>;

// Evaluates a read on a plain map.
ReadResult evaluate(const Map& m, const Op& op) {
  if (op.kind == OpKind::get) {
    auto it = m.find(op.a);
    return it == m.end() ? std::optional<Bytes>() : std::optional<Bytes>(it->second);
  }
  RangeResult rows;
  std::size_t limit = op.limit > 0 ? static_cast<std::size_t>(op.limit) : SIZE_MAX;
  auto lo = m.lower_bound(op.a);
  auto hi = m.lower_bound(op.b);
  if (!op.reverse) {
    for (auto it = lo; it != hi && rows.size() < limit; ++it)
      rows.push_back({it->first, it->second});
  } else {
    for (auto it = hi; it != lo && rows.size() < limit;) {
      --it;
      rows.push_back({it->first, it->second});
    }
  }
  return rows;
}

void apply_write(Map& m, const Op& op) {
  switch (op.kind) {
    case OpKind::set:
      m[op.a] = op.b;
      break;
    case OpKind::clear:
      m.erase(op.a);
      break;
    case OpKind::clear_range:
      m.erase(m.lower_bound(op.a), m.lower_bound(op.b));
      break;
    case OpKind::add: {
      auto it = m.find(op.a);
      std::optional<Bytes> old = it == m.end() ? std::nullopt : std::optional<Bytes>(it->second);
      m[op.a] = apply_atomic(MutationType::add, old, op.b);
      break;
    }
    default:
      break;
  }
}

bool is_read(const Op& op) {
  return op.kind == OpKind::get || op.kind == OpKind::range;
}

struct TxLog {
  std::vector<Op> ops;
  std::vector<ReadResult> results;  // one per read op, in order
  Version read_version = kInvalidVersion;
  Version commit_version = kInvalidVersion;
  bool committed = false;
};

class Harness : public StoreHarness {
 public:
  // Performs one op on a live transaction, logging read results. False if the read failed.
  bool perform(Transaction& tr, TxLog& log, const Op& op) {
    log.ops.push_back(op);
    switch (op.kind) {
      case OpKind::get: {
        auto r = get(tr, op.a, op.snapshot);
        if (!r.ok()) return false;
        log.results.emplace_back(r.value());
        break;
      }
      case OpKind::range: {
        auto r = get_range(tr, KeyRange{op.a, op.b},
                           {.limit = op.limit, .reverse = op.reverse, .snapshot = op.snapshot});
        if (!r.ok()) return false;
        log.results.emplace_back(r.value());
        break;
      }
      case OpKind::set:
        tr.set(op.a, op.b);
        break;
      case OpKind::clear:
        tr.clear(op.a);
        break;
      case OpKind::clear_range:
        tr.clear_range(KeyRange{op.a, op.b});
        break;
      case OpKind::add:
        tr.atomic_op(MutationType::add, op.a, op.b);
        break;
    }
    if (!tr.read_version()) log.read_version = kInvalidVersion;
    return true;
  }
};

// Replays `log` on `base` (its own writes applied in order) and compares each read.
// Returns a description of the first divergence, or "".
std::string replay(Map base, const TxLog& log, bool non_snapshot_only) {
  std::size_t read_index = 0;
  for (std::size_t step = 0; step < log.ops.size(); ++step) {
    const Op& op = log.ops[step];
    if (!is_read(op)) {
      apply_write(base, op);
      continue;
    }
    const ReadResult& seen = log.results[read_index++];
    if (non_snapshot_only && op.snapshot) continue;
    if (evaluate(base, op) != seen) {
      return "step " + std::to_string(step) + " " + describe(op) +
             " read a value the replay "
             "does not give";
    }
  }
  return "";
}

RC_GTEST_PROP(StoreModel, CommittedTransactionsReplayInCommitOrderToWhatTheyRead, ()) {
  Harness h;
  const int tx_count = *rc::gen::inRange(2, 5);
  std::vector<std::vector<Op>> programs;
  for (int t = 0; t < tx_count; ++t)
    programs.push_back(*rc::gen::container<std::vector<Op>>(*rc::gen::inRange(1, 6), gen_op()));
  // Seed some data.
  for (const char* k : {"a", "c", "e"})
    h.put(k, std::string("init-") + k);

  std::vector<std::unique_ptr<Transaction>> txs;
  std::vector<TxLog> logs(static_cast<std::size_t>(tx_count));
  std::vector<std::size_t> next(static_cast<std::size_t>(tx_count), 0);
  std::vector<bool> done(static_cast<std::size_t>(tx_count), false);
  for (int t = 0; t < tx_count; ++t)
    txs.push_back(std::make_unique<Transaction>(h.db(t)));
  // Interleave by a generated schedule, then finish the stragglers in order.
  auto schedule = *rc::gen::container<std::vector<int>>(rc::gen::inRange(0, tx_count));
  for (int t = 0; t < tx_count; ++t) {
    for (int k = 0; k <= 6; ++k)
      schedule.push_back(t);
  }
  for (int pick : schedule) {
    auto t = static_cast<std::size_t>(pick);
    if (done[t]) continue;
    h.env.advance_us(100);
    Transaction& tr = *txs[t];
    if (next[t] < programs[t].size()) {
      if (!h.perform(tr, logs[t], programs[t][next[t]++])) done[t] = true;
      continue;
    }
    logs[t].read_version = tr.read_version().value_or(kInvalidVersion);
    ErrorCode e = StoreHarness::commit(tr);
    RC_ASSERT(e == ErrorCode::success || e == ErrorCode::not_committed);
    logs[t].committed = e == ErrorCode::success;
    logs[t].commit_version = tr.committed_version();
    if (logs[t].read_version == kInvalidVersion && tr.read_version()) {
      logs[t].read_version = *tr.read_version();
    }
    done[t] = true;
  }

  // Replay the committed writers in commit-version order on a plain map.
  std::vector<const TxLog*> order;
  for (const TxLog& l : logs) {
    if (l.committed) order.push_back(&l);
  }
  std::sort(order.begin(), order.end(), [](const TxLog* a, const TxLog* b) {
    Version va = a->commit_version == kInvalidVersion ? a->read_version : a->commit_version;
    Version vb = b->commit_version == kInvalidVersion ? b->read_version : b->commit_version;
    return va < vb;
  });
  Map initial{{"a", "init-a"}, {"c", "init-c"}, {"e", "init-e"}};
  for (std::size_t i = 0; i < order.size(); ++i) {
    const TxLog& tx = *order[i];
    // State at the transaction's read version: the commits with version <= rv.
    Map at_read = initial;
    Map before_commit = initial;
    for (const TxLog* other : order) {
      if (other == &tx || other->commit_version == kInvalidVersion) continue;
      Map* targets[] = {&at_read, &before_commit};
      for (Map* m : targets) {
        Version limit = m == &at_read ? tx.read_version : tx.commit_version;
        if (m == &before_commit && tx.commit_version == kInvalidVersion) limit = tx.read_version;
        if (other->commit_version > limit) continue;
        for (const Op& op : other->ops)
          apply_write(*m, op);
      }
    }
    std::string at_rv = replay(at_read, tx, /*non_snapshot_only=*/false);
    RC_ASSERT_FALSE(!at_rv.empty());
    std::string at_cv = replay(before_commit, tx, /*non_snapshot_only=*/true);
    if (!at_cv.empty()) RC_FAIL("serializability: " + at_cv);
  }
}

RC_GTEST_PROP(StoreModel, AConflictIsReportedExactlyWhenAReReadWouldDiffer, ()) {
  Harness h;
  for (const char* k : {"a", "b", "c", "d", "e"}) {
    if (*rc::gen::arbitrary<bool>()) h.put(k, std::string("init-") + k);
  }
  Transaction reader(h.db(1));
  TxLog log;
  auto reads = *rc::gen::container<std::vector<Op>>(*rc::gen::inRange(1, 4), gen_op());
  for (Op& op : reads) {
    if (!is_read(op)) op.kind = OpKind::get;
    op.snapshot = false;
    RC_ASSERT(h.perform(reader, log, op));
  }
  reader.set("zz-marker", "1");
  // Commits of keys no read can reach, before or after the others: with more than
  // Store::kScannedCommitsMax in all, the reader's check consults the conflict history instead
  // of scanning the commits after its read version.
  const auto fillers = *rc::gen::element(0, 3, static_cast<int>(Store::kScannedCommitsMax) + 1);
  const bool fillers_first = *rc::gen::arbitrary<bool>();
  auto commit_fillers = [&] {
    for (int i = 0; i < fillers; ++i)
      h.put("~filler" + std::to_string(i), "v");
  };
  if (fillers_first) commit_fillers();
  // Other clients commit writes that always change what they touch: fresh values, clears of
  // keys present, each key at most once (so no write is a no-op and no two writes cancel out:
  // those are FoundationDB's documented false positives).
  int writes = *rc::gen::inRange(0, 4);
  std::set<Bytes> touched;
  for (int i = 0; i < writes; ++i) {
    Bytes key = *gen_key();
    if (!touched.insert(key).second) continue;
    Transaction writer(h.db(2));
    h.env.advance_us(100);
    bool present = h.store.latest_state().count(key) > 0;
    if (present && *rc::gen::arbitrary<bool>()) {
      writer.clear(key);
    } else {
      writer.set(key, "w" + std::to_string(i) + "-" + std::to_string(h.env.now_us()));
    }
    RC_ASSERT(StoreHarness::commit(writer) == ErrorCode::success);
  }
  if (!fillers_first) commit_fillers();
  h.env.advance_us(100);
  ErrorCode e = StoreHarness::commit(reader);
  Transaction rereader(h.db(3));
  TxLog again;
  for (const Op& op : log.ops)
    RC_ASSERT(h.perform(rereader, again, op));
  bool differs = again.results != log.results;
  RC_ASSERT((e == ErrorCode::not_committed) == differs);
}

}  // namespace
}  // namespace contend::testing
