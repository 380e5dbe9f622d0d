// TOML → Scenario, with strict validation: unknown keys, wrong types and out-of-range values are
// errors that name the file, the line and the dotted key.
#include <toml++/toml.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <sstream>

#include "base/closest_name.h"
#include "base/digest128.h"
#include "base/input_file.h"
#include "base/toml_dotted_keys.h"
#include "model/spec.h"
#include "model/verdict.h"
#include "scenarios/expectation.h"
#include "scenarios/json_shape.h"
#include "scenarios/scenario.h"
#include "scenarios/scenario_bounds.h"
#include "scenarios/seed_range.h"
#include "sim/recipes/recipe.h"

namespace contend {

namespace {

class Reader {
 public:
  Reader(const std::string& file, ScenarioError& error, std::vector<SetKey>& set_keys)
      : file_(file), error_(error), set_keys_(set_keys) {}
  bool failed() const { return failed_; }

  // Records a key read, with its line, for the checks of what a value set can do
  // (validate_scenario): a value that can never take effect is refused there, where the recipe's
  // kind is known.
  void note(const toml::node* node, const std::string& key) {
    set_keys_.push_back(SetKey{key, static_cast<int>(node->source().begin.line)});
  }

  void fail(const toml::node* node, const std::string& key, const std::string& what) {
    if (failed_) return;
    failed_ = true;
    std::ostringstream out;
    out << file_;
    if (node != nullptr && node->source().begin.line > 0) out << ":" << node->source().begin.line;
    out << ": " << key << ": " << what;
    error_.message = out.str();
  }

  // Every key of `table` must be in `allowed`.
  void only_keys(const toml::table& table, const std::string& prefix,
                 std::initializer_list<std::string_view> allowed) {
    for (const auto& [key, node] : table) {
      std::string_view k = key.str();
      if (std::find(allowed.begin(), allowed.end(), k) != allowed.end()) continue;
      std::string message = "unknown key";
      if (auto best = closest_name(k, allowed)) {
        message += " (did you mean '" + std::string(*best) + "'?)";
      }
      std::string expected;
      for (std::string_view a : allowed)
        expected += (expected.empty() ? "" : ", ") + std::string(a);
      fail(&node, join(prefix, k), message + "; expected one of: " + expected);
    }
  }

  template <class Int>
  void integer(const toml::table& t, const std::string& prefix, std::string_view key, Int& out,
               std::int64_t min, std::int64_t max) {
    const toml::node* node = t.get(key);
    if (node == nullptr) return;
    // is_integer() first: value<int64_t>() of a float converts it, which is undefined behaviour
    // past int64's range (UBSan, found by scenario_fuzz: clients = 2222e222).
    if (!node->is_integer()) return fail(node, join(prefix, key), "expected an integer");
    auto v = node->value<std::int64_t>();
    if (!v) return fail(node, join(prefix, key), "expected an integer");
    if (*v < min || *v > max) {
      return fail(node, join(prefix, key), out_of_range_text(*v, min, max));
    }
    out = static_cast<Int>(*v);
    note(node, join(prefix, key));
  }

  void number(const toml::table& t, const std::string& prefix, std::string_view key, double& out,
              double min, double max) {
    const toml::node* node = t.get(key);
    if (node == nullptr) return;
    if (!node->is_number()) return fail(node, join(prefix, key), "expected a number");
    double v = node->value<double>().value_or(0.0);
    if (!(v >= min && v <= max)) {
      return fail(node, join(prefix, key), out_of_range_text(v, min, max));
    }
    out = v == 0.0 ? 0.0 : v;  // -0.0 reads as 0: to_toml would write it as -0 (integer -0)
    note(node, join(prefix, key));
  }

  void boolean(const toml::table& t, const std::string& prefix, std::string_view key, bool& out) {
    const toml::node* node = t.get(key);
    if (node == nullptr) return;
    if (!node->is_boolean()) return fail(node, join(prefix, key), "expected true or false");
    out = *node->value<bool>();
    note(node, join(prefix, key));
  }

