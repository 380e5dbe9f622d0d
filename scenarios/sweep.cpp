#include "scenarios/sweep.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>

#include "base/decimal.h"
#include "base/invariant.h"
#include "scenarios/counted_values.h"
#include "scenarios/scenario_bounds.h"

namespace contend {

namespace {

const char* kFaultKeys[] = {"not_committed", "unknown_result_applied", "unknown_result_not_applied",
                            "read_too_old",  "read_future_version",    "crash",
                            "pause"};

double* fault_knob(FaultKnobs& f, const std::string& name) {
  if (name == "not_committed") return &f.not_committed;
  if (name == "unknown_result_applied") return &f.unknown_result_applied;
  if (name == "unknown_result_not_applied") return &f.unknown_result_not_applied;
  if (name == "read_too_old") return &f.read_too_old;
  if (name == "read_future_version") return &f.read_future_version;
  if (name == "crash") return &f.crash;
  if (name == "pause") return &f.pause;
  return nullptr;
}

bool known_key(const std::string& key) {
  if (key == "clients" || key == "operations_per_client" || key == "recipe") return true;
  if (key.rfind("faults.", 0) == 0) {
    FaultKnobs f;
    return fault_knob(f, key.substr(7)) != nullptr;
  }
  return false;
}

// `v` read whole as a probability in [0, 1] ("0.25", "1e-3"), or nothing: "nan", which every
// comparison lets through, is refused as "inf" and "-0.5" are.
std::optional<double> to_probability(const std::string& v) {
  double p = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), p);
  if (v.empty() || ec != std::errc() || end != v.data() + v.size() || !(p >= 0 && p <= 1))
    return std::nullopt;
  return p;
}

// Whether two items of one key's list name one value: "2" and "02" one client count, "0.1" and
// "0.10" one probability. Items that do not read as a value of the key are left to
// apply_variation, which names what they should be.
bool same_value(const std::string& key, const std::string& a, const std::string& b) {
  if (a == b) return true;
  if (key == "recipe") return false;
  if (key == "clients" || key == "operations_per_client") {
    const auto x = parse_decimal<long long>(a), y = parse_decimal<long long>(b);
    return x && y && *x == *y;
  }
  const std::optional<double> x = to_probability(a), y = to_probability(b);
  return x && y && *x == *y;
}

std::int64_t percentile_of(const std::map<std::int64_t, std::int64_t>& histogram, double q) {
  std::int64_t total = 0;
  for (const auto& [value, n] : histogram)
    total += n;
  if (total == 0) return 0;
  return value_at_rank(histogram, static_cast<std::uint64_t>(q * static_cast<double>(total - 1)));
}

// One point's summary, folded one seed at a time (a point keeps no seed: see batch.h).
class PointSummary {
 public:
  void add(const SeedOutcome& o) {
    const RunMetrics& m = o.metrics;
    ++seeds_;
    ok_ops_ += m.throughput_ops_per_s * m.virtual_seconds;
    seconds_ += m.virtual_seconds;
    attempts_ += static_cast<double>(m.attempts.attempts);
    conflicts_ += static_cast<double>(m.attempts.conflicts);
    point_.unknown_results += m.attempts.unknown_results;
    for (const auto& [r, n] : m.retries_histogram)
      retries_[r] += n;
    ++latency_p50_seeds_[m.latency_us.p50];
    ++latency_p99_seeds_[m.latency_us.p99];
    point_.verdicts[o.verdict.summary()]++;
    if (o.verdict.kind == model::VerdictKind::simulator_fault && !point_.first_simulator_fault)
      point_.first_simulator_fault = o.seed;
  }

  SweepPoint result(std::vector<std::string> values) && {
    SweepPoint p = std::move(point_);
    p.values = std::move(values);
    p.seeds = static_cast<std::int64_t>(seeds_);
    p.throughput_ops_per_s = seconds_ > 0 ? ok_ops_ / seconds_ : 0;
    p.conflict_rate = attempts_ > 0 ? conflicts_ / attempts_ : 0;
    p.retries_p50 = percentile_of(retries_, 0.50);
    p.retries_p99 = percentile_of(retries_, 0.99);
    // The medians over seeds of each seed's percentile (the upper median of an even count).
    if (seeds_ > 0) {
      p.latency_us_p50 = value_at_rank(latency_p50_seeds_, seeds_ / 2);
      p.latency_us_p99 = value_at_rank(latency_p99_seeds_, seeds_ / 2);
    }
    return p;
  }

