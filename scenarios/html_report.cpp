#include "scenarios/html_report.h"
#include "scenarios/markup_escape.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "scenarios/expectation.h"
#include "scenarios/explore.h"
#include "scenarios/report_page.h"
#include "scenarios/trace.h"

namespace contend {

namespace {

using nlohmann::json;

// One operation: its invocation, its completion (null: none), its client.
struct Op {
  const model::Event* invoke = nullptr;
  const model::Event* done = nullptr;
  ClientId client = -1;
  std::int64_t start() const { return invoke->time_us; }
  std::int64_t end() const { return done ? done->time_us : -1; }
};

std::vector<Op> operations_of(const model::History& history,
                              const std::map<std::int64_t, ClientId>* process_client) {
  std::vector<Op> ops;
  std::map<std::int64_t, std::size_t> open;
  for (const model::Event& e : history) {
    if (e.type == model::EventType::invoke) {
      ClientId client = static_cast<ClientId>(e.process);
      if (process_client) {
        auto it = process_client->find(e.process);
        client = it == process_client->end() ? -1 : it->second;
      }
      open[e.process] = ops.size();
      ops.push_back(Op{&e, nullptr, client});
    } else if (auto it = open.find(e.process); it != open.end()) {
      ops[it->second].done = &e;
      open.erase(it);
    }
  }
  return ops;
}

std::string item_text(const std::optional<model::Item>& item) {
  if (!item) return "";
  return item->value + (item->priority ? " p" + std::to_string(*item->priority) : "");
}

// A value as the store panel shows it: a one-element tuple as its element.
std::string value_text(BytesView value) {
  std::string text = format_key(value);
  if (text.size() > 3 && text.front() == '(' && text.ends_with(",)")) {
    text = text.substr(1, text.size() - 3);
  }
  return text;
}

bool applied(const AttemptRecord& a) {
  return a.commit_version != kInvalidVersion &&
         (ok(a.outcome) || a.outcome == ErrorCode::commit_unknown_result);
}

// The fault an attempt shows, derived from its outcome ("" = none).
std::string fault_of(const AttemptRecord& a) {
  switch (a.outcome) {
    case ErrorCode::not_committed:
      return a.conflict ? "" : "injected conflict";
    case ErrorCode::commit_unknown_result:
      return a.commit_version != kInvalidVersion ? "unknown result (applied)"
                                                 : "unknown result (not applied)";
    case ErrorCode::transaction_too_old:
      return "too old";
    case ErrorCode::future_version:
      return "future version";
    default:
      return "";
  }
}

// What one story draws: a set of operations and the attempts that served them.
struct StoryInput {
  std::string name;
  std::string caption;
  const model::History* history = nullptr;
  const std::map<std::int64_t, ClientId>* process_client = nullptr;  // null: process = client
  const std::vector<AttemptRecord>* attempts = nullptr;              // null: no store view
  std::optional<std::int64_t> drain_process;                         // SeedRun::drain_process
  std::set<std::int64_t> violating;
  std::vector<std::int64_t> order;         // a linearisation order to show (external histories)
  std::int64_t order_part_operations = 0;  // > 0: `order` is that part's (model/verdict.h)
  std::int64_t from_us = INT64_MIN, to_us = INT64_MAX;  // the window drawn
};

// How the model panel orders what it shows: the page's script orders by invocation when the
// caption names a prefix.
std::string lin_caption(const StoryInput& in) {
  if (in.order.empty()) {
    return in.attempts ? "each operation at its commit version"
                       : "completed operations in completion order";
  }
  if (in.order_part_operations == 0) return "the checker's longest linearizable prefix";
  return fmt::format(
      "the longest linearizable prefix of the part of {} operation(s) that decided the verdict; "
      "the history's other operations are not ordered",
      in.order_part_operations);
}

json story_json(const StoryInput& in) {
  std::vector<Op> all = operations_of(*in.history, in.process_client);
  auto in_window = [&](std::int64_t a, std::int64_t b) { return b >= in.from_us && a <= in.to_us; };

  // Attempts by client, in end order, so each operation finds the attempts inside it.
  std::vector<const AttemptRecord*> attempts;
  if (in.attempts) {
    for (const AttemptRecord& a : *in.attempts) {
      if (in_window(a.read_version == kInvalidVersion ? a.end_us : a.read_version, a.end_us))
        attempts.push_back(&a);
    }
  }
  std::int64_t last_time = 0;
  for (const Op& o : all)
    last_time = std::max({last_time, o.start(), o.end()});
  for (const AttemptRecord* a : attempts)
    last_time = std::max(last_time, a->end_us);

  // The key universe: every key written or returned, in byte order.
  std::set<Bytes, KeyLess> keys;
  std::map<Bytes, Bytes, KeyLess> initial;  // the store when the window opens
  if (in.attempts) {
    std::vector<const AttemptRecord*> before;
    for (const AttemptRecord& a : *in.attempts) {
      if (applied(a) && a.commit_version < in.from_us) before.push_back(&a);
    }
    std::sort(before.begin(), before.end(),
              [](auto* x, auto* y) { return x->commit_version < y->commit_version; });
    for (const AttemptRecord* a : before) {
      for (const Mutation& m : a->mutations) {
        if (m.type == MutationType::clear_range) {
          initial.erase(initial.lower_bound(m.param1), initial.lower_bound(m.param2));
        } else {
          initial[m.param1] = m.param2;
        }
      }
    }
  }
  for (const auto& [k, v] : initial)
    keys.insert(k);
  for (const AttemptRecord* a : attempts) {
    for (const Mutation& m : a->mutations) {
      if (m.type != MutationType::clear_range || m.param2 == key_after(m.param1))
        keys.insert(m.param1);
    }
    for (const ReadRecord& r : a->reads) {
      if (!r.range && r.value) keys.insert(r.keys.begin);
      for (const KeyValue& kv : r.rows)
        keys.insert(kv.key);
    }
  }
  std::vector<Bytes> key_list(keys.begin(), keys.end());
  auto position = [&](BytesView key) {
    return std::lower_bound(key_list.begin(), key_list.end(), key, KeyLess{}) - key_list.begin();
  };

  json out = {{"name", in.name}, {"caption", in.caption}, {"store", in.attempts != nullptr}};
  if (in.from_us != INT64_MIN) out["window"] = {in.from_us, in.to_us};
  std::set<ClientId> clients;
  json ops = json::array();
  std::map<std::int64_t, std::size_t> op_of_index;
  // Each operation's attempts: same client, ending inside the operation.
  std::map<ClientId, std::vector<std::size_t>> ops_by_client;
  std::vector<const Op*> drawn;
  for (const Op& o : all) {
    const std::int64_t stop = o.done ? o.end() : last_time;
    if (!in_window(o.start(), stop)) continue;
    ops_by_client[o.client].push_back(drawn.size());
    drawn.push_back(&o);
  }
  std::vector<std::int64_t> op_of_attempt(attempts.size(), -1);
  std::vector<std::int64_t> lin(drawn.size(), -1);          // the linearisation order's key
  std::vector<std::int64_t> lin_attempt(drawn.size(), -1);  // the attempt it takes effect in
  for (std::size_t i = 0; i < attempts.size(); ++i) {
    const AttemptRecord& a = *attempts[i];
    for (std::size_t k : ops_by_client[a.client]) {
      const Op& o = *drawn[k];
      // Ended after the invocation was recorded and before the completion was (times may tie).
      if (a.events_before > o.invoke->index && (!o.done || a.events_before <= o.done->index)) {
        op_of_attempt[i] = static_cast<std::int64_t>(k);
        // The operation takes effect at its last successful attempt: its commit, or the read
        // version of a read-only one (an unknown result that applied counts too).
        if (applied(a)) {
          lin[k] = a.commit_version;
          lin_attempt[k] = static_cast<std::int64_t>(i);
        } else if (ok(a.outcome)) {
          lin[k] = a.read_version;
          lin_attempt[k] = static_cast<std::int64_t>(i);
        }
        break;
      }
    }
  }
  if (!in.order.empty()) {
    for (std::size_t k = 0; k < drawn.size(); ++k)
      lin[k] = -1;
    std::map<std::int64_t, std::size_t> by_index;
    for (std::size_t k = 0; k < drawn.size(); ++k)
      by_index[drawn[k]->invoke->index] = k;
    std::int64_t rank = 0;
    for (std::int64_t index : in.order) {
      if (auto it = by_index.find(index); it != by_index.end()) {
        lin[it->second] = rank++;
      }
    }
  } else if (!in.attempts) {
    // No store and no linearisation: completed operations take effect in completion order.
    for (std::size_t k = 0; k < drawn.size(); ++k) {
      if (drawn[k]->done && drawn[k]->done->type == model::EventType::ok) lin[k] = drawn[k]->end();
    }
  }
  for (std::size_t k = 0; k < drawn.size(); ++k) {
    const Op& o = *drawn[k];
    clients.insert(o.client);
    const bool insert = model::is_insert(o.invoke->f);
    ops.push_back(
        {{"id", o.invoke->index},
         {"c", o.client},
         {"p", o.invoke->process},
         {"f", std::string(to_string(o.invoke->f))},
         {"v", item_text(insert ? o.invoke->value : (o.done ? o.done->value : std::nullopt))},
         {"s", o.start()},
         {"e", o.end()},
         {"t", o.done ? std::string(to_string(o.done->type)) : "incomplete"},
         {"bad", in.violating.count(o.invoke->index) > 0},
         {"lin", lin[k]},
         {"la", lin_attempt[k]}});
  }
  json atts = json::array();
  std::vector<std::int64_t> durations;
  for (const AttemptRecord* a : attempts) {
    if (a->read_version != kInvalidVersion) durations.push_back(a->end_us - a->read_version);
  }
  std::sort(durations.begin(), durations.end());
  const std::int64_t median = durations.empty() ? 0 : durations[durations.size() / 2];
  for (std::size_t i = 0; i < attempts.size(); ++i) {
    const AttemptRecord& a = *attempts[i];
    clients.insert(a.client);
    json reads = json::array();
    for (const ReadRecord& r : a.reads) {
      std::size_t rows = r.range ? r.rows.size() : (r.value ? 1 : 0);
      reads.push_back({{"lo", position(r.keys.begin)},
                       {"hi", position(r.keys.end)},
                       {"snap", r.snapshot},
                       {"n", rows},
                       {"txt", format_read(r)}});
    }
    json ranges = json::array();  // the read conflict ranges it sent
    for (const KeyRange& r : a.read_ranges)
      ranges.push_back(
          {{"lo", position(r.begin)}, {"hi", position(r.end)}, {"txt", format_range(r)}});
    json writes = json::array();
    for (const Mutation& m : a.mutations) {
      if (m.type == MutationType::clear_range) {
        writes.push_back({{"op", "clear"},
                          {"lo", position(m.param1)},
                          {"hi", position(m.param2)},
                          {"txt", "clear " + format_range(KeyRange{m.param1, m.param2})}});
      } else {
        const std::string name(mutation_name(m.type));
        // A committed versionstamped key arrives filled in: its value is a plain value.
        const bool plain_value =
            m.type == MutationType::set_value || m.type == MutationType::set_versionstamped_key;
        writes.push_back({{"op", m.type == MutationType::set_value ? "set" : name},
                          {"k", position(m.param1)},
                          {"v", plain_value ? value_text(m.param2) : name + " " + to_hex(m.param2)},
                          {"txt", name + " " + format_key(m.param1)}});
      }
    }
    std::string fault = fault_of(a);
    if (fault.empty() && median > 0 && a.read_version != kInvalidVersion &&
        a.end_us - a.read_version > 20 * median && a.end_us - a.read_version > 100'000) {
      fault = "delay";
    }
    json rec = {
        {"c", a.client},
        {"tx", a.transaction_id},
        {"op", op_of_attempt[i] < 0 ? json(nullptr) : json(drawn[op_of_attempt[i]]->invoke->index)},
        {"rv", a.read_version},
        {"e", a.end_us},
        {"cv", a.commit_version},
        {"out", std::string(error_name(a.outcome))},
        {"applied", applied(a)},
        {"fault", fault},
        {"reads", reads},
        {"ranges", ranges},
        {"writes", writes},
        {"txt", format_attempt(a)}};
    if (a.conflict) {
      const ConflictCause& c = *a.conflict;
      rec["conflict"] = {{"lo", position(c.read_range.begin)},
                         {"hi", position(c.read_range.end)},
                         {"wk", position(c.writer_range.begin)},
                         {"wv", c.writer_version},
                         {"wc", c.writer_client},
                         {"wtx", c.writer_transaction_id},
                         {"step", a.conflict_step}};
    }
    atts.push_back(std::move(rec));
  }
  // Crashes: an operation left indeterminate with no ambiguous commit to blame.
  for (json& o : ops) {
    if (!in.attempts || (o["t"] != "info" && o["t"] != "incomplete")) continue;
    bool unknown = false;
    for (const json& a : atts) {
      if (a["op"] == o["id"] && a["out"] == "commit_unknown_result") unknown = true;
    }
    if (!unknown) o["fault"] = "crash";
  }
  json key_text = json::array(), init = json::array();
  for (const Bytes& k : key_list)
    key_text.push_back(format_key(k));
  for (const auto& [k, v] : initial)
    init.push_back({position(k), value_text(v)});
  out["clients"] = clients;
  // The drain's lane (its client; its process when lanes are processes), named so on the page.
  out["drain"] = nullptr;
  if (in.drain_process) {
    auto lane = static_cast<ClientId>(*in.drain_process);
    if (in.process_client) {
      const auto drain = in.process_client->find(*in.drain_process);
      CONTEND_ASSERT(drain != in.process_client->end(), "the drain's process has its client");
      lane = drain->second;
    }
    if (clients.count(lane) != 0) out["drain"] = lane;  // a window may not reach the drain
  }
  out["keys"] = key_text;
  out["initial"] = init;
  out["ops"] = std::move(ops);
  out["attempts"] = std::move(atts);
  out["lin"] = lin_caption(in);
  return out;
}

// The whole run per time bucket: what the page draws when it cannot draw everything.
json summary_json(const model::History& history, const std::vector<AttemptRecord>* attempts,
                  const std::set<std::int64_t>& violating) {
  std::int64_t end = 1;
  for (const model::Event& e : history)
    end = std::max(end, e.time_us);
  if (attempts) {
    for (const AttemptRecord& a : *attempts)
      end = std::max(end, a.end_us);
  }
  constexpr std::int64_t kBuckets = 240;
  const std::int64_t width = std::max<std::int64_t>(1, (end + kBuckets) / kBuckets);
  std::vector<std::int64_t> invoked(kBuckets + 1), ok_ops(kBuckets + 1), failed(kBuckets + 1),
      tries(kBuckets + 1), conflicts(kBuckets + 1), faults(kBuckets + 1), bad(kBuckets + 1);
  auto at = [&](std::int64_t t) {
    return static_cast<std::size_t>(std::clamp<std::int64_t>(t / width, 0, kBuckets));
  };
  for (const model::Event& e : history) {
    if (e.type == model::EventType::invoke) {
      ++invoked[at(e.time_us)];
      if (violating.count(e.index)) ++bad[at(e.time_us)];
    } else if (e.type == model::EventType::ok) {
      ++ok_ops[at(e.time_us)];
    } else {
      ++failed[at(e.time_us)];
    }
  }
  if (attempts) {
    for (const AttemptRecord& a : *attempts) {
      ++tries[at(a.end_us)];
      if (a.conflict) ++conflicts[at(a.end_us)];
      if (!fault_of(a).empty()) ++faults[at(a.end_us)];
    }
  }
  return {{"bucket_us", width},     {"end", end},
          {"invoked", invoked},     {"ok", ok_ops},
          {"failed", failed},       {"attempts", tries},
          {"conflicts", conflicts}, {"faults", faults},
          {"violating", bad},       {"store", attempts != nullptr}};
}

// Windows of about kWindowOps operations (by invocation time) around each of the given times
// (whole even at the history's ends), merged where they overlap.
constexpr std::size_t kWindowOps = 160;

std::vector<std::pair<std::int64_t, std::int64_t>> windows_around(
    const model::History& history, const std::vector<std::int64_t>& centres) {
  std::vector<std::int64_t> starts;
  for (const model::Event& e : history) {
    if (e.type == model::EventType::invoke) starts.push_back(e.time_us);
  }
  std::vector<std::pair<std::int64_t, std::int64_t>> windows;
  if (starts.empty()) return windows;
  for (std::int64_t centre : centres) {
    const std::size_t at = std::min<std::size_t>(
        starts.size() - 1,
        static_cast<std::size_t>(std::lower_bound(starts.begin(), starts.end(), centre) -
                                 starts.begin()));
    // Centred on `at`, and shifted inwards where the history's start or end would cut it.
    std::size_t lo = at > kWindowOps / 2 ? at - kWindowOps / 2 : 0;
    const std::size_t hi = std::min(starts.size() - 1, lo + kWindowOps);
    lo = hi >= kWindowOps ? std::min(lo, hi - kWindowOps) : 0;
    windows.emplace_back(starts[lo], starts[hi]);
  }
  std::sort(windows.begin(), windows.end());
  std::vector<std::pair<std::int64_t, std::int64_t>> merged;
  for (const auto& w : windows) {
    if (!merged.empty() && w.first <= merged.back().second) {
      merged.back().second = std::max(merged.back().second, w.second);
    } else {
      merged.push_back(w);
    }
  }
  return merged;
}

// The invocation times of (at most four of) the violating operations.
std::vector<std::int64_t> violation_times(const model::History& history,
                                          const std::set<std::int64_t>& violating) {
  std::vector<std::int64_t> times;
  for (const model::Event& e : history) {
    if (e.type == model::EventType::invoke && violating.count(e.index) && times.size() < 4)
      times.push_back(e.time_us);
  }
  return times;
}

// The first invocation at which the most operations are open at once: where a history without a
// violation (and without the store's attempts to find its conflicts) is busiest.
std::int64_t most_concurrent(const model::History& history) {
  std::size_t open = 0, most = 0;
  std::int64_t at = history.empty() ? 0 : history.front().time_us;
  for (const model::Event& e : history) {
    if (e.type == model::EventType::invoke) {
      ++open;
      if (open > most) most = open, at = e.time_us;
    } else if (open > 0) {
      --open;
    }
  }
  return at;
}

// The end of the 10 ms stretch with the most conflicts (a run without violations still shows
// its most contended moment in full).
std::int64_t most_contended(const std::vector<AttemptRecord>& attempts) {
  std::map<std::int64_t, std::int64_t> per_bucket;
  for (const AttemptRecord& a : attempts) {
    if (a.conflict) ++per_bucket[a.end_us / 10'000];
  }
  std::int64_t best = 0, count = -1;
  for (const auto& [bucket, n] : per_bucket) {
    if (n > count) best = bucket, count = n;
  }
  return best * 10'000;
}

// Where a window goes when no operation violated: what to call the moment, and its time.
struct Busiest {
  const char* name;
  std::int64_t time_us;
};

// The stories of a history too big to draw whole (`whole`: its input, of the `what` it is): a
// window around its violating operations, or around its busiest moment when none violated.
void push_windows(json& stories, StoryInput whole, const char* what, const Busiest& busiest) {
  std::vector<std::int64_t> centres = violation_times(*whole.history, whole.violating);
  const bool at_busiest = centres.empty();
  if (at_busiest) centres.push_back(busiest.time_us);
  int n = 0;
  for (const auto& [from, to] : windows_around(*whole.history, centres)) {
    whole.name = fmt::format("window {}", ++n);
    whole.caption =
        fmt::format("the {} around {}, {:.6f}s to {:.6f}s (about {} operations)", what,
                    at_busiest ? busiest.name : "its violating operations",
                    static_cast<double>(from) / 1e6, static_cast<double>(to) / 1e6, kWindowOps);
    whole.from_us = from;
    whole.to_us = to;
    stories.push_back(story_json(whole));
  }
}

json verdict_json(const model::CheckReport& report) {
  const model::Verdict& v = report.verdict;
  return {{"ok", v.ok()},
          {"summary", v.summary()},
          {"kind", std::string(to_string(v.kind))},
          {"violation", std::string(to_string(v.violation))},
          {"checker", v.checker},
          {"explanation", v.explanation},
          {"events", v.events}};
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

template <std::size_t N>
std::string joined(const std::string_view (&parts)[N]) {
  std::string out;
  for (std::string_view p : parts)
    out += p;
  return out;
}

std::string page(const std::string& title, const json& data) {
  // Keep "</script>" (and "<!--") out of the embedded JSON.
  std::string embedded = replace_all(replace_all(data.dump(), "</", "<\\/"), "<!--", "<\\!--");
  std::string html = joined(report_page::kHtml);
  // The page's own files come first, the data last, so no placeholder inside the data is ever
  // replaced.
  html = replace_all(html, "/*@STYLE@*/", joined(report_page::kCss));
  html = replace_all(html, "/*@SCRIPT@*/", joined(report_page::kJs));
  html = replace_all(html, "@TITLE@", markup_escape(title));
  const std::size_t at = html.find("@DATA@");
  if (at != std::string::npos) html.replace(at, 6, embedded);
  return html;
}

}  // namespace

std::string html_report(const Scenario& scenario, const SeedRun& run,
                        const model::CheckReport& report, ShrinkViolation shrink_violation) {
  std::set<std::int64_t> violating(report.verdict.events.begin(), report.verdict.events.end());
  json stories = json::array();
  json counterexample = nullptr;
  if (report.verdict.kind == model::VerdictKind::violation &&
      shrink_violation == ShrinkViolation::yes) {
    Counterexample c = shrink(scenario, Finding{run.seed, {}, report.verdict, 0}, 200);
    StoryInput in;
    in.name = "counterexample";
    in.caption = fmt::format("shrunk counterexample: {} client(s) x {} operation(s), seed {}",
                             c.scenario.clients, c.scenario.operations_per_client, c.finding.seed);
    in.history = &c.run.history;
    in.process_client = &c.run.process_client;
    in.attempts = &c.run.attempts;
    in.drain_process = c.run.drain_process;
    in.violating = {c.finding.verdict.events.begin(), c.finding.verdict.events.end()};
    json story = story_json(in);
    model::CheckReport shrunk;
    shrunk.verdict = c.finding.verdict;
    story["verdict"] = verdict_json(shrunk);
    story["trace"] = trace_text(c.run);
    story["reproduce"] =
        fmt::format("contend replay <counterexample scenario> --seed {}", c.finding.seed);
    stories.push_back(std::move(story));
  }
  const std::size_t operations = run.history.size() / 2;
  StoryInput whole;
  whole.history = &run.history;
  whole.process_client = &run.process_client;
  whole.attempts = &run.attempts;
  whole.drain_process = run.drain_process;
  whole.violating = violating;
  if (operations <= kFullStoryOperations) {
    whole.name = "run";
    whole.caption = fmt::format("the whole run: seed {}, {} operation(s)", run.seed, operations);
    json story = story_json(whole);
    story["trace"] = trace_text(run);
    stories.push_back(std::move(story));
  } else {
    push_windows(stories, whole, "run",
                 {"its most contended moment", most_contended(run.attempts)});
  }
  std::set<ClientId> clients;
  for (const auto& [p, c] : run.process_client)
    clients.insert(c);
  const std::string title =
      fmt::format("{} seed {} ({})", scenario.name, run.seed, scenario.recipe);
  json data = {{"title", title},
               {"spec", std::string(model::to_string(spec_for(scenario)))},
               {"operations", operations},
               {"clients", clients.size()},
               {"verdict", verdict_json(report)},
               {"summary", summary_json(run.history, &run.attempts, violating)},
               {"stories", std::move(stories)}};
  // What gives an undecided run's checker more, as the command line says it ("; ..." cut).
  if (const std::string remedy = undecided_remedy(scenario, report.verdict); !remedy.empty())
    data["verdict"]["remedy"] = remedy.substr(2);
  return page(title, data);
}

std::string html_report_without_run(const std::string& title, const std::string& message) {
  return fmt::format(R"(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>contend: {0}</title>
<style>
{2}</style>
</head>
<body>
<header>
  <h1>{0}</h1>
  <p id="verdict" class="undecided">{1}</p>
</header>
</body>
</html>
)",
                     markup_escape(title), markup_escape(message), joined(report_page::kCss));
}

std::string html_report_for_history(const std::string& title, const model::History& history,
                                    model::SpecKind spec, const model::CheckReport& report,
                                    const std::string& remedy) {
  std::set<std::int64_t> violating(report.verdict.events.begin(), report.verdict.events.end());
  json stories = json::array();
  const std::size_t operations = history.size() / 2;
  StoryInput in;
  in.history = &history;
  in.violating = violating;
  in.order = report.verdict.longest_prefix;
  in.order_part_operations = report.verdict.part_operations;
  if (operations <= kFullStoryOperations) {
    in.name = "history";
    in.caption = fmt::format("the whole history: {} operation(s)", operations);
    stories.push_back(story_json(in));
  } else {
    push_windows(stories, in, "history", {"its most concurrent moment", most_concurrent(history)});
  }
  std::set<std::int64_t> processes;
  for (const model::Event& e : history)
    processes.insert(e.process);
  json data = {{"title", title},
               {"spec", std::string(model::to_string(spec))},
               {"operations", operations},
               {"clients", processes.size()},
               {"verdict", verdict_json(report)},
               {"summary", summary_json(history, nullptr, violating)},
               {"stories", std::move(stories)}};
  if (!remedy.empty()) data["verdict"]["remedy"] = remedy;
  return page(title, data);
}

}  // namespace contend
