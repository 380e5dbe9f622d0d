#include "scenarios/cli/tuple_json.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <limits>

#include "model/json_keys.h"

namespace contend::cli {

namespace {

using nlohmann::json;

// The non-finite doubles by their JSON names ("nan", "inf", "-inf"), which JSON numbers lack.
std::optional<double> non_finite(const std::string& name) {
  if (name == "nan") return std::numeric_limits<double>::quiet_NaN();
  if (name == "inf") return std::numeric_limits<double>::infinity();
  if (name == "-inf") return -std::numeric_limits<double>::infinity();
  return std::nullopt;
}

json non_finite_or_number(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  return d;
}

// {"float": x}: a number within a 32-bit float's range (converting a larger one is undefined),
// rounded to the nearest float, or "nan", "inf", "-inf".
std::optional<TupleElement> float_from_json(const json& value, std::string& error) {
  if (value.is_string()) {
    auto d = non_finite(value.get<std::string>());
    if (!d) error = "\"float\" must be a number, \"nan\", \"inf\" or \"-inf\"";
    if (!d) return std::nullopt;
    return TupleElement(static_cast<float>(*d));
  }
  double d = value.get<double>();
  if (std::fabs(d) > static_cast<double>(std::numeric_limits<float>::max())) {
    error = fmt::format(
        "\"float\" {} is beyond a 32-bit float's range (magnitude at most {}); "
        "infinity is {{\"float\": \"inf\"}}",
        value.dump(), static_cast<double>(std::numeric_limits<float>::max()));
    return std::nullopt;
  }
  const auto f = static_cast<float>(d);
  if (f == 0.0F && d != 0.0) {
    error = fmt::format(
        "\"float\" {} is below a 32-bit float's smallest magnitude ({}), and would pack as 0; "
        "zero is {{\"float\": 0}}",
        value.dump(), static_cast<double>(std::numeric_limits<float>::denorm_min()));
    return std::nullopt;
  }
  return TupleElement(f);
}

// Whether number literal `text` writes a digit other than 0 before its exponent.
bool writes_nonzero(const std::string& text) {
  const std::string mantissa = text.substr(0, text.find_first_of("eE"));
  return mantissa.find_first_of("123456789") != std::string::npos;
}

// Reads JSON text for the number literals that would pack as other than written: an integer
// outside int64 and uint64 (nlohmann::json reads one as a double, another type) and a nonzero
// number too small for a double (read as 0); and says why text that is not JSON is not.
class NumberLiteralFinder : public nlohmann::json_sax<json> {
 public:
  std::string wide;       // the first integer literal too wide, as written
  std::string underflow;  // the first nonzero literal read as 0, as written
  std::string failure;    // why the text is not JSON, when it is not

  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t value, const string_t& text) override {
    if (wide.empty() && text.find_first_of(".eE") == std::string::npos) wide = text;
    if (underflow.empty() && value == 0.0 && writes_nonzero(text)) underflow = text;
    return true;
  }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    // nlohmann's message after its "[json.exception.parse_error.101] " tag.
    const std::string what = e.what();
    const std::size_t tag_end = what.find("] ");
    failure = tag_end == std::string::npos ? what : what.substr(tag_end + 2);
    return false;
  }
};

std::optional<Uuid> parse_uuid(const std::string& text) {
  std::string hex;
  for (std::size_t i = 0; i < text.size(); ++i) {
    bool dash_position = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash_position != (text[i] == '-')) return std::nullopt;
    if (!dash_position) hex.push_back(text[i]);
  }
  std::string ignored;
  auto bytes = from_hex(hex, ignored);
  if (!bytes || bytes->size() != 16 || text.size() != 36) return std::nullopt;
  Uuid u;
  for (std::size_t i = 0; i < 16; ++i)
    u.bytes[i] = static_cast<std::uint8_t>((*bytes)[i]);
  return u;
}

std::string format_uuid(const Uuid& u) {
  std::string hex = to_hex(BytesView(reinterpret_cast<const char*>(u.bytes.data()), 16));
  return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" +
         hex.substr(16, 4) + "-" + hex.substr(20);
}

