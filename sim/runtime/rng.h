// Deterministic randomness: xoshiro256** seeded through splitmix64, with our own distribution
// code (std:: distributions differ between standard libraries, which would break reproduction).
//
// Invariants: the same seed gives the same sequence on every platform and build type; child()
// derives an independent stream from (this stream's seed, a tag) without consuming draws, so
// adding a component never shifts another component's draws.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <string>

#include "base/invariant.h"
#include "base/splitmix.h"

namespace contend {

class Rng {
 public:
  explicit Rng(std::uint64_t seed = 0) : seed_(seed) {
    std::uint64_t s = seed;
    for (auto& word : state_)
      word = splitmix64(s);
  }

  std::uint64_t seed() const { return seed_; }

  std::uint64_t next() {
    const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }

  // Uniform in [0, n) without modulo bias (Lemire's multiply-and-reject). REQUIRES: n > 0.
  std::uint64_t uniform(std::uint64_t n) {
    CONTEND_ASSERT(n > 0, "uniform over an empty range");
    for (;;) {
      __extension__ using u128 = unsigned __int128;
      u128 m = static_cast<u128>(next()) * n;
      auto low = static_cast<std::uint64_t>(m);
      if (low >= n || low >= (-n) % n) {
        const auto drawn = static_cast<std::uint64_t>(m >> 64);
        CONTEND_DEBUG_ASSERT(drawn < n, "uniform draws below n");
        return drawn;
      }
    }
  }
  // Uniform in [lo, hi]. REQUIRES: lo <= hi.
  std::int64_t range(std::int64_t lo, std::int64_t hi) {
    CONTEND_ASSERT(lo <= hi, "range over an inverted interval");
    auto span = static_cast<std::uint64_t>(hi - lo) + 1;
    if (span == 0) return static_cast<std::int64_t>(next());  // the full 64-bit range
    return lo + static_cast<std::int64_t>(uniform(span));
  }
  // Uniform double in [0, 1).
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  // True with probability p (p <= 0 never draws true, p >= 1 always).
  bool chance(double p) {
    if (p <= 0.0) return false;
    if (p >= 1.0) return true;
    return unit() < p;
  }
  // Exponential with the given mean, by inversion. 1 - unit() is exact (unit() lies on the 2^-53
  // grid) and in (0, 1], so log needs no log1p (a third slower); glibc's log is deterministic
  // for the same input, which keeps every build's draws identical.
  double exponential(double mean) {
    CONTEND_ASSERT(mean >= 0, "an exponential's mean is not negative");
    return -mean * std::log(1.0 - unit());
  }

  // An independent stream for a component, keyed by a tag.
  Rng child(std::uint64_t tag) const {
    std::uint64_t s = seed_ ^ (tag * 0xd1b54a32d192ed03ULL);
    return Rng(splitmix64(s));
  }
  Rng child(const std::string& tag) const { return child(fnv1a(tag)); }

  static std::uint64_t fnv1a(const std::string& text) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char c : text)
      h = (h ^ c) * 0x100000001b3ULL;
    return h;
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t seed_;
  std::array<std::uint64_t, 4> state_{};
};

}  // namespace contend
