// SimulatorFault: contend itself produced data that cannot be (a key a recipe wrote no longer
// decodes, a value that is not what the recipe stored). Not a finding about the recipe under
// test, and not input to judge: the runner catches it, stops the run, and reports the seed as a
// simulator fault (verdict `simulator_fault`, exit status 4), naming what failed.
//
// Unlike CONTEND_ASSERT (which aborts the process), a fault travels as an exception so a
// recipe's coroutine chain unwinds and the run ends with a report a user can act on.
#pragma once

#include <stdexcept>
#include <string>

namespace contend {

class SimulatorFault : public std::runtime_error {
 public:
  explicit SimulatorFault(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace contend
