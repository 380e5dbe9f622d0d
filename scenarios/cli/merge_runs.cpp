// The shards of one seed range merged in constant memory (merge_runs.h).
#include "scenarios/cli/merge_runs.h"

#include <fmt/format.h>

#include <functional>
#include <optional>
#include <queue>
#include <utility>

#include "base/invariant.h"
#include "scenarios/batch.h"
#include "scenarios/json_shape.h"

namespace contend::cli {

namespace {

MergePlan bad(std::string error) {
  MergePlan plan;
  plan.outcome.exit_code = 2;
  plan.outcome.error = std::move(error);
  return plan;
}

// What a shard's run report holds that merge reads (`contend run --report json=...` writes it).
constexpr JsonField kReport[] = {
    {"scenario", &kText}, {"file", &kText},     {"scenario_contents", &kText},
    {"recipe", &kText},   {"clients", &kCount}, {"operations_per_client", &kCount},
    {"expect", &kText},   {"seeds", &kObject},  {"runs", &kList},
    {"shard", &kText}};
constexpr JsonField kSeedRange[] = {{"first", &kUnsigned}, {"last", &kUnsigned}};

// Why a report is not in the shape `contend run` writes; nothing when it is. Its fields are checked
// before its runs, as they are read.
std::optional<std::string> report_problem(const ShardReport& report) {
  const nlohmann::json& j = report.fields;
  if (!j.is_object()) return "not a contend run report (json)";
  if (auto problem = shape_problem(j, kReport, "")) return problem;
  const nlohmann::json& seeds = j["seeds"];
  if (auto problem = shape_problem(seeds, kSeedRange, "seeds.")) return problem;
  if (seeds["first"].get<std::uint64_t>() > seeds["last"].get<std::uint64_t>())
    return "field \"seeds\" is not a range: its first seed is above its last";
  std::string why;  // the message names the field instead
  if (!parse_shard(j["shard"].get<std::string>(), why))
    return "field \"shard\" is not K/N (1 <= K <= N)";
  return report.runs_problem;
}

// The shard a report (in report_problem's shape) says it is.
Shard shard_of(const ShardReport& report) {
  std::string why;
  return *parse_shard(report.fields["shard"].get<std::string>(), why);
}

// The fields every shard of one run must share: what it ran (the scenario by its contents, which
// hold its recipe and scope: the path it was read from may differ from machine to machine), what
// it expected of every seed (each shard's as_expected was judged against it), and the range.
// The fields a message can name best come first; the contents last (an edit of anything else).
constexpr const char* kSameRun[] = {
    "scenario", "recipe", "clients",          "operations_per_client",
    "expect",   "seeds",  "scenario_contents"};

// A field's value as JSON text for a message (never throws: bytes that are not UTF-8 are replaced).
std::string said(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Why `j` (named `path`) is not a shard of the run of `first` (named `first_path`), naming the
// field that differs and both files; nothing when it is.
std::optional<std::string> different_run(const nlohmann::json& j, const std::string& path,
                                         const nlohmann::json& first,
                                         const std::string& first_path) {
  for (const char* field : kSameRun) {
    if (j[field] == first[field]) continue;
    return fmt::format(
        "{}: field \"{}\" ({}) differs from {}'s ({}): a shard of a different scenario, scope "
        "or seed range",
        path, field, said(j[field]), first_path, said(first[field]));
  }
  return std::nullopt;
}

// Visits every run of the shards' `regions` in seed order, lowest first (a seed in two shards:
// the shard named first first), as visit(shard's index, its cursor at the run). False when the
// spool could not be read back, or a visit returned false.
bool for_each_run_in_seed_order(const RunSpool& spool, const std::vector<SpoolRegion>& regions,
                                const std::function<bool(std::size_t, SpoolCursor&)>& visit) {
  std::vector<SpoolCursor> cursors;
  cursors.reserve(regions.size());
  using Head = std::pair<std::uint64_t, std::size_t>;  // a shard's next seed, and the shard
  std::priority_queue<Head, std::vector<Head>, std::greater<>> heads;
  std::uint64_t runs = 0;
  for (std::size_t i = 0; i < regions.size(); ++i) {
    cursors.emplace_back(spool, regions[i]);
    runs += regions[i].end_entry - regions[i].first_entry;
    if (cursors[i].next()) heads.emplace(cursors[i].seed(), i);
    if (!cursors[i].ok()) return false;
  }
  for (std::uint64_t visited = 0; !heads.empty(); ++visited) {
    CONTEND_ASSERT(visited < runs, "each run is visited once");
    const std::size_t shard = heads.top().second;
    heads.pop();
    if (!visit(shard, cursors[shard])) return false;
    if (cursors[shard].next()) heads.emplace(cursors[shard].seed(), shard);
    if (!cursors[shard].ok()) return false;
  }
  return true;
}

// Why the shards are not each seed once, each in the shard its report says (`shards`, of the
// seeds `range`): the first report (as named) holding a seed outside its shard, or else
// one holding a seed of a report named before it, and its lowest such seed; nothing when none
// does. False in `read` when the spool could not be read back.
std::optional<std::string> seed_not_once(const RunSpool& spool,
                                         const std::vector<SpoolRegion>& regions,
                                         const std::vector<Shard>& shards, const SeedRange& range,
                                         const std::vector<std::string>& names, bool& read) {
  std::vector<std::optional<std::uint64_t>> repeated(regions.size());  // by shard: its lowest
  std::vector<std::optional<std::uint64_t>> outside(regions.size());   // the same
  std::optional<std::uint64_t> previous;
  read = for_each_run_in_seed_order(spool, regions, [&](std::size_t shard, SpoolCursor& run) {
    if (previous == run.seed() && !repeated[shard]) repeated[shard] = run.seed();
    const bool in_range = run.seed() >= range.first && run.seed() <= range.last;
    if (!(in_range && shards[shard].includes(run.seed(), range.first)) && !outside[shard])
      outside[shard] = run.seed();
    previous = run.seed();
    return true;
  });
  for (std::size_t i = 0; i < regions.size(); ++i) {
    if (outside[i]) {
      return fmt::format(
          "{}: seed {} is not of its shard {}/{} of the seeds {}..{} (those whose offset from {} "
          "is {} modulo {})",
          names[i], *outside[i], shards[i].index, shards[i].count, range.first, range.last,
          range.first, shards[i].index - 1, shards[i].count);
    }
  }
  for (std::size_t i = 0; i < regions.size(); ++i) {
    if (repeated[i])
      return names[i] + ": seed " + std::to_string(*repeated[i]) + " appears in two shards";
  }
  return std::nullopt;
}

// Why the shards' `runs` seeds, each once, from `lowest` to `highest`, are not every seed of
// first..last; nothing when they are.
std::optional<std::string> seed_missing(std::uint64_t first, std::uint64_t last, std::uint64_t runs,
                                        std::optional<std::uint64_t> lowest,
                                        std::optional<std::uint64_t> highest) {
  if (last - first < runs && runs == last - first + 1 && lowest == first && highest == last)
    return std::nullopt;
  return "the shards hold " + std::to_string(runs) + " of the " +
         (last - first == UINT64_MAX ? std::string("2^64") : std::to_string(last - first + 1)) +
         " seeds " + std::to_string(first) + ".." + std::to_string(last) + ": a shard is missing";
}

// The merged range judged as run judges it: `fields` gets its "passed" and "result", `outcome` its
// exit code and verdict.
void judge(const RunVerdicts& v, std::uint64_t first, std::uint64_t last, nlohmann::json& fields,
           MergeOutcome& out) {
  const std::string expect = fields["expect"].get<std::string>();
  const std::string range = std::to_string(first) + ".." + std::to_string(last);
  // An unknown seed matters unless the violation expected was shown by another (as run judges).
  const bool undecided =
      !v.unexpected && v.unknown && (expect == "linearizable" || !v.shows_expected);
  const bool passed = !v.unexpected && !undecided && (expect == "linearizable" || v.shows_expected);
  fields["passed"] = passed;
  fields["result"] = batch_result(v.simulator_fault.has_value(), passed, undecided);
  out.exit_code = v.simulator_fault ? 4 : passed ? 0 : undecided ? 3 : 1;
  if (v.simulator_fault) {
    out.verdict = "SIMULATOR FAULT: seed " + std::to_string(*v.simulator_fault) +
                  ": contend itself broke (its run in the merged report says how)";
  } else if (undecided) {
    out.verdict = "UNDECIDED: seed " + std::to_string(*v.unknown) +
                  ": no checker could judge it, expected " + expect +
                  " (its run in the merged report says why)";
  } else if (v.unexpected) {
    out.verdict = "UNEXPECTED: seed " + std::to_string(*v.unexpected) + ": " +
                  v.unexpected_verdict + ", expected " + expect +
                  " (its run in the merged report says how to replay it)";
  } else if (!passed) {
    out.verdict = "UNEXPECTED: no seed of " + range + " showed the expected " + expect;
  } else if (expect != "linearizable") {
    out.verdict = "as expected: seed " + std::to_string(*v.shows_expected) + " shows " + expect;
  } else {
    out.verdict = "as expected: every seed of " + range + " is linearizable";
  }
}

constexpr const char* kSpoolUnreadable = "a temporary file of the runs read could not be read back";

}  // namespace

RunsMerge::RunsMerge(std::unique_ptr<RunSpool> spool, std::vector<SpoolRegion> regions,
                     ReportFrame frame)
    : spool_(std::move(spool)), regions_(std::move(regions)), frame_(std::move(frame)) {}

bool RunsMerge::write(std::ostream& out) const {
  out << frame_.before_runs;
  std::uint64_t written = 0;
  const bool read =
      for_each_run_in_seed_order(*spool_, regions_, [&](std::size_t, SpoolCursor& run) {
        out << run_entry_separator(written++);
        return run.copy_text(out);
      });
  out << runs_list_end(written) << frame_.after_runs;
  out.flush();
  return read && !out.fail();
}

MergePlan merge_runs(const std::vector<ShardReport>& shards, const std::vector<std::string>& names,
                     std::unique_ptr<RunSpool> spool) {
  CONTEND_ASSERT(shards.size() == names.size(), "each shard has a name");
  if (shards.empty()) return bad("no input");
  std::vector<SpoolRegion> regions;
  std::vector<Shard> kept;  // by report: the shard it says it is
  RunVerdicts verdicts;
  std::uint64_t runs = 0;
  std::optional<std::uint64_t> lowest, highest;
  for (std::size_t i = 0; i < shards.size(); ++i) {
    const ShardReport& shard = shards[i];
    if (std::optional<std::string> problem = report_problem(shard))
      return bad(names[i] + ": " + *problem);
    if (i > 0) {
      if (auto problem = different_run(shard.fields, names[i], shards[0].fields, names[0]))
        return bad(*problem);
    }
    regions.push_back(shard.region);
    kept.push_back(shard_of(shard));
    verdicts.add(shard.verdicts);
    runs += shard.runs;
    if (shard.lowest_seed && (!lowest || *shard.lowest_seed < *lowest)) lowest = shard.lowest_seed;
    if (shard.highest_seed && (!highest || *shard.highest_seed > *highest))
      highest = shard.highest_seed;
  }
  if (!spool->finish_writing()) return bad("cannot write a temporary file of the runs read");
  nlohmann::json fields = shards[0].fields;
  fields.erase("runs");
  const auto first = fields["seeds"]["first"].get<std::uint64_t>();
  const auto last = fields["seeds"]["last"].get<std::uint64_t>();
  bool read = false;
  const std::optional<std::string> twice =
      seed_not_once(*spool, regions, kept, SeedRange{first, last}, names, read);
  if (!read) return bad(kSpoolUnreadable);
  if (twice) return bad(*twice);
  if (auto problem = seed_missing(first, last, runs, lowest, highest)) return bad(*problem);
  MergePlan plan;
  fields["shard"] = "1/1";
  judge(verdicts, first, last, fields, plan.outcome);
  plan.runs = std::make_unique<RunsMerge>(std::move(spool), std::move(regions),
                                          report_frame(std::move(fields), InvalidUtf8::replace));
  return plan;
}

}  // namespace contend::cli