  void string(const toml::table& t, const std::string& prefix, std::string_view key,
              std::string& out, std::initializer_list<std::string_view> allowed = {}) {
    const toml::node* node = t.get(key);
    if (node == nullptr) return;
    if (!node->is_string()) return fail(node, join(prefix, key), "expected a string");
    std::string v = *node->value<std::string>();
    if (allowed.size() > 0 && std::find(allowed.begin(), allowed.end(), v) == allowed.end()) {
      return fail(node, join(prefix, key), not_one_of_text(v, allowed));
    }
    out = std::move(v);
    note(node, join(prefix, key));
  }

  void strings(const toml::table& t, const std::string& prefix, std::string_view key,
               std::vector<std::string>& out, std::initializer_list<std::string_view> allowed) {
    const toml::node* node = t.get(key);
    if (node == nullptr) return;
    const toml::array* array = node->as_array();
    if (array == nullptr) return fail(node, join(prefix, key), "expected an array of strings");
    std::vector<std::string> values;
    for (const toml::node& element : *array) {
      auto v = element.value<std::string>();
      if (!element.is_string() || !v) return fail(&element, join(prefix, key), "expected strings");
      if (std::find(allowed.begin(), allowed.end(), *v) == allowed.end()) {
        return fail(&element, join(prefix, key), not_one_of_text(*v, allowed));
      }
      if (std::find(values.begin(), values.end(), *v) != values.end()) {
        return fail(&element, join(prefix, key), "'" + *v + "' is listed twice");
      }
      values.push_back(*v);
    }
    out = std::move(values);
    note(node, join(prefix, key));
  }

  const toml::table* table(const toml::table& t, const std::string& prefix, std::string_view key) {
    const toml::node* node = t.get(key);
    if (node == nullptr) return nullptr;
    if (!node->is_table()) {
      fail(node, join(prefix, key), "expected a table");
      return nullptr;
    }
    return node->as_table();
  }

  static std::string join(const std::string& prefix, std::string_view key) {
    return prefix.empty() ? std::string(key) : prefix + "." + std::string(key);
  }

