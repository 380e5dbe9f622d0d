#include "scenarios/runner.h"

#include "base/invariant.h"
#include "base/simulator_fault.h"
#include "model/spec.h"
#include "scenarios/expectation.h"
#include "scenarios/scenario_bounds.h"
#include "sim/runtime/serializability.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstring>
#include <deque>

namespace contend {

namespace {

using model::Event;
using model::EventType;
using model::Item;
using model::OpFunction;

// An event as a state digest takes it (World::note_operation_event): all of it but its index
// (its place in the stream) and its time (the world notes ties).
Digest128::Value event_digest(const Event& e) {
  Digest128 d;
  d.add_u64(static_cast<std::uint64_t>(e.type));
  d.add_i64(e.process);
  d.add_u64(static_cast<std::uint64_t>(e.f));
  d.add_u64(e.value.has_value() ? 1 : 0);
  if (e.value) {
    d.add_field(e.value->value);
    d.add_u64(e.value->priority.has_value() ? 1 : 0);
    d.add_i64(e.value->priority.value_or(0));
  }
  return d.finish();
}

struct PlannedOp {
  OpFunction f = OpFunction::enqueue;
  std::optional<Item> item;  // inserts only
};

// "v<slot>-<n>": the unique value a slot's n-th insert carries, built in place.
std::string item_name(int slot, int n) {
  char digits[16];  // an int has at most 11 characters
  std::string name = "v";
  name.append(digits, std::to_chars(digits, digits + sizeof digits, slot).ptr);
  name.push_back('-');
  name.append(digits, std::to_chars(digits, digits + sizeof digits, n).ptr);
  return name;
}

// Draws one slot's operations from the mix with the slot's own stream.
std::vector<PlannedOp> plan_slot(const Scenario& s, RecipeKind kind, int slot, Rng rng) {
  struct Weighted {
    OpFunction f;
    double weight;
  };
  std::vector<Weighted> choices;
  if (kind == RecipeKind::fifo) {
    choices = {{OpFunction::enqueue, s.mix.enqueue}, {OpFunction::dequeue, s.mix.dequeue}};
  } else {
    choices = {{OpFunction::push, s.mix.push},
               {OpFunction::pop_min, s.mix.pop_min},
               {OpFunction::peek_min, s.mix.peek_min},
               {OpFunction::pop_max, s.mix.pop_max},
               {OpFunction::peek_max, s.mix.peek_max}};
  }
  double total = 0;
  for (const auto& c : choices)
    total += c.weight;
  std::vector<PlannedOp> ops;
  ops.reserve(static_cast<std::size_t>(s.operations_per_client));
  for (int n = 0; n < s.operations_per_client; ++n) {
    double x = rng.unit() * total;
    OpFunction f = choices.back().f;
    for (const auto& c : choices) {
      if (c.weight > 0 && x < c.weight) {
        f = c.f;
        break;
      }
      x -= c.weight;
    }
    PlannedOp op{f, std::nullopt};
    if (model::is_insert(f)) {
      Item item{item_name(slot, n), std::nullopt};
      if (kind == RecipeKind::priority) item.priority = rng.range(s.priority_min, s.priority_max);
      op.item = std::move(item);
    }
    ops.push_back(std::move(op));
  }
  return ops;
}

// An explicit plan's operations for one slot, with the same unique item names.
std::vector<PlannedOp> explicit_slot(const ClientPlan& plan, int slot) {
  std::vector<PlannedOp> ops;
  ops.reserve(plan.size());
  for (std::size_t n = 0; n < plan.size(); ++n) {
    PlannedOp op{plan[n].f, std::nullopt};
    if (model::is_insert(op.f))
      op.item = Item{item_name(slot, static_cast<int>(n)), plan[n].priority};
    ops.push_back(std::move(op));
  }
  return ops;
}

Task<OpResult> perform(Recipe& recipe, Database db, const PlannedOp& op) {
  switch (op.f) {
    case OpFunction::enqueue:
      return recipe.enqueue(db, op.item->value);
    case OpFunction::dequeue:
      return recipe.dequeue(db);
    case OpFunction::push:
      return recipe.push(db, op.item->value, *op.item->priority);
    case OpFunction::pop_min:
      return recipe.pop(db, false);
    case OpFunction::pop_max:
      return recipe.pop(db, true);
    case OpFunction::peek_min:
      return recipe.peek(db, false);
    case OpFunction::peek_max:
      return recipe.peek(db, true);
  }
  return recipe.dequeue(db);
}

// One run of the workload on one world.
class Workload {
 public:
  // `late_invocations`: an operation's invocation is recorded just before its first store step
  // rather than when the client starts it — the latest instant it can have happened, which only
  // adds real-time order to the history (so a history that checks clean this way checks clean
  // with any earlier invocation). Exhaustive runs use it: a step that completes one operation then
  // no longer also invokes the next, and fewer steps depend on each other.
  Workload(const Scenario& s, const RecipeInfo& info, World& world, bool late_invocations)
      : scenario_(s), info_(info), world_(world), recipe_(info.make()) {
    world_.on_crash = [this](ClientId id) { on_crash(id); };
    if (late_invocations) {
      late_invocations_ = true;
      world_.on_step_start = [this](ClientId id) { record_invocation(id); };
    }
  }

