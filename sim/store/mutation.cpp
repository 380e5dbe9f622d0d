#include "sim/store/mutation.h"

#include <algorithm>
#include <cstring>

#include "base/invariant.h"
#include "sim/store/mutants.h"

namespace contend {

std::optional<KeyRange> keys_changed(const MutationRef& m) {
  if (m.type == MutationType::set_versionstamped_key) return std::nullopt;
  if (m.type == MutationType::clear_range) return KeyRange{Bytes(m.param1), Bytes(m.param2)};
  return KeyRange{Bytes(m.param1), key_after(m.param1)};
}

bool is_atomic(MutationType type) {
  return type != MutationType::set_value && type != MutationType::clear_range;
}

std::string_view mutation_name(MutationType type) {
  switch (type) {
    case MutationType::set_value:
      return "set";
    case MutationType::clear_range:
      return "clear_range";
    case MutationType::add:
      return "add";
    case MutationType::max:
      return "max";
    case MutationType::min:
      return "min";
    case MutationType::set_versionstamped_key:
      return "set_versionstamped_key";
    case MutationType::set_versionstamped_value:
      return "set_versionstamped_value";
    case MutationType::byte_min:
      return "byte_min";
    case MutationType::byte_max:
      return "byte_max";
  }
  return "?";
}

namespace {

// The existing value resized to the operand's length (truncated, or zero-extended at the high
// end of the little-endian number), as FoundationDB's doAdd/doMax/doMin do.
Bytes resized(const Bytes& existing, std::size_t length) {
  Bytes out = existing.substr(0, std::min(existing.size(), length));
  out.resize(length, '\0');
  return out;
}

Bytes do_add(const Bytes& existing, BytesView operand) {
  Bytes out = resized(existing, operand.size());
  unsigned carry = 0;
  for (std::size_t i = 0; i < operand.size(); ++i) {
    unsigned sum =
        static_cast<unsigned char>(out[i]) + static_cast<unsigned char>(operand[i]) + carry;
    out[i] = static_cast<char>(sum & 0xff);
    carry = CONTEND_MUTANT(19) ? 0 : sum >> 8;
  }
  return out;
}

// Unsigned little-endian comparison of two equal-length byte strings.
int compare_le(BytesView a, BytesView b) {
  CONTEND_ASSERT(a.size() == b.size(), "operands padded to one width");
  for (std::size_t i = a.size(); i-- > 0;) {
    auto x = static_cast<unsigned char>(a[i]);
    auto y = static_cast<unsigned char>(b[i]);
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

}  // namespace

Bytes apply_atomic(MutationType type, const std::optional<Bytes>& existing, BytesView operand) {
  if (!existing) return CONTEND_MUTANT(11) ? Bytes(operand.size(), '\0') : Bytes(operand);
  switch (type) {
    case MutationType::add:
      return do_add(*existing, operand);
    case MutationType::max: {
      Bytes old = resized(*existing, operand.size());
      return (compare_le(old, operand) >= 0) != CONTEND_MUTANT(13) ? old : Bytes(operand);
    }
    case MutationType::min: {
      Bytes old = resized(*existing, operand.size());
      return (compare_le(old, operand) <= 0) != CONTEND_MUTANT(21) ? old : Bytes(operand);
    }
    case MutationType::byte_min:
      return BytesView(*existing) <= operand ? *existing : Bytes(operand);
    case MutationType::byte_max:
      return BytesView(*existing) >= operand ? *existing : Bytes(operand);
    default:
      CONTEND_ASSERT(false, "apply_atomic on a non-arithmetic mutation");
      return *existing;
  }
}

std::vector<Mutation> as_committed(std::span<const MutationRef> mutations, Version commit_version) {
  std::vector<Mutation> out = copy_of(mutations);
  const Bytes stamp = make_versionstamp(commit_version, 0);
  for (Mutation& m : out) {
    if (m.type == MutationType::set_versionstamped_key)
      m.param1 = fill_versionstamp(m.param1, stamp);
    if (m.type == MutationType::set_versionstamped_value)
      m.param2 = fill_versionstamp(m.param2, stamp);
  }
  return out;
}

Bytes make_versionstamp(Version commit_version, std::uint16_t batch_order) {
  Bytes out(10, '\0');
  auto v = static_cast<std::uint64_t>(commit_version);
  for (int i = 7; i >= 0; --i) {
    out[static_cast<std::size_t>(CONTEND_MUTANT(12) ? 7 - i : i)] = static_cast<char>(v & 0xff);
    v >>= 8;
  }
  out[8] = static_cast<char>(batch_order >> 8);
  out[9] = static_cast<char>(batch_order & 0xff);
  return out;
}

namespace {
std::uint32_t read_offset(BytesView with_offset) {
  const auto* p =
      reinterpret_cast<const unsigned char*>(with_offset.data() + with_offset.size() - 4);
  return static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) |
         (static_cast<std::uint32_t>(p[2]) << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
}
}  // namespace

ErrorCode check_versionstamp_param(BytesView with_offset) {
  if (with_offset.size() < 14) return ErrorCode::client_invalid_operation;
  std::uint64_t offset = read_offset(with_offset);
  if (offset + 10 > with_offset.size() - 4) return ErrorCode::client_invalid_operation;
  return ErrorCode::success;
}

Bytes fill_versionstamp(BytesView with_offset, BytesView versionstamp) {
  CONTEND_ASSERT(ok(check_versionstamp_param(with_offset)) && versionstamp.size() == 10,
                 "a checked versionstamp parameter and a 10-byte stamp");
  std::uint32_t offset = read_offset(with_offset);
  Bytes out(with_offset.substr(0, with_offset.size() - 4));
  std::memcpy(out.data() + offset, versionstamp.data(), 10);
  return out;
}

}  // namespace contend
