// The spool of the shards' run entries (run_spool.h).
#include "scenarios/cli/run_spool.h"

#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "base/invariant.h"

namespace contend::cli {

namespace {

constexpr std::size_t kFileBufferBytes = std::size_t{1} << 16;    // each file's, as it is written
constexpr std::size_t kReaderBufferBytes = std::size_t{1} << 14;  // each cursor's, per file
constexpr std::uint64_t kIndexEntryBytes = 2 * sizeof(std::uint64_t);

std::FILE* unnamed_temporary_file() {
  std::FILE* file = std::tmpfile();
  if (file != nullptr) std::setvbuf(file, nullptr, _IOFBF, kFileBufferBytes);
  return file;
}

}  // namespace

RunSpool::RunSpool()
    : index_(unnamed_temporary_file()),
      texts_(unnamed_temporary_file()),
      ok_(index_ != nullptr && texts_ != nullptr) {}

RunSpool::~RunSpool() {
  if (index_ != nullptr) std::fclose(index_);
  if (texts_ != nullptr) std::fclose(texts_);
}

SpoolRegion RunSpool::start_region() {
  region_ = SpoolRegion{region_.end_entry, region_.end_entry, region_.end_byte, region_.end_byte};
  return region_;
}

void RunSpool::add(std::uint64_t seed, std::string_view text) {
  if (!ok_) return;
  const std::uint64_t entry[2] = {seed, text.size()};
  ok_ = std::fwrite(entry, sizeof entry, 1, index_) == 1 &&
        std::fwrite(text.data(), 1, text.size(), texts_) == text.size();
  region_.end_entry += 1;
  region_.end_byte += text.size();
}

bool RunSpool::finish_writing() {
  if (ok_) ok_ = std::fflush(index_) == 0 && std::fflush(texts_) == 0;
  return ok_;
}

template <typename Take>
bool SpoolCursor::Reader::read(std::uint64_t bytes, Take with) {
  // Each turn takes a byte or more, or refills the buffer with a byte or more first.
  while (bytes > 0) {
    if (used == filled) {
      const std::uint64_t want = std::min<std::uint64_t>(buffer.size(), end - at);
      if (want == 0) return false;
      const ssize_t got = ::pread(fd, buffer.data(), want, static_cast<off_t>(at));
      if (got <= 0) return false;
      at += static_cast<std::uint64_t>(got);
      used = 0;
      filled = static_cast<std::size_t>(got);
    }
    const std::size_t take =
        static_cast<std::size_t>(std::min<std::uint64_t>(bytes, filled - used));
    with(buffer.data() + used, take);
    used += take;
    bytes -= take;
  }
  return true;
}

SpoolCursor::SpoolCursor(const RunSpool& spool, const SpoolRegion& region) {
  CONTEND_ASSERT(spool.ok(), "a spool read back was written whole");
  index_.fd = fileno(spool.index_);
  index_.at = region.first_entry * kIndexEntryBytes;
  index_.end = region.end_entry * kIndexEntryBytes;
  index_.buffer.resize(kReaderBufferBytes);
  texts_.fd = fileno(spool.texts_);
  texts_.at = region.first_byte;
  texts_.end = region.end_byte;
  texts_.buffer.resize(kReaderBufferBytes);
}

bool SpoolCursor::next() {
  if (text_bytes_ > 0) {  // the text of the entry before, not copied: skipped
    const std::uint64_t buffered =
        std::min<std::uint64_t>(text_bytes_, texts_.filled - texts_.used);
    texts_.used += static_cast<std::size_t>(buffered);
    texts_.at = std::min(texts_.end, texts_.at + (text_bytes_ - buffered));
    text_bytes_ = 0;
  }
  if (index_.used == index_.filled && index_.at == index_.end) return false;
  char entry[kIndexEntryBytes];
  std::size_t got = 0;
  ok_ = index_.read(sizeof entry, [&](const char* bytes, std::size_t count) {
    std::memcpy(entry + got, bytes, count);
    got += count;
  });
  if (!ok_) return false;
  std::memcpy(&seed_, entry, sizeof seed_);
  std::memcpy(&text_bytes_, entry + sizeof seed_, sizeof text_bytes_);
  return true;
}

bool SpoolCursor::copy_text(std::ostream& out) {
  const std::uint64_t bytes = text_bytes_;
  text_bytes_ = 0;
  ok_ = texts_.read(bytes, [&](const char* text, std::size_t count) {
    out.write(text, static_cast<std::streamsize>(count));
  });
  return ok_;
}

}  // namespace contend::cli
