// Recipe keys in FoundationDB tuple encoding (design/tuple.md): strings (0x02), bytes (0x01),
// integers (0x0c..0x1c) and the 96-bit versionstamp (0x33).
#include "sim/recipes/keys.h"

#include <cstring>

namespace contend::keys {

namespace {

void append_escaped(Bytes& out, char code, BytesView payload) {
  out.push_back(code);
  for (char c : payload) {
    out.push_back(c);
    if (c == '\0') out.push_back('\xff');
  }
  out.push_back('\0');
}

void append_int(Bytes& out, std::int64_t v) {
  if (v == 0) {
    out.push_back('\x14');
    return;
  }
  std::uint64_t magnitude = v > 0 ? static_cast<std::uint64_t>(v)
                                  : ~static_cast<std::uint64_t>(v) + 1;  // |v| without overflow
  int n = 0;
  for (std::uint64_t m = magnitude; m != 0; m >>= 8) ++n;
  std::uint64_t payload = v > 0 ? magnitude : (n == 8 ? ~magnitude : ((1ULL << (8 * n)) - 1) - magnitude);
  out.push_back(static_cast<char>(v > 0 ? 0x14 + n : 0x14 - n));
  for (int i = n - 1; i >= 0; --i) out.push_back(static_cast<char>((payload >> (8 * i)) & 0xff));
}

// Reads one element at `pos`; returns false on anything but the types recipes write.
struct Element {
  enum class Kind { integer, bytes, string, versionstamp } kind;
  std::int64_t integer = 0;
  Bytes bytes;
};

bool read_escaped(BytesView in, std::size_t& pos, Bytes& out) {
  while (pos < in.size()) {
    char c = in[pos++];
    if (c != '\0') {
      out.push_back(c);
      continue;
    }
    if (pos < in.size() && in[pos] == '\xff') {
      out.push_back('\0');
      ++pos;
      continue;
    }
    return true;
  }
  return false;  // unterminated
}

bool read_element(BytesView in, std::size_t& pos, Element& e) {
  if (pos >= in.size()) return false;
  auto code = static_cast<unsigned char>(in[pos++]);
  if (code == 0x01 || code == 0x02) {
    e.kind = code == 0x01 ? Element::Kind::bytes : Element::Kind::string;
    return read_escaped(in, pos, e.bytes);
  }
  if (code >= 0x0c && code <= 0x1c) {
    int n = code >= 0x14 ? code - 0x14 : 0x14 - code;
    if (pos + static_cast<std::size_t>(n) > in.size()) return false;
    std::uint64_t payload = 0;
    for (int i = 0; i < n; ++i) payload = (payload << 8) | static_cast<unsigned char>(in[pos++]);
    e.kind = Element::Kind::integer;
    if (code >= 0x14) {
      if (payload > static_cast<std::uint64_t>(INT64_MAX)) return false;
      e.integer = static_cast<std::int64_t>(payload);
    } else {
      std::uint64_t max = n == 8 ? ~0ULL : (1ULL << (8 * n)) - 1;
      std::uint64_t magnitude = max - payload;
      if (magnitude > static_cast<std::uint64_t>(INT64_MAX) + 1) return false;
      e.integer = static_cast<std::int64_t>(~magnitude + 1);
    }
    return true;
  }
  if (code == 0x33) {
    if (pos + 12 > in.size()) return false;
    e.kind = Element::Kind::versionstamp;
    e.bytes.assign(in.substr(pos, 12));
    pos += 12;
    return true;
  }
  return false;
}

std::optional<Element> nth(BytesView key, const Bytes& prefix, int index) {
  if (key.substr(0, prefix.size()) != BytesView(prefix)) return std::nullopt;
  std::size_t pos = prefix.size();
  for (int i = 0;; ++i) {
    Element e;
    if (!read_element(key, pos, e)) return std::nullopt;
    if (i == index) return e;
  }
}

}  // namespace

Space::Space(std::string_view name) { append_escaped(prefix_, '\x02', name); }
Space::Space(std::string_view name, std::string_view child) : Space(name) {
  append_escaped(prefix_, '\x02', child);
}

KeyRange Space::range() const { return KeyRange{prefix_ + '\0', prefix_ + '\xff'}; }

KeyRange Space::range_of(std::int64_t first) const {
  Bytes p = prefix_;
  append_int(p, first);
  return KeyRange{p + '\0', p + '\xff'};
}

Bytes Space::key(std::int64_t a) const {
  Bytes k = prefix_;
  append_int(k, a);
  return k;
}

Bytes Space::key(std::int64_t a, BytesView random) const {
  Bytes k = key(a);
  append_escaped(k, '\x01', random);
  return k;
}

Bytes Space::key(std::int64_t a, std::int64_t b, BytesView random) const {
  Bytes k = key(a);
  append_int(k, b);
  append_escaped(k, '\x01', random);
  return k;
}

Bytes Space::key(BytesView bytes) const {
  Bytes k = prefix_;
  append_escaped(k, '\x01', bytes);
  return k;
}

Bytes Space::versionstamped_key() const {
  Bytes k = prefix_;
  k.push_back('\x33');
  const auto offset = static_cast<std::uint32_t>(k.size());
  k.append(10, '\xff');
  k.append(2, '\0');
  for (int i = 0; i < 4; ++i) k.push_back(static_cast<char>((offset >> (8 * i)) & 0xff));
  return k;
}

std::optional<std::int64_t> Space::first_int(BytesView key) const {
  auto e = nth(key, prefix_, 0);
  if (!e || e->kind != Element::Kind::integer) return std::nullopt;
  return e->integer;
}

std::optional<std::int64_t> Space::second_int(BytesView key) const {
  auto e = nth(key, prefix_, 1);
  if (!e || e->kind != Element::Kind::integer) return std::nullopt;
  return e->integer;
}

std::optional<Bytes> Space::last_bytes(BytesView key) const {
  if (key.substr(0, prefix_.size()) != BytesView(prefix_)) return std::nullopt;
  std::size_t pos = prefix_.size();
  std::optional<Bytes> last;
  while (pos < key.size()) {
    Element e;
    if (!read_element(key, pos, e)) return std::nullopt;
    if (e.kind == Element::Kind::bytes) last = e.bytes;
  }
  return last;
}

Bytes encode_value(std::string_view value) {
  Bytes out;
  append_escaped(out, '\x02', value);
  return out;
}

std::optional<std::string> decode_value(BytesView bytes) {
  std::size_t pos = 0;
  Element e;
  if (!read_element(bytes, pos, e) || e.kind != Element::Kind::string || pos != bytes.size()) {
    return std::nullopt;
  }
  return e.bytes;
}

Bytes encode_item(std::string_view value, std::int64_t priority) {
  Bytes out = encode_value(value);
  append_int(out, priority);
  return out;
}

std::optional<DecodedItem> decode_item(BytesView bytes) {
  std::size_t pos = 0;
  Element value, priority;
  if (!read_element(bytes, pos, value) || value.kind != Element::Kind::string) return std::nullopt;
  if (!read_element(bytes, pos, priority) || priority.kind != Element::Kind::integer) {
    return std::nullopt;
  }
  if (pos != bytes.size()) return std::nullopt;
  return DecodedItem{value.bytes, priority.integer};
}

}  // namespace contend::keys
