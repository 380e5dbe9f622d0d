// A self-contained HTML report of one run (no network, no external scripts). The page itself is
// real HTML, CSS and JavaScript under scenarios/report/, embedded at build time; this side only
// produces the data it draws:
// - "stories", each drawn in full by the page (time view, version/key view, stepping): the
//   shrunk counterexample, the whole run when it is small, and otherwise a window around each
//   violating operation;
// - a summary of the whole run per time bucket (operations, attempts, conflicts, faults), so a
//   report of a 100,000-operation run stays a few megabytes;
// - the verdict, its explanation and the operations it involves.
// The page's stable element ids are listed in docs/report.md.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/check.h"
#include "scenarios/runner.h"

namespace contend {

// Whether a violating run's report opens with its shrunk counterexample: yes for a seed's run
// (`contend run`); no for a run that is the counterexample already (`contend replay`, e.g. of an
// exhaustive search's path: shrinking works by seeds and would draw another run).
enum class ShrinkViolation : bool { no, yes };

// REQUIRES: `run` was recorded with RunControls::record_attempts.
std::string html_report(const Scenario& scenario, const SeedRun& run,
                        const model::CheckReport& report,
                        ShrinkViolation shrink_violation = ShrinkViolation::yes);

// A report of a history from anywhere (contend check): the time view and the model's state,
// without the store (an external history does not record it). `remedy`: what gives an undecided
// verdict's checker more (`--budget N`), shown with it; empty when nothing does.
std::string html_report_for_history(const std::string& title, const model::History& history,
                                    model::SpecKind spec, const model::CheckReport& report,
                                    const std::string& remedy = "");

// A page in the report's style that draws no run and says why (`message`): what a shard holding
// no seed of its range (`contend run --seeds 5..6 --shard 3/4`) writes for --report html. Its
// #verdict carries the class "undecided": an empty shard is neither a pass nor a finding.
std::string html_report_without_run(const std::string& title, const std::string& message);

// Histories with at most this many operations are drawn in full; larger ones are summarised.
inline constexpr std::size_t kFullStoryOperations = 2000;

}  // namespace contend
