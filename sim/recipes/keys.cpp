// Recipe keys through the tuple layer: every byte is FoundationDB's tuple encoding.
#include "sim/recipes/keys.h"

#include "base/invariant.h"
#include "base/simulator_fault.h"
#include "sim/store/subspace.h"
#include "sim/store/tuple.h"

namespace contend::keys {

namespace {

std::optional<std::int64_t> int_at(const Bytes& prefix, BytesView key, std::size_t i) {
  if (key.substr(0, prefix.size()) != BytesView(prefix)) return std::nullopt;
  std::size_t pos = prefix.size();
  for (std::size_t skipped = 0; skipped < i; ++skipped) {
    if (!unpack_element(key, pos)) return std::nullopt;
  }
  const std::optional<TupleElement> e = unpack_element(key, pos);
  const auto* v = e ? e->get<std::int64_t>() : nullptr;
  return v ? std::optional<std::int64_t>(*v) : std::nullopt;
}

}  // namespace

Space::Space(std::string_view name)
    : prefix_(pack(Tuple{std::string(name)})), range_{prefix_ + '\0', prefix_ + '\xff'} {}
Space::Space(std::string_view name, std::string_view child)
    : prefix_(pack(Tuple{std::string(name), std::string(child)})),
      range_{prefix_ + '\0', prefix_ + '\xff'} {}

KeyRange Space::range_of(std::int64_t first) const {
  Bytes p = key(first);
  return KeyRange{p + '\0', p + '\xff'};
}

// Keys are packed element by element (the tuple layer's own encoders) into one buffer sized
// for the typical key: no Tuple is built, and at most one allocation is made.
Bytes Space::start_key(std::size_t payload_bytes) const {
  Bytes out;
  out.reserve(prefix_.size() + payload_bytes);
  out.append(prefix_);
  return out;
}

Bytes Space::key(std::int64_t a) const {
  Bytes out = start_key(10);
  pack_int(out, a);
  return out;
}
Bytes Space::key(std::int64_t a, BytesView random) const {
  Bytes out = start_key(12 + random.size());
  pack_int(out, a);
  pack_bytes(out, random);
  CONTEND_DEBUG_ASSERT(first_int(out) == a, "a key decodes to the index it was made with");
  return out;
}
Bytes Space::key(std::int64_t a, std::int64_t b) const {
  Bytes out = start_key(20);
  pack_int(out, a);
  pack_int(out, b);
  return out;
}
Bytes Space::key(std::int64_t a, std::int64_t b, BytesView random) const {
  Bytes out = start_key(22 + random.size());
  pack_int(out, a);
  pack_int(out, b);
  pack_bytes(out, random);
  CONTEND_DEBUG_ASSERT(first_int(out) == a && second_int(out) == b,
                       "a key decodes to the numbers it was made with");
  return out;
}
Bytes Space::key(BytesView bytes) const {
  Bytes out = start_key(4 + bytes.size());
  pack_bytes(out, bytes);
  return out;
}

Bytes Space::versionstamped_key() const {
  return versionstamped(Tuple{Versionstamp::incomplete(0)});
}

Bytes Space::versionstamped_key(std::int64_t a) const {
  return versionstamped(Tuple{TupleElement{a}, TupleElement{Versionstamp::incomplete(0)}});
}

Bytes Space::versionstamped(const Tuple& with_stamp) const {
  std::string error;
  auto packed = pack_with_versionstamp(with_stamp, error);
  CONTEND_ASSERT(packed.has_value() && packed->size() > 4, "one incomplete versionstamp packs");
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
  CONTEND_ASSERT(offset + 10 <= out.size() - 4, "the versionstamp lies inside the key");
  return out;
}

std::optional<std::int64_t> Space::first_int(BytesView key) const {
  return int_at(prefix_, key, 0);
}
std::optional<std::int64_t> Space::second_int(BytesView key) const {
  return int_at(prefix_, key, 1);
}

std::optional<Bytes> Space::last_bytes(BytesView key) const {
  if (key.substr(0, prefix_.size()) != BytesView(prefix_)) return std::nullopt;
  // Element by element (no Tuple): every one must decode, and the last must be a byte string.
  std::size_t pos = prefix_.size();
  std::optional<TupleElement> last;
  while (pos < key.size()) {
    last = unpack_element(key, pos);
    if (!last) return std::nullopt;
  }
  auto* b = last ? std::get_if<TupleBytes>(&last->value) : nullptr;
  return b ? std::optional<Bytes>(std::move(b->bytes)) : std::nullopt;
}

void decode_fault(std::string_view what, BytesView key, std::string_view problem) {
  throw SimulatorFault("simulator fault: " + std::string(what) + ": key " + to_hex(key) + " = " +
                       describe_key(key) + ": " + std::string(problem));
}

std::int64_t Space::require_first_int(BytesView key, std::string_view what) const {
  if (auto v = first_int(key)) return *v;
  decode_fault(what, key, "no integer first element under the subspace " + to_hex(prefix_));
}
std::int64_t Space::require_second_int(BytesView key, std::string_view what) const {
  if (auto v = second_int(key)) return *v;
  decode_fault(what, key, "no integer second element under the subspace " + to_hex(prefix_));
}
Bytes Space::require_last_bytes(BytesView key, std::string_view what) const {
  if (auto v = last_bytes(key)) return std::move(*v);
  decode_fault(what, key, "no byte-string last element under the subspace " + to_hex(prefix_));
}

Bytes encode_value(std::string_view value) {
  Bytes out;
  out.reserve(value.size() + 4);
  pack_string(out, value);
  return out;
}

namespace {
// Whether `bytes` is a tuple holding one ASCII string with no zero byte (0x02, text, 0x00): the
// items every workload writes, decoded without the general element reader.
bool is_plain_ascii_string(BytesView bytes) {
  if (bytes.size() < 2 || bytes.front() != '\x02' || bytes.back() != '\0') return false;
  for (std::size_t i = 1; i + 1 < bytes.size(); ++i) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    if (c == 0 || c >= 0x80) return false;
  }
  return true;
}
}  // namespace

