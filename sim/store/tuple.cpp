#include "sim/store/tuple.h"

#include <cstdio>
#include <cstring>

#include "base/invariant.h"
#include "sim/store/mutants.h"

namespace contend {

namespace {

enum Code : std::uint8_t {
  kNull = 0x00,
  kBytes = 0x01,
  kString = 0x02,
  kNested = 0x05,
  kNegLong = 0x0b,
  kIntZero = 0x14,
  kPosLong = 0x1d,
  kFloat = 0x20,
  kDouble = 0x21,
  kFalse = 0x26,
  kTrue = 0x27,
  kUuid = 0x30,
  kVersionstamp = 0x33,
  kEscape = 0xff,
};

template <class T, class U>
T bit_cast(const U& u) {
  static_assert(sizeof(T) == sizeof(U));
  T t;
  std::memcpy(&t, &u, sizeof(T));
  return t;
}

void append_escaped(Bytes& out, std::uint8_t code, BytesView payload) {
  out.reserve(out.size() + payload.size() + 2);
  out.push_back(static_cast<char>(code));
  // Runs up to each zero byte are copied whole; the zero is followed by its escape.
  for (std::size_t zero = payload.find('\0'); zero != BytesView::npos; zero = payload.find('\0')) {
    out.append(payload.substr(0, zero + 1));
    out.push_back(static_cast<char>(kEscape));
    payload.remove_prefix(zero + 1);
  }
  out.append(payload);
  out.push_back('\0');
}

void append_big_endian(Bytes& out, std::uint64_t v, int n) {
  for (int i = n - 1; i >= 0; --i)
    out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

int byte_length(std::uint64_t v) {
  int n = 0;
  for (; v != 0; v >>= 8)
    ++n;
  return n;
}

void append_int(Bytes& out, std::int64_t v) {
  if (v == 0) {
    out.push_back(static_cast<char>(kIntZero));
    return;
  }
  if (v > 0) {
    auto u = static_cast<std::uint64_t>(v);
    int n = byte_length(u);
    out.push_back(static_cast<char>(kIntZero + n));
    append_big_endian(out, u, n);
    return;
  }
  std::uint64_t magnitude = ~static_cast<std::uint64_t>(v) + 1;
  int n = byte_length(magnitude);
  std::uint64_t max = n == 8 ? ~0ULL : (1ULL << (8 * n)) - 1;
  out.push_back(static_cast<char>(kIntZero - n));
  append_big_endian(out, CONTEND_MUTANT(20) ? magnitude : max - magnitude, n);
}

void append_uint(Bytes& out, std::uint64_t v) {
  int n = byte_length(v);
  out.push_back(static_cast<char>(kIntZero + n));
  append_big_endian(out, v, n);
}

// IEEE floats: big-endian, sign bit flipped for positives, every bit flipped for negatives.
std::uint64_t order_bits(std::uint64_t bits, int width) {
  const std::uint64_t sign = 1ULL << (width - 1);
  const std::uint64_t all = width == 64 ? ~0ULL : (1ULL << width) - 1;
  return (bits & sign) ? (~bits & all) : (bits | sign);
}
std::uint64_t unorder_bits(std::uint64_t bits, int width) {
  const std::uint64_t sign = 1ULL << (width - 1);
  const std::uint64_t all = width == 64 ? ~0ULL : (1ULL << width) - 1;
  return (bits & sign) ? (bits & ~sign) : (~bits & all);
}

void pack_into(Bytes& out, const Tuple& t, bool nested);

void pack_element(Bytes& out, const TupleElement& e, bool nested) {
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, TupleNull>) {
          out.push_back(static_cast<char>(kNull));
          if (nested) out.push_back(static_cast<char>(kEscape));
        } else if constexpr (std::is_same_v<T, TupleBytes>) {
          append_escaped(out, kBytes, v.bytes);
        } else if constexpr (std::is_same_v<T, std::string>) {
          append_escaped(out, kString, v);
        } else if constexpr (std::is_same_v<T, Tuple>) {
          out.push_back(static_cast<char>(kNested));
          pack_into(out, v, true);
          out.push_back('\0');
        } else if constexpr (std::is_same_v<T, std::int64_t>) {
          append_int(out, v);
        } else if constexpr (std::is_same_v<T, std::uint64_t>) {
          append_uint(out, v);
        } else if constexpr (std::is_same_v<T, float>) {
          out.push_back(static_cast<char>(kFloat));
          append_big_endian(out, order_bits(bit_cast<std::uint32_t>(v), 32), 4);
        } else if constexpr (std::is_same_v<T, double>) {
          out.push_back(static_cast<char>(kDouble));
          append_big_endian(out, order_bits(bit_cast<std::uint64_t>(v), 64), 8);
        } else if constexpr (std::is_same_v<T, bool>) {
          out.push_back(static_cast<char>(v ? kTrue : kFalse));
        } else if constexpr (std::is_same_v<T, Uuid>) {
          out.push_back(static_cast<char>(kUuid));
          out.append(reinterpret_cast<const char*>(v.bytes.data()), v.bytes.size());
        } else if constexpr (std::is_same_v<T, Versionstamp>) {
          out.push_back(static_cast<char>(kVersionstamp));
          out.append(reinterpret_cast<const char*>(v.transaction.data()), v.transaction.size());
          append_big_endian(out, v.user_version, 2);
        }
      },
      e.value);
}

