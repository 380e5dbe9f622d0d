#include "scenarios/plans.h"

#include <algorithm>

#include "scenarios/runner.h"

namespace contend {

namespace {

using model::OpFunction;

// The operations one slot of a plan may hold; a push's priority is a rank below `ranks`.
std::vector<PlannedOperation> alphabet(const Scenario& s, RecipeKind kind, std::int64_t ranks) {
  const OperationMix& m = s.mix;
  std::vector<PlannedOperation> out;
  auto allow = [&](double weight, OpFunction f) {
    if (weight > 0) out.push_back(PlannedOperation{f, std::nullopt});
  };
  if (kind == RecipeKind::fifo) {
    allow(m.enqueue, OpFunction::enqueue);
    allow(m.dequeue, OpFunction::dequeue);
    return out;
  }
  if (m.push > 0) {
    for (std::int64_t r = 0; r < ranks; ++r)
      out.push_back(PlannedOperation{OpFunction::push, r});
  }
  allow(m.pop_min, OpFunction::pop_min);
  allow(m.peek_min, OpFunction::peek_min);
  allow(m.pop_max, OpFunction::pop_max);
  allow(m.peek_max, OpFunction::peek_max);
  return out;
}

// Whether the pushes use ranks 0..m-1, each at least once (one plan per order pattern).
bool dense_ranks(const Plan& plan) {
  std::vector<bool> used;
  for (const ClientPlan& c : plan) {
    for (const PlannedOperation& op : c) {
      if (!op.priority) continue;
      const auto r = static_cast<std::size_t>(*op.priority);
      if (used.size() <= r) used.resize(r + 1, false);
      used[r] = true;
    }
  }
  return std::all_of(used.begin(), used.end(), [](bool u) { return u; });
}

}  // namespace

std::optional<std::vector<Plan>> enumerate_plans(const Scenario& s, RecipeKind kind,
                                                 std::size_t max_plans, std::string& error) {
  const auto ops = static_cast<std::size_t>(s.operations_per_client);
  const auto clients = static_cast<std::size_t>(s.clients);
  const std::int64_t ranks = std::min<std::int64_t>(s.priority_max - s.priority_min + 1,
                                                    static_cast<std::int64_t>(ops * clients));
  const std::vector<PlannedOperation> letters = alphabet(s, kind, ranks);
  // Every client plan, in lexicographic order of letter indexes.
  std::vector<ClientPlan> client_plans;
  std::vector<std::size_t> digits(ops, 0);
  for (bool more = !letters.empty(); more;) {
    ClientPlan p;
    for (std::size_t d : digits)
      p.push_back(letters[d]);
    client_plans.push_back(std::move(p));
    if (client_plans.size() > max_plans) break;
    more = false;
    for (std::size_t i = ops; i-- > 0;) {
      if (++digits[i] < letters.size()) {
        more = true;
        break;
      }
      digits[i] = 0;
    }
  }
  // Multisets of client plans: indexes in non-decreasing order.
  std::vector<Plan> plans;
  std::vector<std::size_t> pick(clients, 0);
  for (bool more = !client_plans.empty(); more;) {
    Plan plan;
    for (std::size_t i : pick)
      plan.push_back(client_plans[i]);
    if (dense_ranks(plan)) {
      for (ClientPlan& c : plan) {
        for (PlannedOperation& op : c) {
          if (op.priority) *op.priority += s.priority_min;
        }
      }
      plans.push_back(std::move(plan));
      if (plans.size() > max_plans) {
        error = "more than " + std::to_string(max_plans) + " plans at " + std::to_string(clients) +
                " clients x " + std::to_string(ops) +
                " operations: narrow the mix or the priorities, or use --plans seed";
        return std::nullopt;
      }
    }
    more = false;
    for (std::size_t i = clients; i-- > 0;) {
      if (pick[i] + 1 < client_plans.size()) {
        ++pick[i];
        for (std::size_t j = i + 1; j < clients; ++j)
          pick[j] = pick[i];
        more = true;
        break;
      }
    }
  }
  return plans;
}

Plan seed_plan(const Scenario& s, RecipeKind kind, std::uint64_t seed) {
  return drawn_plan(s, kind, seed);
}

std::string describe_plan(const Plan& plan) {
  std::string out;
  for (const ClientPlan& c : plan) {
    out += out.empty() ? "[" : " [";
    for (std::size_t i = 0; i < c.size(); ++i)
      out += (i ? " " : "") + to_string(c[i]);
    out += "]";
  }
  return out;
}

}  // namespace contend