  void plan(std::uint64_t seed) {
    CONTEND_ASSERT(scenario_.plan.empty() ||
                       scenario_.plan.size() == static_cast<std::size_t>(scenario_.clients),
                   "a scenario with a plan has one client per array of it (validate_scenario)");
    Rng root = Rng(seed).child("workload");
    for (int slot = 0; slot < scenario_.clients; ++slot) {
      auto state = std::make_unique<Slot>();
      state->index = slot;
      state->ops =
          scenario_.plan.empty()
              ? plan_slot(scenario_, info_.kind, slot, root.child(static_cast<std::uint64_t>(slot)))
              : explicit_slot(scenario_.plan[static_cast<std::size_t>(slot)], slot);
      slots_.push_back(std::move(state));
    }
    // Room for every operation's invoke and completion, and the drain's (crashes may add more).
    std::size_t operations = 0;
    for (const auto& slot : slots_)
      operations += slot->ops.size();
    const std::size_t drained = scenario_.drain ? operations + 16 : 0;
    history_.reserve(2 * (operations + drained));
    latencies_.reserve(operations + drained);
    retries_.reserve(operations + drained);
  }

  void run_main_phase() {
    for (auto& slot : slots_)
      launch(*slot);
    world_.run();
    main_phase_end_us_ = world_.now_us();
  }

  // Removes items until the queue reports empty (bounded by the inserts attempted, plus slack).
  bool run_drain_phase() {
    auto drain = std::make_unique<Slot>();
    drain->index = scenario_.clients;
    drain->draining = true;
    std::int64_t inserts = 0;
    for (const auto& slot : slots_) {
      for (const auto& op : slot->ops)
        inserts += model::is_insert(op.f) ? 1 : 0;
    }
    drain->drain_budget = inserts + 16;
    Slot& d = *drain;
    slots_.push_back(std::move(drain));
    launch(d);
    drain_process_ = d.process;
    world_.run();
    return d.drained;
  }
  std::optional<std::int64_t> drain_process() const { return drain_process_; }

  std::int64_t main_phase_end_us() const { return main_phase_end_us_; }
  model::History& history() { return history_; }
  std::vector<std::int64_t>& op_latencies() { return latencies_; }
  std::vector<std::int64_t>& op_retries() { return retries_; }
  std::map<std::int64_t, ClientId>& process_client() { return process_client_; }
  std::map<std::int64_t, int>& process_slot() { return process_slot_; }
  // The first simulator fault a recipe raised (its message), if any.
  const std::optional<std::string>& fault() const { return fault_; }

 private:
  struct Slot {
    int index = 0;  // the slot's number (the drain's is clients)
    std::vector<PlannedOp> ops;
    std::size_t next = 0;
    bool in_flight = false;
    bool invocation_pending = false;  // invoked, not yet recorded (late invocations)
    std::int64_t process = 0;
    ClientId client = -1;
    PlannedOp current;
    bool draining = false;
    bool drained = false;
    std::int64_t drain_budget = 0;
  };