void pack_into(Bytes& out, const Tuple& t, bool nested) {
  for (const TupleElement& e : t.items)
    pack_element(out, e, nested);
}

// ---- unpacking ----

class Reader {
 public:
  explicit Reader(BytesView in, std::size_t pos = 0) : in_(in), pos_(pos) {}
  std::optional<Tuple> read_top_level();
  bool read_element(TupleElement& e, bool nested);
  std::size_t position() const { return pos_; }
  const TupleError& error() const { return error_; }

 private:
  bool fail(std::size_t offset, std::string message) {
    if (!failed_) error_ = TupleError{offset, std::move(message)};
    failed_ = true;
    return false;
  }
  bool need(std::size_t n, const char* what, std::size_t start) {
    if (in_.size() - pos_ >= n) return true;
    return fail(start, std::string("truncated ") + what + ": needs " + std::to_string(n) +
                           " more byte(s), " + std::to_string(in_.size() - pos_) + " left");
  }
  std::uint8_t byte_at(std::size_t i) const { return static_cast<std::uint8_t>(in_[i]); }
  std::uint64_t read_big_endian(int n) {
    std::uint64_t v = 0;
    for (int i = 0; i < n; ++i)
      v = (v << 8) | byte_at(pos_++);
    return v;
  }
  bool read_escaped(Bytes& out, std::size_t start, const char* what);
  bool read_integer(TupleElement& e, std::uint8_t code, std::size_t start);
  bool read_long_integer(TupleElement& e, std::uint8_t code, std::size_t start);
  // The nested tuple whose 0x05 is at `start` (pos_ just past it), nested ones included, with an
  // explicit stack: the native stack stays flat however deep the nesting.
  bool read_nested(TupleElement& e, std::size_t start);

  BytesView in_;
  std::size_t pos_ = 0;
  TupleError error_;
  bool failed_ = false;
};

