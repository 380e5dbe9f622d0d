// Reads of FoundationDB's special key space [\xff\xff, \xff\xff\xff) (SpecialKeySpace.actor.cpp):
// which module a read falls in. contend serves no module's data; what FoundationDB refuses
// before it reads a module — a read outside every module, or across two — it refuses alike.
#pragma once

#include "fdb_c/errors.h"
#include "sim/store/bytes.h"

namespace contend::fdb {

// Whether `key` is in the special key space (SystemData's specialKeys.contains).
bool is_special_key(BytesView key);

// What a read of [begin, end) (begin a special key, end at most \xff\xff\xff; the keys of its
// selectors once or_equal is removed) answers, as SpecialKeySpace's getRangeAggregationActor
// decides before it reads: without SPECIAL_KEY_SPACE_RELAXED, special_keys_no_module_found when
// the range containing begin is no module's (and end is within it), else
// special_keys_cross_module_read when end leaves the module containing begin. A read that
// FoundationDB would serve from a module (or, relaxed, from any) is not modelled:
// key_outside_legal_range, as every special key read answered before.
fdb_error special_read_error(BytesView begin, BytesView end, bool relaxed);

}  // namespace contend::fdb