std::optional<TupleElement> element_from_object(const json& j, std::string& error) {
  if (j.size() == 1 && j.contains("bytes") && j["bytes"].is_string()) {
    auto bytes = from_hex(j["bytes"].get<std::string>(), error);
    if (!bytes) return std::nullopt;
    return TupleElement(TupleBytes{*bytes});
  }
  if (j.size() == 1 && j.contains("uuid") && j["uuid"].is_string()) {
    auto u = parse_uuid(j["uuid"].get<std::string>());
    if (!u) error = "\"uuid\" must be a canonical 8-4-4-4-12 hex UUID";
    if (!u) return std::nullopt;
    return TupleElement(*u);
  }
  if (j.size() == 1 && j.contains("float") && (j["float"].is_number() || j["float"].is_string())) {
    return float_from_json(j["float"], error);
  }
  if (j.size() == 1 && j.contains("double") && j["double"].is_string()) {
    auto d = non_finite(j["double"].get<std::string>());
    if (!d) error = "\"double\" must be \"nan\", \"inf\" or \"-inf\"";
    if (!d) return std::nullopt;
    return TupleElement(*d);
  }
  if (j.contains("versionstamp") && j["versionstamp"].is_string() &&
      (j.size() == 1 || (j.size() == 2 && j.contains("user_version")))) {
    auto bytes = from_hex(j["versionstamp"].get<std::string>(), error);
    if (!bytes) return std::nullopt;
    if (bytes->size() != 10) {
      error = "\"versionstamp\" must be 20 hex digits (10 bytes)";
      return std::nullopt;
    }
    Versionstamp v;
    for (std::size_t i = 0; i < 10; ++i)
      v.transaction[i] = static_cast<std::uint8_t>((*bytes)[i]);
    if (j.contains("user_version")) {
      const json& uv = j["user_version"];
      if (!uv.is_number_unsigned() || uv.get<std::uint64_t>() > 0xffff) {
        error = "\"user_version\" must be an integer in [0, 65535]";
        return std::nullopt;
      }
      v.user_version = static_cast<std::uint16_t>(uv.get<std::uint64_t>());
    }
    return TupleElement(v);
  }
  error =
      "unknown object form " + j.dump() + " (expected bytes, uuid, float, double or versionstamp)";
  return std::nullopt;
}

std::optional<TupleElement> element_from_json(const json& j, std::string& error) {
  switch (j.type()) {
    case json::value_t::null:
      return TupleElement(TupleNull{});
    case json::value_t::boolean:
      return TupleElement(j.get<bool>());
    case json::value_t::number_integer:
      return TupleElement(j.get<std::int64_t>());
    case json::value_t::number_unsigned:
      return TupleElement(j.get<std::uint64_t>());
    case json::value_t::number_float:
      return TupleElement(j.get<double>());
    case json::value_t::string:
      return TupleElement(j.get<std::string>());
    case json::value_t::array: {
      auto nested = tuple_from_json(j, error);
      if (!nested) return std::nullopt;
      return TupleElement(std::move(*nested));
    }
    case json::value_t::object:
      return element_from_object(j, error);
    default:
      error = "unsupported JSON value " + j.dump();
      return std::nullopt;
  }
}

json double_to_json(double d) {
  if (std::isfinite(d)) return d;
  return json{{"double", non_finite_or_number(d)}};
}

json element_to_json(const TupleElement& e) {
  return std::visit(
      [](const auto& v) -> json {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, TupleNull>) return nullptr;
        if constexpr (std::is_same_v<T, TupleBytes>) return json{{"bytes", to_hex(v.bytes)}};
        if constexpr (std::is_same_v<T, std::string>) return v;
        if constexpr (std::is_same_v<T, Tuple>) return tuple_to_json(v);
        if constexpr (std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::uint64_t>) return v;
        if constexpr (std::is_same_v<T, float>) {
          return json{{"float", non_finite_or_number(static_cast<double>(v))}};
        }
        if constexpr (std::is_same_v<T, double>) return double_to_json(v);
        if constexpr (std::is_same_v<T, bool>) return v;
        if constexpr (std::is_same_v<T, Uuid>) return json{{"uuid", format_uuid(v)}};
        if constexpr (std::is_same_v<T, Versionstamp>) {
          return json{{"versionstamp",
                       to_hex(BytesView(reinterpret_cast<const char*>(v.transaction.data()), 10))},
                      {"user_version", v.user_version}};
        }
      },
      e.value);
}

}  // namespace

std::optional<json> parse_tuple_json(const std::string& text, std::string& error) {
  NumberLiteralFinder finder;
  if (!json::sax_parse(text, &finder)) {
    error = "not valid JSON (" + finder.failure + "): " + text;
    return std::nullopt;
  }
  if (!finder.wide.empty()) {
    error = "the integer " + finder.wide +
            " is outside int64 and uint64, the integers the tuple layer packs (a double is "
            "written with a fraction or an exponent: " +
            finder.wide + ".0)";
    return std::nullopt;
  }
  if (!finder.underflow.empty()) {
    error = fmt::format(
        "the number {} is below a double's smallest magnitude ({}), and would pack as 0; zero is "
        "0.0",
        finder.underflow, std::numeric_limits<double>::denorm_min());
    return std::nullopt;
  }
  std::string duplicate;
  json j = model::parse_json_unique_keys(text, duplicate);
  if (j.is_discarded()) {
    error = duplicate.empty() ? "not valid JSON: " + text
                              : model::DuplicateKey(duplicate).what() + (": " + text);
    return std::nullopt;
  }
  return j;
}

std::optional<Tuple> tuple_from_json(const json& array, std::string& error) {
  if (!array.is_array()) {
    error = "expected a JSON array, got " + array.dump();
    return std::nullopt;
  }
  Tuple t;
  for (std::size_t i = 0; i < array.size(); ++i) {
    std::string why;
    auto e = element_from_json(array[i], why);
    if (!e) {
      error = "element " + std::to_string(i) + ": " + why;
      return std::nullopt;
    }
    t.items.push_back(std::move(*e));
  }
  return t;
}

json tuple_to_json(const Tuple& tuple) {
  json out = json::array();
  for (const TupleElement& e : tuple.items)
    out.push_back(element_to_json(e));
  return out;
}

}  // namespace contend::cli
