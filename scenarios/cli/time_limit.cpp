#include "scenarios/cli/time_limit.h"

#include <chrono>

#include "base/invariant.h"

namespace contend::cli {

StopAtTimeLimit::StopAtTimeLimit(std::optional<double> seconds, std::function<void()> stop) {
  if (!seconds) return;
  CONTEND_ASSERT(*seconds > 0, "a time limit is above 0 s");
  using Clock = std::chrono::steady_clock;
  const Clock::time_point deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                        std::chrono::duration<double>(*seconds));
  waiter_ = std::jthread([this, deadline, stop = std::move(stop)](std::stop_token token) {
    std::unique_lock lock(mutex_);
    // No predicate turns true: the wait ends at the deadline or when the owner asks it to.
    wake_.wait_until(lock, token, deadline, [] { return false; });
    if (!token.stop_requested()) stop();
  });
}

}  // namespace contend::cli
