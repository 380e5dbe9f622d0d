// The HTML report as a reader meets it, in Debian's Chromium, headless: the counterexample drawn
// first with its violation in words and its operations highlighted, stepping (the panel's store
// and the highlighted event change), zoom, `check --report html`, `replay --report html` of an
// exhaustive search's counterexample (drawn as replayed, its fault marked), a page of a
// 100,000-operation run under 5 MB that renders in under 2 s, and nothing logged to the console.
// Key presses come from the page's own URL hash (#keys=ArrowRight,...), which dispatches real
// keydown events to the page's handlers; the DOM is read back with --dump-dom.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>

#include <unistd.h>

#include "tests/support/run_cli.h"

namespace contend {
namespace {

using testing::run_cli;
using testing::shell_quote;
using testing::source_path;

using testing::read_file;

bool have_chromium() {
  return std::filesystem::exists("/usr/bin/chromium");
}

// A scratch directory of this test process (TempDir is shared with every other suite).
const std::string& work_dir() {
  static const std::string dir = [] {
    std::string d = ::testing::TempDir() + "/contend-report-page-" + std::to_string(getpid());
    std::filesystem::create_directories(d);
    return d;
  }();
  return dir;
}

// ... removed when the test process ends.
class RemoveWorkDir : public ::testing::Environment {
 public:
  void TearDown() override { std::filesystem::remove_all(work_dir()); }
};
[[maybe_unused]] ::testing::Environment* const kRemoveWorkDir =
    ::testing::AddGlobalTestEnvironment(new RemoveWorkDir);

struct Page {
  std::string dom;
  std::string console;  // the lines Chromium logged from the page's console
  double seconds = 0;   // the whole browser run, start-up included
};

// Loads `file#hash` in a fresh headless Chromium and returns the DOM after the page's scripts ran.
Page load(const std::string& file, const std::string& hash = "") {
  static int profiles = 0;
  const std::string dir = work_dir();
  const std::string profile = dir + "/chromium-profile-" + std::to_string(++profiles);
  std::filesystem::remove_all(profile);
  const std::string log = profile + ".log";
  const std::string url = "file://" + file + (hash.empty() ? "" : "#" + hash);
  const std::string command =
      "timeout 60 chromium --headless --no-sandbox --disable-gpu "
      "--disable-background-networking --disable-component-update --disable-sync "
      "--no-first-run --disable-quic --enable-logging=stderr --v=0 --window-size=1400,1000 "
      "--user-data-dir=" +
      shell_quote(profile) + " --dump-dom " + shell_quote(url) + " 2>" + shell_quote(log);
  Page page;
  const auto start = std::chrono::steady_clock::now();
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return page;
  char buffer[65536];
  std::size_t n = 0;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0)
    page.dom.append(buffer, n);
  pclose(pipe);
  page.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::istringstream lines(read_file(log));
  for (std::string line; std::getline(lines, line);) {
    if (line.find(":CONSOLE") != std::string::npos) page.console += line + "\n";
  }
  std::filesystem::remove_all(profile);
  std::filesystem::remove(log);
  return page;
}

// The opening tag of the element with this id ("" when absent).
std::string tag_of(const std::string& dom, const std::string& id) {
  const std::size_t at = dom.find("id=\"" + id + "\"");
  if (at == std::string::npos) return "";
  const std::size_t open = dom.rfind('<', at);
  return dom.substr(open, dom.find('>', at) - open + 1);
}

std::string attribute(const std::string& dom, const std::string& id, const std::string& name) {
  const std::string tag = tag_of(dom, id);
  const std::size_t at = tag.find(" " + name + "=\"");
  if (at == std::string::npos) return "";
  const std::size_t from = at + name.size() + 3;
  return tag.substr(from, tag.find('"', from) - from);
}

// The markup inside the element with this id (up to its closing tag; no nesting of the same tag).
std::string inner(const std::string& dom, const std::string& id) {
  const std::string tag = tag_of(dom, id);
  if (tag.empty()) return "";
  const std::string name = tag.substr(1, tag.find_first_of(" >") - 1);
  const std::size_t from = dom.find(tag) + tag.size();
  return dom.substr(from, dom.find("</" + name + ">", from) - from);
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

// What the time view highlights as the current event: "op 5" or "attempt 3".
std::string highlighted(const std::string& dom) {
  static const std::regex current(R"re(class="[^"]*\bcurrent\b[^"]*" data-(op|attempt)="(\d+)")re");
  std::smatch m;
  const std::string timeline = inner(dom, "timeline");
  return std::regex_search(timeline, m, current) ? m[1].str() + " " + m[2].str() : "";
}

std::string failing_report() {
  const std::string path = work_dir() + "/snapshot-dequeue.html";
  static bool written = false;  // once per test process, never a stale file of an older build
  if (!written) {
    written = true;
    auto r = run_cli("run " + source_path("scenarios/snapshot-dequeue-queue.toml") +
                     " --seeds 1..3 --report html=" + path);
    EXPECT_EQ(r.exit_code, 0) << r.output;
  }
  return path;
}

TEST(HtmlReport, IsThePageFilesWithTheRunAsData) {
  const std::string path = failing_report();
  const std::string source = read_file(path);
  for (const char* file : {"report.js", "report.css"}) {
    const std::string text = read_file(source_path("scenarios/report/") + file);
    ASSERT_FALSE(text.empty()) << file;
    EXPECT_NE(source.find(text), std::string::npos) << file << " is not embedded verbatim";
  }
  EXPECT_NE(source.find("<script id=\"data\" type=\"application/json\">{"), std::string::npos);
  EXPECT_EQ(count(source, "</script>"), 2u) << "the data must not close its script element";
  EXPECT_EQ(source.find("http://"), source.find("http://www.w3.org"))
      << "the page must load nothing";
  EXPECT_EQ(source.find("@DATA@"), std::string::npos);
  EXPECT_EQ(source.find("/*@SCRIPT@*/"), std::string::npos);
  EXPECT_LT(source.size(), 2'000'000u);
}

TEST(HtmlReportInChromium, DrawsTheCounterexampleFirstWithTheViolationInWords) {
  if (!have_chromium()) GTEST_SKIP() << "chromium is not installed";
  Page page = load(failing_report());
  ASSERT_FALSE(page.dom.empty()) << "chromium printed no DOM";
  EXPECT_EQ(page.console, "") << "the page logged to the console";
  EXPECT_NE(inner(page.dom, "verdict").find("Verdict: violation: duplicate_delivery"),
            std::string::npos);
  EXPECT_EQ(tag_of(page.dom, "violation").find("hidden"), std::string::npos);
  EXPECT_NE(inner(page.dom, "violation").find("was delivered twice"), std::string::npos);
  EXPECT_GE(count(inner(page.dom, "violation"), "class=\"violating-op\""), 2u);
  EXPECT_NE(inner(page.dom, "stories").find("class=\"active\">shrunk counterexample"),
            std::string::npos)
      << "the counterexample is what the page opens on";
  const std::string timeline = inner(page.dom, "timeline");
  EXPECT_GE(count(timeline, "class=\"op ok bad"), 2u) << "the violating operations are outlined";
  EXPECT_GE(count(timeline, "class=\"grv\""), 2u) << "read-version fetches are drawn";
  EXPECT_GE(count(timeline, "class=\"read snap\""), 2u) << "the snapshot reads are drawn";
  EXPECT_NE(timeline.find(" ms</text>"), std::string::npos) << "the axis has units";
  const std::string versions = inner(page.dom, "version-view");
  EXPECT_GE(count(versions, "class=\"write-set\""), 1u) << "writes at their commit versions";
  EXPECT_GE(count(versions, "read-range snap"), 2u) << "reads at their read versions";
  EXPECT_GE(count(versions, "class=\"write-clear\""), 2u) << "both dequeuers' clears";
  // It opens on the step after which the sequential model disagrees, and says so.
  EXPECT_NE(attribute(page.dom, "step-panel", "data-opened-on"), "");
  EXPECT_NE(tag_of(page.dom, "model-check").find("class=\"bad\""), std::string::npos);
  EXPECT_NE(inner(page.dom, "model-check").find("would have given"), std::string::npos);
  EXPECT_NE(tag_of(page.dom, "page-errors").find("hidden"), std::string::npos)
      << "the page caught an error: " << inner(page.dom, "page-errors");
}

// `contend replay --path P --report html=FILE`: an exhaustive search's counterexample (minimal
// already; shrinking works by seeds and would draw another run) drawn as replayed.
std::string replayed_path_report() {
  const std::string dir = work_dir() + "/replayed";
  const std::string path = dir + "/replayed.html";
  static bool written = false;
  if (!written) {
    written = true;
    std::filesystem::create_directories(dir);
    auto found = run_cli("explore " + source_path("scenarios/queue-unknown-result.toml") +
                         " --strategy dpor --max-faults 1 --progress 0 --out " + dir + " --json " +
                         dir + "/found.json");
    EXPECT_EQ(found.exit_code, 0) << found.output;
    const std::string json = read_file(dir + "/found.json");
    std::smatch m;
    EXPECT_TRUE(std::regex_search(json, m, std::regex(R"re("path":\s*"([^"]+)")re"))) << json;
    auto replayed =
        run_cli("replay " + dir + "/queue-unknown-result-counterexample.toml --seed 1 --path " +
                m[1].str() + " --quiet --report html=" + path);
    EXPECT_EQ(replayed.exit_code, 0) << replayed.output;
    EXPECT_NE(replayed.output.find("wrote html report " + path), std::string::npos)
        << replayed.output;
  }
  return path;
}

TEST(HtmlReport, AReplayedRunIsDrawnAsReplayedNotShrunk) {
  const std::string source = read_file(replayed_path_report());
  EXPECT_EQ(source.find("\"name\":\"counterexample\""), std::string::npos);
  EXPECT_NE(source.find("\"name\":\"run\""), std::string::npos);
  EXPECT_NE(source.find("\"drain\":1,"), std::string::npos) << "the drain's lane, client 1";
  auto refused = run_cli("replay " + source_path("scenarios/queue.toml") +
                         " --seed 1 --quiet --report json=" + work_dir() + "/replay.json");
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.output.find("a replay writes html=FILE only"), std::string::npos)
      << refused.output;
}

TEST(HtmlReportInChromium, AReplayedExhaustiveCounterexampleShowsItsViolationAndFault) {
  if (!have_chromium()) GTEST_SKIP() << "chromium is not installed";
  Page page = load(replayed_path_report());
  ASSERT_FALSE(page.dom.empty()) << "chromium printed no DOM";
  EXPECT_EQ(page.console, "") << "the page logged to the console";
  EXPECT_NE(inner(page.dom, "verdict").find("Verdict: violation: duplicate_delivery"),
            std::string::npos);
  EXPECT_NE(inner(page.dom, "stories").find("class=\"active\">the whole run"), std::string::npos)
      << inner(page.dom, "stories");
  const std::string timeline = inner(page.dom, "timeline");
  EXPECT_GE(count(timeline, "class=\"op ok bad"), 2u) << "the two dequeues of one item";
  EXPECT_GE(count(timeline, "class=\"fault-mark\""), 1u) << "the fault the search placed is drawn";
  // The counterexample has one client; the lane of the drain that runs after it says whose it is.
  EXPECT_NE(timeline.find(">client 0</text>"), std::string::npos) << timeline;
  EXPECT_NE(timeline.find(">client 1 (the drain)</text>"), std::string::npos) << timeline;
  EXPECT_EQ(count(timeline, "(the drain)"), 1u) << timeline;
  EXPECT_NE(tag_of(page.dom, "page-errors").find("hidden"), std::string::npos)
      << "the page caught an error: " << inner(page.dom, "page-errors");
}

// The verdict box of a page drawn as undecided (amber, its heading saying so); empty when not.
std::string undecided_box(const std::string& html) {
  Page page = load(html);
  EXPECT_FALSE(page.dom.empty()) << "chromium printed no DOM";
  EXPECT_EQ(page.console, "") << "the page logged to the console";
  EXPECT_EQ(attribute(page.dom, "verdict", "class"), "undecided");
  const std::string box = inner(page.dom, "violation");
  EXPECT_NE(box.find("Undecided: no checker could judge this run"), std::string::npos) << box;
  return box;
}

// A run no checker could judge was drawn as a violation: red, under "What went wrong: none".
TEST(HtmlReportInChromium, AnUndecidedRunIsDrawnAsNeitherPassNorFinding) {
  if (!have_chromium()) GTEST_SKIP() << "chromium is not installed";
  const std::string toml = work_dir() + "/starved.toml", html = work_dir() + "/starved.html";
  std::ofstream(toml) << "recipe = \"queue\"\nclients = 2\noperations_per_client = 2\n"
                         "checks = [\"search\"]\n[limits]\nsearch_budget = 1\n";
  auto r = run_cli("replay " + toml + " --seed 1 --quiet --report html=" + html);
  ASSERT_EQ(r.exit_code, 3) << r.output;
  const std::string box = undecided_box(html);
  EXPECT_NE(box.find("limits.search_budget = 1: a larger one gives it more"), std::string::npos)
      << box;
  EXPECT_EQ(box.find("What went wrong"), std::string::npos) << box;
}

// Before: `check --report html` of a history its search could not judge drew the undecided box
// without what gives the search more, which the text output names (--budget N).
TEST(HtmlReportInChromium, AnUndecidedHistoryCheckNamesItsBudgetAsTheRemedy) {
  if (!have_chromium()) GTEST_SKIP() << "chromium is not installed";
  const std::string toml = work_dir() + "/history-run.toml";
  const std::string history = work_dir() + "/undecided.jsonl";
  const std::string html = work_dir() + "/undecided-history.html";
  std::ofstream(toml) << "recipe = \"queue\"\nclients = 2\noperations_per_client = 2\n";
  ASSERT_EQ(run_cli("replay " + toml + " --seed 1 --quiet --history " + history).exit_code, 0);
  auto r = run_cli("check " + history + " --checker search --budget 1 --report html=" + html);
  ASSERT_EQ(r.exit_code, 3) << r.output;
  const std::string box = undecided_box(html);
  EXPECT_NE(box.find("the search spent its whole budget of 1 step: --budget N gives it more"),
            std::string::npos)
      << box;
}

// Before: a history beyond the search, decided by a part of one operation (an insert never
// removed from a drained queue), had its model panel say it ordered "the checker's longest
// linearizable prefix" — the part's, not the history's.
TEST(HtmlReportInChromium, AVerdictDecidedByAPartSaysTheModelOrdersThatPartOnly) {
  if (!have_chromium()) GTEST_SKIP() << "chromium is not installed";
  const std::string history = work_dir() + "/lost-beyond-budget.jsonl";
  const std::string html = work_dir() + "/lost-beyond-budget.html";
  ASSERT_EQ(run_cli("replay " + source_path("scenarios/queue-unknown-result.toml") +
                    " --clients 8 --operations 50 --seed 2 --quiet --history " + history)
                .exit_code,
            0)
      << "the scenario expects its violation";
  auto r = run_cli("check " + history +
                   " --checker search --budget 20000 --drained --report html=" + html);
  ASSERT_EQ(r.exit_code, 1) << r.output;
  ASSERT_NE(r.output.find("the part of the history that concerns"), std::string::npos) << r.output;
  Page page = load(html);
  EXPECT_EQ(page.console, "");
  EXPECT_NE(inner(page.dom, "model-order")
                .find("the longest linearizable prefix of the part of 1 operation(s) that "
                      "decided the verdict"),
            std::string::npos)
      << inner(page.dom, "model-order");
}

TEST(HtmlReportInChromium, SteppingMovesTheHighlightAndTheStorePanel) {
  if (!have_chromium()) GTEST_SKIP() << "chromium is not installed";
  const std::string file = failing_report();
  std::string keys = "Home", last_store, last_highlight;
  bool store_changed_on_a_commit = false;
  for (int k = 0; k <= 10; ++k) {
    Page page = load(file, "keys=" + keys);
    ASSERT_FALSE(page.dom.empty());
    EXPECT_EQ(page.console, "");
    EXPECT_EQ(attribute(page.dom, "step-panel", "data-step"), std::to_string(k)) << keys;
    const std::string store = inner(page.dom, "store-state");
    const std::string now = highlighted(page.dom);
    EXPECT_NE(now, "") << "no event highlighted after " << keys;
    if (k > 0) {
      EXPECT_NE(now, last_highlight) << "the highlight did not move after " << keys;
      if (store != last_store &&
          inner(page.dom, "step-event").find("commits at version") != std::string::npos) {
        store_changed_on_a_commit = true;
      }
    } else {
      EXPECT_NE(store.find("the queue is empty"), std::string::npos) << store;
    }
    last_store = store;
    last_highlight = now;
    keys += ",ArrowRight";
    if (store_changed_on_a_commit && k >= 3) break;
  }
  EXPECT_TRUE(store_changed_on_a_commit)
      << "stepping over a committed write never changed the store panel";
  // And back: ArrowLeft undoes ArrowRight.
  Page back = load(file, "keys=Home,ArrowRight,ArrowRight,ArrowLeft");
  EXPECT_EQ(attribute(back.dom, "step-panel", "data-step"), "1");
}

// The model panel orders inserts by their commit points; concurrent inserts may take effect in
// either order, so a linearizable run must never be flagged — also where concurrent enqueues
// (16 clients) or pushes of one priority (8 clients) land in the store out of commit order.
TEST(HtmlReportInChromium, TheModelPanelRaisesNoFalseAlarmOnALinearizableRun) {
  if (!have_chromium()) GTEST_SKIP() << "chromium is not installed";
  const std::string dir = work_dir();
  for (const char* name : {"queue", "priority-queue"}) {
    std::string scenario = read_file(source_path("scenarios/") + name + ".toml");
    scenario = std::regex_replace(
        scenario, std::regex("\nclients = 4\n"),
        std::string("\nclients = ") + (std::string(name) == "queue" ? "16" : "8") + "\n");
    ASSERT_EQ(scenario.find("\nclients = 4\n"), std::string::npos) << name;
    const std::string toml = dir + "/" + name + "-wide.toml", html = dir + "/" + name + ".html";
    std::ofstream(toml) << scenario;
    auto r = run_cli("run " + toml + " --seed 1 --report html=" + html);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    Page page = load(html, "keys=End");
    EXPECT_EQ(page.console, "");
    EXPECT_NE(inner(page.dom, "model-check").find("every answer so far"), std::string::npos)
        << name << ": " << inner(page.dom, "model-check");
  }
}

double view_span(const std::string& dom) {
  const std::string view = attribute(dom, "timeline", "data-view");
  const std::size_t dots = view.find("..");
  if (dots == std::string::npos) return -1;
  return std::stod(view.substr(dots + 2)) - std::stod(view.substr(0, dots));
}

TEST(HtmlReportInChromium, ZoomNarrowsAndFitRestoresTheTimeView) {
  if (!have_chromium()) GTEST_SKIP() << "chromium is not installed";
  const std::string file = failing_report();
  const double fitted = view_span(load(file, "keys=0").dom);
  const double zoomed = view_span(load(file, "keys=0,%2B,%2B").dom);
  const double out = view_span(load(file, "keys=0,%2B,%2B,-").dom);
  ASSERT_GT(fitted, 0);
  EXPECT_NEAR(zoomed, fitted / 4, fitted / 100) << "two zoom-ins halve the span twice";
  EXPECT_NEAR(out, fitted / 2, fitted / 100);
  EXPECT_NEAR(view_span(load(file, "keys=%2B,%2B,0").dom), fitted, fitted / 100) << "fit";
}

TEST(HtmlReportInChromium, CheckDrawsAnExternalHistoryWithoutTheStore) {
  if (!have_chromium()) GTEST_SKIP() << "chromium is not installed";
  const std::string path = work_dir() + "/check.html";
  auto r = run_cli("check " + source_path("docs/examples/histories/order-inversion.jsonl") +
                   " --model fifo --report html=" + path);
  ASSERT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("wrote html report"), std::string::npos);
  Page page = load(path);
  EXPECT_EQ(page.console, "");
  EXPECT_NE(inner(page.dom, "violation").find("came out first"), std::string::npos);
  EXPECT_EQ(count(inner(page.dom, "timeline"), "class=\"op ok bad"), 4u);
  EXPECT_NE(tag_of(page.dom, "version-figure").find("hidden"), std::string::npos)
      << "an external history has no store to draw";
  EXPECT_EQ(run_cli("check " + source_path("docs/examples/histories/order-inversion.jsonl") +
                    " --report junit=" + path)
                .exit_code,
            2)
      << "check writes html and json reports";
}

// Before: a linearizable history of more than 2,000 operations was drawn as nothing at all
// ("Nothing to draw in full"): without a violation or the store's conflicts there was no centre
// for a window. It is now drawn around its most concurrent moment, a whole window of operations.
TEST(HtmlReportInChromium, CheckDrawsALargeCleanHistoryAroundItsBusiestMoment) {
  if (!have_chromium()) GTEST_SKIP() << "chromium is not installed";
  const std::string toml = work_dir() + "/large.toml", history = work_dir() + "/large.jsonl";
  const std::string html = work_dir() + "/large.html";
  std::ofstream(toml) << "recipe = \"queue\"\nclients = 8\noperations_per_client = 400\n";
  ASSERT_EQ(run_cli("replay " + toml + " --seed 1 --quiet --history " + history).exit_code, 0);
  auto r = run_cli("check " + history + " --model fifo --report html=" + html);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  Page page = load(html);
  ASSERT_FALSE(page.dom.empty()) << "chromium printed no DOM";
  EXPECT_EQ(page.console, "");
  EXPECT_NE(inner(page.dom, "story-caption").find("the history around its most concurrent moment"),
            std::string::npos)
      << inner(page.dom, "story-caption");
  EXPECT_GE(count(inner(page.dom, "timeline"), "class=\"op "), 150u)
      << "a whole window is drawn, not half of one at the history's start";
}

// The issue's yardstick: 64 clients x 1,563 operations of scenarios/queue.toml (about 100,000
// operations). Reproduce: set clients = 64 and operations_per_client = 1563 in a copy of
// scenarios/queue.toml, then `contend run copy.toml --seed 1 --report html=big.html`.
TEST(HtmlReportInChromium, AHundredThousandOperationRunGivesASmallPageThatLoadsFast) {
  if (!have_chromium()) GTEST_SKIP() << "chromium is not installed";
  const std::string dir = work_dir();
  std::string scenario = read_file(source_path("scenarios/queue.toml"));
  scenario = std::regex_replace(scenario, std::regex("\nclients = 4\n"), "\nclients = 64\n");
  scenario = std::regex_replace(scenario, std::regex("\noperations_per_client = 12\n"),
                                "\noperations_per_client = 1563\n");
  ASSERT_NE(scenario.find("clients = 64"), std::string::npos);
  ASSERT_NE(scenario.find("operations_per_client = 1563"), std::string::npos);
  std::ofstream(dir + "/queue-100k.toml") << scenario;
  const std::string html = dir + "/queue-100k.html";
  auto r = run_cli("run " + dir + "/queue-100k.toml --seed 1 --report html=" + html);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto bytes = std::filesystem::file_size(html);
  EXPECT_LT(bytes, 5'000'000u);
  Page page = load(html);
  ASSERT_FALSE(page.dom.empty());
  EXPECT_EQ(page.console, "");
  static const std::regex render_ms(R"re(data-render-ms="(\d+)")re");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(page.dom, m, render_ms)) << "the page never finished rendering";
  const int ms = std::stoi(m[1].str());
  EXPECT_LT(ms, 2000);
  static const std::regex operations(R"re((\d+) operation\(s\))re");
  const std::string verdict = inner(page.dom, "verdict");
  ASSERT_TRUE(std::regex_search(verdict, m, operations)) << verdict;
  EXPECT_GT(std::stoi(m[1].str()), 100'000);
  EXPECT_GE(count(inner(page.dom, "overview"), "class=\"bucket-ok\""), 100u)
      << "the whole run is summarised per bucket";
  EXPECT_GE(count(inner(page.dom, "timeline"), "class=\"op "), 50u)
      << "its most contended moment is drawn in full";
  std::cout << "100k-operation report: " << bytes << " bytes, rendered " << ms
            << " ms after navigation start, " << page.seconds
            << " s for the whole headless Chromium run\n";
  RecordProperty("page_bytes", std::to_string(bytes));
  RecordProperty("render_ms", std::to_string(ms));
}

}  // namespace
}  // namespace contend
