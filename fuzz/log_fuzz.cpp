// Fuzz target: `contend serializable` input, a transaction log of contend's libfdb_c. Judging it
// never throws and never crashes (an inverted range once sent the replay past a map's end), and
// answers with one of its exit codes and a message: bad input naming the log, or the verdict.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "base/invariant.h"
#include "scenarios/cli/transaction_log_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace contend::cli;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  const LogCheck out = check_transaction_log(in, "log.jsonl");
  CONTEND_ASSERT(out.exit_code >= 0 && out.exit_code <= 2,
                 "serializable answers with one of its exit codes");
  CONTEND_ASSERT(!out.message.empty(), "every answer says something");
  CONTEND_ASSERT(out.exit_code != 2 || out.message.starts_with("log.jsonl"),
                 "bad input names the log");
  return 0;
}
