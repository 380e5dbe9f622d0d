#include "fdb_c/range_request.h"

#include <algorithm>
#include <iterator>

namespace contend::fdb {

namespace {
// Streaming modes' byte limits per read, as fdb_c.cpp's: EXACT has none, WANT_ALL reads as
// SERIAL, and ITERATOR grows by half each iteration up to its tenth.
constexpr int kModeBytes[] = {0, 256, 1000, 4096, 80000};  // EXACT (none), SMALL .. SERIAL
constexpr int kIteratorBytes[] = {4096,  6144,  9216,  13824, 20736,
                                  31104, 46656, 69984, 80000, 120000};
constexpr int kModeWantAll = -2, kModeIterator = -1, kModeExact = 0, kModeSerial = 4;
}  // namespace

Bytes strict_key(const KeySelector& s) {
  return s.or_equal ? key_after(s.key) : s.key;
}

bool selects_nothing(const KeySelector& begin, const KeySelector& end) {
  return begin.offset >= end.offset && !(BytesView(strict_key(begin)) < BytesView(strict_key(end)));
}

RanOff ran_off(const RangeRequest& r, const KeyRange& resolved) {
  // A selector that walks back (offset 0 or less) ran off the first key when it resolved to the
  // empty key; one that walks forward (offset above 1), off the last when it resolved to \xff.
  auto to_begin = [](const KeySelector& s, const Bytes& key) {
    return s.offset <= 0 && key.empty();
  };
  auto through_end = [](const KeySelector& s, const Bytes& key) {
    return s.offset > 1 && BytesView(key) == kSystemKeysBegin;
  };
  return RanOff{
      .to_begin = to_begin(r.begin, resolved.begin) || to_begin(r.end, resolved.end),
      .through_end = through_end(r.begin, resolved.begin) || through_end(r.end, resolved.end)};
}

namespace {
// [begin, end) clamped to \xff; none when that is empty.
std::optional<KeyRange> conflict_range(Bytes begin, Bytes end) {
  if (kSystemKeysBegin < BytesView(end)) end = Bytes(kSystemKeysBegin);
  if (!(BytesView(begin) < BytesView(end))) return std::nullopt;
  return KeyRange{std::move(begin), std::move(end)};
}
}  // namespace

std::optional<KeyRange> ryw_range_read_conflict(const RangeRequest& r, const KeyRange& resolved,
                                                const RangeResult& rows, bool more) {
  const Bytes begin_key = strict_key(r.begin), end_key = strict_key(r.end);
  Bytes begin, end;
  if (BytesView(begin_key) < BytesView(end_key)) {
    // Past the rows answered, a forward read stopped by a limit depends on nothing up to an end
    // selector with offset 1 or more; a reverse one, on nothing down to a begin selector with
    // offset 1 or less.
    const bool forward_stops = !r.reverse && more && r.end.offset > 0;
    const bool reverse_stops = r.reverse && more && r.begin.offset <= 1;
    begin = reverse_stops ? end_key : begin_key;
    end = forward_stops ? begin_key : end_key;
  } else {
    begin = end_key;
    end = begin_key;
  }
  const RanOff off = ran_off(r, resolved);
  if (off.to_begin && r.begin.offset <= 0) begin.clear();
  if (off.through_end && r.end.offset > 0) end = Bytes(kSystemKeysBegin);
  if (!rows.empty()) {
    const Bytes& low = r.reverse ? rows.back().key : rows.front().key;
    const Bytes& high = r.reverse ? rows.front().key : rows.back().key;
    if ((r.reverse || r.begin.offset <= 0) && BytesView(low) < BytesView(begin)) begin = low;
    if ((!r.reverse || r.end.offset > 0) && !(BytesView(high) < BytesView(end)))
      end = key_after(high);
  }
  return conflict_range(std::move(begin), std::move(end));
}

std::optional<KeyRange> native_range_read_conflict(const RangeRequest& r, const KeyRange& resolved,
                                                   const RangeResult& rows, bool more) {
  const Bytes begin_key = strict_key(r.begin), end_key = strict_key(r.end);
  const RanOff off = ran_off(r, resolved);
  // rows.front() is the first row answered (the largest key in reverse), rows.back() the last.
  Bytes begin;
  if (off.to_begin) {
    begin.clear();
  } else if (((!r.reverse || !more || r.begin.offset > 1) && r.begin.offset > 0) || rows.empty()) {
    begin = begin_key;
  } else {
    begin = r.reverse ? rows.back().key : rows.front().key;
  }
  if (r.end.offset > r.begin.offset && BytesView(end_key) < BytesView(begin)) begin = end_key;
  Bytes end;
  if (off.through_end) {
    end = Bytes(kSystemKeysBegin);
  } else if (((r.reverse || !more || r.end.offset <= 0) && r.end.offset <= 1) || rows.empty()) {
    end = end_key;
  } else {
    end = key_after(r.reverse ? rows.front().key : rows.back().key);
  }
  if (r.begin.offset < r.end.offset && BytesView(end) < BytesView(begin_key)) end = begin_key;
  return conflict_range(std::move(begin), std::move(end));
}

fdb_error batch_bytes(const RangeRequest& r, int& bytes) {
  const bool rows_unlimited = r.limit == 0 || r.limit == -1;
  const bool bytes_unlimited = r.target_bytes == 0 || r.target_bytes == -1;
  if (rows_unlimited && bytes_unlimited && r.mode == kModeExact) return kExactModeWithoutLimits;
  const int mode = r.mode == kModeWantAll ? kModeSerial : r.mode;
  int mode_bytes = 0;
  if (mode == kModeIterator) {
    if (r.iteration < 1) return kClientInvalidOperation;
    const int steps = static_cast<int>(std::size(kIteratorBytes));
    mode_bytes = kIteratorBytes[std::min(r.iteration, steps) - 1];
  } else if (mode >= kModeExact && mode <= kModeSerial) {
    mode_bytes = kModeBytes[mode];
  } else {
    return kClientInvalidOperation;
  }
  bytes = mode_bytes;
  if (!bytes_unlimited && (mode_bytes == 0 || r.target_bytes < mode_bytes)) bytes = r.target_bytes;
  return kSuccess;
}

}  // namespace contend::fdb
