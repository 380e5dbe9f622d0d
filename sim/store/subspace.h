// Subspace: a key prefix given by a tuple, as in FoundationDB's bindings. pack/unpack add and
// strip the prefix; range() covers every key strictly inside the subspace (never the prefix
// itself): [prefix + 0x00, prefix + 0xff).
#pragma once

#include "sim/store/bytes.h"
#include "sim/store/tuple.h"

namespace contend {

class Subspace {
 public:
  Subspace() = default;
  explicit Subspace(const Tuple& prefix, BytesView raw_prefix = {});

  const Bytes& key() const { return prefix_; }
  Bytes pack(const Tuple& tuple) const { return prefix_ + contend::pack(tuple); }
  // Fails (error set, offset relative to the key) when the key is outside the subspace.
  UnpackResult unpack(BytesView key) const;
  KeyRange range() const { return KeyRange{prefix_ + '\0', prefix_ + '\xff'}; }
  KeyRange range(const Tuple& tuple) const;
  bool contains(BytesView key) const { return key.substr(0, prefix_.size()) == BytesView(prefix_); }
  Subspace subspace(const Tuple& tuple) const;

 private:
  Bytes prefix_;
};

}  // namespace contend
