// A self-contained HTML report of one run (no network, no external scripts): a lane per client,
// each transaction attempt drawn from its read version to its commit or error, conflicts and
// retries marked, each operation as a bar, the violating operations highlighted, hover for keys
// and values — and below, the verdict, the shrunk counterexample and the step trace.
#pragma once

#include <string>

#include "model/check.h"
#include "scenarios/runner.h"

namespace contend {

// REQUIRES: `run` was recorded with RunControls::record_attempts.
std::string html_report(const Scenario& scenario, const SeedRun& run,
                        const model::CheckReport& report);

}  // namespace contend
