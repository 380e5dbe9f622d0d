#include "scenarios/junit.h"

#include <sstream>

#include "base/invariant.h"
#include "scenarios/markup_escape.h"

namespace contend {

std::string junit_document(const JunitCase& c) {
  CONTEND_ASSERT(!(c.failure && c.skipped), "a test case fails or is skipped, not both");
  const int failures = c.failure ? 1 : 0;
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<testsuites tests=\"1\" failures=\"" << failures << "\">\n"
      << "  <testsuite name=\"contend\" tests=\"1\" failures=\"" << failures
      << "\" errors=\"0\" skipped=\"" << (c.skipped ? 1 : 0) << "\" time=\"" << c.seconds << "\">\n"
      << "    <testcase classname=\"" << markup_escape(c.classname) << "\" name=\""
      << markup_escape(c.name) << "\" time=\"" << c.seconds << "\">\n";
  out << "      <properties>\n";
  for (const auto& [name, value] : c.properties) {
    out << "        <property name=\"" << markup_escape(name) << "\" value=\""
        << markup_escape(value) << "\"/>\n";
  }
  out << "      </properties>\n";
  if (c.failure) {
    out << "      <failure message=\"" << markup_escape(c.failure->message) << "\" type=\""
        << markup_escape(c.failure->type) << "\">" << markup_escape(c.failure->body)
        << "</failure>\n";
  } else if (c.skipped) {
    out << "      <skipped message=\"" << markup_escape(*c.skipped) << "\"/>\n";
  }
  out << "    </testcase>\n  </testsuite>\n</testsuites>\n";
  return out.str();
}

}  // namespace contend