 private:
  const std::string& file_;
  ScenarioError& error_;
  std::vector<SetKey>& set_keys_;
  bool failed_ = false;
};

void read_latency(Reader& r, const toml::table& t, const std::string& prefix,
                  LatencyDistribution& d) {
  r.only_keys(t, prefix, {"min_us", "mean_us", "tail_probability", "tail_max_us"});
  r.integer(t, prefix, "min_us", d.min_us, 0, kLatencyUsMax);
  r.integer(t, prefix, "mean_us", d.mean_us, 0, kLatencyUsMax);
  r.number(t, prefix, "tail_probability", d.tail_probability, 0.0, 1.0);
  r.integer(t, prefix, "tail_max_us", d.tail_max_us, 0, kLatencyUsMax);
}

void read_faults(Reader& r, const toml::table& t, Scenario& s) {
  const std::string p = "faults";
  r.only_keys(t, p,
              {"not_committed", "unknown_result_applied", "unknown_result_not_applied",
               "read_too_old", "read_future_version", "crash", "pause", "pause_us", "swarm"});
  FaultKnobs& f = s.faults;
  r.number(t, p, "not_committed", f.not_committed, 0.0, 1.0);
  r.number(t, p, "unknown_result_applied", f.unknown_result_applied, 0.0, 1.0);
  r.number(t, p, "unknown_result_not_applied", f.unknown_result_not_applied, 0.0, 1.0);
  r.number(t, p, "read_too_old", f.read_too_old, 0.0, 1.0);
  r.number(t, p, "read_future_version", f.read_future_version, 0.0, 1.0);
  r.number(t, p, "crash", f.crash, 0.0, 1.0);
  r.number(t, p, "pause", f.pause, 0.0, 1.0);
  r.integer(t, p, "pause_us", f.pause_us, 0, kLatencyUsMax);
  r.boolean(t, p, "swarm", s.swarm);
}

void read_mix(Reader& r, const toml::table& t, OperationMix& m) {
  const std::string p = "mix";
  r.only_keys(t, p, {"enqueue", "dequeue", "push", "pop_min", "peek_min", "pop_max", "peek_max"});
  r.number(t, p, "enqueue", m.enqueue, 0.0, kMixWeightMax);
  r.number(t, p, "dequeue", m.dequeue, 0.0, kMixWeightMax);
  r.number(t, p, "push", m.push, 0.0, kMixWeightMax);
  r.number(t, p, "pop_min", m.pop_min, 0.0, kMixWeightMax);
  r.number(t, p, "peek_min", m.peek_min, 0.0, kMixWeightMax);
  r.number(t, p, "pop_max", m.pop_max, 0.0, kMixWeightMax);
  r.number(t, p, "peek_max", m.peek_max, 0.0, kMixWeightMax);
}

void read_strategy(Reader& r, const toml::table& t, StrategyConfig& c) {
  const std::string p = "strategy";
  r.only_keys(t, p,
              {"name", "pct_depth", "dfs_max_preemptions", "dfs_max_schedules", "dpor_max_faults",
               "dpor_plans", "dpor_draws", "dpor_reduction"});
  r.string(t, p, "name", c.name, {"random", "pct", "dfs", "dpor"});
  r.integer(t, p, "dpor_max_faults", c.dpor_max_faults, 0, kDporMaxFaultsMax);
  r.string(t, p, "dpor_plans", c.dpor_plans, {"all", "seed"});
  r.string(t, p, "dpor_draws", c.dpor_draws, {"all", "seed"});
  r.string(t, p, "dpor_reduction", c.dpor_reduction, {"dpor", "states", "none"});
  r.integer(t, p, "pct_depth", c.pct_depth, 1, kPctDepthMax);
  r.integer(t, p, "dfs_max_preemptions", c.dfs_max_preemptions, 0, kDfsMaxPreemptionsMax);
  r.integer(t, p, "dfs_max_schedules", c.dfs_max_schedules, 1, kDfsMaxSchedulesMax);
}

// plan = [["enqueue", "dequeue"], ["push:2", "pop_min"]]: one array of operations per client.
void read_plan(Reader& r, const toml::table& root, Scenario& s) {
  const toml::node* node = root.get("plan");
  if (node == nullptr) return;
  const toml::array* clients = node->as_array();
  if (clients == nullptr || clients->empty() || clients->size() > 64) {
    return r.fail(node, "plan",
                  "expected an array of 1 to 64 clients, each an array of operations");
  }
  std::vector<ClientPlan> plan;
  for (const toml::node& client : *clients) {
    const toml::array* ops = client.as_array();
    if (ops == nullptr)
      return r.fail(&client, "plan", "expected an array of operations per client");
    ClientPlan one;
    for (const toml::node& op : *ops) {
      auto text = op.value<std::string>();
      auto parsed = text ? parse_planned_operation(*text) : std::nullopt;
      if (!op.is_string() || !parsed) {
        return r.fail(&op, "plan",
                      "expected an operation: enqueue, dequeue, push:<priority>, pop_min, "
                      "peek_min, pop_max or peek_max");
      }
      one.push_back(*parsed);
    }
    plan.push_back(std::move(one));
  }
  if (root.get("clients") != nullptr && s.clients != static_cast<int>(plan.size())) {
    return r.fail(root.get("clients"), "clients",
                  "the plan has " + std::to_string(plan.size()) + " clients, not " +
                      std::to_string(s.clients));
  }
  const int longest = longest_client_plan(plan);
  if (longest == 0) return r.fail(node, "plan", kNoOperation);
  if (root.get("operations_per_client") != nullptr && s.operations_per_client != longest) {
    return r.fail(root.get("operations_per_client"), "operations_per_client",
                  "the plan's longest client has " + std::to_string(longest) +
                      " operation(s), not " + std::to_string(s.operations_per_client));
  }
  s.clients = static_cast<int>(plan.size());
  s.operations_per_client = longest;
  s.plan = std::move(plan);
  r.note(node, "plan");
}

void read_top(Reader& r, const toml::table& root, Scenario& s) {
  r.only_keys(root, "",
              {"name", "description", "recipe", "clients", "operations_per_client", "drain",
               "expect", "checks", "model", "seeds", "mix", "priorities", "latency", "faults",
               "strategy", "limits", "plan"});
  r.string(root, "", "name", s.name);
  if (auto problem = name_problem(s.name)) r.fail(root.get("name"), "name", *problem);
  r.string(root, "", "description", s.description);
  r.string(root, "", "recipe", s.recipe);
  r.integer(root, "", "clients", s.clients, 1, kClientsMax);
  r.integer(root, "", "operations_per_client", s.operations_per_client, kOperationsPerClientMin,
            kOperationsPerClientMax);
  r.boolean(root, "", "drain", s.drain);
  r.string(root, "", "expect", s.expect);
  if (auto problem = validate_expectation(s.expect)) r.fail(root.get("expect"), "expect", *problem);
  r.string(root, "", "model", s.model, {"fifo", "priority", "multiset"});
  r.strings(root, "", "checks", s.checks, {"fast", "search", "accounting", "serializability"});
  read_plan(r, root, s);
}

}  // namespace

std::string to_string(const PlannedOperation& op) {
  std::string out(model::to_string(op.f));
  if (op.priority) out += ":" + std::to_string(*op.priority);
  return out;
}

std::optional<PlannedOperation> parse_planned_operation(std::string_view text) {
  PlannedOperation op;
  const std::size_t colon = text.find(':');
  auto f = model::parse_op_function(text.substr(0, colon));
  if (!f) return std::nullopt;
  op.f = *f;
  if (colon == std::string_view::npos) {
    if (op.f == model::OpFunction::push) return std::nullopt;  // a push needs its priority
    return op;
  }
  if (op.f != model::OpFunction::push) return std::nullopt;
  std::int64_t priority = 0;
  const std::string_view digits = text.substr(colon + 1);
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), priority);
  if (digits.empty() || ec != std::errc() || ptr != digits.data() + digits.size()) {
    return std::nullopt;
  }
  op.priority = priority;
  return op;
}

