// Reading and validating histories (every rule of validate_history and the reader, each with the
// line it must name), and verdicts as JSON (a round-trip property, and what is refused).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <sstream>

#include "model/history_json.h"
#include "model/spec.h"
#include "model/verdict.h"

namespace contend::model {
namespace {

// The first error reading (strictly) and validating `text` (JSON lines), against `spec`'s
// functions.
std::optional<HistoryError> error_of(const std::string& text, SpecKind spec = SpecKind::fifo) {
  std::istringstream in(text);
  HistoryError error;
  EventLines lines;
  auto history = read_history(in, error, &lines, ReadOptions{.strict = true});
  if (!history) return error;
  if (auto invalid = validate_history(*history, lines)) return invalid;
  return check_functions(*history, spec, lines);
}

void expect_error(const std::string& text, std::size_t line, const std::string& words,
                  SpecKind spec = SpecKind::fifo) {
  auto error = error_of(text, spec);
  ASSERT_TRUE(error.has_value()) << text;
  EXPECT_EQ(error->line, line) << error->to_string();
  EXPECT_NE(error->message.find(words), std::string::npos) << error->to_string();
}

const std::string kEnqA =
    R"({"index": 0, "type": "invoke", "process": 0, "time": 1, "f": "enqueue", "value": "a"})"
    "\n";

TEST(HistoryValidation, AValidHistoryHasNoError) {
  EXPECT_FALSE(
      error_of(
          kEnqA +
          R"({"index": 1, "type": "ok", "process": 0, "time": 2, "f": "enqueue", "value": "a"})")
          .has_value());
}

TEST(HistoryValidation, AnUnknownFieldIsNamed) {
  expect_error(
      kEnqA +
          R"({"index": 1, "type": "ok", "process": 0, "time": 2, "f": "enqueue", "value": "a", "colour": 1})",
      2, "unknown field \"colour\"");
}

TEST(HistoryValidation, IntegerFieldsAreInt64) {
  expect_error(
      R"({"index": 0, "type": "invoke", "process": 0, "time": 1.5, "f": "enqueue", "value": "a"})",
      1, "field \"time\": expected an integer, got 1.5");
  expect_error(
      R"({"index": 0, "type": "invoke", "process": 18446744073709551615, "time": 1, "f": "enqueue", "value": "a"})",
      1, "field \"process\": out of range");
  expect_error(R"({"index": 0, "type": "invoke", "time": 1, "f": "enqueue", "value": "a"})", 1,
               "field \"process\": missing");
}

TEST(HistoryValidation, PriorityItemsCarryAPriorityAndFifoItemsNone) {
  expect_error(
      R"({"index": 0, "type": "invoke", "process": 0, "time": 1, "f": "push", "value": "a"})", 1,
      "field \"value\": expected {\"value\": string, \"priority\": integer}");
  expect_error(
      R"({"index": 0, "type": "invoke", "process": 0, "time": 1, "f": "enqueue", "value": {"value": "a", "priority": 1}})",
      1, "field \"value\": expected a string item or null");
  expect_error(
      R"({"index": 0, "type": "invoke", "process": 0, "time": 1, "f": "push", "value": {"value": "a", "priority": 1, "x": 0}})",
      1, "field \"value\"");
}

TEST(HistoryValidation, AMissingValueReadsAsNullSoAnInsertWithoutItsItemIsNamed) {
  expect_error(R"({"index": 0, "type": "invoke", "process": 0, "time": 1, "f": "enqueue"})", 1,
               "an insert must carry its item");
}

TEST(HistoryValidation, IndexesCountFromZeroWithoutGaps) {
  expect_error(
      kEnqA +
          R"({"index": 2, "type": "ok", "process": 0, "time": 2, "f": "enqueue", "value": "a"})",
      2, "field \"index\": expected 1, got 2");
}

TEST(HistoryValidation, TimeNeverGoesBackAndTheMessageNamesBothLines) {
  expect_error(
      kEnqA +
          R"({"index": 1, "type": "ok", "process": 0, "time": 0, "f": "enqueue", "value": "a"})",
      2, "field \"time\": 0 is earlier than 1 at line 1");
}

TEST(HistoryValidation, AProcessHasOneOperationInFlight) {
  expect_error(
      kEnqA +
          R"({"index": 1, "type": "invoke", "process": 0, "time": 2, "f": "dequeue", "value": null})",
      2, "process 0 invokes while its operation invoked at line 1 is in flight");
}

TEST(HistoryValidation, ACrashedProcessNeverInvokesAgain) {
  expect_error(
      kEnqA +
          R"({"index": 1, "type": "info", "process": 0, "time": 2, "f": "enqueue", "value": "a"})"
          "\n"
          R"({"index": 2, "type": "invoke", "process": 0, "time": 3, "f": "dequeue", "value": null})",
      3, "process 0 invokes again after its info completion at line 2");
}

TEST(HistoryValidation, ACompletionNeedsItsInvocation) {
  expect_error(
      R"({"index": 0, "type": "ok", "process": 4, "time": 1, "f": "dequeue", "value": null})", 1,
      "a completion of process 4 without an invocation");
}

TEST(HistoryValidation, ACompletionMatchesItsInvocationsFunctionAndItem) {
  expect_error(
      kEnqA +
          R"({"index": 1, "type": "ok", "process": 0, "time": 2, "f": "dequeue", "value": null})",
      2, "field \"f\": completion \"dequeue\" of the invocation \"enqueue\" at line 1");
  expect_error(
      kEnqA +
          R"({"index": 1, "type": "fail", "process": 0, "time": 2, "f": "enqueue", "value": "b"})",
      2, "the completion of an insert must repeat its item (line 1)");
}

TEST(HistoryValidation, RemovesCarryNullOnInvocationAndOnFailOrInfo) {
  expect_error(
      R"({"index": 0, "type": "invoke", "process": 0, "time": 1, "f": "dequeue", "value": "a"})", 1,
      "a dequeue invocation carries null");
  expect_error(
      R"({"index": 0, "type": "invoke", "process": 0, "time": 1, "f": "dequeue", "value": null})"
      "\n"
      R"({"index": 1, "type": "info", "process": 0, "time": 2, "f": "dequeue", "value": "a"})",
      2, "the info completion of a dequeue carries null");
}

TEST(HistoryValidation, BlankLinesDoNotShiftTheLineNumbers) {
  expect_error(
      kEnqA + "\n   \n" +
          R"({"index": 1, "type": "ok", "process": 0, "time": 0, "f": "enqueue", "value": "a"})",
      4, "earlier than 1 at line 1");
  expect_error(
      "\n" + kEnqA + "\n" +
          R"({"index": 1, "type": "ok", "process": 0, "time": 2, "f": "dequeue", "value": null})",
      4, "of the invocation \"enqueue\" at line 2");
}

TEST(HistoryValidation, AFunctionTheModelLacksIsNamedWithItsLine) {
  expect_error(kEnqA, 1, "field \"f\": enqueue is not an operation of the priority model",
               SpecKind::priority);
  expect_error(
      R"({"index": 0, "type": "invoke", "process": 0, "time": 1, "f": "pop_min", "value": null})",
      1, "pop_min is not an operation of the fifo model", SpecKind::fifo);
  EXPECT_FALSE(error_of(kEnqA, SpecKind::multiset).has_value());
}

// Verdicts that keep the invariants of verdict.h, with printable text.
Verdict arbitrary_verdict() {
  Verdict v;
  v.kind =
      *rc::gen::element(VerdictKind::linearizable, VerdictKind::violation, VerdictKind::unknown);
  if (v.kind == VerdictKind::violation) {
    v.violation =
        *rc::gen::element(ViolationKind::value_from_nowhere, ViolationKind::duplicate_delivery,
                          ViolationKind::lost, ViolationKind::order_inversion,
                          ViolationKind::empty_while_nonempty, ViolationKind::priority_inversion,
                          ViolationKind::not_linearizable, ViolationKind::store_not_serializable);
  }
  auto text =
      rc::gen::container<std::string>(rc::gen::inRange<char>(' ', static_cast<char>('~' + 1)));
  v.checker = *text;
  v.explanation = *text;
  v.events = *rc::gen::arbitrary<std::vector<std::int64_t>>();
  v.longest_prefix = *rc::gen::arbitrary<std::vector<std::int64_t>>();
  v.stuck = *rc::gen::arbitrary<std::vector<std::int64_t>>();
  v.steps = *rc::gen::arbitrary<std::int64_t>();
  v.exact = v.kind == VerdictKind::linearizable && *rc::gen::arbitrary<bool>();
  if (v.kind == VerdictKind::violation) {
    v.part_operations = *rc::gen::inRange<std::int64_t>(0, 1'000'000);
  }
  return v;
}

RC_GTEST_PROP(VerdictJson, RoundTrips, ()) {
  const Verdict v = arbitrary_verdict();
  auto back = verdict_from_json(to_json(v));
  RC_ASSERT(back.has_value());
  RC_ASSERT(back->kind == v.kind);
  RC_ASSERT(back->violation == v.violation);
  RC_ASSERT(back->checker == v.checker);
  RC_ASSERT(back->explanation == v.explanation);
  RC_ASSERT(back->events == v.events);
  RC_ASSERT(back->longest_prefix == v.longest_prefix);
  RC_ASSERT(back->stuck == v.stuck);
  RC_ASSERT(back->steps == v.steps);
  RC_ASSERT(back->exact == v.exact);
  RC_ASSERT(back->part_operations == v.part_operations);
}

TEST(VerdictJson, RefusesWhatIsNotAVerdict) {
  for (const char* text : {
           "",
           "[1]",
           "{\"kind\": \"fine\"}",
           "{\"violation\": \"lost\"}",
           "{\"kind\": \"violation\", \"violation\": \"none\"}",
           "{\"kind\": \"violation\"}",
           "{\"kind\": \"linearizable\", \"violation\": \"lost\"}",
           "{\"kind\": \"violation\", \"violation\": \"lost\", \"exact\": true}",
           "{\"kind\": \"unknown\", \"events\": [1, \"x\"]}",
           "{\"kind\": \"unknown\", \"stuck\": 3}",
           "{\"kind\": \"violation\", \"violation\": \"lost\", \"part_operations\": -1}",
           "{\"kind\": \"violation\", \"violation\": \"lost\", \"part_operations\": \"2\"}",
           "{\"kind\": \"unknown\", \"part_operations\": 2}",
       }) {
    EXPECT_FALSE(verdict_from_json(text).has_value()) << text;
  }
  auto minimal = verdict_from_json("{\"kind\": \"unknown\"}");
  ASSERT_TRUE(minimal.has_value());
  EXPECT_EQ(minimal->kind, VerdictKind::unknown);
}

TEST(VerdictJson, KindNamesParseBack) {
  for (VerdictKind k : {VerdictKind::linearizable, VerdictKind::violation, VerdictKind::unknown})
    EXPECT_EQ(parse_verdict_kind(to_string(k)), k);
  EXPECT_FALSE(parse_verdict_kind("maybe").has_value());
}

}  // namespace
}  // namespace contend::model
