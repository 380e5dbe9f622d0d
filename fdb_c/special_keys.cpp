#include "fdb_c/special_keys.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "base/invariant.h"
#include "fdb_c/api_version.h"

namespace contend::fdb {

namespace {

constexpr BytesView kSpecialKeysBegin("\xff\xff", 2);
constexpr BytesView kSpecialKeysEnd("\xff\xff\xff", 3);

struct Module {
  BytesView begin;
  BytesView end;
  // The API version from which DatabaseContext registers what the module serves (below, its
  // range is a module's, but nothing in it is served).
  int served_from = kApiSpecialKeySpace;
};

using namespace std::string_view_literals;

// SpecialKeySpace::moduleToBoundary (FoundationDB 7.3), in key order; a one-key module's range
// is [key, key + \x00). The modules DatabaseContext serves from API 700 only are marked so.
constexpr std::array kModules{
    Module{"\xff\xff/actor_lineage/"sv, "\xff\xff/actor_lineage0"sv, kApiSpecialKeyWrites},
    Module{"\xff\xff/actor_profiler_conf/"sv, "\xff\xff/actor_profiler_conf0"sv,
           kApiSpecialKeyWrites},
    Module{"\xff\xff/cluster_file_path"sv, "\xff\xff/cluster_file_path\0"sv},
    Module{"\xff\xff/cluster_id"sv, "\xff\xff/cluster_id\0"sv},
    Module{"\xff\xff/configuration/"sv, "\xff\xff/configuration0"sv, kApiSpecialKeyWrites},
    Module{"\xff\xff/connection_string"sv, "\xff\xff/connection_string\0"sv},
    Module{"\xff\xff/error_message"sv, "\xff\xff/error_message\0"sv, kApiSpecialKeyWrites},
    Module{"\xff\xff/global_config/"sv, "\xff\xff/global_config0"sv, kApiSpecialKeyWrites},
    Module{"\xff\xff/management/"sv, "\xff\xff/management0"sv, kApiSpecialKeyWrites},
    Module{"\xff\xff/metrics/"sv, "\xff\xff/metrics0"sv},
    Module{"\xff\xff/status/json"sv, "\xff\xff/status/json\0"sv},
    Module{"\xff\xff/tracing/"sv, "\xff\xff/tracing0"sv, kApiSpecialKeyWrites},
    Module{"\xff\xff/transaction/"sv, "\xff\xff/transaction0"sv},
    Module{"\xff\xff/worker_interfaces/"sv, "\xff\xff/worker_interfaces0"sv},
};

constexpr BytesView kTransactionModuleBegin = "\xff\xff/transaction/";
// The error message module serves the message of a failed commit of special keys, which this
// library refuses to write (SPECIAL_KEY_SPACE_ENABLE_WRITES): never one.
constexpr BytesView kErrorMessageKey = "\xff\xff/error_message";
// Of the management module, the tenant map is served from API 630 (TenantRangeImpl), the rest
// from 700.
constexpr BytesView kManagementBegin = "\xff\xff/management/";
constexpr Module kTenantManagement{"\xff\xff/management/tenant/"sv,
                                   "\xff\xff/management/tenant0"sv};

// The range of SpecialKeySpace's module map containing `key`: a module's, or else the gap between
// two (no module's), and whether it is a module's.
Module range_containing(BytesView key, bool& is_module) {
  BytesView gap_begin = kSpecialKeysBegin;
  for (const Module& m : kModules) {
    if (key < m.begin) {
      is_module = false;
      return Module{gap_begin, m.begin};
    }
    if (key < m.end) {
      is_module = true;
      return m;
    }
    gap_begin = m.end;
  }
  is_module = false;
  return Module{gap_begin, kSpecialKeysEnd};
}

// What a range of SpecialKeySpace's readImpls map serves: nothing (no impl), one of the
// transaction module's ranges, or what another module serves (not modelled).
enum class Served { nothing, transaction_module, unmodelled };

// One range of the readImpls map over [\xff\xff, \xff\xff\xff), as DatabaseContext registers
// them: each module's range is another module's whole, and within the transaction module its
// three ranges, with nothing between.
struct Segment {
  Bytes begin;
  Bytes end;
  Served served = Served::nothing;
  ModuleRange which = ModuleRange::conflicting_keys;  // when served by the transaction module
};

void add_segment(std::vector<Segment>& out, BytesView begin, BytesView end, Served served,
                 ModuleRange which = ModuleRange::conflicting_keys) {
  if (begin < end) out.push_back(Segment{Bytes(begin), Bytes(end), served, which});
}

void add_transaction_module(std::vector<Segment>& out, const Module& m) {
  Bytes at(m.begin);
  for (ModuleRange which : {ModuleRange::conflicting_keys, ModuleRange::read_conflict_range,
                            ModuleRange::write_conflict_range}) {
    const KeyRange r = module_range(which);
    add_segment(out, at, r.begin, Served::nothing);
    add_segment(out, r.begin, r.end, Served::transaction_module, which);
    at = r.end;
  }
  add_segment(out, at, m.end, Served::nothing);
}

// What `m` serves at API version `api_version`.
void add_module(std::vector<Segment>& out, const Module& m, int api_version) {
  if (m.begin == kTransactionModuleBegin) {
    add_transaction_module(out, m);
  } else if (m.begin == kErrorMessageKey) {
    add_segment(out, m.begin, m.end, Served::nothing);
  } else if (m.begin == kManagementBegin && api_version < m.served_from) {
    add_segment(out, m.begin, kTenantManagement.begin, Served::nothing);
    add_segment(out, kTenantManagement.begin, kTenantManagement.end, Served::unmodelled);
    add_segment(out, kTenantManagement.end, m.end, Served::nothing);
  } else {
    add_segment(out, m.begin, m.end,
                api_version < m.served_from ? Served::nothing : Served::unmodelled);
  }
}

std::vector<Segment> build_segments(int api_version) {
  std::vector<Segment> out;
  BytesView gap_begin = kSpecialKeysBegin;
  for (const Module& m : kModules) {
    add_segment(out, gap_begin, m.begin, Served::nothing);
    add_module(out, m, api_version);
    gap_begin = m.end;
  }
  add_segment(out, gap_begin, kSpecialKeysEnd, Served::nothing);
  for (std::size_t i = 1; i < out.size(); ++i)
    CONTEND_ASSERT(out[i - 1].end == out[i].begin, "the segments tile the special key space");
  return out;
}

// The readImpls map at the selected API version (the special key space serves reads from 630).
const std::vector<Segment>& segments() {
  static const std::vector<Segment> before_700 = build_segments(kApiSpecialKeySpace);
  static const std::vector<Segment> from_700 = build_segments(kApiSpecialKeyWrites);
  return api_version_at_least(kApiSpecialKeyWrites) ? from_700 : before_700;
}

// The segment containing `key` (readImpls.rangeContaining), or segments().size() past the space.
std::size_t segment_containing(BytesView key) {
  const auto& all = segments();
  const auto it = std::find_if(all.begin(), all.end(),
                               [&](const Segment& s) { return key < BytesView(s.end); });
  return static_cast<std::size_t>(it - all.begin());
}

// The segment containing the last key before `key` (readImpls.rangeContainingKeyBefore), or
// segments().size() when `key` is at or before the space's begin.
std::size_t segment_before(BytesView key) {
  const auto& all = segments();
  for (std::size_t i = all.size(); i > 0; --i) {
    if (BytesView(all[i - 1].begin) < key) return i - 1;
  }
  return all.size();
}

// moveKeySelectorOverRangeActor: moves `s` over what `segment` serves, as far as its rows take
// it toward offset 1.
fdb_error move_over(const Segment& segment, const TransactionModule& module, SpecialSelector& s) {
  if (segment.served == Served::nothing) return kSuccess;
  if (segment.served == Served::unmodelled) return kKeyOutsideLegalRange;
  const bool inside =
      !(BytesView(s.key) < BytesView(segment.begin)) && BytesView(s.key) < BytesView(segment.end);
  BytesView from = segment.begin, to = segment.end;
  if (inside) (s.offset < 1 ? to : from) = s.key;
  if (!(from < to)) return kSuccess;
  const RangeResult rows = module_rows(module, segment.which, KeyRangeRef{from, to});
  if (rows.empty()) return kSuccess;
  const auto count = static_cast<std::int64_t>(rows.size());
  if (s.offset < 1) {
    const std::int64_t back = 1 - std::int64_t{s.offset};
    const bool reached = count >= back;
    s.key = reached ? rows[static_cast<std::size_t>(count - back)].key : rows.front().key;
    s.offset = reached ? 1 : static_cast<int>(s.offset + count);
  } else {
    const bool reached = count >= s.offset;
    s.key = reached ? rows[static_cast<std::size_t>(s.offset - 1)].key : key_after(rows.back().key);
    s.offset = reached ? 1 : static_cast<int>(s.offset - count);
  }
  return kSuccess;
}

// normalizeKeySelectorActor: resolves `s` over the segments within `boundary`, then, if it is not
// resolved, clamps it to the boundary's end it moved toward. `actual_offset`: its offset before.
fdb_error normalize(SpecialSelector& s, const Module& boundary, const TransactionModule& module,
                    int& actual_offset) {
  const auto& all = segments();
  if (s.offset < 1) {
    for (std::size_t i = segment_before(s.key);
         i < all.size() && s.offset < 1 && !(BytesView(all[i].begin) < boundary.begin); --i) {
      if (fdb_error e = move_over(all[i], module, s)) return e;
      if (i == 0) break;
    }
  } else {
    for (std::size_t i = segment_containing(s.key);
         i < all.size() && s.offset > 1 && BytesView(all[i].begin) < boundary.end; ++i) {
      if (fdb_error e = move_over(all[i], module, s)) return e;
    }
  }
  actual_offset = s.offset;
  if (s.offset != 1) {
    s.key = Bytes(s.offset < 1 ? boundary.begin : boundary.end);
    s.offset = 1;
  }
  return kSuccess;
}

// GetRangeLimits as the read's rows decrement it (minRows 1: a byte limit never ends a read
// before its first row).
class Limits {
 public:
  Limits(int rows, int bytes) : rows_(rows > 0 ? rows : -1), bytes_(bytes > 0 ? bytes : -1) {}
  void take(const KeyValue& row) {
    min_rows_ = 0;
    if (rows_ > 0) --rows_;
    if (bytes_ >= 0) {
      const auto cost = static_cast<std::int64_t>(8 + row.key.size() + row.value.size());
      bytes_ = static_cast<int>(std::max<std::int64_t>(0, bytes_ - cost));
    }
  }
  bool reached() const { return rows_ == 0 || (bytes_ == 0 && min_rows_ == 0); }

