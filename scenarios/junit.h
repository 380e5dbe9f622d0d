// JUnit XML of one test case in a suite named "contend": what `run`, `replay` and `explore` hand a
// CI's test view. A case carries properties, and at most one of a failure (its message, its type
// and a body: why and how to reproduce it) or a skip (its message). Every text is escaped.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace contend {

struct JunitFailure {
  std::string message;
  std::string type;  // "unexpected verdict", "unknown verdict", ...
  std::string body;
};

struct JunitCase {
  std::string classname;
  std::string name;
  double seconds = 0;
  std::vector<std::pair<std::string, std::string>> properties;  // name, value; in this order
  std::optional<JunitFailure> failure;
  std::optional<std::string> skipped;  // the message of a case that checked nothing
};

std::string junit_document(const JunitCase& c);

}  // namespace contend
