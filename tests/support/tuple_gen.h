// Test support: RapidCheck generators of tuples, every element type the tuple layer packs
// (versionstamps and UUIDs aside), nested up to a given depth.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <string>
#include <vector>

#include "sim/store/tuple.h"

namespace contend::testing {

inline rc::Gen<TupleElement> gen_element(int depth);

inline rc::Gen<Tuple> gen_tuple(int depth) {
  return rc::gen::map(
      rc::gen::container<std::vector<TupleElement>>(*rc::gen::inRange(0, 4), gen_element(depth)),
      [](std::vector<TupleElement> items) {
        Tuple t;
        t.items = std::move(items);
        return t;
      });
}

inline rc::Gen<TupleElement> gen_element(int depth) {
  return rc::gen::exec([depth]() -> TupleElement {
    switch (*rc::gen::inRange(0, depth > 0 ? 9 : 8)) {
      case 0:
        return TupleNull{};
      case 1:
        return TupleBytes{*rc::gen::string<std::string>()};
      case 2:
        return *rc::gen::container<std::string>(rc::gen::inRange<char>('\0', '\x7f'));
      case 3:
        return *rc::gen::arbitrary<std::int64_t>();
      case 4:
        return *rc::gen::arbitrary<std::uint64_t>();
      case 5:
        return *rc::gen::arbitrary<double>();
      case 6:
        return *rc::gen::arbitrary<float>();
      case 7:
        return *rc::gen::arbitrary<bool>();
      default:
        return *gen_tuple(depth - 1);
    }
  });
}

}  // namespace contend::testing
