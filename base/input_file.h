// Opening a file a user named, for reading: refused when it is a directory, and read no further
// than a bound on its kind of file.
//
// std::ifstream opens a directory on Linux and then reads nothing from it, so a reader would take
// a directory for an empty input: `contend check /tmp` judged an empty history linearizable,
// `contend run /tmp` ran a scenario of defaults, and `contend serializable /tmp` found no commit to
// doubt. open_input refuses a directory, and says why a file could not be opened.
//
// Nothing bounded what was read either: `contend run /dev/zero`, `check`, `serializable` and
// `merge` of it grew a string until memory ran out, and `explore --checkpoint` of an endless pipe
// read it forever. Every file is now read through an InputFile, which ends the input at its
// kind's bound and says whether it cut the file short; a regular file over the bound is refused
// before any of it is read. The bounds (units last):
#pragma once

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <streambuf>
#include <string>
#include <system_error>

namespace contend {

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;

// A scenario, or libfdb_c's config (CONTEND_FDB_CONFIG): a few dozen lines of TOML (the shipped
// scenarios are under 2 KiB, a scenario contend writes under 1 KiB); 1 MiB is far past any.
constexpr std::uint64_t kScenarioBytesMax = kMiB;
// A history for `contend check` (some 90 bytes an event), or a transaction log for `contend
// serializable` (a few hundred bytes a commit attempt): 1 GiB is some ten million events, more
// than a checker judges in hours, and is held in memory several times over once parsed.
constexpr std::uint64_t kHistoryBytesMax = kGiB;
// A run report for `contend merge` (some 1 KB a seed; an exhaustive summary is a few KB): 1 GiB is
// a million seeds in one shard's report (merge reads it as a stream, one run at a time).
constexpr std::uint64_t kRunReportBytesMax = kGiB;
// A search checkpoint, or a sized search's file for `--deal-from`: the largest measured, a sized
// hc-queue 4 x 2 search's, is 517 MB and loads at a peak of 1.1 GB (docs/distributed.md); 4 GiB is
// eight times that, and loading it stays within a machine's memory.
constexpr std::uint64_t kCheckpointBytesMax = 4 * kGiB;

// What a file is read as: its name in messages and its bound.
struct InputKind {
  const char* what;  // "a scenario", in "more than 1 MiB, the most contend reads of a scenario"
  std::uint64_t bytes_max;
};

inline constexpr InputKind kScenarioInput{"a scenario", kScenarioBytesMax};
inline constexpr InputKind kFdbConfigInput{"a libfdb_c config", kScenarioBytesMax};
inline constexpr InputKind kHistoryInput{"a history", kHistoryBytesMax};
inline constexpr InputKind kTransactionLogInput{"a transaction log", kHistoryBytesMax};
inline constexpr InputKind kRunReportInput{"a run report", kRunReportBytesMax};
inline constexpr InputKind kCheckpointInput{"a checkpoint", kCheckpointBytesMax};

// A byte count as a reader would write it: "1 MiB", "4 GiB", or its bytes when not whole MiB.
inline std::string bytes_text(std::uint64_t bytes) {
  if (bytes != 0 && bytes % kGiB == 0) return std::to_string(bytes / kGiB) + " GiB";
  if (bytes != 0 && bytes % kMiB == 0) return std::to_string(bytes / kMiB) + " MiB";
  return std::to_string(bytes) + " bytes";
}

// Why a file over its kind's bound is refused, for the caller's message about its path.
inline std::string over_bound_reason(const InputKind& kind) {
  return "it holds more than " + bytes_text(kind.bytes_max) + ", the most contend reads of " +
         kind.what;
}

// How read_line_within ended: a line read, nothing left to read, or a line past the bound.
enum class LineRead { line, end, too_long };

// Reads the next line of `in` into `text` (without its '\n') as std::getline does, but holds no
// more than `bytes_max` of it: a longer line is too_long, read no further than its first
// `bytes_max` + 1 bytes, so one endless line takes no more memory than the bound.
inline LineRead read_line_within(std::istream& in, std::string& text, std::size_t bytes_max) {
  using traits = std::istream::traits_type;
  text.clear();
  std::streambuf* source = in.rdbuf();
  for (traits::int_type c = source->sbumpc();; c = source->sbumpc()) {
    if (traits::eq_int_type(c, traits::eof())) {
      in.setstate(std::ios::eofbit);
      return text.empty() ? LineRead::end : LineRead::line;
    }
    if (traits::to_char_type(c) == '\n') return LineRead::line;
    if (text.size() == bytes_max) return LineRead::too_long;
    text.push_back(traits::to_char_type(c));
  }
}

// A stream buffer that gives what `source` holds up to `bytes_max` bytes, and then ends as if
// the source had: a reader sees a file cut at the bound, and cut_short() says it was.
class BoundedStreamBuffer : public std::streambuf {
 public:
  BoundedStreamBuffer(std::streambuf* source, std::uint64_t bytes_max)
      : source_(source), left_bytes_(bytes_max) {}
  BoundedStreamBuffer(const BoundedStreamBuffer&) = delete;
  BoundedStreamBuffer& operator=(const BoundedStreamBuffer&) = delete;

