// Deliberate store bugs, for proving the test suite catches them (mutation testing). Compiled in
// only when CONTEND_MUTANTS is defined — by the `mutants` test target (tests/mutants/),
// never by the libraries — where CONTEND_MUTANT(n) is true when the environment variable
// CONTEND_MUTANT names mutant n. Everywhere else CONTEND_MUTANT(n) is the constant false, and the
// mutated branch is dead code. The catalogue is tests/mutants/catalogue.txt; the test
// mutants.store_and_recipe_checks_catch_every_mutant prints the tests that catch each.
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
