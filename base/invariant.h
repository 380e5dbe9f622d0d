// CONTEND_ASSERT: a check that stays on in every build (Release and CI included). For invariants,
// preconditions and postconditions whose failure means contend itself is wrong: it prints the
// file, the line, the expression, a message and the seed being run (when a runner has set one),
// then aborts. Expected outcomes (a conflict, bad input, a recipe's violation) are error values,
// never assertions.
//
// CONTEND_DEBUG_ASSERT: the same check for hot inner loops (per key compared, per byte copied),
// compiled in when CONTEND_DEBUG_ASSERTS is 1: by default in builds without NDEBUG (Debug), and
// in any build configured with -DCONTEND_DEBUG_ASSERTS=ON. In a Release build it checks nothing
// and evaluates nothing (its condition must have no side effects).
//
// This header is the bottom layer (base/): model/, sim/ and scenarios/ may all include it; it
// includes nothing of ours.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#ifndef CONTEND_DEBUG_ASSERTS
#ifdef NDEBUG
#define CONTEND_DEBUG_ASSERTS 0
#else
#define CONTEND_DEBUG_ASSERTS 1
#endif
#endif

namespace contend {

// The seed this thread is running, named by every failed assertion so the failure reproduces
// with one command. Set by the runner for the duration of a seed (SeedScope); worlds run on one
// thread each (--jobs), so a thread-local is exact.
struct SeedContext {
  bool set = false;
  std::uint64_t seed = 0;
};

inline SeedContext& current_seed() {
  thread_local SeedContext context;
  return context;
}

// Names `seed` as the current seed until the scope ends (then the previous one again).
class SeedScope {
 public:
  explicit SeedScope(std::uint64_t seed) : saved_(current_seed()) {
    current_seed() = SeedContext{true, seed};
  }
  ~SeedScope() { current_seed() = saved_; }
  SeedScope(const SeedScope&) = delete;
  SeedScope& operator=(const SeedScope&) = delete;

 private:
  SeedContext saved_;
};

namespace detail {

[[noreturn]] inline void assertion_failed(const char* file, int line, const char* expression,
                                          const char* message) {
  const SeedContext& seed = current_seed();
  if (seed.set) {
    std::fprintf(stderr, "contend: internal check failed at %s:%d: %s (%s) [seed %llu]\n", file,
                 line, expression, message, static_cast<unsigned long long>(seed.seed));
  } else {
    std::fprintf(stderr, "contend: internal check failed at %s:%d: %s (%s)\n", file, line,
                 expression, message);
  }
  std::fflush(stderr);
  std::abort();
}

}  // namespace detail

}  // namespace contend

#define CONTEND_ASSERT(condition, message)           \
  (__builtin_expect(static_cast<bool>(condition), 1) \
       ? static_cast<void>(0)                        \
       : ::contend::detail::assertion_failed(__FILE__, __LINE__, #condition, message))

#if CONTEND_DEBUG_ASSERTS
#define CONTEND_DEBUG_ASSERT(condition, message) CONTEND_ASSERT(condition, message)
#else
// Not evaluated, but still compiled: a debug assertion cannot rot in a Release build.
#define CONTEND_DEBUG_ASSERT(condition, message) \
  static_cast<void>(sizeof(static_cast<bool>(condition) ? 0 : 0))
#endif
