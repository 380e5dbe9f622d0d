// CONTEND_ASSERT: a check that stays on in every build (Release and CI included). For invariants
// and preconditions whose failure means contend itself is wrong: it prints the file, the line,
// the expression and a message, then aborts. Expected outcomes (a conflict, bad input) are error
// values, never assertions.
#pragma once

#include <cstdio>
#include <cstdlib>

namespace contend::detail {

[[noreturn]] inline void assertion_failed(const char* file, int line, const char* expression,
                                          const char* message) {
  std::fprintf(stderr, "contend: internal check failed at %s:%d: %s (%s)\n", file, line, expression,
               message);
  std::abort();
}

}  // namespace contend::detail

#define CONTEND_ASSERT(condition, message) \
  ((condition) ? static_cast<void>(0)      \
               : ::contend::detail::assertion_failed(__FILE__, __LINE__, #condition, message))
