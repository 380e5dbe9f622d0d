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
