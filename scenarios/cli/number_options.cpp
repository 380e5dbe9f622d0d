#include "scenarios/cli/number_options.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <optional>
#include <string>
#include <system_error>

#include "base/decimal.h"
#include "scenarios/seed_range.h"

namespace contend::cli {

CLI::Validator whole_number_in(std::int64_t least, std::int64_t most) {
  const std::string range = fmt::format("{} to {}", least, most);
  return CLI::Validator(
      [least, most, range](std::string& text) -> std::string {
        const std::optional<std::int64_t> n = parse_decimal<std::int64_t>(text);
        if (!n || *n < least || *n > most)
          return fmt::format("'{}' is not a whole number from {}", text, range);
        text = std::to_string(*n);
        return "";
      },
      fmt::format("[{}, {}]", least, most));
}

CLI::Validator jobs_number() {
  return whole_number_in(1, kJobsMax);
}

CLI::Validator not_empty() {
  return CLI::Validator(
      [](const std::string& text) -> std::string {
        return text.empty() ? "an empty value names nothing; leave the flag out instead" : "";
      },
      "");
}

CLI::Validator seed_number() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        const std::optional<std::uint64_t> n = parse_decimal<std::uint64_t>(text);
        if (!n)
          return fmt::format("'{}' is not a seed: a whole number from 0 to {}", text, kSeedMax);
        if (*n > kSeedMax) return past_largest_seed(text);
        text = std::to_string(*n);
        return "";
      },
      fmt::format("[0, {}]", kSeedMax));
}

CLI::Validator finite_number_in(double least, double most) {
  const std::string range = fmt::format("{} to {}", least, most);
  return CLI::Validator(
      [least, most, range](std::string& text) -> std::string {
        double x = 0;
        const char* first = text.data();
        const char* last = text.data() + text.size();
        const bool digit_first =
            !text.empty() && ((text.front() >= '0' && text.front() <= '9') || text.front() == '.');
        const auto [end, ec] = std::from_chars(first, last, x, std::chars_format::general);
        if (!digit_first || ec != std::errc() || end != last || !std::isfinite(x) || x < least ||
            x > most) {
          return fmt::format("'{}' is not a number from {}", text, range);
        }
        return "";
      },
      fmt::format("[{}, {}]", least, most));
}

}  // namespace contend::cli
