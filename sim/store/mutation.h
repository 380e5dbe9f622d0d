// Mutations a transaction buffers until commit, and FoundationDB's atomic-operation semantics
// (fdbclient/Atomic.h). Values are little-endian where the operation is arithmetic.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "sim/store/bytes.h"
#include "sim/store/error.h"

namespace contend {

enum class MutationType : std::uint8_t {
  set_value = 0,
  clear_range = 1,
  add = 2,
  max = 12,
  min = 13,
  set_versionstamped_key = 14,
  set_versionstamped_value = 15,
  byte_min = 16,
  byte_max = 17,
};

// A buffered write. For set_value and atomic ops `param1` is the key and `param2` the value or
// operand; for clear_range they are [begin, end).
struct Mutation {
  MutationType type = MutationType::set_value;
  Bytes param1;
  Bytes param2;
};

// A buffered write viewing bytes held elsewhere (a transaction's arena); fields as in Mutation.
struct MutationRef {
  MutationType type = MutationType::set_value;
  BytesView param1;
  BytesView param2;
};

// An owned copy of a viewed mutation, and of a run of them.
inline Mutation copy_of(const MutationRef& m) {
  return Mutation{m.type, Bytes(m.param1), Bytes(m.param2)};
}
inline std::vector<Mutation> copy_of(std::span<const MutationRef> mutations) {
  std::vector<Mutation> out;
  out.reserve(mutations.size());
  for (const MutationRef& m : mutations)
    out.push_back(copy_of(m));
  return out;
}

// The mutations as a commit at `commit_version` wrote them: a versionstamped key or value has its
// placeholder filled (and its 4-byte offset dropped), as the store filled it. Types are kept.
std::vector<Mutation> as_committed(std::span<const MutationRef> mutations, Version commit_version);

// The keys a buffered mutation changes: [param1, param2) for a clear_range, param1 alone
// otherwise; none for a versionstamped key, whose key is known only at the commit.
std::optional<KeyRange> keys_changed(const MutationRef& m);

bool is_atomic(MutationType type);
std::string_view mutation_name(MutationType type);

// Applies an arithmetic/compare atomic op (add, max, min, byte_min, byte_max) to an existing value
// (absent = the key does not exist) and returns the new value. Follows the V2 semantics for
// missing values: a missing value yields the operand.
Bytes apply_atomic(MutationType type, const std::optional<Bytes>& existing, BytesView operand);

// The 10-byte versionstamp of a commit: 8-byte big-endian version, 2-byte big-endian batch order.
Bytes make_versionstamp(Version commit_version, std::uint16_t batch_order);

// SET_VERSIONSTAMPED_KEY/VALUE parameter handling: the last 4 bytes are a little-endian offset;
// they are removed and the 10 bytes at the offset are replaced by the versionstamp. Returns
// client_invalid_operation when the parameter is shorter than 14 bytes or the offset overruns.
ErrorCode check_versionstamp_param(BytesView with_offset);
Bytes fill_versionstamp(BytesView with_offset, BytesView versionstamp);

}  // namespace contend
