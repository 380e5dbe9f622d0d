// Malformed data is a simulator fault, not a default: a recipe that meets a key or value in its own
// subspace that does not decode ends the run with verdict `simulator_fault`, naming the key in hex
// and as a tuple, and the batch judgement counts it whatever the scenario expects.
#include <gtest/gtest.h>

#include "base/simulator_fault.h"
#include "scenarios/batch.h"
#include "scenarios/expectation.h"
#include "scenarios/explore.h"
#include "scenarios/sweep.h"
#include "sim/recipes/keys.h"
#include "sim/recipes/queue_steps.h"
#include "sim/store/tuple.h"

namespace contend {
namespace {

// A "store bug" planted by hand: before its first enqueue, slot 0 writes `bad_key` into the
// queue's subspace; the seed recipe's own reads then meet it.
Bytes& bad_key() {
  static Bytes key;
  return key;
}

class CorruptingQueue final : public Recipe {
 public:
  Task<OpResult> enqueue(Database db, std::string value) override {
    if (!planted_) {
      planted_ = true;
      auto r = co_await run(db, [](Transaction& tr) -> Task<void> {
        tr.set(bad_key(), keys::encode_value("planted"));
        co_return;
      });
      EXPECT_TRUE(r.ok());
    }
    co_return co_await queue_steps::enqueue(db, std::move(value));
  }
  Task<OpResult> dequeue(Database db) override { return queue_steps::dequeue(db); }

