// Fuzz target: scenario TOML. Any text parses or is refused with a message naming the file; a
// scenario that parses writes back (to_toml) as TOML that parses to a scenario writing the same.
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/invariant.h"
#include "scenarios/runner.h"
#include "scenarios/scenario.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace contend;
  const std::string text(reinterpret_cast<const char*>(data), size);
  ScenarioError error;
  std::optional<Scenario> s = parse_scenario(text, "fuzz.toml", error);
  if (!s) {
    CONTEND_ASSERT(!error.message.empty(), "a refused scenario says why");
    return 0;
  }
  (void)validate_scenario(*s);
  const std::string written = to_toml(*s);
  ScenarioError again_error;
  std::optional<Scenario> again = parse_scenario(written, "fuzz.toml", again_error);
  CONTEND_ASSERT(again.has_value(), "a written scenario parses");
  CONTEND_ASSERT(to_toml(*again) == written, "to_toml and parse_scenario round-trip");
  return 0;
}
