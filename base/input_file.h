// Opening a file a user named, for reading. std::ifstream opens a directory on Linux and then
// reads nothing from it, so a reader would take a directory for an empty input: `contend check
// /tmp` judged an empty history linearizable, `contend run /tmp` ran a scenario of defaults, and
// `contend serializable /tmp` found no commit to doubt. open_input refuses a directory, and says
// why a file could not be opened.
#pragma once

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <system_error>

namespace contend {

// The file at `path`, opened for binary reading; or nothing, and `why` says what stops it ("it is
// a directory", "No such file or directory", ...), for the caller's message about the path.
inline std::optional<std::ifstream> open_input(const std::string& path, std::string& why) {
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) {
    why = "it is a directory";
    return std::nullopt;
  }
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    why = errno != 0 ? std::strerror(errno) : "it cannot be opened";
    return std::nullopt;
  }
  return in;
}

}  // namespace contend
