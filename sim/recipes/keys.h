// The keys and values the queue recipes store, in FoundationDB tuple-layer terms. Recipes speak
// in these names so they read like the seed code (`queue[index][random]`, `pack((value,))`),
// while the bytes stay exactly the tuple encoding a FoundationDB client would write.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "sim/store/bytes.h"

namespace contend {
struct Tuple;
}  // namespace contend

namespace contend::keys {

// A subspace named by a tuple of strings, e.g. ("Q",) or ("HC", "item").
class Space {
 public:
  explicit Space(std::string_view name);
  Space(std::string_view name, std::string_view child);

  const Bytes& prefix() const { return prefix_; }
  // [prefix + 0x00, prefix + 0xff): every key of the subspace, never the prefix itself.
  const KeyRange& range() const { return range_; }
  // The range of keys whose first element is `first`: Space[first].range().
  KeyRange range_of(std::int64_t first) const;

  Bytes key(std::int64_t a) const;                                    // (a,)
  Bytes key(std::int64_t a, BytesView random) const;                  // (a, random)
  Bytes key(std::int64_t a, std::int64_t b) const;                    // (a, b)
  Bytes key(std::int64_t a, std::int64_t b, BytesView random) const;  // (a, b, random)
  Bytes key(BytesView bytes) const;                                   // (bytes,)
  // (incomplete versionstamp, user_version 0) with the 4-byte offset SET_VERSIONSTAMPED_KEY needs.
  Bytes versionstamped_key() const;
  // (a, incomplete versionstamp), the same way.
  Bytes versionstamped_key(std::int64_t a) const;

  // The integer elements of a key of this subspace, or nothing when the key does not decode.
  std::optional<std::int64_t> first_int(BytesView key) const;
  std::optional<std::int64_t> second_int(BytesView key) const;
  // The last element as bytes (the random part), or nothing.
  std::optional<Bytes> last_bytes(BytesView key) const;

  // The same reads of a key the recipe wrote itself into this subspace: a key that does not
  // decode is not data but a fault of contend (the store returned bytes no recipe wrote), raised
  // as SimulatorFault naming `what` and the key in hex and as a tuple. Never a default.
  std::int64_t require_first_int(BytesView key, std::string_view what) const;
  std::int64_t require_second_int(BytesView key, std::string_view what) const;
  Bytes require_last_bytes(BytesView key, std::string_view what) const;

 private:
  Bytes start_key(std::size_t payload_bytes) const;  // the prefix, with room for the rest
  Bytes versionstamped(const Tuple& with_stamp) const;
  Bytes prefix_;
  KeyRange range_;  // range(), made once
};

// pack((value,)) / unpack(bytes)[0] for string items.
Bytes encode_value(std::string_view value);
std::optional<std::string> decode_value(BytesView bytes);
// pack((value, priority)) / unpack: a priority item kept as a receipt.
Bytes encode_item(std::string_view value, std::int64_t priority);
struct DecodedItem {
  std::string value;
  std::int64_t priority = 0;
};
std::optional<DecodedItem> decode_item(BytesView bytes);

// decode_value / decode_item of the value stored under `key` by the recipe itself: a value that
// does not decode raises SimulatorFault naming `what`, the key (hex and tuple) and the value.
std::string require_value(BytesView key, BytesView value, std::string_view what);
DecodedItem require_item(BytesView key, BytesView value, std::string_view what);

// The message of such a fault: "<what>: key <hex> = <tuple>: <problem>".
[[noreturn]] void decode_fault(std::string_view what, BytesView key, std::string_view problem);

}  // namespace contend::keys
