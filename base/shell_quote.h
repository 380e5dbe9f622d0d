// A word as a POSIX shell reads it back: the commands contend prints for a user to paste
// ("reproduce: contend replay FILE --seed 7") name files, and a path with a space or a quote
// printed bare split into two words or opened a quote, so the pasted command did not run.
#pragma once

#include <string>
#include <string_view>

namespace contend {

// Whether a shell reads `c` as itself anywhere in a word (no quoting, expansion or splitting).
constexpr bool shell_plain(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::string_view("_-./:,+=@%").find(c) != std::string_view::npos;
}

// `word` unchanged when every character is plain (and it is not empty); else in single quotes,
// each ' in it written '\'' — the shell then reads it back as `word`, one word.
inline std::string shell_quoted(std::string_view word) {
  bool plain = !word.empty();
  for (char c : word)
    plain = plain && shell_plain(c);
  if (plain) return std::string(word);
  std::string out = "'";
  for (char c : word)
    out += c == '\'' ? std::string_view("'\\''") : std::string_view(&c, 1);
  return out + "'";
}

// A path as a command's argument: shell_quoted, and a relative path that begins with '-' as
// "./-..." (bare, a command line reads it as an option, quoted or not).
inline std::string shell_quoted_path(std::string_view path) {
  if (!path.empty() && path.front() == '-') return shell_quoted("./" + std::string(path));
  return shell_quoted(path);
}

}  // namespace contend