  void flush_invocation(Slot& slot) {
    if (!slot.invocation_pending) return;
    slot.invocation_pending = false;
    record(EventType::invoke, slot, slot.current.item);
  }

  void record_invocation(ClientId id) {
    if (static_cast<std::size_t>(id) >= client_slot_.size()) return;
    if (Slot* slot = client_slot_[static_cast<std::size_t>(id)]) flush_invocation(*slot);
  }

  void record(EventType type, Slot& slot, std::optional<Item> value) {
    if (type != EventType::invoke) flush_invocation(slot);  // an operation with no store step
    Event e;
    e.index = static_cast<std::int64_t>(history_.size());
    e.type = type;
    e.process = slot.process;
    e.time_us = world_.now_us();
    e.f = slot.current.f;
    e.value = std::move(value);
    const std::int64_t index = e.index;
    const Digest128::Value digest = world_.digests_events() ? event_digest(e) : Digest128::Value{};
    history_.push_back(std::move(e));
    world_.note_operation_event(index, type == EventType::invoke, type == EventType::ok, digest);
  }

  void launch(Slot& slot) {
    slot.process = next_process_++;
    Task<void> body = slot.draining ? drain_loop(slot) : client_loop(slot);
    slot.client = static_cast<ClientId>(world_.spawn(std::move(body)));
    process_client_[slot.process] = slot.client;
    process_slot_[slot.process] = slot.index;
    client_slot_.resize(static_cast<std::size_t>(slot.client) + 1, nullptr);
    client_slot_[static_cast<std::size_t>(slot.client)] = &slot;
  }

  Task<OpResult> one_op(Slot& slot, PlannedOp op) {
    slot.current = std::move(op);
    slot.in_flight = true;
    slot.invocation_pending = true;
    if (!late_invocations_) flush_invocation(slot);
    std::int64_t start_us = world_.now_us();
    std::int64_t attempts_before = world_.attempts_of(slot.client);
    OpResult r;
    try {
      r = co_await perform(*recipe_, world_.database(slot.client), slot.current);
    } catch (const SimulatorFault& fault) {
      // contend broke, not the recipe: the operation gets no completion (it is not evidence
      // either way), this client stops, and the run is reported as a simulator fault.
      if (!fault_) fault_ = fault.what();
      slot.in_flight = false;
      slot.next = slot.ops.size();
      slot.drain_budget = 0;
      r.status = OpStatus::fail;
      co_return r;
    }
    slot.in_flight = false;
    latencies_.push_back(world_.now_us() - start_us);
    retries_.push_back(
        std::max<std::int64_t>(0, world_.attempts_of(slot.client) - attempts_before - 1));
    switch (r.status) {
      case OpStatus::ok:
        record(EventType::ok, slot, model::is_insert(slot.current.f) ? slot.current.item : r.item);
        break;
      case OpStatus::fail:
        record(EventType::fail, slot, slot.current.item);
        break;
      case OpStatus::info:
        record(EventType::info, slot, slot.current.item);
        break;
    }
    co_return r;
  }

  Task<void> client_loop(Slot& slot) {
    while (slot.next < slot.ops.size() && !fault_) {
      PlannedOp op = slot.ops[slot.next];
      co_await one_op(slot, std::move(op));
      ++slot.next;
    }
  }

  Task<void> drain_loop(Slot& slot) {
    OpFunction f = info_.kind == RecipeKind::fifo ? OpFunction::dequeue : OpFunction::pop_min;
    while (slot.drain_budget-- > 0 && !fault_) {
      OpResult r = co_await one_op(slot, PlannedOp{f, std::nullopt});
      if (r.status == OpStatus::ok && !r.item) {
        slot.drained = true;
        co_return;
      }
    }
  }