 private:
  SweepPoint point_;
  std::uint64_t seeds_ = 0;
  double ok_ops_ = 0, seconds_ = 0, attempts_ = 0, conflicts_ = 0;
  std::map<std::int64_t, std::int64_t> retries_;
  std::map<std::int64_t, std::uint64_t> latency_p50_seeds_;  // a seed's p50 -> seeds
  std::map<std::int64_t, std::uint64_t> latency_p99_seeds_;
};

std::string verdict_text(const SweepPoint& p) {
  std::string out;
  for (const auto& [v, n] : p.verdicts)
    out += (out.empty() ? "" : "; ") + v + " x" + std::to_string(n);
  return out;
}

}  // namespace

std::optional<Variation> parse_variation(const std::string& text, std::string& error) {
  auto eq = text.find('=');
  Variation v;
  v.key = text.substr(0, eq);
  if (eq == std::string::npos || !known_key(v.key)) {
    std::string keys = "clients, operations_per_client, recipe";
    for (const char* k : kFaultKeys)
      keys += std::string(", faults.") + k;
    error = "'" + text + "': expected KEY=V1,V2,... with KEY one of " + keys;
    return std::nullopt;
  }
  const std::string list = text.substr(eq + 1);
  if (list.empty()) {
    error = "'" + text + "': no values";
    return std::nullopt;
  }
  // An empty item (a doubled or trailing comma) is a typing slip, and a value given twice (as
  // "0.1" and "0.10" too) would run its grid point twice and print its row twice: both are
  // refused, naming the item.
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    std::string item = list.substr(start, comma - start);
    const std::string position = "item " + std::to_string(v.values.size() + 1);
    if (item.empty()) {
      error = "'" + text + "': " + position + " is empty";
      return std::nullopt;
    }
    const auto again = std::ranges::find_if(
        v.values, [&](const std::string& earlier) { return same_value(v.key, earlier, item); });
    if (again != v.values.end()) {
      error = "'" + text + "': " + position + ", " + item + ", is already in the list" +
              (*again == item ? "" : " as " + *again);
      return std::nullopt;
    }
    v.values.push_back(std::move(item));
    if (comma == list.size()) return v;
    start = comma + 1;
  }
}

std::optional<std::string> apply_variation(Scenario& s, const std::string& key,
                                           const std::string& value) {
  if (key == "recipe") {
    s.recipe = value;
    s.name = value;
    return validate_scenario_values(s);  // the keys set are judged over the grid (check_sweep)
  }
  if (key == "clients" || key == "operations_per_client") {
    if (!s.plan.empty()) {
      return key + "=" + value + ": " + s.file +
             ": plan: a scenario with a plan cannot be resized; edit its plan instead";
    }
    const int least = key == "clients" ? 1 : kOperationsPerClientMin;
    const int most = key == "clients" ? kClientsMax : kOperationsPerClientMax;
    auto n = parse_decimal<long long>(value);
    if (!n || *n < least || *n > most) {
      return key + "=" + value + ": not a count in [" + std::to_string(least) + ", " +
             std::to_string(most) + "]";
    }
    (key == "clients" ? s.clients : s.operations_per_client) = static_cast<int>(*n);
    return std::nullopt;
  }
  double* knob = fault_knob(s.faults, key.substr(7));
  const std::optional<double> p = to_probability(value);
  if (!p) return key + "=" + value + ": expected a probability in [0, 1]";
  *knob = *p;
  return std::nullopt;
}

