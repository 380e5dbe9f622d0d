// Stopping a long exhaustive search cleanly: while a StopOnSignals lives, the first SIGINT
// (Ctrl-C) or SIGTERM (a pod's or a CI runner's stop) asks the search to stop
// (ExhaustiveOptions::stop_requested) instead of killing the process, so the search ends its
// units' runs, writes its checkpoint and says what it covered. The handlers are one-shot: a second
// signal takes its default action and kills. A signal the process was started ignoring stays
// ignored. The old handlers come back when it is destroyed.
// One StopOnSignals at a time in a process (the handler's state is the process's).
#pragma once

#include <atomic>
#include <csignal>

namespace contend::cli {

class StopOnSignals {
 public:
  StopOnSignals();
  ~StopOnSignals();
  StopOnSignals(const StopOnSignals&) = delete;
  StopOnSignals& operator=(const StopOnSignals&) = delete;

  // Becomes true at the first signal (read it from any thread).
  const std::atomic<bool>& requested() const;
  // The signal that asked the search to stop (SIGINT or SIGTERM), 0 while none has.
  int signal_number() const;
  // Asks the search to stop as a signal does, without one (explore's --max-seconds, from another
  // thread): requested() becomes true. Returns whether it is the first to ask (no signal has).
  bool ask_to_stop();

 private:
  struct sigaction old_interrupt_ {};
  struct sigaction old_terminate_ {};
};

}  // namespace contend::cli