  void on_crash(ClientId id) {
    Slot* slot = client_slot_[static_cast<std::size_t>(id)];
    CONTEND_ASSERT(slot != nullptr, "a crashed client belongs to a slot");
    if (slot->in_flight) {
      slot->in_flight = false;
      record(EventType::info, *slot, slot->current.item);
      ++slot->next;
    }
    if (slot->draining || slot->next < slot->ops.size()) launch(*slot);
  }

  const Scenario& scenario_;
  const RecipeInfo& info_;
  World& world_;
  std::unique_ptr<Recipe> recipe_;
  std::deque<std::unique_ptr<Slot>> slots_;
  std::vector<Slot*> client_slot_;
  model::History history_;
  std::vector<std::int64_t> latencies_;
  std::vector<std::int64_t> retries_;
  std::map<std::int64_t, ClientId> process_client_;
  std::map<std::int64_t, int> process_slot_;
  std::int64_t next_process_ = 0;
  std::optional<std::int64_t> drain_process_;  // once the drain phase began
  bool late_invocations_ = false;
  std::int64_t main_phase_end_us_ = 0;
  std::optional<std::string> fault_;
};

// Up to eight bytes as a little-endian number.
std::uint64_t load_little_endian(std::string_view bytes) {
  CONTEND_DEBUG_ASSERT(bytes.size() <= 8, "at most one word");
  std::uint64_t word = 0;
  if (bytes.size() == 8) {
    std::memcpy(&word, bytes.data(), 8);
    if constexpr (std::endian::native == std::endian::big) word = __builtin_bswap64(word);
    return word;
  }
  for (std::size_t i = 0; i < bytes.size(); ++i)
    word |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[i])) << (8 * i);
  return word;
}

Percentiles percentiles(std::vector<std::int64_t> values) {
  Percentiles p;
  if (values.empty()) return p;
  // The order statistics a sort would put at each rank, found in rising order: each selection
  // leaves the larger values after its rank, so the next one searches only those.
  auto from = values.begin();
  auto at = [&](double q) {
    auto i = static_cast<std::size_t>(q * static_cast<double>(values.size() - 1) + 0.5);
    const auto rank = values.begin() + static_cast<std::ptrdiff_t>(std::min(i, values.size() - 1));
    std::nth_element(from, rank, values.end());
    from = rank;
    return *rank;
  };
  p.p50 = at(0.50);
  p.p90 = at(0.90);
  p.p99 = at(0.99);
  p.max = *std::max_element(from, values.end());
  return p;
}

// The run hash takes eight bytes per round (a multiply and an xor-shift, each a bijection of the
// state), not one: hashing the history byte by byte was 8% of a run.
std::uint64_t mix_word(std::uint64_t h, std::uint64_t word) {
  h = (h ^ word) * 0x9e3779b97f4a7c15ULL;
  return h ^ (h >> 29);
}

std::uint64_t mix(std::uint64_t h, std::int64_t v) {
  return mix_word(h, static_cast<std::uint64_t>(v));
}

// The bytes as little-endian words (the last one zero-padded), then their length, which also
// separates this field from the next.
std::uint64_t mix(std::uint64_t h, std::string_view bytes) {
  std::size_t i = 0;
  for (; i + 8 <= bytes.size(); i += 8)
    h = mix_word(h, load_little_endian(bytes.substr(i, 8)));
  if (i < bytes.size()) h = mix_word(h, load_little_endian(bytes.substr(i)));
  return mix_word(h, static_cast<std::uint64_t>(bytes.size()) | (std::uint64_t{0xff} << 56));
}

