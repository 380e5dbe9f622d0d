// Fuzz target: tuple unpack and the pack round trip. Any bytes either unpack or are refused with
// an error inside them (never read out of bounds, never a crash); a tuple that unpacks packs to
// bytes that unpack to the same tuple, pack again to the same bytes, and compare equal to itself.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "base/invariant.h"
#include "sim/store/tuple.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace contend;
  const BytesView bytes(reinterpret_cast<const char*>(data), size);
  UnpackResult r = unpack(bytes);
  if (!r.ok()) {
    CONTEND_ASSERT(r.error.offset <= size && !r.error.message.empty(),
                   "an unpack error points into the input and says why");
    return 0;
  }
  const Bytes packed = pack(*r.tuple);
  UnpackResult again = unpack(packed);
  CONTEND_ASSERT(again.ok(), "packed bytes unpack");
  CONTEND_ASSERT(*again.tuple == *r.tuple, "unpack(pack(t)) == t");
  CONTEND_ASSERT(pack(*again.tuple) == packed, "packing is a function of the tuple");
  CONTEND_ASSERT(compare(*r.tuple, *again.tuple) == 0, "a tuple compares equal to itself");
  // Element by element, the top-level reader walks the same elements.
  std::size_t pos = 0, count = 0;
  while (pos < packed.size()) {
    auto e = unpack_element(packed, pos);
    CONTEND_ASSERT(e.has_value(), "every top-level element of packed bytes reads");
    ++count;
  }
  CONTEND_ASSERT(count == r.tuple->size(), "one element per tuple item");
  return 0;
}
