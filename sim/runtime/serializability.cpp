#include "sim/runtime/serializability.h"

#include <algorithm>
#include <map>

#include "base/invariant.h"

namespace contend {

namespace {

using Map = std::map<Bytes, Bytes, KeyLess>;

void apply(Map& m, const Mutation& mu, Version commit_version) {
  switch (mu.type) {
    case MutationType::set_value:
      m[mu.param1] = mu.param2;
      break;
    case MutationType::clear_range:
      CONTEND_ASSERT(compare_bytes(mu.param1, mu.param2) <= 0, "a clear_range is not inverted");
      m.erase(m.lower_bound(BytesView(mu.param1)), m.lower_bound(BytesView(mu.param2)));
      break;
    case MutationType::set_versionstamped_key:
      m[fill_versionstamp(mu.param1, make_versionstamp(commit_version, 0))] = mu.param2;
      break;
    case MutationType::set_versionstamped_value:
      m[mu.param1] = fill_versionstamp(mu.param2, make_versionstamp(commit_version, 0));
      break;
    default: {
      auto it = m.find(mu.param1);
      std::optional<Bytes> old = it == m.end() ? std::nullopt : std::optional<Bytes>(it->second);
      m[mu.param1] = apply_atomic(mu.type, old, mu.param2);
    }
  }
}

bool replays(const Map& m, const ReadRecord& r) {
  CONTEND_ASSERT(r.range || r.rows.empty(), "a single-key read records no rows");
  if (!r.range) {
    auto it = m.find(r.keys.begin);
    std::optional<Bytes> now = it == m.end() ? std::nullopt : std::optional<Bytes>(it->second);
    return now == r.value;
  }
  CONTEND_ASSERT(compare_bytes(r.keys.begin, r.keys.end) <= 0, "a range read is not inverted");
  RangeResult rows;
  const std::size_t limit =
      r.options.limit > 0 ? static_cast<std::size_t>(r.options.limit) : SIZE_MAX;
  auto lo = m.lower_bound(BytesView(r.keys.begin));
  auto hi = m.lower_bound(BytesView(r.keys.end));
  if (!r.options.reverse) {
    for (auto it = lo; it != hi && rows.size() < limit; ++it)
      rows.push_back({it->first, it->second});
  } else {
    for (auto it = hi; it != lo && rows.size() < limit;) {
      --it;
      rows.push_back({it->first, it->second});
    }
  }
  return rows == r.rows;
}

}  // namespace

std::optional<std::string> check_serializable(const std::vector<CommittedTransaction>& committed) {
  std::vector<const CommittedTransaction*> order;
  for (const auto& t : committed)
    order.push_back(&t);
  auto position = [](const CommittedTransaction* t) {
    return t->commit_version != kInvalidVersion ? t->commit_version : t->read_version;
  };
  // Read-only transactions sit at their read version, after the commits at or below it.
  std::stable_sort(order.begin(), order.end(), [&](const auto* a, const auto* b) {
    if (position(a) != position(b)) return position(a) < position(b);
    return a->commit_version == kInvalidVersion ? false : b->commit_version == kInvalidVersion;
  });
  CONTEND_ASSERT(order.size() == committed.size(), "every committed transaction is replayed");
  Map state;
  for (const CommittedTransaction* t : order) {
    CONTEND_ASSERT(t->commit_version == kInvalidVersion || t->commit_version > t->read_version,
                   "a commit lands after its read version");
    Map scratch;  // the state plus this transaction's own writes, built lazily
    std::size_t applied = 0;
    bool has_scratch = false;
    std::size_t checked = 0;  // non-snapshot reads so far (a log may hold no snapshot reads)
    for (const ReadRecord& r : t->reads) {
      if (r.snapshot) continue;
      ++checked;
      if (r.mutations_before > 0 && !has_scratch) {
        scratch = state;
        has_scratch = true;
      }
      CONTEND_ASSERT(r.mutations_before <= t->mutations.size(),
                     "a read follows only the transaction's own mutations");
      for (; applied < r.mutations_before; ++applied)
        apply(scratch, t->mutations[applied], t->commit_version);
      if (!replays(has_scratch ? scratch : state, r)) {
        return "client " + std::to_string(t->client) + " tx#" + std::to_string(t->transaction_id) +
               " (read version " + std::to_string(t->read_version) + ", commit version " +
               std::to_string(t->commit_version) + "): non-snapshot read " +
               std::to_string(checked) + " of [" + printable(r.keys.begin) + ", " +
               printable(r.keys.end) +
               ") returned what no serial order at its commit position gives";
      }
    }
    for (const Mutation& mu : t->mutations)
      apply(state, mu, t->commit_version);
  }
  return std::nullopt;
}

}  // namespace contend