void summarize(const model::History& history, RunMetrics& m) {
  // Completions counted per (f, type) in a table, named once at the end.
  constexpr std::size_t kFunctions = static_cast<std::size_t>(OpFunction::peek_max) + 1;
  constexpr std::size_t kTypes = static_cast<std::size_t>(EventType::info) + 1;
  std::int64_t counts[kFunctions][kTypes] = {};
  std::int64_t open = 0;  // invocations not yet completed
  for (const Event& e : history) {
    if (e.type == EventType::invoke) {
      ++open;
      continue;
    }
    --open;
    ++counts[static_cast<std::size_t>(e.f)][static_cast<std::size_t>(e.type)];
  }
  for (std::size_t f = 0; f < kFunctions; ++f) {
    for (std::size_t t = 1; t < kTypes; ++t) {
      if (counts[f][t] == 0) continue;
      m.operations[std::string(to_string(static_cast<OpFunction>(f))) + " " +
                   std::string(to_string(static_cast<EventType>(t)))] = counts[f][t];
    }
    m.ops_ok += counts[f][static_cast<std::size_t>(EventType::ok)];
    m.ops_fail += counts[f][static_cast<std::size_t>(EventType::fail)];
    m.ops_info += counts[f][static_cast<std::size_t>(EventType::info)];
  }
  m.ops_incomplete = open;
}

}  // namespace

std::uint64_t hash_history(const model::History& history, std::uint64_t seed_state) {
  std::uint64_t h = 0xcbf29ce484222325ULL ^ seed_state;
  for (const Event& e : history) {
    h = mix(h, e.index);
    h = mix(h, static_cast<std::int64_t>(e.type));
    h = mix(h, e.process);
    h = mix(h, e.time_us);
    h = mix(h, static_cast<std::int64_t>(e.f));
    if (e.value) {
      h = mix(h, e.value->value);
      if (e.value->priority) h = mix(h, *e.value->priority);
    }
  }
  return h;
}

std::vector<ClientPlan> drawn_plan(const Scenario& s, RecipeKind kind, std::uint64_t seed) {
  if (!s.plan.empty()) return s.plan;
  std::vector<ClientPlan> plan;
  Rng root = Rng(seed).child("workload");
  for (int slot = 0; slot < s.clients; ++slot) {
    ClientPlan ops;
    for (const PlannedOp& op :
         plan_slot(s, kind, slot, root.child(static_cast<std::uint64_t>(slot)))) {
      ops.push_back(PlannedOperation{op.f, op.item ? op.item->priority : std::nullopt});
    }
    plan.push_back(std::move(ops));
  }
  return plan;
}

Scenario within_scope(const Scenario& s, int clients, int operations) {
  CONTEND_ASSERT(clients >= 1 && clients <= s.clients && operations >= 0 &&
                     operations <= s.operations_per_client,
                 "a scope within the scenario's own");
  Scenario c = s;
  c.clients = clients;
  c.operations_per_client = operations;
  if (!c.plan.empty()) {
    c.plan.resize(static_cast<std::size_t>(clients));
    for (ClientPlan& p : c.plan) {
      if (p.size() > static_cast<std::size_t>(operations)) {
        p.resize(static_cast<std::size_t>(operations));
      }
    }
  }
  return c;
}

namespace {

// A run draws every client's operations before its first step, keeps each with the history and
// takes at least one step per operation: more than max_steps could never all run, and more than
// kPlannedOperationsMax would not fit in memory (about half a kilobyte each, history included).
std::optional<std::string> check_planned_operations(const Scenario& s) {
  const std::int64_t planned = std::int64_t{s.clients} * s.operations_per_client;
  if (planned <= s.max_steps && planned <= kPlannedOperationsMax) return std::nullopt;
  std::string out = s.file + ": clients x operations_per_client: " + std::to_string(s.clients) +
                    " x " + std::to_string(s.operations_per_client) + " = " +
                    std::to_string(planned) + " operations in one run";
  if (!s.scope_flags.empty()) out += " (set by" + s.scope_flags + ")";
  if (planned > kPlannedOperationsMax) {
    return out + ", more than a run holds (" + std::to_string(kPlannedOperationsMax) +
           ": each is drawn before the first step and kept with the history); run fewer clients "
           "or operations";
  }
  return out + ", more than its [limits] max_steps (" + std::to_string(s.max_steps) +
         "): each operation takes a step at least, so the run could never finish them; run "
         "fewer clients or operations, or raise max_steps";
}

}  // namespace

