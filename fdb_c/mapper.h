// The mapper of a mapped range read (fdb_transaction_get_mapped_range), as FoundationDB 7.3's
// storage server reads it (preprocessMappedKey, constructMappedKey): a packed tuple, each of whose
// elements the key of a row's lookup takes in order —
//   - a byte or unicode string "{K[i]}" / "{V[i]}": element i of the row's key / value, itself a
//     packed tuple, copied as packed;
//   - a string "{...}", which must be the last element: the lookup is then the range of keys the
//     key built so far prefixes, rather than that one key;
//   - a string with "{{" or "}}": itself with those unescaped to "{" and "}", as a byte string;
//   - any other element: itself, as packed.
// Invariants: a parsed mapper has at most one "{...}", its last element; map() never reads
// outside the key or value it is given.
#pragma once

#include <cstddef>
#include <vector>

#include "fdb_c/errors.h"
#include "sim/store/bytes.h"

namespace contend::fdb {

class Mapper {
 public:
  // The mapper packed in `packed`: mapper_not_tuple (2043) when it is not a packed tuple,
  // mapper_bad_index (2030) for an index that is not a number (as std::stoi reads one; a
  // negative one is refused by map()),
  // mapper_bad_range_decriptor (2032) for a "{...}" that is not the last element.
  static fdb_error parse(BytesView packed, Mapper& out);

  // The key of the lookup for the row (`key`, `value`) — with range(), the prefix of the range
  // looked up: mapper_bad_index (2030) for an index outside the row's key or value tuple,
  // key_not_tuple (2041) / value_not_tuple (2042) when the one it names is not a packed tuple.
  fdb_error map(BytesView key, BytesView value, Bytes& out) const;

  // Whether each lookup is a range (a "{...}" ended the mapper), else one key.
  bool range() const { return range_; }

 private:
  enum class Source { literal, key, value };
  struct Piece {
    Source source = Source::literal;
    Bytes packed;         // a literal's packed element
    long long index = 0;  // the key's or value's element, as std::stoi read it
  };
  std::vector<Piece> pieces_;
  bool range_ = false;
};

}  // namespace contend::fdb
