// Deliberate store bugs, for proving the test suite catches them (mutation testing). Compiled in
// only when CONTEND_MUTANTS is defined — by the `store_mutants` test target (tests/mutants/),
// never by the libraries — where CONTEND_MUTANT(n) is true when the environment variable
// CONTEND_MUTANT names mutant n. Everywhere else CONTEND_MUTANT(n) is the constant false, and the
// mutated branch is dead code. The catalogue, and the tests that catch each, are in
// tests/mutants/catalogue.txt.
#pragma once

#if defined(CONTEND_MUTANTS)
#include <cstdlib>

namespace contend {
inline int active_mutant() {
  static const int active = [] {
    const char* named = std::getenv("CONTEND_MUTANT");
    return named == nullptr ? 0 : std::atoi(named);
  }();
  return active;
}
}  // namespace contend
#define CONTEND_MUTANT(n) (::contend::active_mutant() == (n))
#else
#define CONTEND_MUTANT(n) false
#endif