 private:
  bool planted_ = false;
};

void register_corrupting_queue() {
  add_recipe({"test-corrupting-queue", RecipeKind::fifo, true, "plants an undecodable key",
              []() -> std::unique_ptr<Recipe> { return std::make_unique<CorruptingQueue>(); }});
}

Scenario corrupting_scenario() {
  register_corrupting_queue();
  Scenario s;
  s.file = "(test)";
  s.recipe = "test-corrupting-queue";
  s.clients = 2;
  s.operations_per_client = 4;
  s.mix.enqueue = 1;
  s.mix.dequeue = 0;
  s.checks = {"fast"};
  return s;
}

TEST(SimulatorFault, KeyThatIsNotATupleIsNamedInHex) {
  const Bytes prefix = pack(Tuple{"Q"});
  bad_key() = prefix + "\xfe";  // an unknown type code, after every integer index
  SeedRun run = run_seed(corrupting_scenario(), 7);
  ASSERT_TRUE(run.simulator_fault.has_value());
  EXPECT_NE(run.simulator_fault->find("enqueue.last_index"), std::string::npos)
      << *run.simulator_fault;
  EXPECT_NE(run.simulator_fault->find(to_hex(bad_key())), std::string::npos)
      << *run.simulator_fault;
  EXPECT_NE(run.simulator_fault->find("unknown type code 0xfe"), std::string::npos)
      << *run.simulator_fault;
}

TEST(SimulatorFault, KeyOfTheWrongShapeIsNamedAsATuple) {
  const Bytes prefix = pack(Tuple{"Q"});
  bad_key() = pack(Tuple{"Q", 1.5});  // a double sorts after every integer index
  SeedRun run = run_seed(corrupting_scenario(), 3);
  ASSERT_TRUE(run.simulator_fault.has_value());
  EXPECT_NE(run.simulator_fault->find("(\"Q\", 1.5)"), std::string::npos) << *run.simulator_fault;
  EXPECT_NE(run.simulator_fault->find(to_hex(bad_key())), std::string::npos);
}

TEST(SimulatorFault, IsItsOwnVerdictNeverAViolationAndFailsEveryExpectation) {
  bad_key() = pack(Tuple{"Q", 1.5});
  Scenario s = corrupting_scenario();
  SeedRun run = run_seed(s, 3);
  model::CheckReport report = check_run(s, run);
  EXPECT_EQ(report.verdict.kind, model::VerdictKind::simulator_fault);
  EXPECT_EQ(report.verdict.summary(), "simulator_fault");
  EXPECT_FALSE(seed_consistent("linearizable", report.verdict));
  EXPECT_FALSE(seed_consistent("violation", report.verdict));
  EXPECT_FALSE(shows_expected_violation("violation", report.verdict));

  std::vector<SeedOutcome> outcomes =
      run_batch(s, BatchOptions{SeedRange{1, 4}, Shard{}, 1, nullptr});
  BatchJudgement j = judge(s, outcomes);
  EXPECT_FALSE(j.passed);
  ASSERT_TRUE(j.first_simulator_fault.has_value());
  EXPECT_EQ(*j.first_simulator_fault, 1u);
}

// Before, `contend explore` over such a recipe said "no violation found" and exited 0: the
// exploration kept no undecided schedule, so a simulator fault passed as a clean one.
TEST(SimulatorFault, AnExplorationKeepsItAsItsFirstUndecidedSchedule) {
  bad_key() = pack(Tuple{"Q", 1.5});
  const Scenario s = corrupting_scenario();
  for (const char* strategy : {"random", "pct", "dfs"}) {
    ExploreOptions o;
    o.strategy = strategy;
    o.schedules = 3;
    const ExploreResult r = explore(s, o);
    EXPECT_FALSE(r.violation.has_value()) << strategy;
    ASSERT_TRUE(r.first_undecided.has_value()) << strategy;
    EXPECT_EQ(r.first_undecided->verdict.kind, model::VerdictKind::simulator_fault) << strategy;
    EXPECT_EQ(r.first_undecided->schedule, 1) << strategy;
  }
}

// Before, a sweep over such a recipe printed its figures and exited 0: nothing kept the fault.
TEST(SimulatorFault, ASweepPointKeepsItsFirstSeed) {
  bad_key() = pack(Tuple{"Q", 1.5});
  const Scenario s = corrupting_scenario();
  std::string error;
  const std::optional<Variation> clients = parse_variation("clients=1,2", error);
  ASSERT_TRUE(clients.has_value()) << error;
  const SweepResult r = run_sweep(s, {*clients}, SeedRange{3, 4}, 1);
  ASSERT_EQ(r.points.size(), 2u);
  for (const SweepPoint& p : r.points) {
    EXPECT_EQ(p.first_simulator_fault, std::optional<std::uint64_t>(3)) << p.values[0];
    EXPECT_EQ(p.verdicts.count("simulator_fault"), 1u) << p.values[0];
  }
}

TEST(SimulatorFault, CleanRunsHaveNone) {
  Scenario s = corrupting_scenario();
  s.recipe = "queue";
  SeedRun run = run_seed(s, 3);
  EXPECT_FALSE(run.simulator_fault.has_value());
}

TEST(SimulatorFault, ValueDecodesRaiseNamingTheKeyAndTheValue) {
  const Bytes key = pack(Tuple{"Q", 4, TupleBytes{"r"}});
  try {
    keys::require_value(key, "\x15\x01", "dequeue.first_item");
    FAIL() << "no fault raised";
  } catch (const SimulatorFault& f) {
    const std::string what = f.what();
    EXPECT_NE(what.find("dequeue.first_item"), std::string::npos) << what;
    EXPECT_NE(what.find(to_hex(key)), std::string::npos) << what;
    EXPECT_NE(what.find("(\"Q\", 4, b'72')"), std::string::npos) << what;
    EXPECT_NE(what.find("1501"), std::string::npos) << what;
  }
  EXPECT_THROW(keys::require_item(key, keys::encode_value("x"), "pop"), SimulatorFault);
  EXPECT_EQ(keys::Space("Q").require_first_int(key, "x"), 4);
  EXPECT_THROW(keys::Space("P").require_first_int(key, "x"), SimulatorFault);
  EXPECT_EQ(keys::Space("Q").require_last_bytes(key, "x"), "r");
}

}  // namespace
}  // namespace contend
