// The FoundationDB tuple layer (design/tuple.md): byte-compatible packing of typed tuples into
// keys whose byte order is the tuple order, and unpacking that never reads out of bounds.
//
// Supported: null, byte string, unicode string, nested tuple, integers over all of int64 and
// uint64 (codes 0x0c..0x1c; the 0x0b/0x1d forms are read up to 8 bytes and refused beyond),
// float, double, false/true, UUID, 96-bit versionstamp (complete and incomplete).
// Invariants: each integer has exactly one representation (non-negative values that fit int64
// are int64; only larger ones are uint64); unpack(pack(t)) == t, with floats compared bitwise;
// compare(a, b) has the sign of the bytewise comparison of pack(a) and pack(b).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "sim/store/bytes.h"

namespace contend {

struct TupleNull {
  friend bool operator==(const TupleNull&, const TupleNull&) = default;
};
struct TupleBytes {
  Bytes bytes;
  friend bool operator==(const TupleBytes&, const TupleBytes&) = default;
};
struct Uuid {
  std::array<std::uint8_t, 16> bytes{};
  friend bool operator==(const Uuid&, const Uuid&) = default;
};
struct Versionstamp {
  std::array<std::uint8_t, 10> transaction{};  // 8-byte commit version + 2-byte batch order
  std::uint16_t user_version = 0;
  static Versionstamp incomplete(std::uint16_t user_version = 0);
  bool complete() const;
  friend bool operator==(const Versionstamp&, const Versionstamp&) = default;
};

struct TupleElement;

// Nested tuples deeper than this are refused by unpack() (a clear error, not a reader, printer
// or destructor that recurses once per level until the stack runs out). FoundationDB sets no
// limit; no key a recipe writes nests more than a level or two.
inline constexpr std::size_t kMaxTupleDepth = 1000;

struct Tuple {
  std::vector<TupleElement> items;
  Tuple() = default;
  // A tuple whose only element is another tuple is Tuple{TupleElement{inner}}: Tuple{inner} is a
  // copy of `inner` (list-initialization from one element of the class's own type).
  Tuple(std::initializer_list<TupleElement> elements);
  // Defined below TupleElement: vector's size() and operator[] need the complete type.
  std::size_t size() const;
  const TupleElement& operator[](std::size_t i) const;
  friend bool operator==(const Tuple& a, const Tuple& b);
};

struct TupleElement {
  using Value = std::variant<TupleNull, TupleBytes, std::string, Tuple, std::int64_t, std::uint64_t,
                             float, double, bool, Uuid, Versionstamp>;
  Value value;

  TupleElement() : value(TupleNull{}) {}
  TupleElement(TupleNull v) : value(v) {}                       // NOLINT: implicit by design
  TupleElement(TupleBytes v) : value(std::move(v)) {}           // NOLINT
  TupleElement(std::string v) : value(std::move(v)) {}          // NOLINT
  TupleElement(const char* v) : value(std::string(v)) {}        // NOLINT
  TupleElement(Tuple v) : value(std::move(v)) {}                // NOLINT
  TupleElement(std::int64_t v) : value(v) {}                    // NOLINT
  TupleElement(int v) : value(static_cast<std::int64_t>(v)) {}  // NOLINT
  TupleElement(std::uint64_t v);                                // NOLINT: normalises to int64
  TupleElement(float v) : value(v) {}                           // NOLINT
  TupleElement(double v) : value(v) {}                          // NOLINT
  TupleElement(bool v) : value(v) {}                            // NOLINT
  TupleElement(Uuid v) : value(v) {}                            // NOLINT
  TupleElement(Versionstamp v) : value(v) {}                    // NOLINT

  template <class T>
  const T* get() const {
    return std::get_if<T>(&value);
  }
  friend bool operator==(const TupleElement& a, const TupleElement& b);
};

inline std::size_t Tuple::size() const {
  return items.size();
}
inline const TupleElement& Tuple::operator[](std::size_t i) const {
  return items[i];
}

struct TupleError {
  std::size_t offset = 0;  // the byte at fault
  std::string message;
  std::string to_string() const;
};

// Either a tuple or the error that stopped unpacking.
struct UnpackResult {
  std::optional<Tuple> tuple;
  TupleError error;
  bool ok() const { return tuple.has_value(); }
};

Bytes pack(const Tuple& tuple);
// Single-element encoders, for building a key without a Tuple (pack() uses the same code):
// each appends exactly what pack() writes for that element at the top level.
void pack_int(Bytes& out, std::int64_t value);
void pack_bytes(Bytes& out, BytesView bytes);
void pack_string(Bytes& out, std::string_view text);
UnpackResult unpack(BytesView bytes);
// The top-level element packed at bytes[pos], advancing pos past it; nothing when pos is at the
// end or the element is malformed (unpack() says why). Reads a key's fields without a Tuple.
std::optional<TupleElement> unpack_element(BytesView bytes, std::size_t& pos);
// pack() followed by the 4-byte little-endian offset of the one incomplete versionstamp's
// transaction bytes, for SET_VERSIONSTAMPED_KEY. Nothing (and `error`) unless exactly one
// incomplete versionstamp is present.
std::optional<Bytes> pack_with_versionstamp(const Tuple& tuple, std::string& error);
// Tuple order: -1, 0 or 1.
int compare(const Tuple& a, const Tuple& b);
// Python's tuple notation, for messages: ("Q", 3, b'00ff'), nested tuples in parentheses.
std::string to_string(const Tuple& tuple);
// A key as a tuple for messages: its tuple notation, or why it is not one.
std::string describe_key(BytesView key);

}  // namespace contend
