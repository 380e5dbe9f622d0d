// Where `contend merge` keeps the run entries of the shards' reports between reading them and
// writing the merged report, so that its memory does not grow with the seeds: two unnamed
// temporary files, one of each entry's seed and text length, one of the entries' texts (as the
// merged report lays them out, report_layout.h). Each shard's entries are one stretch of both (its
// region, written in the order read); a SpoolCursor reads a region back one entry at a time
// through buffers of its own, so the merge reads every shard's region at once.
#pragma once

#include <cstdint>
#include <cstdio>
#include <ostream>
#include <string_view>
#include <vector>

namespace contend::cli {

// A shard's stretch of the spool's files: its entries [first_entry, end_entry) of the index, and
// its texts' bytes [first_byte, end_byte).
struct SpoolRegion {
  std::uint64_t first_entry = 0;
  std::uint64_t end_entry = 0;
  std::uint64_t first_byte = 0;
  std::uint64_t end_byte = 0;
};

class RunSpool {
 public:
  RunSpool();
  RunSpool(const RunSpool&) = delete;
  RunSpool& operator=(const RunSpool&) = delete;
  ~RunSpool();

  // False when a file could not be made, or a write to one failed (a full disk).
  bool ok() const { return ok_; }
  // Starts a shard's region, which holds each entry added until the next start.
  SpoolRegion start_region();
  void add(std::uint64_t seed, std::string_view text);
  // The region started last, with every entry added since.
  const SpoolRegion& region() const { return region_; }
  // Flushes what was written, for the cursors to read it. False when it could not be.
  bool finish_writing();

 private:
  friend class SpoolCursor;
  std::FILE* index_ = nullptr;  // per entry: its seed, then its text's length (native order)
  std::FILE* texts_ = nullptr;
  SpoolRegion region_;
  bool ok_ = false;
};

// One region of a spool read back in the order written. REQUIRES: the spool outlives it, and its
// writing is finished.
class SpoolCursor {
 public:
  SpoolCursor(const RunSpool& spool, const SpoolRegion& region);
  // Moves to the next entry: false at the region's end, or when the files cannot be read (ok()).
  bool next();
  std::uint64_t seed() const { return seed_; }
  // Writes the text of the entry next() moved to (once). False when it could not be read.
  bool copy_text(std::ostream& out);
  bool ok() const { return ok_; }

 private:
  // Reading one of the spool's files from `at` to `end`, through a buffer.
  struct Reader {
    int fd = -1;
    std::uint64_t at = 0;
    std::uint64_t end = 0;
    std::vector<char> buffer;
    std::size_t used = 0;    // of buffer, read out already
    std::size_t filled = 0;  // of buffer, read from the file
    // The next `bytes` bytes, `with` each piece read (by their count). False when short.
    template <typename Take>
    bool read(std::uint64_t bytes, Take with);
  };

  Reader index_;
  Reader texts_;
  std::uint64_t seed_ = 0;
  std::uint64_t text_bytes_ = 0;
  bool ok_ = true;
};

}  // namespace contend::cli
