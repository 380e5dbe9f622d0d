// A driver for the fuzz targets without libFuzzer (any compiler): runs the target on every file
// of the corpus directories given, then on `--mutations N` inputs made from them by a fixed
// splitmix64 stream (byte flips, insertions, deletions, truncations, splices). The same command
// line gives the same inputs on every machine. Usage:
//   <target>_replay [--mutations N] DIR_OR_FILE...
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "base/splitmix.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

using contend::splitmix64;

// Bytes that matter to the formats under test: brackets, quotes, escapes, tuple codes.
constexpr char kStructural[] = {'[',    ']',    '{',    '}', '"', '\\', '0', '\x05', '\x00',
                                '\x01', '\x02', '\xff', ':', ',', '.',  '=', '/',    '\n'};

void run(const std::string& input) {
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
}

std::string mutate(std::string s, const std::vector<std::string>& corpus, std::uint64_t& rng) {
  const int edits = 1 + static_cast<int>(splitmix64(rng) % 4);
  for (int i = 0; i < edits; ++i) {
    const std::uint64_t r = splitmix64(rng);
    const std::size_t at = s.empty() ? 0 : static_cast<std::size_t>(r >> 8) % (s.size() + 1);
    switch (r % 6) {
      case 0:  // flip a byte
        if (!s.empty()) s[at % s.size()] = static_cast<char>(splitmix64(rng));
        break;
      case 1:  // insert a byte (often a structural one)
        s.insert(at, 1, kStructural[splitmix64(rng) % sizeof kStructural]);
        break;
      case 2:  // delete a run
        if (!s.empty()) s.erase(at % s.size(), 1 + splitmix64(rng) % 8);
        break;
      case 3:  // truncate
        s.resize(at);
        break;
      case 4: {  // splice in part of another input
        const std::string& other = corpus[splitmix64(rng) % corpus.size()];
        const std::size_t from = other.empty() ? 0 : splitmix64(rng) % other.size();
        s.insert(at, other.substr(from, 1 + splitmix64(rng) % 32));
        break;
      }
      default:  // duplicate a run (nesting, repetition)
        if (!s.empty()) s.insert(at, s.substr(at % s.size(), 1 + splitmix64(rng) % 16));
        break;
    }
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t mutations = 0;
  std::vector<std::string> corpus;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--mutations" && i + 1 < argc) {
      mutations = std::strtoull(argv[++i], nullptr, 10);
      continue;
    }
    std::vector<std::filesystem::path> files;
    if (std::filesystem::is_directory(arg)) {
      for (const auto& entry : std::filesystem::directory_iterator(arg))
        if (entry.is_regular_file()) files.push_back(entry.path());
    } else {
      files.emplace_back(arg);
    }
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      std::ifstream in(f, std::ios::binary);
      std::ostringstream text;
      text << in.rdbuf();
      corpus.push_back(text.str());
    }
  }
  if (corpus.empty()) {
    std::fprintf(stderr, "replay: no corpus inputs\n");
    return 2;
  }
  for (const std::string& input : corpus)
    run(input);
  std::uint64_t rng = 0x5eed;
  for (std::uint64_t n = 0; n < mutations; ++n)
    run(mutate(corpus[splitmix64(rng) % corpus.size()], corpus, rng));
  std::printf("replay: %zu corpus inputs, %llu mutations, no failure\n", corpus.size(),
              static_cast<unsigned long long>(mutations));
  return 0;
}
