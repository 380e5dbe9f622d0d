#include "scenarios/cli/stop_signals.h"

#include <unistd.h>

#include "base/invariant.h"

namespace contend::cli {

namespace {

// Lock-free atomics are the state a signal handler may touch.
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free);
std::atomic<bool> stop_asked{false};
std::atomic<int> stop_signal{0};
std::atomic<bool> installed{false};

extern "C" void on_stop_signal(int signal_number) {
  stop_signal.store(signal_number);
  stop_asked.store(true);
  // write(2) is async-signal-safe; what it returns changes nothing here.
  static constexpr char kMessage[] =
      "\ncontend explore: stopping: each unit ends the run it is in, then the search writes its "
      "checkpoint (with --checkpoint; one still being read is left as it was) and says what it "
      "covered; a second signal kills\n";
  [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
}

struct sigaction one_shot_handler() {
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;  // the second signal takes its default action
  return action;
}

// A signal the process was started ignoring (`nohup`, a shell's background job and SIGINT) stays
// ignored, as the one who started it asked.
void catch_unless_ignored(int signal_number, const struct sigaction& action,
                          struct sigaction& old) {
  const int set = sigaction(signal_number, &action, &old);
  CONTEND_ASSERT(set == 0, "sigaction failed");
  if (old.sa_handler == SIG_IGN) {
    const int restored = sigaction(signal_number, &old, nullptr);
    CONTEND_ASSERT(restored == 0, "sigaction failed");
  }
}

}  // namespace

StopOnSignals::StopOnSignals() {
  const bool another_lives = installed.exchange(true);
  CONTEND_ASSERT(!another_lives, "one StopOnSignals at a time");
  stop_asked.store(false);
  stop_signal.store(0);
  const struct sigaction action = one_shot_handler();
  catch_unless_ignored(SIGINT, action, old_interrupt_);
  catch_unless_ignored(SIGTERM, action, old_terminate_);
}

StopOnSignals::~StopOnSignals() {
  sigaction(SIGINT, &old_interrupt_, nullptr);
  sigaction(SIGTERM, &old_terminate_, nullptr);
  installed.store(false);
}

const std::atomic<bool>& StopOnSignals::requested() const {
  return stop_asked;
}

int StopOnSignals::signal_number() const {
  return stop_signal.load();
}

bool StopOnSignals::ask_to_stop() {
  return !stop_asked.exchange(true);
}

}  // namespace contend::cli
