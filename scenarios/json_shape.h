// Reading JSON that contend itself wrote (a shard's run report, an exhaustive search's --json
// summary, a search's checkpoint) as data of a known shape. Each field read has a kind; a field
// that is missing, or holds a value of another kind, is bad input named by its path
// ("runs[3].verdict") — never a default.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace contend {

// A kind of value: how a message names it, and whether a value is of it.
struct JsonKind {
  const char* name;
  bool (*holds)(const nlohmann::json&);
};

// A count as contend writes one: an integer from 0 to 2^63 - 1.
bool is_count(const nlohmann::json& j);

extern const JsonKind kCount;
extern const JsonKind kSmallCount;  // a count below 2^31 (two multiply within a count)
extern const JsonKind kUnsigned;    // an integer from 0 to 2^64 - 1 (a seed)
extern const JsonKind kObject;
extern const JsonKind kBoolean;
extern const JsonKind kText;
extern const JsonKind kList;
extern const JsonKind kSeconds;  // a number, 0 or more
extern const JsonKind kSecondsOrNull;
extern const JsonKind kCountOrNull;
extern const JsonKind kCountsByName;  // an object whose every value is a count (verdict tallies)
extern const JsonKind kTextList;      // an array of strings
extern const JsonKind kCountList;     // an array of counts
extern const JsonKind kBooleanList;   // an array of true and false

struct JsonField {
  const char* name;
  const JsonKind* kind;
};

// Why `j` holds a value of another kind in one of `fields` (`prefix` names the object they are
// in: "counterexample."); nothing when each it has is of its kind. REQUIRES: j is an object.
std::optional<std::string> kind_problem(const nlohmann::json& j, std::span<const JsonField> fields,
                                        std::string_view prefix);
// Why `j` lacks one of `fields`; nothing when it has them all. REQUIRES: j is an object.
std::optional<std::string> missing_problem(const nlohmann::json& j,
                                           std::span<const JsonField> fields,
                                           std::string_view prefix);
// Both, a field of the wrong kind first: of two faults in one file it is the more telling.
std::optional<std::string> shape_problem(const nlohmann::json& j, std::span<const JsonField> fields,
                                         std::string_view prefix);

// Why `text` cannot be a JSON string ("invalid UTF-8 byte at index 1: 0xFF"), or nothing: a file
// name that is not UTF-8 cannot be written into a report that names it.
std::optional<std::string> utf8_problem(const std::string& text);

}  // namespace contend