std::optional<std::string> decode_value(BytesView bytes) {
  if (is_plain_ascii_string(bytes)) {
    CONTEND_DEBUG_ASSERT(bytes.size() >= 2, "a plain string has its type code and terminator");
    return std::string(bytes.substr(1, bytes.size() - 2));
  }
  std::size_t pos = 0;
  std::optional<TupleElement> e = unpack_element(bytes, pos);
  if (!e || pos != bytes.size()) return std::nullopt;  // not exactly one element
  auto* s = std::get_if<std::string>(&e->value);
  return s ? std::optional<std::string>(std::move(*s)) : std::nullopt;
}

Bytes encode_item(std::string_view value, std::int64_t priority) {
  Bytes out;
  out.reserve(value.size() + 14);
  pack_string(out, value);
  pack_int(out, priority);
  return out;
}

std::optional<DecodedItem> decode_item(BytesView bytes) {
  UnpackResult r = unpack(bytes);
  if (!r.ok() || r.tuple->size() != 2) return std::nullopt;
  const auto* s = (*r.tuple)[0].get<std::string>();
  const auto* p = (*r.tuple)[1].get<std::int64_t>();
  if (s == nullptr || p == nullptr) return std::nullopt;
  return DecodedItem{*s, *p};
}

std::string require_value(BytesView key, BytesView value, std::string_view what) {
  if (auto v = decode_value(value)) return std::move(*v);
  decode_fault(what, key, "its value " + to_hex(value) + " is not a tuple of one string");
}

DecodedItem require_item(BytesView key, BytesView value, std::string_view what) {
  if (auto v = decode_item(value)) return std::move(*v);
  decode_fault(what, key, "its value " + to_hex(value) + " is not a tuple (string, integer)");
}

}  // namespace contend::keys