namespace {

using PointProblem = std::optional<std::string>;

std::string point_name(const std::vector<Variation>& variations,
                       const std::vector<std::size_t>& at) {
  std::string out;
  for (std::size_t i = 0; i < variations.size(); ++i)
    out += (i == 0 ? "" : ", ") + variations[i].key + "=" + variations[i].values[at[i]];
  return out;
}

// Calls visit(scenario, values) at every point of the grid in order (the last variation changes
// fastest); returns the first problem, a value that does not apply or what visit returned, with
// the point named ("the grid point clients=4, recipe=queue: ...").
template <typename Visit>
PointProblem for_each_point(const Scenario& base, const std::vector<Variation>& variations,
                            Visit visit) {
  std::vector<std::size_t> at(variations.size(), 0);
  while (true) {
    Scenario s = base;
    std::vector<std::string> values;
    PointProblem problem;
    for (std::size_t i = 0; i < variations.size() && !problem; ++i) {
      values.push_back(variations[i].values[at[i]]);
      problem = apply_variation(s, variations[i].key, values.back());
    }
    if (!problem) problem = visit(s, values);
    if (problem) return "the grid point " + point_name(variations, at) + ": " + *problem;
    std::size_t i = variations.size();
    while (i > 0) {
      --i;
      if (++at[i] < variations[i].values.size()) break;
      at[i] = 0;
      if (i == 0) return std::nullopt;
    }
    if (variations.empty()) return std::nullopt;
  }
}

}  // namespace

namespace {

// "the grid has 500 x 1000 = 500000 points, more than a sweep runs (100000)", or nothing. The
// product saturates: past kSweepPointsMax its exact value matters to no one.
PointProblem check_grid_size(const std::vector<Variation>& variations) {
  std::uint64_t points = 1;
  bool saturated = false;
  std::string factors;
  for (const Variation& v : variations) {
    const std::uint64_t n = v.values.size();
    factors += (factors.empty() ? "" : " x ") + std::to_string(n);
    saturated = saturated || (n != 0 && points > UINT64_MAX / n);
    points = saturated ? UINT64_MAX : points * n;
  }
  if (points <= kSweepPointsMax) return std::nullopt;
  const std::string count =
      saturated ? "more than " + std::to_string(UINT64_MAX) : std::to_string(points);
  return "the grid has " + factors + " = " + count + " points, more than a sweep runs (" +
         std::to_string(kSweepPointsMax) +
         "): vary fewer values, or split the grid over several "
         "sweeps";
}

}  // namespace

namespace {

// The keys a file set, judged over a sweep's grid: each is ignored until a point gives it effect.
class SetKeysOverGrid {
 public:
  explicit SetKeysOverGrid(const std::vector<SetKey>& keys)
      : keys_(keys), why_(keys.size()), effective_(keys.size(), false) {}

  void judge(const Scenario& point) {
    for (std::size_t i = 0; i < keys_.size(); ++i) {
      if (effective_[i]) continue;
      std::optional<std::string> why = set_key_without_effect(point, keys_[i]);
      if (!why) effective_[i] = true;
      if (!why_[i]) why_[i] = std::move(why);  // the first point's reason is the one given
    }
  }

  // Why the first key that took effect at no point never could, or nothing.
  PointProblem ignored_everywhere() const {
    for (std::size_t i = 0; i < keys_.size(); ++i) {
      if (!effective_[i]) return why_[i];
    }
    return std::nullopt;
  }

 private:
  const std::vector<SetKey>& keys_;
  std::vector<std::optional<std::string>> why_;
  std::vector<bool> effective_;
};

}  // namespace

std::optional<std::string> check_sweep(const Scenario& base,
                                       const std::vector<Variation>& variations) {
  if (PointProblem problem = check_grid_size(variations)) return problem;
  SetKeysOverGrid set_keys(base.set_keys);
  PointProblem problem = for_each_point(
      base, variations, [&set_keys](const Scenario& s, const std::vector<std::string>&) {
        PointProblem p = validate_scenario_values(s);
        if (!p) set_keys.judge(s);
        return p;
      });
  return problem ? problem : set_keys.ignored_everywhere();
}

