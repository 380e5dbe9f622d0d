// The JSON form of tuples used by `contend tuple`:
//   null, true, false; integers as JSON integers (exact over int64 and uint64); doubles as JSON
//   numbers with a fraction or exponent; strings; {"bytes": "<hex>"}; {"uuid": "<8-4-4-4-12>"};
//   {"float": number} for 32-bit floats; {"double": "nan"|"inf"|"-inf"};
//   {"versionstamp": "<20 hex digits>", "user_version": n}; nested arrays = nested tuples.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "sim/store/tuple.h"

namespace contend::cli {

// Converts a JSON array to a tuple; on failure returns nothing and says where ("element 2: ...").
std::optional<Tuple> tuple_from_json(const nlohmann::json& array, std::string& error);
nlohmann::json tuple_to_json(const Tuple& tuple);
using contend::from_hex;  // sim/store/bytes.h

}  // namespace contend::cli
