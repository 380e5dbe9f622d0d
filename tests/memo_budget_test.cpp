// The linearizability search's memo budget is what its memo holds in memory: a search stopped by a
// budget of B bytes grew the heap by about B, for a FIFO state (4-byte items) and a priority one
// (16-byte entries) alike. This program counts every byte its operator new hands out (with a
// 16-byte header, as a small allocation costs) to see it. Before, the memo counted 16 bytes an
// item of any spec and nothing for its hash table's buckets: a FIFO search stopped at about half
// its budget and a priority one went past it (1.2 GiB resident at the default 1 GiB).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <ostream>
#include <string>

#include "model/linearizability.h"
#include "tests/support/recipe_history.h"

namespace {

std::atomic<std::int64_t> live_bytes{0};
std::atomic<std::int64_t> peak_bytes{0};
constexpr std::size_t kHeaderBytes = 16;  // keeps the block 16-byte aligned

void* counted_allocation(std::size_t n) {
  void* block = std::malloc(n + kHeaderBytes);
  if (block == nullptr) throw std::bad_alloc();
  *static_cast<std::size_t*>(block) = n;
  const std::int64_t now =
      live_bytes.fetch_add(static_cast<std::int64_t>(n + kHeaderBytes)) + n + kHeaderBytes;
  std::int64_t peak = peak_bytes.load();
  while (now > peak && !peak_bytes.compare_exchange_weak(peak, now)) {
  }
  return static_cast<char*>(block) + kHeaderBytes;
}

void counted_release(void* p) noexcept {
  if (p == nullptr) return;
  void* block = static_cast<char*>(p) - kHeaderBytes;
  live_bytes.fetch_sub(static_cast<std::int64_t>(*static_cast<std::size_t*>(block) + kHeaderBytes));
  std::free(block);
}

}  // namespace

void* operator new(std::size_t n) {
  return counted_allocation(n);
}
void* operator new[](std::size_t n) {
  return counted_allocation(n);
}
void operator delete(void* p) noexcept {
  counted_release(p);
}
void operator delete[](void* p) noexcept {
  counted_release(p);
}
// The nothrow forms too: a runtime that defines them (AddressSanitizer's) would otherwise hand out
// blocks without the header that the replaced delete expects.
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return counted_allocation(n);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  return operator new(n, std::nothrow);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  counted_release(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  counted_release(p);
}
void operator delete(void* p, std::size_t) noexcept {
  counted_release(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  counted_release(p);
}

namespace contend::model {
namespace {

using testing::recipe_history;

struct BudgetCase {
  const char* file;
  SpecKind spec;
};
void PrintTo(const BudgetCase& c, std::ostream* os) {
  *os << c.file;
}

class MemoBudget : public ::testing::TestWithParam<BudgetCase> {};

// The whole search alone (no parts, each with a memo of its own), in invocation order, which
// remembers configurations fast on a 64-client history; the heap it grew by at its peak.
TEST_P(MemoBudget, ASearchStoppedByItsBudgetGrewTheHeapByAboutThatMuch) {
  const History h = recipe_history(GetParam().file, 64, 50, 1);
  constexpr std::int64_t kBudgetBytes = std::int64_t{64} << 20;
  SearchOptions options{.step_budget = std::int64_t{1} << 40, .memo_budget_bytes = kBudgetBytes};
  options.order = CandidateOrder::invocation;
  options.search_parts = false;
  const std::int64_t before = live_bytes.load();
  peak_bytes.store(before);
  const Verdict v = check_linearizable(h, GetParam().spec, options);
  const std::int64_t grown = peak_bytes.load() - before;
  ASSERT_EQ(v.kind, VerdictKind::unknown) << v.explanation;
  ASSERT_NE(v.explanation.find("memo budget"), std::string::npos) << v.explanation;
  RecordProperty("grown_bytes", std::to_string(grown));
  EXPECT_GE(grown, kBudgetBytes * 85 / 100) << "the budget counted more than the memo holds";
  EXPECT_LE(grown, kBudgetBytes * 110 / 100) << "the memo holds more than its budget counted";
}

INSTANTIATE_TEST_SUITE_P(Specs, MemoBudget,
                         ::testing::Values(BudgetCase{"scenarios/queue.toml", SpecKind::fifo},
                                           BudgetCase{"scenarios/priority-queue.toml",
                                                      SpecKind::priority}),
                         [](const auto& info) {
                           return std::string(info.param.spec == SpecKind::fifo ? "Fifo"
                                                                                : "Priority");
                         });

}  // namespace
}  // namespace contend::model