 private:
  int rows_;   // -1: none
  int bytes_;  // -1: none
  int min_rows_ = 1;
};

// The rows of the segments meeting [begin, end), in the read's direction, until a limit is
// reached; key_outside_legal_range if one is another module's.
fdb_error collect_rows(BytesView begin, BytesView end, const SpecialRangeRead& read,
                       const TransactionModule& module, SpecialRows& out) {
  const auto& all = segments();
  std::vector<const Segment*> meeting;
  for (const Segment& s : all) {
    if (BytesView(s.begin) < end && begin < BytesView(s.end)) meeting.push_back(&s);
  }
  if (read.reverse) std::reverse(meeting.begin(), meeting.end());
  Limits limits(read.row_limit, read.byte_limit);
  for (const Segment* s : meeting) {
    if (s->served == Served::nothing) continue;
    if (s->served == Served::unmodelled) return kKeyOutsideLegalRange;
    const KeyRangeRef within{std::max(begin, BytesView(s->begin)),
                             std::min(end, BytesView(s->end))};
    RangeResult rows = module_rows(module, s->which, within);
    if (read.reverse) std::reverse(rows.begin(), rows.end());
    for (KeyValue& row : rows) {
      limits.take(row);
      out.rows.push_back(std::move(row));
      if (limits.reached()) {
        out.more = true;
        return kSuccess;
      }
    }
  }
  return kSuccess;
}

}  // namespace

bool is_special_key(BytesView key) {
  return !(key < kSpecialKeysBegin) && key < kSpecialKeysEnd;
}

fdb_error read_special_range(const SpecialRangeRead& read, const TransactionModule& module,
                             SpecialRows& out) {
  out = SpecialRows{};
  Module boundary{kSpecialKeysBegin, kSpecialKeysEnd};
  if (!read.relaxed) {
    bool is_module = false;
    boundary = range_containing(read.begin.key, is_module);
    if (BytesView(read.end.key) < boundary.begin || boundary.end < BytesView(read.end.key))
      return kSpecialKeysCrossModuleRead;
    if (!is_module) return kSpecialKeysNoModuleFound;
  }
  SpecialSelector begin = read.begin, end = read.end;
  int begin_offset = 1, end_offset = 1;
  if (fdb_error e = normalize(begin, boundary, module, begin_offset)) return e;
  if (fdb_error e = normalize(end, boundary, module, end_offset)) return e;
  // As getRangeAggregationActor: an inverted range, or one at the boundary's far end, is empty.
  if (begin_offset >= end_offset && !(BytesView(begin.key) < BytesView(end.key))) return kSuccess;
  if (BytesView(begin.key) == boundary.end || BytesView(end.key) == boundary.begin) return kSuccess;
  if (!(BytesView(begin.key) < BytesView(end.key))) return kSuccess;
  return collect_rows(begin.key, end.key, read, module, out);
}

}  // namespace contend::fdb
