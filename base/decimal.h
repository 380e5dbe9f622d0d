// Reading an integer a user or a file wrote as text: decimal digits only, the whole text, with
// a leading '-' for a signed type; no space, '+', base prefix or exponent, and a value past the
// type is no value (never wrapped or clamped). The one reading of such numbers in contend, so
// that "010" is ten and "-3" is never a huge seed wherever a number is typed.
#pragma once

#include <charconv>
#include <concepts>
#include <optional>
#include <string_view>
#include <system_error>

namespace contend {

template <std::integral T>
std::optional<T> parse_decimal(std::string_view text) {
  T value{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace contend