std::optional<std::string> validate_scenario_values(const Scenario& s) {
  const RecipeInfo* info = find_recipe(s.recipe);
  if (info == nullptr) {
    std::string known;
    for (const RecipeInfo& r : all_recipes())
      known += (known.empty() ? "" : ", ") + std::string(r.name);
    return s.file + ": recipe: unknown recipe '" + s.recipe + "'; known recipes: " + known;
  }
  if (auto problem = scenario_out_of_bounds(s)) return problem;
  // Without a checker of the history every seed would pass as linearizable, having been judged
  // by nothing (serializability judges the store's transactions, not the queue's operations).
  if (std::ranges::none_of(s.checks, [](const std::string& c) {
        return c == "fast" || c == "search" || c == "accounting";
      })) {
    return s.file +
           ": checks: none of them judges the history, so no verdict could be reached: name "
           "fast, search or accounting (serializability judges the store alone)";
  }
  // A model of the other family would judge operations the recipe never performs (`contend
  // check` refuses such a history for the same reason).
  const std::optional<model::SpecKind> spec = model::parse_spec(s.model);
  const bool fifo_recipe = info->kind == RecipeKind::fifo;
  if (spec && *spec != model::SpecKind::multiset &&
      (*spec == model::SpecKind::fifo) != fifo_recipe) {
    return s.file + ": model: '" + s.model + "' judges " +
           (fifo_recipe ? "push, pop and peek" : "enqueue and dequeue") + ", and " + s.recipe +
           " performs " + (fifo_recipe ? "enqueue and dequeue" : "push, pop and peek") + ": use " +
           (fifo_recipe ? "fifo" : "priority") + " or multiset";
  }
  if (auto problem = unreachable_expectation(s)) return problem;
  // The mix must offer an operation when operations are drawn from it (a plan brings its own).
  const OperationMix& m = s.mix;
  const bool drawn = s.plan.empty();
  if (drawn && info->kind == RecipeKind::fifo && m.enqueue + m.dequeue <= 0) {
    return s.file + ": mix: a FIFO recipe needs a positive enqueue or dequeue weight";
  }
  if (drawn && info->kind == RecipeKind::priority &&
      m.push + m.pop_min + m.peek_min + m.pop_max + m.peek_max <= 0) {
    return s.file + ": mix: a priority recipe needs a positive push, pop or peek weight";
  }
  if (auto problem = check_planned_operations(s)) return problem;
  if (!s.plan.empty() && s.plan.size() != static_cast<std::size_t>(s.clients)) {
    return s.file + ": plan: " + std::to_string(s.plan.size()) + " client(s), but clients is " +
           std::to_string(s.clients);
  }
  for (std::size_t c = 0; c < s.plan.size(); ++c) {
    for (const PlannedOperation& op : s.plan[c]) {
      const bool fifo_op = op.f == OpFunction::enqueue || op.f == OpFunction::dequeue;
      if (fifo_op != (info->kind == RecipeKind::fifo)) {
        return s.file + ": plan: client " + std::to_string(c + 1) + ": '" + to_string(op) +
               "' is not an operation of " + s.recipe;
      }
    }
  }
  return std::nullopt;
}

