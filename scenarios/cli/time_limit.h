// explore's --max-seconds: a limit of wall-clock time on an exhaustive search, for a CI job or a
// pod with a deadline of its own. While a StopAtTimeLimit lives, one thread waits for the limit;
// when the limit passes first, it says so on stderr and calls `stop` once (contend explore asks
// the search to stop as a signal does: each unit ends the run it is in, no unit starts, the
// checkpoint is written and the statement says what was covered). Destroyed before the limit, it
// stops waiting at once and never calls `stop`.
// The clock is read here, in the command, and only to stop: the search itself reads none, so
// every execution it runs is the one any other run of it makes; what a limit changes is how far
// the search got, which the statement says.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

namespace contend::cli {

class StopAtTimeLimit {
 public:
  // REQUIRES: `seconds`, when there is one, above 0. Without one nothing waits.
  StopAtTimeLimit(std::optional<double> seconds, std::function<void()> stop);
  ~StopAtTimeLimit() = default;  // the waiting thread is asked to stop and joined
  StopAtTimeLimit(const StopAtTimeLimit&) = delete;
  StopAtTimeLimit& operator=(const StopAtTimeLimit&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable_any wake_;
  std::jthread waiter_;  // last: destroyed (joined) before the members it uses
};

}  // namespace contend::cli
