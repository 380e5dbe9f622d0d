#include "model/history_json.h"

#include <istream>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>

namespace contend::model {

namespace {

using nlohmann::json;

json value_to_json(const Event& e) {
  if (!e.value) return nullptr;
  if (e.value->priority) return json{{"value", e.value->value}, {"priority", *e.value->priority}};
  return e.value->value;
}

// Parses the "value" field; `priority_form` says whether this f carries {"value", "priority"}.
std::optional<Item> parse_value(const json& v, bool priority_form, std::string& why) {
  if (v.is_null()) return std::nullopt;
  if (!priority_form) {
    if (!v.is_string()) {
      why = "expected a string item or null, got " + v.dump();
      return std::nullopt;
    }
    return Item{v.get<std::string>(), std::nullopt};
  }
  if (!v.is_object() || !v.contains("value") || !v.contains("priority") || v.size() != 2 ||
      !v["value"].is_string() || !v["priority"].is_number_integer()) {
    why = "expected {\"value\": string, \"priority\": integer} or null, got " + v.dump();
    return std::nullopt;
  }
  return Item{v["value"].get<std::string>(), v["priority"].get<std::int64_t>()};
}

bool priority_form(OpFunction f) {
  return f != OpFunction::enqueue && f != OpFunction::dequeue;
}

std::optional<Event> parse_line(const std::string& text, std::size_t line, HistoryError& error) {
  auto fail = [&](const std::string& message) {
    error = HistoryError{line, message};
    return std::nullopt;
  };
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return fail("not valid JSON");
  if (!j.is_object()) return fail("expected a JSON object");
  static const std::set<std::string> kKeys = {"index", "type", "process", "time", "f", "value"};
  for (const auto& [key, _] : j.items()) {
    if (kKeys.count(key) == 0) return fail("unknown field \"" + key + "\"");
  }
  Event e;
  for (const char* key : {"index", "process", "time"}) {
    if (!j.contains(key)) return fail(std::string("field \"") + key + "\": missing");
    if (!j[key].is_number_integer()) {
      return fail(std::string("field \"") + key + "\": expected an integer, got " + j[key].dump());
    }
  }
  e.index = j["index"].get<std::int64_t>();
  e.process = j["process"].get<std::int64_t>();
  e.time_us = j["time"].get<std::int64_t>();
  if (!j.contains("type") || !j["type"].is_string())
    return fail("field \"type\": expected a string");
  auto type = parse_event_type(j["type"].get<std::string>());
  if (!type) {
    return fail("field \"type\": expected one of invoke|ok|fail|info, got " + j["type"].dump());
  }
  e.type = *type;
  if (!j.contains("f") || !j["f"].is_string()) return fail("field \"f\": expected a string");
  auto f = parse_op_function(j["f"].get<std::string>());
  if (!f) {
    return fail(
        "field \"f\": expected one of enqueue|dequeue|push|pop_min|peek_min|pop_max|"
        "peek_max, got " +
        j["f"].dump());
  }
  e.f = *f;
  std::string why;
  e.value = parse_value(j.value("value", json(nullptr)), priority_form(e.f), why);
  if (!why.empty()) return fail("field \"value\": " + why);
  return e;
}

}  // namespace

std::string HistoryError::to_string() const {
  return line > 0 ? "line " + std::to_string(line) + ": " + message : message;
}

std::string to_json_line(const Event& e) {
  // Field order is fixed by hand (nlohmann's object would sort keys).
  std::string out =
      "{\"index\": " + std::to_string(e.index) + ", \"type\": \"" + std::string(to_string(e.type)) +
      "\", \"process\": " + std::to_string(e.process) + ", \"time\": " + std::to_string(e.time_us) +
      ", \"f\": \"" + std::string(to_string(e.f)) + "\", \"value\": ";
  return out + value_to_json(e).dump() + "}";
}

void write_history(std::ostream& out, const History& history) {
  for (const Event& e : history)
    out << to_json_line(e) << '\n';
}

std::optional<History> read_history(std::istream& in, HistoryError& error) {
  History history;
  std::string text;
  std::size_t line = 0;
  while (std::getline(in, text)) {
    ++line;
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto event = parse_line(text, line, error);
    if (!event) return std::nullopt;
    history.push_back(std::move(*event));
  }
  return history;
}

std::optional<HistoryError> validate_history(const History& history) {
  std::map<std::int64_t, const Event*> open;  // process -> its invocation in flight
  std::set<std::int64_t> crashed;
  std::int64_t last_time = INT64_MIN;
  for (std::size_t i = 0; i < history.size(); ++i) {
    const Event& e = history[i];
    const std::size_t line = i + 1;
    auto bad = [&](const std::string& m) { return HistoryError{line, m}; };
    if (e.index != static_cast<std::int64_t>(i)) {
      return bad("field \"index\": expected " + std::to_string(i) + ", got " +
                 std::to_string(e.index));
    }
    if (e.time_us < last_time) return bad("field \"time\": earlier than the line before");
    last_time = e.time_us;
    auto it = open.find(e.process);
    if (e.type == EventType::invoke) {
      if (crashed.count(e.process)) {
        return bad("process " + std::to_string(e.process) +
                   " invokes again after an info completion");
      }
      if (it != open.end()) {
        return bad("process " + std::to_string(e.process) +
                   " invokes while its operation at line " + std::to_string(it->second->index + 1) +
                   " is in flight");
      }
      if (is_insert(e.f) && !e.value) return bad("field \"value\": an insert must carry its item");
      if (!is_insert(e.f) && e.value)
        return bad("field \"value\": a " + std::string(to_string(e.f)) +
                   " invocation carries no value");
      if (e.f == OpFunction::push && !e.value->priority) {
        return bad("field \"value\": a push must carry a priority");
      }
      open[e.process] = &e;
      continue;
    }
    if (it == open.end()) {
      return bad("a completion of process " + std::to_string(e.process) + " without an invocation");
    }
    if (it->second->f != e.f) {
      return bad("field \"f\": completion '" + std::string(to_string(e.f)) + "' of invocation '" +
                 std::string(to_string(it->second->f)) + "'");
    }
    if (is_insert(e.f) && e.value != it->second->value) {
      return bad("field \"value\": the completion of an insert must repeat its item");
    }
    if (!is_insert(e.f) && e.type != EventType::ok && e.value) {
      return bad("field \"value\": a " + std::string(to_string(e.type)) + " completion of a " +
                 std::string(to_string(e.f)) + " carries no value");
    }
    if (e.type == EventType::info) crashed.insert(e.process);
    open.erase(it);
  }
  return std::nullopt;
}

}  // namespace contend::model