std::optional<Scenario> parse_scenario(const std::string& text, const std::string& file,
                                       ScenarioError& error) {
  // A scenario's keys have two parts at most ("faults.crash"); one of thousands overflowed the
  // stack inside toml::parse (base/toml_dotted_keys.h).
  constexpr std::size_t kKeyPartsMax = 16;
  if (std::string why = dotted_key_refusal(text, kKeyPartsMax); !why.empty()) {
    error.message = file + ":" + why + " (a scenario's keys have 2 at most)";
    return std::nullopt;
  }
  toml::table root;
  try {
    root = toml::parse(text, file);
  } catch (const toml::parse_error& e) {
    error.message =
        file + ":" + std::to_string(e.source().begin.line) + ": " + std::string(e.description());
    return std::nullopt;
  }
  // Every key has a default, but a file that sets none is a mistake (empty, truncated, or
  // /dev/null), never a request to run the defaults' queue scenario.
  if (root.empty()) {
    error.message = file +
                    ": holds no key: a scenario names its recipe at least (recipe = \"queue\"; "
                    "docs/scenarios.md lists the keys)";
    return std::nullopt;
  }
  Scenario s;
  s.file = file;
  Reader r(file, error, s.set_keys);
  read_top(r, root, s);
  if (const toml::table* t = r.table(root, "", "seeds")) {
    r.only_keys(*t, "seeds", {"first", "last"});
    r.integer(*t, "seeds", "first", s.seed_first, 0, static_cast<std::int64_t>(kSeedMax));
    r.integer(*t, "seeds", "last", s.seed_last, 0, static_cast<std::int64_t>(kSeedMax));
    if (!r.failed() && s.seed_last < s.seed_first) {
      r.fail(t->get("last"), "seeds.last", "must not be below seeds.first");
    } else if (!r.failed() && s.seed_last - s.seed_first >= kMaxSeedsPerRun) {
      r.fail(t->get("last"), "seeds.last",
             "more than " + std::to_string(kMaxSeedsPerRun) + " seeds in one range");
    }
  }
  if (const toml::table* t = r.table(root, "", "mix")) read_mix(r, *t, s.mix);
  if (const toml::table* t = r.table(root, "", "priorities")) {
    r.only_keys(*t, "priorities", {"min", "max"});
    r.integer(*t, "priorities", "min", s.priority_min, -kPriorityMagnitudeMax,
              kPriorityMagnitudeMax);
    r.integer(*t, "priorities", "max", s.priority_max, -kPriorityMagnitudeMax,
              kPriorityMagnitudeMax);
    if (!r.failed() && s.priority_max < s.priority_min) {
      r.fail(t->get("max"), "priorities.max", "must not be below priorities.min");
    }
  }
  if (const toml::table* t = r.table(root, "", "latency")) {
    r.only_keys(*t, "latency", {"read_version", "read", "commit"});
    if (auto* d = r.table(*t, "latency", "read_version")) {
      read_latency(r, *d, "latency.read_version", s.latency.read_version);
    }
    if (auto* d = r.table(*t, "latency", "read"))
      read_latency(r, *d, "latency.read", s.latency.read);
    if (auto* d = r.table(*t, "latency", "commit")) {
      read_latency(r, *d, "latency.commit", s.latency.commit);
    }
  }
  if (const toml::table* t = r.table(root, "", "faults")) read_faults(r, *t, s);
  if (const toml::table* t = r.table(root, "", "strategy")) read_strategy(r, *t, s.strategy);
  if (const toml::table* t = r.table(root, "", "limits")) {
    r.only_keys(*t, "limits", {"max_steps", "max_virtual_seconds", "retry_limit", "search_budget"});
    r.integer(*t, "limits", "max_steps", s.max_steps, 1, INT64_MAX);
    r.integer(*t, "limits", "max_virtual_seconds", s.max_virtual_seconds, 1, kMaxVirtualSecondsMax);
    r.integer(*t, "limits", "retry_limit", s.retry_limit, 1, kRetryLimitMax);
    r.integer(*t, "limits", "search_budget", s.search_budget, 1, INT64_MAX);
  }
  if (r.failed()) return std::nullopt;
  if (s.name.empty()) {
    std::string base = file.substr(file.find_last_of('/') + 1);
    s.name = base.substr(0, base.rfind('.'));
  }
  return s;
}

