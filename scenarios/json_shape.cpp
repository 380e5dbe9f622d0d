#include "scenarios/json_shape.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

#include "base/invariant.h"

namespace contend {

bool is_count(const nlohmann::json& j) {
  return j.is_number_unsigned() && j.get<std::uint64_t>() <= static_cast<std::uint64_t>(INT64_MAX);
}

const JsonKind kCount{"a count (an integer from 0 to 2^63 - 1)", is_count};
const JsonKind kSmallCount{"a count below 2^31", [](const nlohmann::json& j) {
                             return is_count(j) && j.get<std::uint64_t>() <= INT32_MAX;
                           }};
const JsonKind kUnsigned{"an integer from 0 to 2^64 - 1",
                         [](const nlohmann::json& j) { return j.is_number_unsigned(); }};
const JsonKind kObject{"an object", [](const nlohmann::json& j) { return j.is_object(); }};
const JsonKind kBoolean{"true or false", [](const nlohmann::json& j) { return j.is_boolean(); }};
const JsonKind kText{"a string", [](const nlohmann::json& j) { return j.is_string(); }};
const JsonKind kList{"an array", [](const nlohmann::json& j) { return j.is_array(); }};
const JsonKind kSeconds{"a number of seconds (0 or more)", [](const nlohmann::json& j) {
                          return j.is_number() && j.get<double>() >= 0;
                        }};
const JsonKind kSecondsOrNull{
    "a number of seconds (0 or more) or null",
    [](const nlohmann::json& j) { return j.is_null() || kSeconds.holds(j); }};
const JsonKind kCountOrNull{"a count or null",
                            [](const nlohmann::json& j) { return j.is_null() || is_count(j); }};
const JsonKind kCountsByName{"an object of counts", [](const nlohmann::json& j) {
                               return j.is_object() && std::all_of(j.begin(), j.end(), is_count);
                             }};
const JsonKind kTextList{
    "an array of strings", [](const nlohmann::json& j) {
      return j.is_array() &&
             std::all_of(j.begin(), j.end(), [](const nlohmann::json& e) { return e.is_string(); });
    }};
const JsonKind kCountList{"an array of counts", [](const nlohmann::json& j) {
                            return j.is_array() && std::all_of(j.begin(), j.end(), is_count);
                          }};
const JsonKind kBooleanList{
    "an array of true and false", [](const nlohmann::json& j) {
      return j.is_array() && std::all_of(j.begin(), j.end(),
                                         [](const nlohmann::json& e) { return e.is_boolean(); });
    }};

std::optional<std::string> kind_problem(const nlohmann::json& j, std::span<const JsonField> fields,
                                        std::string_view prefix) {
  CONTEND_ASSERT(j.is_object(), "fields are read from an object");
  for (const JsonField& f : fields) {
    const auto at = j.find(f.name);
    if (at != j.end() && !f.kind->holds(*at))
      return fmt::format("field \"{}{}\" is not {}", prefix, f.name, f.kind->name);
  }
  return std::nullopt;
}

std::optional<std::string> missing_problem(const nlohmann::json& j,
                                           std::span<const JsonField> fields,
                                           std::string_view prefix) {
  CONTEND_ASSERT(j.is_object(), "fields are read from an object");
  for (const JsonField& f : fields) {
    if (!j.contains(f.name)) return fmt::format("field \"{}{}\" is missing", prefix, f.name);
  }
  return std::nullopt;
}

std::optional<std::string> shape_problem(const nlohmann::json& j, std::span<const JsonField> fields,
                                         std::string_view prefix) {
  if (auto problem = kind_problem(j, fields, prefix)) return problem;
  return missing_problem(j, fields, prefix);
}

std::optional<std::string> utf8_problem(const std::string& text) {
  try {
    (void)nlohmann::json(text).dump();  // the check every report's dump makes
    return std::nullopt;
  } catch (const nlohmann::json::type_error& e) {
    const std::string what = e.what();  // "[json.exception.type_error.316] invalid UTF-8 ..."
    const std::size_t start = what.find("] ");
    return start == std::string::npos ? what : what.substr(start + 2);
  }
}

}  // namespace contend
