#include "model/history_json.h"

#include <algorithm>
#include <istream>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>

#include "base/input_file.h"
#include "model/json_keys.h"

namespace contend::model {

namespace {

using nlohmann::json;

// A JSON string literal; bytes that are not UTF-8 become U+FFFD (JSON cannot carry them).
std::string quoted(const std::string& text) {
  return json(text).dump(-1, ' ', false, json::error_handler_t::replace);
}

// The "value" field, keys in the schema's order ("value" before "priority").
std::string value_text(const Event& e) {
  if (!e.value) return "null";
  if (!e.value->priority) return quoted(e.value->value);
  return "{\"value\": " + quoted(e.value->value) +
         ", \"priority\": " + std::to_string(*e.value->priority) + "}";
}

std::string shown(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

bool priority_form(OpFunction f) {
  return f != OpFunction::enqueue && f != OpFunction::dequeue;
}

// An error message for one field, or empty when the field is a usable int64.
std::string integer_problem(const json& j, const char* key) {
  const std::string field = std::string("field \"") + key + "\": ";
  if (!j.contains(key)) return field + "missing";
  const json& v = j[key];
  if (!v.is_number_integer()) return field + "expected an integer, got " + shown(v);
  if (v.is_number_unsigned() && v.get<std::uint64_t>() > std::uint64_t{INT64_MAX}) {
    return field + "out of range, got " + shown(v);
  }
  return {};
}

// Parses the "value" field; `priority_form` says whether this f carries {"value", "priority"}.
std::optional<Item> parse_value(const json& v, bool priority_form, std::string& why) {
  if (v.is_null()) return std::nullopt;
  if (!priority_form) {
    if (!v.is_string()) {
      why = "expected a string item or null, got " + shown(v);
      return std::nullopt;
    }
    return Item{v.get<std::string>(), std::nullopt};
  }
  if (!v.is_object() || !v.contains("value") || !v.contains("priority") || v.size() != 2 ||
      !v["value"].is_string() || !v["priority"].is_number_integer() ||
      (v["priority"].is_number_unsigned() &&
       v["priority"].get<std::uint64_t>() > std::uint64_t{INT64_MAX})) {
    why = "expected {\"value\": string, \"priority\": integer} or null, got " + shown(v);
    return std::nullopt;
  }
  return Item{v["value"].get<std::string>(), v["priority"].get<std::int64_t>()};
}

template <class T, class Parse>
std::optional<T> parse_name(const json& j, const char* key, const char* choices, Parse parse,
                            std::string& why) {
  const std::string field = std::string("field \"") + key + "\": ";
  if (!j.contains(key)) {
    why = field + "missing";
    return std::nullopt;
  }
  std::optional<T> out;
  if (j[key].is_string()) out = parse(j[key].template get<std::string>());
  if (!out) why = field + "expected one of " + choices + ", got " + shown(j[key]);
  return out;
}

// `position`: the event's place in the history, its index when the line has none.
std::optional<Event> parse_object(const json& j, std::size_t position, const ReadOptions& options,
                                  std::string& why) {
  if (!j.is_object()) {
    why = "expected a JSON object, got " + shown(j);
    return std::nullopt;
  }
  static const std::set<std::string> kKeys = {"index", "type", "process", "time", "f", "value"};
  for (const auto& [key, unused] : j.items()) {
    if (kKeys.count(key) != 0) continue;
    if (options.strict) {
      why = "unknown field " + quoted(key);
      return std::nullopt;
    }
    std::vector<std::string>* ignored = options.ignored_keys;
    if (ignored != nullptr && std::find(ignored->begin(), ignored->end(), key) == ignored->end())
      ignored->push_back(key);
  }
  Event e;
  for (const char* key : {"index", "process", "time"}) {
    if (std::string_view(key) == "index" && !j.contains(key)) continue;
    why = integer_problem(j, key);
    if (!why.empty()) return std::nullopt;
  }
  e.index =
      j.contains("index") ? j["index"].get<std::int64_t>() : static_cast<std::int64_t>(position);
  e.process = j["process"].get<std::int64_t>();
  e.time_us = j["time"].get<std::int64_t>();
  auto type = parse_name<EventType>(
      j, "type", "invoke|ok|fail|info", [](const std::string& s) { return parse_event_type(s); },
      why);
  if (!type) return std::nullopt;
  e.type = *type;
  auto f = parse_name<OpFunction>(
      j, "f", "enqueue|dequeue|push|pop_min|peek_min|pop_max|peek_max",
      [](const std::string& s) { return parse_op_function(s); }, why);
  if (!f) return std::nullopt;
  e.f = *f;
  // A missing "value" reads as null (validate_history then names an insert without its item).
  e.value = parse_value(j.contains("value") ? j["value"] : json(nullptr), priority_form(e.f), why);
  if (!why.empty()) {
    why = "field \"value\": " + why;
    return std::nullopt;
  }
  return e;
}

std::optional<Event> parse_line(const std::string& text, std::size_t line, std::size_t position,
                                const ReadOptions& options, HistoryError& error) {
  std::string why;
  std::optional<Event> e;
  if (json_nesting_depth(text, kMaxJsonDepth) > kMaxJsonDepth) {
    error = HistoryError{line, "JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
                                   " levels (an event needs two)"};
    return std::nullopt;
  }
  try {
    std::string duplicate;
    json j = parse_json_unique_keys(text, duplicate);
    if (j.is_discarded()) {
      why = duplicate.empty() ? "not valid JSON" : DuplicateKey(duplicate).what();
    } else {
      e = parse_object(j, position, options, why);
    }
  } catch (const json::exception& ex) {  // never let nlohmann's exceptions escape
    why = std::string("unreadable: ") + ex.what();
    e.reset();
  }
  if (!e) error = HistoryError{line, why};
  return e;
}

std::string text_of(std::int64_t n) {
  return std::to_string(n);
}

}  // namespace

std::string HistoryError::to_string() const {
  return line > 0 ? "line " + std::to_string(line) + ": " + message : message;
}

std::string to_json_line(const Event& e) {
  // Field order is fixed by hand (nlohmann's object would sort keys).
  return "{\"index\": " + text_of(e.index) + ", \"type\": \"" + std::string(to_string(e.type)) +
         "\", \"process\": " + text_of(e.process) + ", \"time\": " + text_of(e.time_us) +
         ", \"f\": \"" + std::string(to_string(e.f)) + "\", \"value\": " + value_text(e) + "}";
}

void write_history(std::ostream& out, const History& history) {
  for (const Event& e : history)
    out << to_json_line(e) << '\n';
}

std::size_t line_of(const EventLines& lines, std::size_t position) {
  return position < lines.size() ? lines[position] : position + 1;
}

std::optional<History> read_history(std::istream& in, HistoryError& error, EventLines* lines,
                                    const ReadOptions& options) {
  if (lines != nullptr) lines->clear();
  History history;
  std::string text;
  std::size_t line = 0;
  for (LineRead read; (read = read_line_within(in, text, kHistoryLineBytesMax)) != LineRead::end;) {
    ++line;
    if (read == LineRead::too_long) {
      error = HistoryError{line, "longer than " + bytes_text(kHistoryLineBytesMax) +
                                     ", the most contend reads of one event"};
      return std::nullopt;
    }
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto event = parse_line(text, line, history.size(), options, error);
    if (!event) return std::nullopt;
    history.push_back(std::move(*event));
    if (lines != nullptr) lines->push_back(line);
  }
  return history;
}

namespace {

// The checks on one event's value that do not depend on other events.
std::optional<std::string> value_problem(const Event& e) {
  const std::string f(to_string(e.f));
  if (e.value && priority_form(e.f) != e.value->priority.has_value()) {
    return priority_form(e.f) ? "field \"value\": a " + f + " item must carry a priority"
                              : "field \"value\": a " + f + " item carries no priority";
  }
  if (e.type == EventType::invoke) {
    if (is_insert(e.f) && !e.value) return "field \"value\": an insert must carry its item";
    if (!is_insert(e.f) && e.value) return "field \"value\": a " + f + " invocation carries null";
    return std::nullopt;
  }
  if (!is_insert(e.f) && e.type != EventType::ok && e.value) {
    return "field \"value\": the " + std::string(to_string(e.type)) + " completion of a " + f +
           " carries null";
  }
  return std::nullopt;
}

class Validator {
 public:
  explicit Validator(const EventLines& lines) : lines_(lines) {}