namespace {
void write_latency(std::ostringstream& out, const char* name, const LatencyDistribution& d) {
  out << "\n[latency." << name << "]\nmin_us = " << d.min_us << "\nmean_us = " << d.mean_us
      << "\ntail_probability = " << d.tail_probability << "\ntail_max_us = " << d.tail_max_us
      << "\n";
}
// The [mix] weights and [priorities] that can take effect: none beside a plan (it replaces the
// drawn operations and gives each push its priority), else those of the recipe's family (both
// families when the recipe is unknown: validate_scenario refuses the recipe itself).
void write_mix(std::ostringstream& out, const Scenario& s) {
  if (!s.plan.empty()) return;
  const RecipeInfo* info = find_recipe(s.recipe);
  const bool fifo = info == nullptr || info->kind == RecipeKind::fifo;
  const bool priority = info == nullptr || info->kind == RecipeKind::priority;
  const OperationMix& m = s.mix;
  out << "\n[mix]\n";
  if (fifo) out << "enqueue = " << m.enqueue << "\ndequeue = " << m.dequeue << "\n";
  if (!priority) return;  // a FIFO recipe's items carry no priority either
  out << "push = " << m.push << "\npop_min = " << m.pop_min << "\npeek_min = " << m.peek_min
      << "\npop_max = " << m.pop_max << "\npeek_max = " << m.peek_max << "\n";
  out << "\n[priorities]\nmin = " << s.priority_min << "\nmax = " << s.priority_max << "\n";
}
// Every fault knob; pause_us only while pauses happen (pause above 0), and swarm only while it
// draws something (swarm mode with a knob above 0).
void write_faults(std::ostringstream& out, const Scenario& s) {
  const FaultKnobs& f = s.faults;
  out << "\n[faults]\nnot_committed = " << f.not_committed
      << "\nunknown_result_applied = " << f.unknown_result_applied
      << "\nunknown_result_not_applied = " << f.unknown_result_not_applied
      << "\nread_too_old = " << f.read_too_old
      << "\nread_future_version = " << f.read_future_version << "\ncrash = " << f.crash
      << "\npause = " << f.pause << "\n";
  if (f.pause > 0) out << "pause_us = " << f.pause_us << "\n";
  if (s.swarm && f.any()) out << "swarm = true\n";
}
// A TOML basic string: quotes and backslashes escaped, and control characters (which TOML does
// not allow raw in a basic string: a name holding "\r" used not to read back) as \uXXXX.
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += std::string("\\") + c;
    } else if (byte < 0x20 || byte == 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", byte);
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}
}  // namespace