namespace {

// Why a [mix] or [priorities] key set can never take effect: the recipe's kind never performs the
// operation (or has no priorities), or a plan replaces what the mix and priorities would draw.
std::optional<std::string> why_workload_key_ignored(const Scenario& s, RecipeKind kind,
                                                    std::string_view key) {
  const bool mix = key.starts_with("mix.");
  if (!mix && !key.starts_with("priorities.")) return std::nullopt;
  const std::string op(key.substr(key.find('.') + 1));
  const bool fifo = kind == RecipeKind::fifo;
  if (!mix && fifo) {
    return s.recipe +
           " is a FIFO recipe: its items carry no priority; remove it or use a "
           "priority recipe";
  }
  if (mix && (op == "enqueue" || op == "dequeue") != fifo) {
    return fifo ? s.recipe + " is a FIFO recipe: it performs enqueue and dequeue, never " + op +
                      "; remove it or use a priority recipe"
                : s.recipe + " is a priority recipe: it performs push, pop and peek, never " + op +
                      "; remove it or use a FIFO recipe";
  }
  if (s.plan.empty()) return std::nullopt;
  return mix ? std::string(
                   "the plan fixes every client's operations, so none is drawn from the "
                   "mix; remove it, or the plan to draw operations")
             : std::string(
                   "the plan gives each push its priority (push:<priority>), so none is "
                   "drawn; remove it, or the plan to draw operations");
}

// Why a [faults] key set can never take effect: pause_us lengthens pauses, which happen only with
// pause above 0; swarm draws each knob per seed within [0, its value], all zeros when all are 0.
std::optional<std::string> why_fault_key_ignored(const Scenario& s, std::string_view key) {
  if (key == "faults.pause_us" && !(s.faults.pause > 0)) {
    return std::string(
        "faults.pause is 0, so no step is ever paused; remove it or set "
        "faults.pause above 0");
  }
  if (key == "faults.swarm" && s.swarm && !s.faults.any()) {
    return std::string(
        "every fault knob is 0, and swarm mode draws each knob within [0, its "
        "value], so it draws no fault; remove it or set a knob above 0");
  }
  return std::nullopt;
}

// Whether `key` holds the value a scenario has when the key is left out. Such a key changes
// nothing where it has no effect either, and files written before to_toml left out keys without
// effect hold them (every [mix] weight, [priorities], pause_us = 6000000): they still load.
bool holds_its_default(const Scenario& s, std::string_view key) {
  const Scenario defaults;
  static constexpr std::pair<std::string_view, double OperationMix::*> kWeights[] = {
      {"mix.enqueue", &OperationMix::enqueue},   {"mix.dequeue", &OperationMix::dequeue},
      {"mix.push", &OperationMix::push},         {"mix.pop_min", &OperationMix::pop_min},
      {"mix.peek_min", &OperationMix::peek_min}, {"mix.pop_max", &OperationMix::pop_max},
      {"mix.peek_max", &OperationMix::peek_max}};
  for (const auto& [name, weight] : kWeights) {
    if (key == name) return s.mix.*weight == defaults.mix.*weight;
  }
  if (key == "priorities.min") return s.priority_min == defaults.priority_min;
  if (key == "priorities.max") return s.priority_max == defaults.priority_max;
  if (key == "faults.pause_us") return s.faults.pause_us == defaults.faults.pause_us;
  if (key == "faults.swarm") return s.swarm == defaults.swarm;
  return false;
}

}  // namespace

std::optional<std::string> set_key_without_effect(const Scenario& s, const SetKey& key) {
  const RecipeInfo* info = find_recipe(s.recipe);
  if (info == nullptr || holds_its_default(s, key.key)) return std::nullopt;
  std::optional<std::string> why = why_workload_key_ignored(s, info->kind, key.key);
  if (!why) why = why_fault_key_ignored(s, key.key);
  if (!why) return std::nullopt;
  const std::string line = key.line > 0 ? ":" + std::to_string(key.line) : "";
  return s.file + line + ": " + key.key + ": " + *why;
}

std::optional<std::string> validate_scenario(const Scenario& s) {
  if (auto problem = validate_scenario_values(s)) return problem;
  for (const SetKey& key : s.set_keys) {
    if (auto problem = set_key_without_effect(s, key)) return problem;
  }
  return std::nullopt;
}