  std::optional<std::string> event(const Event& e, std::size_t position) {
    if (e.index != static_cast<std::int64_t>(position)) {
      return "field \"index\": expected " + std::to_string(position) + ", got " +
             std::to_string(e.index);
    }
    if (e.time_us < last_time_) {
      return "field \"time\": " + std::to_string(e.time_us) + " is earlier than " +
             std::to_string(last_time_) + " at line " + std::to_string(line(e.index - 1));
    }
    last_time_ = e.time_us;
    if (auto problem = value_problem(e)) return problem;
    return e.type == EventType::invoke ? invocation(e) : completion(e);
  }

 private:
  std::optional<std::string> invocation(const Event& e) {
    const std::string p = "process " + std::to_string(e.process);
    if (auto it = crashed_.find(e.process); it != crashed_.end()) {
      return p + " invokes again after its info completion at line " +
             std::to_string(line(it->second)) + " (a crashed process continues under a new id)";
    }
    if (auto it = open_.find(e.process); it != open_.end()) {
      return p + " invokes while its operation invoked at line " +
             std::to_string(line(it->second->index)) + " is in flight";
    }
    open_[e.process] = &e;
    return std::nullopt;
  }

  std::optional<std::string> completion(const Event& e) {
    auto it = open_.find(e.process);
    if (it == open_.end()) {
      return "a completion of process " + std::to_string(e.process) + " without an invocation";
    }
    const Event& inv = *it->second;
    if (inv.f != e.f) {
      return "field \"f\": completion " + quoted(std::string(to_string(e.f))) +
             " of the invocation " + quoted(std::string(to_string(inv.f))) + " at line " +
             std::to_string(line(inv.index));
    }
    if (is_insert(e.f) && e.value != inv.value) {
      return "field \"value\": the completion of an insert must repeat its item (line " +
             std::to_string(line(inv.index)) + ")";
    }
    if (e.type == EventType::info) crashed_[e.process] = e.index;
    open_.erase(it);
    return std::nullopt;
  }

  std::size_t line(std::int64_t index) const {
    return line_of(lines_, static_cast<std::size_t>(index));
  }

  const EventLines& lines_;
  std::map<std::int64_t, const Event*> open_;     // process -> its invocation in flight
  std::map<std::int64_t, std::int64_t> crashed_;  // process -> its info completion
  std::int64_t last_time_ = INT64_MIN;
};

}  // namespace

std::optional<HistoryError> validate_history(const History& history, const EventLines& lines) {
  Validator v(lines);
  for (std::size_t i = 0; i < history.size(); ++i) {
    if (auto problem = v.event(history[i], i)) return HistoryError{line_of(lines, i), *problem};
  }
  return std::nullopt;
}

std::size_t json_nesting_depth(std::string_view text, std::size_t limit) {
  std::size_t depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > limit) return deepest;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

}  // namespace contend::model
