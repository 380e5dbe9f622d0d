// Reads of FoundationDB's special key space [\xff\xff, \xff\xff\xff) (SpecialKeySpace.actor.cpp),
// as its getRangeAggregationActor answers them: without SPECIAL_KEY_SPACE_RELAXED a read outside
// every module, or across two, is refused; then its key selectors are resolved over the ranges
// the space's modules serve, and those ranges within the read answer its rows, under its limits,
// in its direction. contend serves the transaction module's three ranges (transaction_module.h);
// a read that would reach what any other module serves (anywhere in that module's range: which
// of its keys FoundationDB serves is not modelled) answers key_outside_legal_range, as every
// special key read did before; one reaching only keys no module serves answers no rows there.
// Which modules serve anything follows the selected API version (api_version.h): below 700 the
// ones DatabaseContext registers from 700 serve nothing. The error message module never holds a
// message here (no special key is written), so it serves nothing either.
#pragma once

#include "fdb_c/errors.h"
#include "fdb_c/transaction_module.h"
#include "sim/store/bytes.h"

namespace contend::fdb {

// Whether `key` is in the special key space (SystemData's specialKeys.contains).
bool is_special_key(BytesView key);

// A key selector with or_equal removed (KeySelector::removeOrEqual): the offset-th key after the
// last key before `key`.
struct SpecialSelector {
  Bytes key;
  int offset = 1;
};

// A range read in the special key space, its begin key a special key and its end key at most
// \xff\xff\xff, after SpecialKeySpace::getRange's own checks (valid limits, a range its selectors
// do not leave empty).
struct SpecialRangeRead {
  SpecialSelector begin;
  SpecialSelector end;
  int row_limit = 0;   // 0: none
  int byte_limit = 0;  // 0: none; else GetRangeLimits' (each row its key, value and 8 bytes)
  bool reverse = false;
  bool relaxed = false;  // SPECIAL_KEY_SPACE_RELAXED
};

struct SpecialRows {
  RangeResult rows;
  bool more = false;  // a limit ended the read (RangeResultRef::more)
};

// Answers `read` from `module`: success with its rows, or special_keys_no_module_found,
// special_keys_cross_module_read (unrelaxed, before anything is read) or key_outside_legal_range
// (it reaches what another module serves).
fdb_error read_special_range(const SpecialRangeRead& read, const TransactionModule& module,
                             SpecialRows& out);

}  // namespace contend::fdb
