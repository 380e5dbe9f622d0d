// A bound on what nlohmann's JSON lexer holds at once while it reads a stream.
//
// The lexer keeps every byte it reads from the start of a token to its end, and the white space
// before a token with it: a checkpoint of 1 GiB of spaces (within its 4 GiB bound) peaked at
// 3 GB before it was refused, one of 4 GiB at some 12 GB. Read through a JsonRunBound, a text is
// ended (as if it ended there) once a run of bytes between two of JSON's structural characters
// outside a string — a string, a number or a literal with the white space around it — passes the
// bound, and over_bound_at() says where: the parse then fails, and the caller names the byte.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <streambuf>
#include <string>

#include "base/input_file.h"

namespace contend {

class JsonRunBound : public std::streambuf {
 public:
  JsonRunBound(std::streambuf* source, std::uint64_t run_bytes_max)
      : source_(source), run_bytes_max_(run_bytes_max) {}
  JsonRunBound(const JsonRunBound&) = delete;
  JsonRunBound& operator=(const JsonRunBound&) = delete;

  // The offset (from 0) of the byte at which a run passed the bound, once one has.
  std::optional<std::uint64_t> over_bound_at() const { return over_bound_at_; }
  // Where a run passed the bound, for the caller's message about its file ("" while none did):
  // "at byte 1048576, more than 1 MiB of one value or of white space".
  std::string over_bound_reason() const {
    if (!over_bound_at_) return {};
    return "at byte " + std::to_string(*over_bound_at_) + ", more than " +
           bytes_text(run_bytes_max_) + " of one value or of white space";
  }

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    if (over_bound_at_) return traits_type::eof();
    const std::streamsize got =
        source_->sgetn(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    std::streamsize passed = 0;
    while (passed < got && within_bound(buffer_[static_cast<std::size_t>(passed)]))
      ++passed;
    if (passed < got) over_bound_at_ = offset_ + static_cast<std::uint64_t>(passed);
    offset_ += static_cast<std::uint64_t>(passed);
    if (passed <= 0) return traits_type::eof();
    setg(buffer_.data(), buffer_.data(), buffer_.data() + passed);
    return traits_type::to_int_type(buffer_[0]);
  }

 private:
  // Takes `c` into the run it is in; false when that makes the run longer than the bound.
  bool within_bound(char c) {
    if (in_string_) {
      in_string_ = escaped_ || c != '"';
      escaped_ = !escaped_ && c == '\\';
    } else if (c == '{' || c == '}' || c == '[' || c == ']' || c == ',' || c == ':') {
      run_bytes_ = 0;
      return true;
    } else {
      in_string_ = c == '"';
    }
    return ++run_bytes_ <= run_bytes_max_;
  }

  std::streambuf* source_;
  std::uint64_t run_bytes_max_;
  std::uint64_t run_bytes_ = 0;  // since the last structural character outside a string
  std::uint64_t offset_ = 0;     // of the next byte read from the source
  bool in_string_ = false;
  bool escaped_ = false;  // the byte before, in a string, was an escaping backslash
  std::optional<std::uint64_t> over_bound_at_;
  std::array<char, 1 << 16> buffer_{};
};

}  // namespace contend
