#include "scenarios/coverage.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/invariant.h"

namespace contend {

namespace {

constexpr std::string_view kConflict = "conflict: ";
constexpr std::string_view kFault = "fault: ";

// How an operation ended, spelled once for each (function, completion, item or not): the search
// names millions of completions.
class CompletionKinds {
 public:
  CompletionKinds() {
    for (std::size_t f = 0; f < kFunctions; ++f) {
      for (std::size_t t = 0; t < kTypes; ++t) {
        for (std::size_t item = 0; item < 2; ++item)
          names_[f][t][item] =
              spell(static_cast<model::OpFunction>(f), static_cast<model::EventType>(t), item == 1);
      }
    }
  }
  std::string_view of(const model::Event& e) const {
    const auto f = static_cast<std::size_t>(e.f);
    const auto t = static_cast<std::size_t>(e.type);
    CONTEND_ASSERT(f < kFunctions && t < kTypes, "an event of a known function and type");
    return names_[f][t][e.value ? 1 : 0];
  }

 private:
  static constexpr std::size_t kFunctions =
      static_cast<std::size_t>(model::OpFunction::peek_max) + 1;
  static constexpr std::size_t kTypes = static_cast<std::size_t>(model::EventType::info) + 1;

  static std::string spell(model::OpFunction f, model::EventType type, bool item) {
    std::string kind = fmt::format("{} {}", model::to_string(f), model::to_string(type));
    if (type == model::EventType::ok && (model::is_remove(f) || model::is_peek(f)))
      kind += item ? ": an item" : ": empty";
    return kind;
  }

  std::string names_[kFunctions][kTypes][2];
};

}  // namespace

void add_execution_coverage(const SeedRun& run, int clients, Coverage& coverage) {
  static const CompletionKinds completions;
  // Conflicts and faults are rare (built as strings); completions come from the table above.
  std::vector<std::string> rare;
  for (const auto& [step, n] : run.metrics.attempts.conflicts_by_step) {
    if (n > 0) rare.push_back(std::string(kConflict) + step);
  }
  for (const StepFootprint& step : run.step_log.steps) {
    for (const std::string& note : step.fault_notes)
      rare.push_back(std::string(kFault) + note);
  }
  std::vector<std::string_view> kinds(rare.begin(), rare.end());
  for (const model::Event& e : run.history) {
    if (e.type == model::EventType::invoke) continue;
    auto slot = run.process_slot.find(e.process);
    CONTEND_ASSERT(slot != run.process_slot.end(), "every process of a history has its slot");
    if (slot->second < clients) kinds.push_back(completions.of(e));
  }
  std::sort(kinds.begin(), kinds.end());
  kinds.erase(std::unique(kinds.begin(), kinds.end()), kinds.end());
  for (std::string_view kind : kinds) {
    auto it = coverage.find(kind);
    if (it == coverage.end()) it = coverage.emplace(std::string(kind), 0).first;
    ++it->second;
  }
}

void add_coverage(const Coverage& part, Coverage& total) {
  for (const auto& [kind, n] : part)
    total[kind] += n;
}

bool exercised_contention(const Coverage& coverage) {
  return std::any_of(coverage.begin(), coverage.end(), [](const auto& entry) {
    return entry.first.starts_with(kConflict) || entry.first.starts_with(kFault);
  });
}

std::vector<std::string> coverage_lines(const Coverage& coverage, std::int64_t executions) {
  std::vector<std::string> lines;
  lines.push_back(fmt::format(
      "exercised (in how many of the {} executions each kind of event happened):", executions));
  std::size_t width = 32;  // as the verdicts' lines above, unless a kind is longer
  for (const auto& entry : coverage)
    width = std::max(width, entry.first.size());
  for (const auto& [kind, n] : coverage)
    lines.push_back(fmt::format("  {:<{}} {}", kind, width, n));
  if (!exercised_contention(coverage)) {
    lines.push_back("  no execution met a conflict or a fault: this scope exercises no contention");
  }
  return lines;
}

}  // namespace contend
