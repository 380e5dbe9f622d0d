#include "sim/store/subspace.h"

namespace contend {

Subspace::Subspace(const Tuple& prefix, BytesView raw_prefix)
    : prefix_(Bytes(raw_prefix) + contend::pack(prefix)) {}

UnpackResult Subspace::unpack(BytesView key) const {
  if (!contains(key)) {
    UnpackResult r;
    r.error = TupleError{0, "key is not in the subspace with prefix " + printable(prefix_)};
    return r;
  }
  UnpackResult r = contend::unpack(key.substr(prefix_.size()));
  if (!r.ok()) r.error.offset += prefix_.size();
  return r;
}

KeyRange Subspace::range(const Tuple& tuple) const {
  Bytes p = pack(tuple);
  return KeyRange{p + '\0', p + '\xff'};
}

Subspace Subspace::subspace(const Tuple& tuple) const {
  Subspace child;
  child.prefix_ = pack(tuple);
  return child;
}

}  // namespace contend
