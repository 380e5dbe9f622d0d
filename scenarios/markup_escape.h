// Escaping text for HTML and XML attributes and text alike: &, <, > and " become entities; the
// control characters XML 1.0 cannot hold at all, even as references (all below 0x20 but tab,
// newline and carriage return, and DEL), are written as the text \xNN, so that a scenario named
// "a\u0001b" still gives a JUnit file a CI server can parse; every other byte is kept. Shared by
// the HTML report and the JUnit XML report.
#pragma once

#include <cstdio>
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
        if (const auto byte = static_cast<unsigned char>(c);
            (byte < 0x20 && c != '\t' && c != '\n' && c != '\r') || byte == 0x7f) {
          char hex[5];
          std::snprintf(hex, sizeof hex, "\\x%02x", byte);
          out += hex;
        } else {
          out += c;
        }
    }
  }
  return out;
}

}  // namespace contend
