// Escaping text for HTML and XML attributes and text alike: &, <, > and " become entities, every
// other byte is kept. Shared by the HTML report and the JUnit XML report.
#pragma once

#include <string>

namespace contend {

inline std::string markup_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace contend
