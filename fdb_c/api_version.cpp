#include "fdb_c/api_version.h"

#include <atomic>
#include <cstdint>

#include "base/invariant.h"

namespace contend::fdb {

namespace {
// The runtime version in the high half, the header version in the low; 0 until selected. One
// word, so that a racing second selection can change neither.
std::atomic<std::uint64_t> selected{0};

int runtime_of(std::uint64_t versions) {
  return static_cast<int>(versions >> 32);
}
}  // namespace

int selected_runtime_api_version() {
  return runtime_of(selected.load());
}

int selected_header_api_version() {
  return static_cast<int>(selected.load() & 0xffff'ffffU);
}

bool select_api_version(int runtime, int header) {
  CONTEND_ASSERT(runtime >= kApiVersionMin && runtime <= header && header <= kApiVersionMax,
                 "fdb_select_api_version_impl checked the versions");
  std::uint64_t expected = 0;
  const std::uint64_t versions = (std::uint64_t{static_cast<std::uint32_t>(runtime)} << 32) |
                                 static_cast<std::uint32_t>(header);
  return selected.compare_exchange_strong(expected, versions);
}

bool api_version_at_least(int version) {
  const int runtime = runtime_of(selected.load());
  CONTEND_ASSERT(runtime != 0, "a behaviour is asked about once an API version is selected");
  return runtime >= version;
}

}  // namespace contend::fdb
