// Virtual latencies for store steps: a floor, an exponential body, and a rare long tail.
// All draws come from the world's latency stream, so they reproduce from the seed.
#pragma once

#include <cstdint>

#include "base/invariant.h"
#include "sim/runtime/rng.h"
#include "sim/store/environment.h"

namespace contend {

struct LatencyDistribution {
  std::int64_t min_us = 0;
  std::int64_t mean_us = 0;       // mean of the exponential part above min_us
  double tail_probability = 0.0;  // chance of a long-tail delay on top
  std::int64_t tail_max_us = 0;   // the tail delay is uniform in [0, tail_max_us]

  std::int64_t draw(Rng& rng) const {
    CONTEND_ASSERT(min_us >= 0 && mean_us >= 0 && tail_max_us >= 0, "latencies are not negative");
    std::int64_t t = min_us;
    if (mean_us > 0) t += static_cast<std::int64_t>(rng.exponential(static_cast<double>(mean_us)));
    if (tail_max_us > 0 && rng.chance(tail_probability)) t += rng.range(0, tail_max_us);
    CONTEND_ASSERT(t >= min_us, "a step takes at least the minimum latency: time never goes back");
    return t;
  }
};

struct LatencyModel {
  LatencyDistribution read_version{300, 200, 0.001, 200'000};
  LatencyDistribution read{200, 150, 0.001, 200'000};
  LatencyDistribution commit{1'000, 500, 0.001, 500'000};

  std::int64_t draw(StepKind kind, bool needs_read_version, Rng& rng) const {
    switch (kind) {
      case StepKind::read_version:
        return read_version.draw(rng);
      case StepKind::read:
        return read.draw(rng) + (needs_read_version ? read_version.draw(rng) : 0);
      case StepKind::commit:
        return commit.draw(rng);
      case StepKind::sleep:
        return 0;
    }
    return 0;
  }
};

}  // namespace contend