bool valid_utf8(BytesView s) {
  static const std::uint32_t kMinimum[] = {0, 0x80, 0x800, 0x10000};
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<std::uint8_t>(s[i]);
    int n = 0;
    std::uint32_t cp = c;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xe0) == 0xc0) {
      n = 1, cp = c & 0x1f;
    } else if ((c & 0xf0) == 0xe0) {
      n = 2, cp = c & 0x0f;
    } else if ((c & 0xf8) == 0xf0) {
      n = 3, cp = c & 0x07;
    } else {
      return false;
    }
    if (i + static_cast<std::size_t>(n) >= s.size()) return false;
    for (int k = 1; k <= n; ++k) {
      const auto cc = static_cast<std::uint8_t>(s[i + static_cast<std::size_t>(k)]);
      if ((cc & 0xc0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3f);
    }
    if (cp < kMinimum[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += static_cast<std::size_t>(n) + 1;
  }
  return true;
}

bool Reader::read_escaped(Bytes& out, std::size_t start, const char* what) {
  // Runs up to each zero byte are copied whole; a zero is escaped (0x00 0xff) or the terminator.
  for (std::size_t zero = in_.find('\0', pos_); zero != BytesView::npos;
       zero = in_.find('\0', pos_)) {
    out.append(in_.substr(pos_, zero - pos_));
    pos_ = zero + 1;
    if (pos_ == in_.size() || byte_at(pos_) != kEscape) return true;
    out.push_back('\0');
    ++pos_;
  }
  pos_ = in_.size();
  return fail(start, std::string("unterminated ") + what + ": no 0x00 terminator");
}

bool Reader::read_integer(TupleElement& e, std::uint8_t code, std::size_t start) {
  const int n = code >= kIntZero ? code - kIntZero : kIntZero - code;
  if (!need(static_cast<std::size_t>(n), "integer", start)) return false;
  std::uint64_t payload = read_big_endian(n);
  if (code >= kIntZero) {
    e = TupleElement(payload);
    return true;
  }
  std::uint64_t max = n == 8 ? ~0ULL : (1ULL << (8 * n)) - 1;
  std::uint64_t magnitude = max - payload;
  if (magnitude > (1ULL << 63)) return fail(start, "negative integer below the int64 range");
  e = TupleElement(static_cast<std::int64_t>(~magnitude + 1));
  return true;
}

bool Reader::read_long_integer(TupleElement& e, std::uint8_t code, std::size_t start) {
  if (!need(1, "integer length", start)) return false;
  std::uint8_t length = byte_at(pos_++);
  if (code == kNegLong) length ^= 0xff;
  if (length > 8) {
    return fail(start, "integer of " + std::to_string(length) + " bytes is wider than 64 bits");
  }
  if (!need(length, "integer", start)) return false;
  std::uint64_t payload = read_big_endian(length);
  if (code == kPosLong) {
    e = TupleElement(payload);
    return true;
  }
  std::uint64_t max = length == 8 ? ~0ULL : (1ULL << (8 * length)) - 1;
  std::uint64_t magnitude = max - payload;
  if (magnitude > (1ULL << 63)) return fail(start, "negative integer below the int64 range");
  e = TupleElement(static_cast<std::int64_t>(~magnitude + 1));
  return true;
}

bool Reader::read_element(TupleElement& e, bool nested) {
  const std::size_t start = pos_;
  const std::uint8_t code = byte_at(pos_++);
  switch (code) {
    case kNull:
      if (nested) ++pos_;  // the 0xff of 00 ff (the caller checked it)
      e = TupleElement(TupleNull{});
      return true;
    case kBytes:
    case kString: {
      Bytes payload;
      if (!read_escaped(payload, start, code == kBytes ? "byte string" : "string")) return false;
      if (code == kBytes) {
        e = TupleElement(TupleBytes{std::move(payload)});
        return true;
      }
      if (!valid_utf8(payload)) return fail(start, "invalid UTF-8 in a unicode string");
      e = TupleElement(std::move(payload));
      return true;
    }
    case kNested:
      return read_nested(e, start);
    case kNegLong:
    case kPosLong:
      return read_long_integer(e, code, start);
    case kFloat:
      if (!need(4, "float", start)) return false;
      e = TupleElement(
          bit_cast<float>(static_cast<std::uint32_t>(unorder_bits(read_big_endian(4), 32))));
      return true;
    case kDouble:
      if (!need(8, "double", start)) return false;
      e = TupleElement(bit_cast<double>(unorder_bits(read_big_endian(8), 64)));
      return true;
    case kFalse:
      e = TupleElement(false);
      return true;
    case kTrue:
      e = TupleElement(true);
      return true;
    case kUuid: {
      if (!need(16, "UUID", start)) return false;
      Uuid u;
      std::memcpy(u.bytes.data(), in_.data() + pos_, 16);
      pos_ += 16;
      e = TupleElement(u);
      return true;
    }
    case kVersionstamp: {
      if (!need(12, "versionstamp", start)) return false;
      Versionstamp v;
      std::memcpy(v.transaction.data(), in_.data() + pos_, 10);
      pos_ += 10;
      v.user_version = static_cast<std::uint16_t>(read_big_endian(2));
      e = TupleElement(v);
      return true;
    }
    default:
      if (code >= 0x0c && code <= 0x1c) return read_integer(e, code, start);
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02x", code);
      return fail(start,
                  std::string("unknown type code ") + hex +
                      (code == kEscape ? " (0xff is the escape byte, never a type code)" : ""));
  }
}

bool Reader::read_nested(TupleElement& e, std::size_t start) {
  struct Open {
    Tuple tuple;
    std::size_t start;  // offset of its 0x05
  };
  std::vector<Open> open;
  open.push_back(Open{Tuple{}, start});
  while (true) {
    CONTEND_ASSERT(!open.empty() && open.size() <= kMaxTupleDepth, "the open nested tuples");
    if (pos_ >= in_.size()) {
      return fail(open.back().start, "unterminated nested tuple: no 0x00 terminator");
    }
    const std::uint8_t code = byte_at(pos_);
    if (code == kNull && !(pos_ + 1 < in_.size() && byte_at(pos_ + 1) == kEscape)) {
      ++pos_;  // the end of the innermost open tuple
      Tuple done = std::move(open.back().tuple);
      open.pop_back();
      if (open.empty()) {
        e = TupleElement(std::move(done));
        return true;
      }
      open.back().tuple.items.emplace_back(std::move(done));
      continue;
    }
    if (code == kNested) {
      if (open.size() == kMaxTupleDepth) {
        return fail(pos_,
                    "nested tuples deeper than " + std::to_string(kMaxTupleDepth) + " levels");
      }
      open.push_back(Open{Tuple{}, pos_});
      ++pos_;
      continue;
    }
    TupleElement inner;  // not a nested tuple: read_element does not come back here
    if (!read_element(inner, true)) return false;
    open.back().tuple.items.push_back(std::move(inner));
  }
}

std::optional<Tuple> Reader::read_top_level() {
  Tuple t;
  while (pos_ < in_.size()) {
    TupleElement e;
    if (!read_element(e, false)) return std::nullopt;
    t.items.push_back(std::move(e));
  }
  return t;
}

// Order of element kinds (by type code), with all integers one kind.
int kind_rank(const TupleElement& e) {
  switch (e.value.index()) {
    case 0:
      return 0;  // null
    case 1:
      return 1;  // bytes
    case 2:
      return 2;  // string
    case 3:
      return 5;  // nested
    case 4:
    case 5:
      return 20;  // integers
    case 6:
      return 32;  // float
    case 7:
      return 33;  // double
    case 8:
      return std::get<bool>(e.value) ? 39 : 38;
    case 9:
      return 48;  // uuid
    case 10:
      return 51;  // versionstamp
  }
  return 0;
}

template <class T>
int three_way(const T& a, const T& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

int compare_integers(const TupleElement& a, const TupleElement& b) {
  auto as_pair = [](const TupleElement& e) -> std::pair<int, std::uint64_t> {
    if (const auto* u = e.get<std::uint64_t>()) return {1, *u};
    std::int64_t v = *e.get<std::int64_t>();
    // Map int64 onto an order-preserving unsigned scale: negatives below non-negatives.
    return {v < 0 ? -1 : 0, static_cast<std::uint64_t>(v) ^ (1ULL << 63)};
  };
  auto [ga, va] = as_pair(a);
  auto [gb, vb] = as_pair(b);
  if (ga == 1 && gb == 1) return three_way(va, vb);
  if (ga == 1) return 1;
  if (gb == 1) return -1;
  return three_way(va, vb);
}

int compare_elements(const TupleElement& a, const TupleElement& b) {
  int ra = kind_rank(a), rb = kind_rank(b);
  if (ra != rb) return three_way(ra, rb);
  switch (ra) {
    case 1:
      return three_way(a.get<TupleBytes>()->bytes, b.get<TupleBytes>()->bytes);
    case 2:
      return three_way(*a.get<std::string>(), *b.get<std::string>());
    case 5:
      return compare(*a.get<Tuple>(), *b.get<Tuple>());
    case 20:
      return compare_integers(a, b);
    case 32:
      return three_way(order_bits(bit_cast<std::uint32_t>(*a.get<float>()), 32),
                       order_bits(bit_cast<std::uint32_t>(*b.get<float>()), 32));
    case 33:
      return three_way(order_bits(bit_cast<std::uint64_t>(*a.get<double>()), 64),
                       order_bits(bit_cast<std::uint64_t>(*b.get<double>()), 64));
    case 48:
      return three_way(a.get<Uuid>()->bytes, b.get<Uuid>()->bytes);
    case 51: {
      const auto* x = a.get<Versionstamp>();
      const auto* y = b.get<Versionstamp>();
      int c = three_way(x->transaction, y->transaction);
      return c != 0 ? c : three_way(x->user_version, y->user_version);
    }
    default:
      return 0;  // null, false, true
  }
}

}  // namespace

Versionstamp Versionstamp::incomplete(std::uint16_t user_version) {
  Versionstamp v;
  v.transaction.fill(0xff);
  v.user_version = user_version;
  return v;
}

bool Versionstamp::complete() const {
  for (std::uint8_t b : transaction) {
    if (b != 0xff) return true;
  }
  return false;
}

Tuple::Tuple(std::initializer_list<TupleElement> elements) : items(elements) {}

TupleElement::TupleElement(std::uint64_t v) {
  if (v <= static_cast<std::uint64_t>(INT64_MAX)) {
    value = static_cast<std::int64_t>(v);
  } else {
    value = v;
  }
}

bool operator==(const TupleElement& a, const TupleElement& b) {
  if (a.value.index() != b.value.index()) return false;
  if (const auto* f = a.get<float>())
    return bit_cast<std::uint32_t>(*f) == bit_cast<std::uint32_t>(*b.get<float>());
  if (const auto* d = a.get<double>())
    return bit_cast<std::uint64_t>(*d) == bit_cast<std::uint64_t>(*b.get<double>());
  return a.value == b.value;
}

bool operator==(const Tuple& a, const Tuple& b) {
  return a.items == b.items;
}

std::string TupleError::to_string() const {
  return "byte " + std::to_string(offset) + ": " + message;
}

void pack_int(Bytes& out, std::int64_t value) {
  append_int(out, value);
}
void pack_bytes(Bytes& out, BytesView bytes) {
  append_escaped(out, kBytes, bytes);
}
void pack_string(Bytes& out, std::string_view text) {
  append_escaped(out, kString, text);
}

Bytes pack(const Tuple& tuple) {
  Bytes out;
  pack_into(out, tuple, false);
  return out;
}

UnpackResult unpack(BytesView bytes) {
  Reader reader(bytes);
  UnpackResult result;
  result.tuple = reader.read_top_level();
  if (!result.tuple) result.error = reader.error();
  return result;
}

std::optional<TupleElement> unpack_element(BytesView bytes, std::size_t& pos) {
  if (pos >= bytes.size()) return std::nullopt;
  Reader reader(bytes, pos);
  TupleElement e;
  if (!reader.read_element(e, false)) return std::nullopt;
  pos = reader.position();
  return e;
}

namespace {
// Offsets (in the packed bytes) of the transaction bytes of every incomplete versionstamp.
void find_incomplete(const Tuple& t, Bytes& out, std::vector<std::size_t>& offsets, bool nested) {
  for (const TupleElement& e : t.items) {
    if (const auto* v = e.get<Versionstamp>(); v != nullptr && !v->complete()) {
      offsets.push_back(out.size() + 1);
    }
    if (const auto* inner = e.get<Tuple>()) {
      out.push_back(static_cast<char>(kNested));
      find_incomplete(*inner, out, offsets, true);
      out.push_back('\0');
      continue;
    }
    pack_element(out, e, nested);
  }
}
}  // namespace

std::optional<Bytes> pack_with_versionstamp(const Tuple& tuple, std::string& error) {
  Bytes out;
  std::vector<std::size_t> offsets;
  find_incomplete(tuple, out, offsets, false);
  if (offsets.size() != 1) {
    error = offsets.empty() ? "no incomplete versionstamp in the tuple"
                            : "more than one incomplete versionstamp in the tuple";
    return std::nullopt;
  }
  auto offset = static_cast<std::uint32_t>(offsets[0]);
  for (int i = 0; i < 4; ++i)
    out.push_back(static_cast<char>((offset >> (8 * i)) & 0xff));
  return out;
}

int compare(const Tuple& a, const Tuple& b) {
  const std::size_t n = std::min(a.items.size(), b.items.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (int c = compare_elements(a.items[i], b.items[i]); c != 0) return c;
  }
  return three_way(a.items.size(), b.items.size());
}

namespace {
void append_text(std::string& out, const Tuple& t);

void append_text(std::string& out, const TupleElement& e) {
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, TupleNull>) {
          out += "None";
        } else if constexpr (std::is_same_v<T, TupleBytes>) {
          out += "b'" + to_hex(v.bytes) + "'";
        } else if constexpr (std::is_same_v<T, std::string>) {
          out += "\"" + printable(v) + "\"";
        } else if constexpr (std::is_same_v<T, Tuple>) {
          append_text(out, v);
        } else if constexpr (std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::uint64_t>) {
          out += std::to_string(v);
        } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
          char text[32];
          std::snprintf(text, sizeof text, "%.17g", static_cast<double>(v));
          out += text;
        } else if constexpr (std::is_same_v<T, bool>) {
          out += v ? "True" : "False";
        } else if constexpr (std::is_same_v<T, Uuid>) {
          out += "UUID('" + to_hex(BytesView(reinterpret_cast<const char*>(v.bytes.data()), 16)) +
                 "')";
        } else if constexpr (std::is_same_v<T, Versionstamp>) {
          out += "Versionstamp('" +
                 to_hex(BytesView(reinterpret_cast<const char*>(v.transaction.data()), 10)) +
                 "', " + std::to_string(v.user_version) + ")";
        }
      },
      e.value);
}

void append_text(std::string& out, const Tuple& t) {
  out += '(';
  for (std::size_t i = 0; i < t.items.size(); ++i) {
    if (i > 0) out += ", ";
    append_text(out, t.items[i]);
  }
  out += t.items.size() == 1 ? ",)" : ")";
}
}  // namespace

std::string to_string(const Tuple& tuple) {
  std::string out;
  append_text(out, tuple);
  return out;
}

std::string describe_key(BytesView key) {
  UnpackResult r = unpack(key);
  if (r.ok()) return to_string(*r.tuple);
  return "not a tuple: " + r.error.to_string();
}

}  // namespace contend