SweepResult run_sweep(const Scenario& base, const std::vector<Variation>& variations,
                      const SeedRange& seeds, int jobs) {
  SweepResult r{variations, seeds, {}};
  PointProblem problem = for_each_point(
      base, variations, [&](const Scenario& s, const std::vector<std::string>& values) {
        PointSummary summary;
        for_each_seed_outcome(s, BatchOptions{seeds, Shard{}, jobs, nullptr},
                              [&](SeedOutcome&& o) { summary.add(o); });
        r.points.push_back(std::move(summary).result(values));
        return PointProblem();
      });
  CONTEND_ASSERT(!problem, "a sweep runs only a grid that check_sweep accepted");
  return r;
}

std::string sweep_table(const SweepResult& r) {
  std::string out;
  for (const Variation& v : r.variations)
    out += fmt::format("{:>20} ", v.key);
  out += fmt::format("{:>12} {:>9} {:>7} {:>7} {:>11} {:>11} {:>7}  {}\n", "ops/vsec", "conflict%",
                     "rty p50", "rty p99", "lat p50 us", "lat p99 us", "unknown", "verdicts");
  for (const SweepPoint& p : r.points) {
    for (const std::string& v : p.values)
      out += fmt::format("{:>20} ", v);
    out += fmt::format("{:>12.1f} {:>9.1f} {:>7} {:>7} {:>11} {:>11} {:>7}  {}\n",
                       p.throughput_ops_per_s, 100 * p.conflict_rate, p.retries_p50, p.retries_p99,
                       p.latency_us_p50, p.latency_us_p99, p.unknown_results, verdict_text(p));
  }
  return out;
}

std::string sweep_csv(const SweepResult& r) {
  std::string out;
  for (const Variation& v : r.variations)
    out += v.key + ",";
  out +=
      "seeds,throughput_ops_per_virtual_s,conflict_rate,retries_p50,retries_p99,latency_us_p50,"
      "latency_us_p99,unknown_results,verdicts\n";
  for (const SweepPoint& p : r.points) {
    for (const std::string& v : p.values)
      out += v + ",";
    out += fmt::format("{},{:.3f},{:.5f},{},{},{},{},{},\"{}\"\n", p.seeds, p.throughput_ops_per_s,
                       p.conflict_rate, p.retries_p50, p.retries_p99, p.latency_us_p50,
                       p.latency_us_p99, p.unknown_results, verdict_text(p));
  }
  return out;
}

nlohmann::json sweep_json(const SweepResult& r) {
  nlohmann::json vary = nlohmann::json::array();
  for (const Variation& v : r.variations)
    vary.push_back({{"key", v.key}, {"values", v.values}});
  nlohmann::json points = nlohmann::json::array();
  for (const SweepPoint& p : r.points) {
    nlohmann::json at = nlohmann::json::object();
    for (std::size_t i = 0; i < p.values.size(); ++i)
      at[r.variations[i].key] = p.values[i];
    points.push_back({{"at", at},
                      {"seeds", p.seeds},
                      {"throughput_ops_per_virtual_s", p.throughput_ops_per_s},
                      {"conflict_rate", p.conflict_rate},
                      {"retries_p50", p.retries_p50},
                      {"retries_p99", p.retries_p99},
                      {"latency_us_p50", p.latency_us_p50},
                      {"latency_us_p99", p.latency_us_p99},
                      {"unknown_results", p.unknown_results},
                      {"verdicts", p.verdicts}});
  }
  return {{"vary", vary},
          {"seeds", {{"first", r.seeds.first}, {"last", r.seeds.last}}},
          {"points", points}};
}

