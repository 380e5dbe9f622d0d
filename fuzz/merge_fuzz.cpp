// Fuzz target: `contend merge` input. The bytes are one or two shard reports (split at the first
// 0x00 byte); merging never throws and never crashes, and answers with one of its exit codes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/invariant.h"
#include "scenarios/cli/merge.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace contend::cli;
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<std::pair<std::string, std::string>> reports;
  const auto split = text.find('\0');
  reports.emplace_back("a.json", text.substr(0, split));
  if (split != std::string::npos) reports.emplace_back("b.json", text.substr(split + 1));
  MergeOutcome out = merge_reports(reports);
  CONTEND_ASSERT(
      out.exit_code == 0 || out.exit_code == 1 || out.exit_code == 2 || out.exit_code == 4,
      "merge answers with one of its exit codes");
  CONTEND_ASSERT((out.exit_code == 2) == !out.error.empty(), "bad input, and only it, says why");
  return 0;
}
