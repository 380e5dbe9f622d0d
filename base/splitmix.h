// splitmix64 (Steele, Lea, Flood: "Fast splittable pseudorandom number generators", 2014): the
// one 64-bit mixer contend uses to seed generators and to draw from a plain counter state.
//
// Invariant: the same state gives the same value on every platform and build type; each call
// advances `state` by the golden-ratio increment, so a stream never repeats within 2^64 calls.
#pragma once

#include <cstdint>

namespace contend {

// The next value of the stream whose state is `state` (advanced).
inline std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace contend