  // Whether the bound was reached with bytes still left in the source.
  bool cut_short() const { return cut_short_; }

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    if (left_bytes_ == 0) {
      cut_short_ = cut_short_ || source_->sgetc() != traits_type::eof();
      return traits_type::eof();
    }
    const std::uint64_t want = std::min<std::uint64_t>(buffer_.size(), left_bytes_);
    const std::streamsize got = source_->sgetn(buffer_.data(), static_cast<std::streamsize>(want));
    if (got <= 0) return traits_type::eof();
    left_bytes_ -= static_cast<std::uint64_t>(got);
    setg(buffer_.data(), buffer_.data(), buffer_.data() + got);
    return traits_type::to_int_type(buffer_[0]);
  }

 private:
  std::streambuf* source_;
  std::uint64_t left_bytes_;
  bool cut_short_ = false;
  std::array<char, 1 << 16> buffer_{};
};

// A file (or standard input) opened for reading no more than its kind's bound. Read it through
// stream(); once read, cut_short() says the bound ended it, and then what was read is not the
// file: the caller refuses it with over_bound_reason() rather than judging it.
class InputFile {
 public:
  InputFile(std::unique_ptr<std::ifstream> file, std::streambuf* source, const InputKind& kind)
      : file_(std::move(file)), kind_(kind), buffer_(source, kind.bytes_max), stream_(&buffer_) {}
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  std::istream& stream() { return stream_; }
  bool cut_short() const { return buffer_.cut_short(); }
  std::string over_bound_reason() const { return contend::over_bound_reason(kind_); }

 private:
  std::unique_ptr<std::ifstream> file_;  // null for standard input
  InputKind kind_;
  BoundedStreamBuffer buffer_;
  std::istream stream_;
};

// Whether `path` is a regular file larger than `kind` allows (what is not a regular file, a pipe
// or a device, is bounded as it is read).
inline bool over_bound_already(const std::string& path, const InputKind& kind) {
  std::error_code unknown;
  if (!std::filesystem::is_regular_file(path, unknown)) return false;
  const std::uintmax_t size = std::filesystem::file_size(path, unknown);
  return !unknown && size > kind.bytes_max;
}

// The file at `path`, opened for binary reading of at most kind.bytes_max bytes; or nothing, and
// `why` says what stops it ("it is a directory", "No such file or directory", over_bound_reason),
// for the caller's message about the path.
inline std::unique_ptr<InputFile> open_input(const std::string& path, const InputKind& kind,
                                             std::string& why) {
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) {
    why = "it is a directory";
    return nullptr;
  }
  if (over_bound_already(path, kind)) {
    why = over_bound_reason(kind);
    return nullptr;
  }
  errno = 0;
  auto file = std::make_unique<std::ifstream>(path, std::ios::binary);
  if (!*file) {
    why = errno != 0 ? std::strerror(errno) : "it cannot be opened";
    return nullptr;
  }
  std::streambuf* source = file->rdbuf();
  return std::make_unique<InputFile>(std::move(file), source, kind);
}

// Standard input, read as a file of `kind` is.
inline std::unique_ptr<InputFile> open_standard_input(const InputKind& kind) {
  return std::make_unique<InputFile>(nullptr, std::cin.rdbuf(), kind);
}

// The whole text of the file at `path`, read as open_input opens it; or nothing, and `why` says
// what stopped it (as open_input's, or over_bound_reason when the bound cut it short).
inline std::optional<std::string> read_input(const std::string& path, const InputKind& kind,
                                             std::string& why) {
  std::unique_ptr<InputFile> in = open_input(path, kind, why);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in->stream().rdbuf();
  if (in->cut_short()) {
    why = in->over_bound_reason();
    return std::nullopt;
  }
  return text.str();
}

}  // namespace contend