namespace {

// The metrics a report shows: counts, percentiles, throughput, the run hash.
void summarize_run(Workload& workload, World& world, RunMetrics& m) {
  summarize(workload.history(), m);
  m.attempts = world.stats();
  for (std::int64_t r : workload.op_retries())
    ++m.retries_histogram[r];
  m.retries = percentiles(workload.op_retries());
  m.latency_us = percentiles(workload.op_latencies());
  m.virtual_seconds = static_cast<double>(workload.main_phase_end_us()) / 1e6;
  m.virtual_seconds_in_all = static_cast<double>(world.now_us()) / 1e6;
  std::int64_t main_ok = 0;
  for (const Event& e : workload.history()) {
    if (e.type == EventType::ok && e.time_us <= workload.main_phase_end_us()) ++main_ok;
  }
  m.throughput_ops_per_s =
      m.virtual_seconds > 0 ? static_cast<double>(main_ok) / m.virtual_seconds : 0;
  m.keys_left = static_cast<std::int64_t>(world.store().key_count());
  std::uint64_t state = 0xcbf29ce484222325ULL;
  for (const auto& [k, v] : world.store().latest_state())
    state = mix(mix(state, k), v);
  m.unseed = world.unseed();
  m.run_hash = hash_history(workload.history(), state ^ m.unseed);
}

}  // namespace

FaultKnobs seed_faults(const Scenario& scenario, std::uint64_t seed) {
  if (!scenario.swarm) return scenario.faults;
  Rng swarm_rng = Rng(seed).child("swarm");
  return FaultKnobs::swarm(swarm_rng, scenario.faults);
}

void check_serializability_of(SeedRun& run) {
  if (run.unchecked_transactions.empty()) return;  // checked already, or nothing committed
  run.transactions_replayed = static_cast<std::int64_t>(run.unchecked_transactions.size());
  run.store_not_serializable = check_serializable(run.unchecked_transactions);
  run.unchecked_transactions = {};
}

SeedRun run_seed(const Scenario& scenario, std::uint64_t seed, RunControls controls) {
  const SeedScope seed_scope(seed);  // a failed check names this seed
  const RecipeInfo* info = find_recipe(scenario.recipe);
  CONTEND_ASSERT(info != nullptr, "run_seed: validate the scenario first");
  SeedRun out;
  out.seed = seed;
  WorldOptions options;
  options.seed = seed;
  options.latency = scenario.latency;
  options.faults = seed_faults(scenario, seed);
  options.max_steps = scenario.max_steps;
  options.max_virtual_us = scenario.max_virtual_seconds * 1'000'000;
  options.record_attempts = controls.record_attempts;
  const bool serializability =
      controls.check_serializability || std::find(scenario.checks.begin(), scenario.checks.end(),
                                                  "serializability") != scenario.checks.end();
  options.log_transactions = serializability;
  options.retry_limit = scenario.retry_limit;
  options.exhaustive = controls.exhaustive;
  options.explore_draws = controls.explore_draws;
  options.park_unproductive_waits = controls.park_unproductive_waits;
  options.split_inert_steps = controls.split_inert_steps;
  out.faults = options.faults;
  std::shared_ptr<Strategy> strategy =
      controls.strategy ? controls.strategy : std::make_shared<RandomStrategy>();
  World world(options, std::move(strategy));
  Workload workload(scenario, *info, world, controls.exhaustive);
  workload.plan(seed);
  workload.run_main_phase();
  out.parked = world.parked_clients() > 0;
  if (scenario.drain && world.bound_hit() == BoundHit::none && !workload.fault() && !out.parked) {
    out.drained = workload.run_drain_phase();
    out.drain_process = workload.drain_process();
  }

  RunMetrics& m = out.metrics;
  m.steps = world.steps();
  m.bound = world.bound_hit();
  m.bound_in_drain = m.bound != BoundHit::none && out.drain_process.has_value();
  if (controls.summarize) {
    summarize_run(workload, world, m);
  } else if (controls.exhaustive) {
    m.attempts = world.stats();  // what the search's coverage counts (coverage.h)
  }

  if (serializability) {
    out.unchecked_transactions = world.take_committed_transactions();
    if (!controls.defer_serializability) check_serializability_of(out);
  }
  out.simulator_fault = workload.fault();
  out.history = std::move(workload.history());
  out.choices = world.choices();
  out.attempts = world.attempt_records();
  out.process_client = std::move(workload.process_client());
  out.process_slot = std::move(workload.process_slot());
  if (controls.exhaustive) {
    out.step_log = world.take_step_log();
    out.random_draws = world.random_draws();
    out.final_state = world.store().latest_state();
  }
  return out;
}

}  // namespace contend
