// Queue accounting: multisets of values (repeated values counted per copy), a stated or inferred
// drain, what indeterminate removes excuse, the events listed per value, the report and JSON.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "model/accounting.h"
#include "tests/support/history_text.h"

namespace contend::model {
namespace {

using testing::history_of;

TEST(Accounting, CountsEveryCopyOfARepeatedValue) {
  // 'a' is enqueued twice and comes out once; 'b' once and twice.
  const History h =
      history_of({"0 invoke enqueue a", "0 ok enqueue a", "0 invoke enqueue a", "0 ok enqueue a",
                  "0 invoke enqueue b", "0 ok enqueue b", "1 invoke dequeue", "1 ok dequeue a",
                  "1 invoke dequeue", "1 ok dequeue b", "1 invoke dequeue", "1 ok dequeue b"});
  Accounting a = account(h, {.drained = true});
  EXPECT_EQ(a.attempted, 3);
  EXPECT_EQ(a.acknowledged, 3);
  EXPECT_EQ(a.removed, 3);
  EXPECT_EQ(a.lost, (std::vector<std::string>{"a"}));
  EXPECT_EQ(a.duplicated, (std::vector<std::string>{"b"}));
  EXPECT_EQ(a.events.at("a"), (std::vector<std::int64_t>{0, 2, 6}));
  EXPECT_EQ(a.events.at("b"), (std::vector<std::int64_t>{4, 8, 10}));
  EXPECT_EQ(accounting_verdict(a).violation, ViolationKind::duplicate_delivery);
}

TEST(Accounting, LostIsCountedOnlyForADrainedHistory) {
  const History h = history_of({"0 invoke enqueue a", "0 ok enqueue a", "0 invoke enqueue b",
                                "0 ok enqueue b", "1 invoke dequeue", "1 ok dequeue b"});
  Accounting open = account(h);
  EXPECT_FALSE(open.drained);
  EXPECT_TRUE(open.lost.empty());
  EXPECT_TRUE(accounting_verdict(open).ok());
  Accounting stated = account(h, {.drained = true});
  EXPECT_TRUE(stated.drained);
  EXPECT_EQ(stated.lost, (std::vector<std::string>{"a"}));
  EXPECT_EQ(accounting_verdict(stated).violation, ViolationKind::lost);
  EXPECT_EQ(accounting_verdict(stated).events, (std::vector<std::int64_t>{0}));
  // An empty answer after every acknowledged insert completed: drained, inferred.
  const History ended =
      history_of({"0 invoke enqueue a", "0 ok enqueue a", "0 invoke enqueue b", "0 ok enqueue b",
                  "1 invoke dequeue", "1 ok dequeue b", "1 invoke dequeue", "1 ok dequeue -"});
  EXPECT_TRUE(account(ended).drained);
  EXPECT_EQ(account(ended).lost, (std::vector<std::string>{"a"}));
  EXPECT_FALSE(account(ended, {.drained = false}).drained);  // a stated "no" wins
}

TEST(Accounting, FailedInsertsNeverTookEffectAndIndeterminateOnesMayHave) {
  const History h = history_of({"0 invoke enqueue f", "0 fail enqueue f", "1 invoke enqueue r",
                                "1 info enqueue r", "2 invoke dequeue", "2 ok dequeue f",
                                "2 invoke dequeue", "2 ok dequeue r"});
  Accounting a = account(h);
  EXPECT_EQ(a.unexpected, (std::vector<std::string>{"f"}));
  EXPECT_EQ(a.recovered, (std::vector<std::string>{"r"}));
  EXPECT_EQ(a.events.at("f"), (std::vector<std::int64_t>{0, 4}));
  EXPECT_EQ(accounting_verdict(a).violation, ViolationKind::value_from_nowhere);
}

TEST(Accounting, IndeterminateRemovesExcuseOneMissingValueEach) {
  const History h =
      history_of({"0 invoke enqueue a", "0 ok enqueue a", "0 invoke enqueue b", "0 ok enqueue b",
                  "1 invoke dequeue", "1 info dequeue", "2 invoke dequeue", "2 info dequeue"});
  Accounting a = account(h, {.drained = true});
  EXPECT_EQ(a.indeterminate_removes, 2);
  EXPECT_TRUE(a.lost.empty());
  EXPECT_EQ(a.possibly_consumed, 2);
  EXPECT_EQ(a.possibly_consumed_values, (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(accounting_verdict(a).ok());
}

TEST(Accounting, TheReportAndTheJsonCarryEveryCount) {
  const History h = history_of({"0 invoke enqueue a", "0 ok enqueue a", "0 invoke enqueue b",
                                "0 ok enqueue b", "1 invoke dequeue", "1 ok dequeue b"});
  Accounting a = account(h, {.drained = true});
  const std::string report = accounting_report(a);
  EXPECT_NE(report.find("  lost                          1  'a'\n"), std::string::npos) << report;
  EXPECT_NE(report.find("  attempted                     2\n"), std::string::npos) << report;
  EXPECT_NE(accounting_report(account(h)).find("(not drained: cannot be counted)"),
            std::string::npos);
  nlohmann::json j = nlohmann::json::parse(to_json(a));
  EXPECT_EQ(j["attempted"], 2);
  EXPECT_EQ(j["acknowledged"], 2);
  EXPECT_EQ(j["removed"], 1);
  EXPECT_EQ(j["drained"], true);
  EXPECT_EQ(j["lost"], nlohmann::json::array({"a"}));
  EXPECT_EQ(j["possibly_consumed"], nlohmann::json::array());
  EXPECT_EQ(j["duplicated"], nlohmann::json::array());
}

}  // namespace
}  // namespace contend::model
