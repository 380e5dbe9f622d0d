// The longest dotted key in a TOML text, found before toml++ parses it.
//
// toml++ bounds how deep arrays and inline tables nest (256), but not how many parts a dotted key
// or a table header has: it recurses once a part, and a scenario of `a.a.a...` (50,000 parts, 100
// KB, within its 1 MiB bound) overflowed the stack inside toml::parse. A reader refuses a text
// whose longest key has more parts than it takes, before parsing it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace contend {

struct DottedKey {
  std::size_t parts = 0;  // `a.b.c` has 3; bare or quoted parts, white space around the dots
  std::size_t line = 0;   // 1-based, of its last part
};

namespace toml_scan {

inline bool is_bare_key_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

// The index just past the string that opens at `at` (a basic or literal string, one-line or
// multi-line), counting its newlines into `line`; the text's end when it is not closed.
inline std::size_t past_string(std::string_view text, std::size_t at, std::size_t& line) {
  const char quote = text[at];
  const bool multi_line = text.substr(at, 3) == std::string_view(quote == '"' ? "\"\"\"" : "'''");
  const std::string_view delimiter = text.substr(at, multi_line ? 3 : 1);  // closes it too
  for (std::size_t i = at + delimiter.size(); i < text.size(); ++i) {
    if (quote == '"' && text[i] == '\\') {
      ++i;  // what it escapes is not the string's end (a newline it escapes is still counted)
      if (i < text.size() && text[i] == '\n') ++line;
      continue;
    }
    if (text[i] == '\n') {
      if (!multi_line) return i;  // not closed on its line: the parse names it
      ++line;
    }
    if (text.substr(i, delimiter.size()) == delimiter) return i + delimiter.size();
  }
  return text.size();
}

}  // namespace toml_scan

// The dotted key of `text` with the most parts (outside strings and comments, any run of bare or
// quoted parts joined by dots counts, as a float's `1.5` does: two parts).
inline DottedKey longest_dotted_key(std::string_view text) {
  DottedKey longest;
  std::size_t line = 1;
  std::size_t parts = 0;   // of the key being read; 0: none
  bool after_dot = false;  // the key's last token was a dot: a part may follow
  auto add_part = [&] {
    parts = parts > 0 && after_dot ? parts + 1 : 1;
    after_dot = false;
    if (parts > longest.parts) longest = DottedKey{parts, line};
  };
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '"' || c == '\'') {
      add_part();
      i = toml_scan::past_string(text, i, line);
    } else if (toml_scan::is_bare_key_char(c)) {
      add_part();
      while (i < text.size() && toml_scan::is_bare_key_char(text[i]))
        ++i;
    } else if (c == '.' && parts > 0 && !after_dot) {
      after_dot = true;
      ++i;
    } else if (c == ' ' || c == '\t') {
      ++i;
    } else {
      parts = 0;
      after_dot = false;
      if (c == '#') {
        while (i < text.size() && text[i] != '\n')
          ++i;
      } else {
        if (c == '\n') ++line;
        ++i;
      }
    }
  }
  return longest;
}

// Why `text` is refused when its longest dotted key has more than `parts_max` parts, for the
// caller to put after "FILE:" ("2: a dotted key of more than 16 parts"); "" when it has none.
inline std::string dotted_key_refusal(std::string_view text, std::size_t parts_max) {
  const DottedKey key = longest_dotted_key(text);
  if (key.parts <= parts_max) return {};
  return std::to_string(key.line) + ": a dotted key of more than " + std::to_string(parts_max) +
         " parts";
}

}  // namespace contend
