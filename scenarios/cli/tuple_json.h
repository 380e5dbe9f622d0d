// The JSON form of tuples used by `contend tuple`:
//   null, true, false; integers as JSON integers (exact over int64 and uint64; a literal outside
//   both is refused, never read as a double); doubles as JSON numbers with a fraction or exponent;
//   strings; {"bytes": "<hex>"}; {"uuid": "<8-4-4-4-12>"}; {"float": number|"nan"|"inf"|"-inf"}
//   for 32-bit floats (a number beyond their range is refused); {"double": "nan"|"inf"|"-inf"};
//   {"versionstamp": "<20 hex digits>", "user_version": n}; nested arrays = nested tuples.
// Invariant: tuple_from_json(tuple_to_json(t)) == t (floats compared bitwise, NaNs by kind).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "sim/store/tuple.h"

namespace contend::cli {

// Parses the text of a tuple's JSON; on failure returns nothing and says why (not JSON, or an
// integer literal outside int64 and uint64, which a plain parse would read as a double).
std::optional<nlohmann::json> parse_tuple_json(const std::string& text, std::string& error);

// Converts a JSON array to a tuple; on failure returns nothing and says where ("element 2: ...").
std::optional<Tuple> tuple_from_json(const nlohmann::json& array, std::string& error);
nlohmann::json tuple_to_json(const Tuple& tuple);
using contend::from_hex;  // sim/store/bytes.h

}  // namespace contend::cli
