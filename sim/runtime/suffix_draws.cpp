#include "sim/runtime/suffix_draws.h"

#include "base/invariant.h"

namespace contend {

namespace {

// Big-endian numbers of a fixed number of bytes (vector order on equal lengths is numeric order).
using Number = std::vector<unsigned>;  // one byte per element, most significant first

Number number_of(const std::string& bytes) {
  Number out(bytes.size());
  for (std::size_t i = 0; i < bytes.size(); ++i)
    out[i] = static_cast<unsigned char>(bytes[i]);
  return out;
}

// x + delta (delta is +1 or -1); REQUIRES: the result fits in n bytes.
Number step_by(Number x, int delta) {
  for (std::size_t i = x.size(); i-- > 0;) {
    if (delta > 0 && x[i] < 255) {
      ++x[i];
      return x;
    }
    if (delta < 0 && x[i] > 0) {
      --x[i];
      return x;
    }
    x[i] = delta > 0 ? 0 : 255;
  }
  CONTEND_ASSERT(false, "no room left beside a suffix drawn under one key prefix");
  return x;
}

// floor((a + b) / 2), a <= b, both n bytes.
Number midpoint(const Number& a, const Number& b) {
  Number sum(a.size() + 1, 0);
  unsigned carry = 0;
  for (std::size_t i = a.size(); i-- > 0;) {
    const unsigned s = a[i] + b[i] + carry;
    sum[i + 1] = s & 0xff;
    carry = s >> 8;
  }
  sum[0] = carry;
  Number out(a.size(), 0);
  unsigned rest = sum[0];
  for (std::size_t i = 1; i < sum.size(); ++i) {
    const unsigned v = rest * 256 + sum[i];
    out[i - 1] = v / 2;
    rest = v % 2;
  }
  return out;
}

std::string bytes_of(const Number& x) {
  std::string out(x.size(), '\0');
  for (std::size_t i = 0; i < x.size(); ++i)
    out[i] = static_cast<char>(x[i]);
  return out;
}

}  // namespace

std::uint32_t SuffixDraws::places(std::string_view group) const {
  auto it = groups_.find(group);
  return it == groups_.end() ? 1 : static_cast<std::uint32_t>(it->second.size() + 1);
}

std::string SuffixDraws::draw(std::string_view group, std::size_t n, std::uint32_t choice,
                              std::uint64_t tag) {
  constexpr std::size_t kTagBytes = 8;
  CONTEND_ASSERT(n > kTagBytes && n <= 64, "a suffix of 9 to 64 bytes: room to sort, and a tag");
  auto it = groups_.find(group);
  if (it == groups_.end())
    it = groups_.emplace(std::string(group), std::vector<std::string>{}).first;
  std::vector<std::string>& drawn = it->second;
  const std::size_t order_bytes = n - kTagBytes;
  CONTEND_ASSERT(choice <= drawn.size(), "a draw sorts among its group's earlier draws");
  CONTEND_ASSERT(drawn.empty() || drawn.front().size() == order_bytes,
                 "every suffix drawn under one key prefix has the same length");
  const std::size_t at = drawn.size() - choice;  // its index once inserted
  const Number lowest = at == 0 ? Number(order_bytes, 0) : step_by(number_of(drawn[at - 1]), +1);
  const Number highest =
      at == drawn.size() ? Number(order_bytes, 255) : step_by(number_of(drawn[at]), -1);
  CONTEND_ASSERT(lowest <= highest, "no room left between two suffixes drawn under one key prefix");
  std::string order = bytes_of(midpoint(lowest, highest));
  drawn.insert(drawn.begin() + static_cast<std::ptrdiff_t>(at), order);
  for (std::size_t i = kTagBytes; i-- > 0;)
    order.push_back(static_cast<char>(static_cast<unsigned char>(tag >> (8 * i))));
  return order;
}

std::uint64_t SuffixDraws::group_id(std::string_view group) {
  Digest128 d;
  d.add_field(group);
  const std::uint64_t id = d.finish()[0];
  return id == 0 ? 1 : id;  // 0 is footprint.h's kAnyGroup
}

void SuffixDraws::add_state(Digest128& d) const {
  d.add_u64(groups_.size());
  for (const auto& [group, drawn] : groups_) {
    d.add_field(group);
    d.add_u64(drawn.size());
    for (const std::string& s : drawn)
      d.add_field(s);
  }
}

}  // namespace contend
