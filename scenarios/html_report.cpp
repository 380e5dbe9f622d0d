#include "scenarios/html_report.h"

#include <fmt/format.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>

#include "scenarios/explore.h"
#include "scenarios/trace.h"

namespace contend {

namespace {

using nlohmann::json;

json ops_json(const SeedRun& run, const std::set<std::int64_t>& violating) {
  json ops = json::array();
  std::map<std::int64_t, const model::Event*> open;
  auto client_of = [&](std::int64_t process) {
    auto it = run.process_client.find(process);
    return it == run.process_client.end() ? -1 : it->second;
  };
  auto item_text = [](const std::optional<model::Item>& item) {
    if (!item) return std::string("(none)");
    return item->value + (item->priority ? " p" + std::to_string(*item->priority) : "");
  };
  auto add = [&](const model::Event& inv, const model::Event* done) {
    ops.push_back(
        {{"client", client_of(inv.process)},
         {"process", inv.process},
         {"f", std::string(to_string(inv.f))},
         {"start", inv.time_us},
         {"end", done ? done->time_us : -1},
         {"type", done ? std::string(to_string(done->type)) : "incomplete"},
         {"value",
          item_text(model::is_insert(inv.f) ? inv.value : (done ? done->value : std::nullopt))},
         {"index", inv.index},
         {"violating", violating.count(inv.index) > 0}});
  };
  for (const model::Event& e : run.history) {
    if (e.type == model::EventType::invoke) {
      open[e.process] = &e;
    } else if (auto it = open.find(e.process); it != open.end()) {
      add(*it->second, &e);
      open.erase(it);
    }
  }
  for (const auto& [p, inv] : open)
    add(*inv, nullptr);
  return ops;
}

json attempts_json(const SeedRun& run) {
  json out = json::array();
  for (const AttemptRecord& a : run.attempts) {
    std::string reads, writes;
    for (const auto& r : a.read_ranges)
      reads += format_range(r) + " ";
    for (const auto& m : a.mutations)
      writes += std::string(mutation_name(m.type)) + " " + format_key(m.param1) + " ";
    out.push_back({{"client", a.client},
                   {"start", a.read_version},
                   {"end", a.end_us},
                   {"outcome", std::string(error_name(a.outcome))},
                   {"conflict", a.conflict.has_value()},
                   {"detail", format_attempt(a)},
                   {"reads", reads},
                   {"writes", writes}});
  }
  return out;
}

const char* kPage = R"HTML(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>contend: %TITLE%</title>
<style>
body { font: 13px/1.4 system-ui, sans-serif; margin: 16px; color: #222; }
h1 { font-size: 18px; } h2 { font-size: 15px; margin-top: 24px; }
.verdict.bad { color: #b00020; font-weight: bold; } .verdict.good { color: #1b7f3b; font-weight: bold; }
#lanes { position: relative; border-top: 1px solid #ccc; }
.lane { position: relative; height: 46px; border-bottom: 1px solid #eee; }
.lane .name { position: absolute; left: 0; width: 70px; font-weight: bold; top: 14px; }
.track { position: absolute; left: 80px; right: 0; top: 0; bottom: 0; }
.tx { position: absolute; top: 4px; height: 12px; background: #9ecae1; border-radius: 2px; min-width: 2px; }
.tx.retry { background: #fdae6b; } .tx.conflict { background: #e6550d; }
.op { position: absolute; top: 22px; height: 18px; background: #c7e9c0; border: 1px solid #74c476;
      border-radius: 3px; font-size: 11px; overflow: hidden; white-space: nowrap; min-width: 3px; }
.op.info, .op.incomplete { background: #eee; border-style: dashed; }
.op.violating { background: #fcbba1; border: 2px solid #b00020; z-index: 2; }
pre { background: #f6f6f6; padding: 8px; overflow-x: auto; font-size: 12px; }
.legend span { display: inline-block; margin-right: 14px; }
</style></head><body>
<h1>%TITLE%</h1>
<div id="summary"></div>
<div class="legend"><span>transaction attempt: <b style="color:#3182bd">committed</b>,
<b style="color:#fd8d3c">retried</b>, <b style="color:#e6550d">conflict</b></span>
<span>operation bar below; <b style="color:#b00020">red border</b> = violating</span></div>
<div id="violations"></div>
<div id="lanes"></div>
<h2>Counterexample</h2><pre id="counterexample"></pre>
<h2>Step trace</h2><pre id="trace"></pre>
<script id="data" type="application/json">%DATA%</script>
<script>
(function () {
  var d = JSON.parse(document.getElementById('data').textContent);
  var s = document.getElementById('summary');
  var v = document.createElement('p');
  v.className = 'verdict ' + (d.ok ? 'good' : 'bad');
  v.textContent = 'Verdict: ' + d.verdict + (d.explanation ? ' \u2014 ' + d.explanation : '');
  s.appendChild(v);
  var end = 1;
  d.ops.forEach(function (o) { end = Math.max(end, o.end, o.start); });
  d.attempts.forEach(function (a) { end = Math.max(end, a.end); });
  function pct(t) { return (100 * Math.max(0, t) / end).toFixed(3) + '%'; }
  var lanes = {};
  function lane(c) {
    if (!lanes[c]) {
      var l = document.createElement('div'); l.className = 'lane';
      var n = document.createElement('div'); n.className = 'name'; n.textContent = 'client ' + c;
      var t = document.createElement('div'); t.className = 'track';
      l.appendChild(n); l.appendChild(t); lanes[c] = t;
      document.getElementById('lanes').appendChild(l);
    }
    return lanes[c];
  }
  d.clients.forEach(lane);
  d.attempts.forEach(function (a) {
    var e = document.createElement('div');
    e.className = 'tx' + (a.conflict ? ' conflict' : (a.outcome === 'success' ? '' : ' retry'));
    e.style.left = pct(a.start); e.style.width = 'calc(' + pct(a.end - a.start) + ' + 2px)';
    e.title = a.detail; lane(a.client).appendChild(e);
  });
  var bad = [];
  d.ops.forEach(function (o) {
    var e = document.createElement('div');
    e.className = 'op ' + o.type + (o.violating ? ' violating' : '');
    var stop = o.end < 0 ? end : o.end;
    e.style.left = pct(o.start); e.style.width = 'calc(' + pct(stop - o.start) + ' + 3px)';
    e.textContent = o.f + ' ' + o.value;
    e.title = 'process ' + o.process + ': ' + o.f + ' ' + o.value + ' (' + o.type + ', ' + o.start + '..' +
              (o.end < 0 ? '?' : o.end) + ' us, event ' + o.index + ')';
    lane(o.client).appendChild(e);
    if (o.violating) bad.push(e.title);
  });
  var vd = document.getElementById('violations');
  if (bad.length) {
    var h = document.createElement('h2'); h.textContent = 'Violating operations (' + bad.length + ')';
    var ul = document.createElement('ul'); ul.id = 'violating-list';
    bad.forEach(function (t) { var li = document.createElement('li'); li.textContent = t; ul.appendChild(li); });
    vd.appendChild(h); vd.appendChild(ul);
  }
  document.getElementById('counterexample').textContent = d.counterexample;
  document.getElementById('trace').textContent = d.trace;
})();
</script></body></html>
)HTML";

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

}  // namespace

std::string html_report(const Scenario& scenario, const SeedRun& run,
                        const model::CheckReport& report) {
  std::set<std::int64_t> violating(report.verdict.events.begin(), report.verdict.events.end());
  std::string counterexample = "(none: the run checked clean)";
  if (report.verdict.kind == model::VerdictKind::violation) {
    Counterexample c = shrink(scenario, Finding{run.seed, {}, report.verdict, 0}, 200);
    counterexample =
        fmt::format("{} client(s) x {} operation(s), seed {}: {}\n{}\n\n", c.scenario.clients,
                    c.scenario.operations_per_client, c.finding.seed, c.finding.verdict.summary(),
                    c.finding.verdict.explanation) +
        trace_text(c.run);
  }
  std::set<ClientId> clients;
  for (const auto& [p, c] : run.process_client)
    clients.insert(c);
  json data = {{"ok", report.verdict.ok()},
               {"verdict", report.verdict.summary()},
               {"explanation", report.verdict.explanation},
               {"clients", clients},
               {"ops", ops_json(run, violating)},
               {"attempts", attempts_json(run)},
               {"counterexample", counterexample},
               {"trace", trace_text(run)}};
  // Keep "</script>" out of the embedded JSON.
  std::string embedded = replace_all(data.dump(), "</", "<\\/");
  std::string title = fmt::format("{} seed {} ({})", scenario.name, run.seed, scenario.recipe);
  std::string page = replace_all(kPage, "%TITLE%", title);
  return replace_all(page, "%DATA%", embedded);
}

}  // namespace contend
