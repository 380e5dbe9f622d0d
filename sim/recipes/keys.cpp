// Recipe keys through the tuple layer: every byte is FoundationDB's tuple encoding.
#include "sim/recipes/keys.h"

#include "sim/store/subspace.h"
#include "sim/store/tuple.h"

namespace contend::keys {

namespace {

TupleElement bytes_element(BytesView b) {
  return TupleElement(TupleBytes{Bytes(b)});
}

std::optional<Tuple> unpack_in(const Bytes& prefix, BytesView key) {
  if (key.substr(0, prefix.size()) != BytesView(prefix)) return std::nullopt;
  UnpackResult r = unpack(key.substr(prefix.size()));
  if (!r.ok()) return std::nullopt;
  return std::move(*r.tuple);
}

std::optional<std::int64_t> int_at(const Bytes& prefix, BytesView key, std::size_t i) {
  if (key.substr(0, prefix.size()) != BytesView(prefix)) return std::nullopt;
  UnpackResult r = unpack_prefix(key.substr(prefix.size()), i + 1);
  if (!r.ok()) return std::nullopt;
  const std::optional<Tuple>& t = r.tuple;
  if (t->size() <= i) return std::nullopt;
  const auto* v = (*t)[i].get<std::int64_t>();
  return v ? std::optional<std::int64_t>(*v) : std::nullopt;
}

}  // namespace

Space::Space(std::string_view name) : prefix_(pack(Tuple{std::string(name)})) {}
Space::Space(std::string_view name, std::string_view child)
    : prefix_(pack(Tuple{std::string(name), std::string(child)})) {}

KeyRange Space::range() const {
  return KeyRange{prefix_ + '\0', prefix_ + '\xff'};
}

KeyRange Space::range_of(std::int64_t first) const {
  Bytes p = key(first);
  return KeyRange{p + '\0', p + '\xff'};
}

Bytes Space::key(std::int64_t a) const {
  return prefix_ + pack(Tuple{a});
}
Bytes Space::key(std::int64_t a, BytesView random) const {
  return prefix_ + pack(Tuple{a, bytes_element(random)});
}
Bytes Space::key(std::int64_t a, std::int64_t b, BytesView random) const {
  return prefix_ + pack(Tuple{a, b, bytes_element(random)});
}
Bytes Space::key(BytesView bytes) const {
  return prefix_ + pack(Tuple{bytes_element(bytes)});
}

Bytes Space::versionstamped_key() const {
  std::string error;
  auto packed = pack_with_versionstamp(Tuple{Versionstamp::incomplete(0)}, error);
  // The offset counts from the start of the tuple: shift it past the prefix.
  Bytes tail = *packed;
  std::uint32_t offset = 0;
  for (int i = 3; i >= 0; --i)
    offset = (offset << 8) |
             static_cast<std::uint8_t>(tail[tail.size() - 4 + static_cast<std::size_t>(i)]);
  offset += static_cast<std::uint32_t>(prefix_.size());
  tail.resize(tail.size() - 4);
  Bytes out = prefix_ + tail;
  for (int i = 0; i < 4; ++i)
    out.push_back(static_cast<char>((offset >> (8 * i)) & 0xff));
  return out;
}

std::optional<std::int64_t> Space::first_int(BytesView key) const {
  return int_at(prefix_, key, 0);
}
std::optional<std::int64_t> Space::second_int(BytesView key) const {
  return int_at(prefix_, key, 1);
}

std::optional<Bytes> Space::last_bytes(BytesView key) const {
  auto t = unpack_in(prefix_, key);
  if (!t || t->size() == 0) return std::nullopt;
  const auto* b = t->items.back().get<TupleBytes>();
  return b ? std::optional<Bytes>(b->bytes) : std::nullopt;
}

Bytes encode_value(std::string_view value) {
  return pack(Tuple{std::string(value)});
}

std::optional<std::string> decode_value(BytesView bytes) {
  UnpackResult r = unpack(bytes);
  if (!r.ok() || r.tuple->size() != 1) return std::nullopt;
  const auto* s = (*r.tuple)[0].get<std::string>();
  return s ? std::optional<std::string>(*s) : std::nullopt;
}

Bytes encode_item(std::string_view value, std::int64_t priority) {
  return pack(Tuple{std::string(value), priority});
}

std::optional<DecodedItem> decode_item(BytesView bytes) {
  UnpackResult r = unpack(bytes);
  if (!r.ok() || r.tuple->size() != 2) return std::nullopt;
  const auto* s = (*r.tuple)[0].get<std::string>();
  const auto* p = (*r.tuple)[1].get<std::int64_t>();
  if (s == nullptr || p == nullptr) return std::nullopt;
  return DecodedItem{*s, *p};
}

}  // namespace contend::keys