std::string to_toml(const Scenario& s) {
  std::ostringstream out;
  out.precision(17);
  out << "name = " << quoted(s.name) << "\n";
  if (!s.description.empty()) out << "description = " << quoted(s.description) << "\n";
  // A plan's scope is its own (the loader refuses keys that disagree with it): a plan cut with a
  // scope, or a client's array dropped, may leave operations_per_client above its longest array.
  const int operations = s.plan.empty() ? s.operations_per_client : longest_client_plan(s.plan);
  out << "recipe = " << quoted(s.recipe) << "\nclients = " << s.clients
      << "\noperations_per_client = " << operations << "\ndrain = " << (s.drain ? "true" : "false")
      << "\nexpect = " << quoted(s.expect) << "\n";
  if (!s.model.empty()) out << "model = " << quoted(s.model) << "\n";
  if (!s.plan.empty()) {
    out << "plan = [";
    for (std::size_t c = 0; c < s.plan.size(); ++c) {
      out << (c ? ", [" : "[");
      for (std::size_t i = 0; i < s.plan[c].size(); ++i)
        out << (i ? ", " : "") << quoted(to_string(s.plan[c][i]));
      out << "]";
    }
    out << "]\n";
  }
  out << "checks = [";
  for (std::size_t i = 0; i < s.checks.size(); ++i)
    out << (i ? ", " : "") << quoted(s.checks[i]);
  out << "]\n\n[seeds]\nfirst = " << s.seed_first << "\nlast = " << s.seed_last << "\n";
  write_mix(out, s);
  write_latency(out, "read_version", s.latency.read_version);
  write_latency(out, "read", s.latency.read);
  write_latency(out, "commit", s.latency.commit);
  write_faults(out, s);
  out << "\n[strategy]\nname = " << quoted(s.strategy.name)
      << "\npct_depth = " << s.strategy.pct_depth
      << "\ndfs_max_preemptions = " << s.strategy.dfs_max_preemptions
      << "\ndfs_max_schedules = " << s.strategy.dfs_max_schedules
      << "\ndpor_max_faults = " << s.strategy.dpor_max_faults
      << "\ndpor_plans = " << quoted(s.strategy.dpor_plans)
      << "\ndpor_draws = " << quoted(s.strategy.dpor_draws)
      << "\ndpor_reduction = " << quoted(s.strategy.dpor_reduction) << "\n";
  out << "\n[limits]\nmax_steps = " << s.max_steps
      << "\nmax_virtual_seconds = " << s.max_virtual_seconds << "\nretry_limit = " << s.retry_limit
      << "\nsearch_budget = " << s.search_budget << "\n";
  return out.str();
}

std::string contents_digest(const Scenario& s) {
  Digest128 digest;
  digest.add_raw(to_toml(s));
  const Digest128::Value v = digest.finish();
  char hex[33];
  std::snprintf(hex, sizeof hex, "%016llx%016llx", static_cast<unsigned long long>(v[0]),
                static_cast<unsigned long long>(v[1]));
  return hex;
}

std::optional<Scenario> load_scenario(const std::string& path, ScenarioError& error) {
  if (std::optional<std::string> problem = utf8_problem(path)) {
    error.message = path + ": the file's name is not UTF-8 (" + *problem +
                    "), and contend's reports (JSON, JUnit, HTML) name the scenario by it; "
                    "rename the file";
    return std::nullopt;
  }
  std::string why;
  const std::optional<std::string> text = read_input(path, kScenarioInput, why);
  if (!text) {
    error.message = path + ": cannot open the scenario file (" + why + ")";
    return std::nullopt;
  }
  return parse_scenario(*text, path, error);
}

}  // namespace contend
