#include "fdb_c/transaction_module.h"

#include <algorithm>

#include "base/invariant.h"

namespace contend::fdb {

namespace {

constexpr BytesView kConflictingKeysPrefix = "\xff\xff/transaction/conflicting_keys/";
constexpr BytesView kReadConflictRangePrefix = "\xff\xff/transaction/read_conflict_range/";
constexpr BytesView kWriteConflictRangePrefix = "\xff\xff/transaction/write_conflict_range/";
constexpr BytesView kRangeEndSuffix("\xff\xff", 2);
// SystemData.cpp's conflictingKeysTrue and conflictingKeysFalse, which the other two ranges
// answer too.
constexpr BytesView kBoundaryBegins = "1", kBoundaryEnds = "0";

BytesView prefix_of(ModuleRange which) {
  switch (which) {
    case ModuleRange::conflicting_keys:
      return kConflictingKeysPrefix;
    case ModuleRange::read_conflict_range:
      return kReadConflictRangePrefix;
    case ModuleRange::write_conflict_range:
      return kWriteConflictRangePrefix;
  }
  CONTEND_ASSERT(false, "every module range has a prefix");
  return {};
}

const std::vector<KeyRange>& set_of(const TransactionModule& module, ModuleRange which) {
  switch (which) {
    case ModuleRange::conflicting_keys:
      return module.conflicting_keys;
    case ModuleRange::read_conflict_range:
      return module.read_conflict_ranges;
    case ModuleRange::write_conflict_range:
      return module.write_conflict_ranges;
  }
  CONTEND_ASSERT(false, "every module range serves a set");
  return module.conflicting_keys;
}

void add_row_within(RangeResult& rows, KeyRangeRef within, Bytes key, BytesView value) {
  if (within.contains(key)) rows.push_back(KeyValue{std::move(key), Bytes(value)});
}

}  // namespace

KeyRange module_range(ModuleRange which) {
  const Bytes prefix(prefix_of(which));
  return KeyRange{prefix, prefix + Bytes(kRangeEndSuffix)};
}

std::vector<KeyRange> coalesced(std::vector<KeyRange> ranges) {
  std::erase_if(ranges, [](const KeyRange& r) { return KeyRangeRef(r).empty(); });
  std::sort(ranges.begin(), ranges.end(), [](const KeyRange& a, const KeyRange& b) {
    return BytesView(a.begin) < BytesView(b.begin);
  });
  std::vector<KeyRange> merged;
  for (KeyRange& r : ranges) {
    if (!merged.empty() && !(BytesView(merged.back().end) < BytesView(r.begin))) {
      if (BytesView(merged.back().end) < BytesView(r.end)) merged.back().end = std::move(r.end);
      continue;
    }
    merged.push_back(std::move(r));
  }
  for (std::size_t i = 1; i < merged.size(); ++i) {
    CONTEND_ASSERT(BytesView(merged[i - 1].end) < BytesView(merged[i].begin),
                   "coalesced ranges are disjoint and never adjacent");
  }
  return merged;
}

std::vector<KeyRange> components_hit(const std::vector<KeyRange>& components,
                                     const std::vector<KeyRange>& hits) {
  std::vector<bool> hit(components.size(), false);
  for (const KeyRange& h : hits) {
    const auto after =
        std::upper_bound(components.begin(), components.end(), BytesView(h.begin),
                         [](BytesView key, const KeyRange& c) { return key < BytesView(c.begin); });
    CONTEND_ASSERT(after != components.begin() && KeyRangeRef(*std::prev(after)).contains(h.begin),
                   "a conflicting read range lies within one of the coalesced ranges");
    hit[static_cast<std::size_t>(std::prev(after) - components.begin())] = true;
  }
  std::vector<KeyRange> out;
  for (std::size_t i = 0; i < components.size(); ++i) {
    if (hit[i]) out.push_back(components[i]);
  }
  return out;
}

RangeResult module_rows(const TransactionModule& module, ModuleRange which, KeyRangeRef within) {
  const Bytes prefix(prefix_of(which));
  RangeResult rows;
  for (const KeyRange& r : set_of(module, which)) {
    add_row_within(rows, within, prefix + r.begin, kBoundaryBegins);
    add_row_within(rows, within, prefix + r.end, kBoundaryEnds);
  }
  return rows;
}

}  // namespace contend::fdb
