#include "fdb_c/special_keys.h"

#include <array>
#include <string_view>

namespace contend::fdb {

namespace {

constexpr BytesView kSpecialKeysBegin("\xff\xff", 2);
constexpr BytesView kSpecialKeysEnd("\xff\xff\xff", 3);

struct Module {
  BytesView begin;
  BytesView end;
};

using namespace std::string_view_literals;

// SpecialKeySpace::moduleToBoundary (FoundationDB 7.3), in key order; a one-key module's range
// is [key, key + \x00).
constexpr std::array kModules{
    Module{"\xff\xff/actor_lineage/"sv, "\xff\xff/actor_lineage0"sv},
    Module{"\xff\xff/actor_profiler_conf/"sv, "\xff\xff/actor_profiler_conf0"sv},
    Module{"\xff\xff/cluster_file_path"sv, "\xff\xff/cluster_file_path\0"sv},
    Module{"\xff\xff/cluster_id"sv, "\xff\xff/cluster_id\0"sv},
    Module{"\xff\xff/configuration/"sv, "\xff\xff/configuration0"sv},
    Module{"\xff\xff/connection_string"sv, "\xff\xff/connection_string\0"sv},
    Module{"\xff\xff/error_message"sv, "\xff\xff/error_message\0"sv},
    Module{"\xff\xff/global_config/"sv, "\xff\xff/global_config0"sv},
    Module{"\xff\xff/management/"sv, "\xff\xff/management0"sv},
    Module{"\xff\xff/metrics/"sv, "\xff\xff/metrics0"sv},
    Module{"\xff\xff/status/json"sv, "\xff\xff/status/json\0"sv},
    Module{"\xff\xff/tracing/"sv, "\xff\xff/tracing0"sv},
    Module{"\xff\xff/transaction/"sv, "\xff\xff/transaction0"sv},
    Module{"\xff\xff/worker_interfaces/"sv, "\xff\xff/worker_interfaces0"sv},
};

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

}  // namespace

bool is_special_key(BytesView key) {
  return !(key < kSpecialKeysBegin) && key < kSpecialKeysEnd;
}

fdb_error special_read_error(BytesView begin, BytesView end, bool relaxed) {
  if (relaxed) return kKeyOutsideLegalRange;
  bool is_module = false;
  const Module range = range_containing(begin, is_module);
  if (end < range.begin || range.end < end) return kSpecialKeysCrossModuleRead;
  return is_module ? kKeyOutsideLegalRange : kSpecialKeysNoModuleFound;
}

}  // namespace contend::fdb