namespace {

struct Series {
  std::string label;
  std::vector<std::pair<double, double>> xy;  // x position index / value, y
};

std::string nice(double v) {
  if (v >= 1000) return fmt::format("{:.0f}", v);
  if (v >= 10) return fmt::format("{:.1f}", v);
  return fmt::format("{:.2f}", v);
}

// One panel: x = the first variation's values (evenly spaced, in given order), y linear from 0.
std::string panel(const SweepResult& r, double x0, double y0, double w, double h,
                  const std::string& title, const std::string& y_unit,
                  double (*metric)(const SweepPoint&)) {
  static const char* kColours[] = {"#1f77b4", "#d62728", "#2ca02c",
                                   "#9467bd", "#ff7f0e", "#8c564b"};
  const auto& xs = r.variations.front().values;
  std::map<std::string, Series> series;
  std::vector<std::string> order;
  for (const SweepPoint& p : r.points) {
    std::string label;
    for (std::size_t i = 1; i < p.values.size(); ++i)
      label += (label.empty() ? "" : ", ") + r.variations[i].key + "=" + p.values[i];
    if (label.empty()) label = r.variations.front().key;
    if (!series.count(label)) order.push_back(label);
    auto xi = static_cast<double>(std::find(xs.begin(), xs.end(), p.values[0]) - xs.begin());
    series[label].label = label;
    series[label].xy.emplace_back(xi, metric(p));
  }
  double ymax = 0;
  for (const auto& [l, s] : series) {
    for (const auto& [x, y] : s.xy)
      ymax = std::max(ymax, y);
  }
  ymax = ymax > 0 ? ymax * 1.1 : 1;
  auto px = [&](double xi) {
    return x0 + (xs.size() > 1 ? xi / static_cast<double>(xs.size() - 1) : 0.5) * w;
  };
  auto py = [&](double y) { return y0 + h - y / ymax * h; };
  std::string out =
      fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"14\" font-weight=\"bold\">{}</text>\n", x0,
                  y0 - 12, title);
  out += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#333\"/>\n", x0,
                     y0, y0 + h);
  out += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#333\"/>\n", x0,
                     y0 + h, x0 + w);
  for (int t = 0; t <= 4; ++t) {
    double y = ymax * t / 4;
    out += fmt::format(
        "<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"#eee\"/>"
        "<text x=\"{}\" y=\"{:.1f}\" font-size=\"11\" text-anchor=\"end\">{}</text>\n",
        x0, py(y), x0 + w, py(y), x0 - 6, py(y) + 4, nice(y));
  }
  for (std::size_t i = 0; i < xs.size(); ++i) {
    out += fmt::format(
        "<text x=\"{:.1f}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\">{}</text>\n",
        px(static_cast<double>(i)), y0 + h + 16, xs[i]);
  }
  out += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\">{}</text>\n",
                     x0 + w / 2, y0 + h + 34, r.variations.front().key);
  out += fmt::format(
      "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\" "
      "transform=\"rotate(-90 {} {})\">{}</text>\n",
      x0 - 48, y0 + h / 2, x0 - 48, y0 + h / 2, y_unit);
  std::size_t c = 0;
  for (const std::string& label : order) {
    const Series& s = series[label];
    const char* colour = kColours[c % std::size(kColours)];
    std::string points;
    for (const auto& [x, y] : s.xy)
      points += fmt::format("{:.1f},{:.1f} ", px(x), py(y));
    out += fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\" points=\"{}\"/>\n",
                       colour, points);
    for (const auto& [x, y] : s.xy) {
      out += fmt::format(
          "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\" fill=\"{}\"><title>{}: "
          "{}</title></circle>\n",
          px(x), py(y), colour, label, nice(y));
    }
    out += fmt::format(
        "<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"3\" fill=\"{}\"/>"
        "<text x=\"{}\" y=\"{}\" font-size=\"11\">{}</text>\n",
        x0 + w + 16, y0 + 10 + 16 * static_cast<double>(c), colour, x0 + w + 32,
        y0 + 14 + 16 * static_cast<double>(c), label);
    ++c;
  }
  return out;
}

}  // namespace

std::string sweep_svg(const SweepResult& r) {
  if (r.variations.empty()) return "";
  std::string out =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"980\" height=\"720\" "
      "font-family=\"sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  out += panel(r, 90, 50, 600, 260, "Throughput", "ok operations per virtual second",
               [](const SweepPoint& p) { return p.throughput_ops_per_s; });
  out += panel(r, 90, 410, 600, 240, "Conflict rate", "conflicts per attempt (%)",
               [](const SweepPoint& p) { return 100 * p.conflict_rate; });
  return out + "</svg>\n";
}

}  // namespace contend
