#include "scenarios/dpor_progress_json.h"

#include <fmt/format.h>

#include <cstdint>
#include <stdexcept>

namespace contend {

namespace {

using nlohmann::json;

// FNV-1a, 64 bits: a digest against edits and truncation, not against an adversary.
std::string digest_of(const std::string& text) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return fmt::format("{:016x}", h);
}

json ranges_to_json(const RangeSet& ranges) {
  json out = json::array();
  for (const KeyRange& r : ranges)
    out.push_back(json::array({to_hex(r.begin), to_hex(r.end)}));
  return out;
}

// The checkpoint's shape is wrong: thrown inside the reader, turned into its error.
[[noreturn]] void refuse(const std::string& what) {
  throw std::invalid_argument(what);
}

Bytes bytes_from(const json& hex, const char* field) {
  std::string why;
  std::optional<Bytes> b = from_hex(hex.get<std::string>(), why);
  if (!b) refuse(std::string(field) + ": " + why);
  return std::move(*b);
}

RangeSet ranges_from(const json& j, const char* field) {
  std::vector<KeyRange> out;
  for (const json& r : j.at(field)) {
    if (!r.is_array() || r.size() != 2) refuse(std::string(field) + ": a range is [begin, end]");
    out.push_back(KeyRange{bytes_from(r[0], field), bytes_from(r[1], field)});
  }
  return RangeSet(std::move(out));
}

int thread_from(const json& j, const char* field, int lowest) {
  const int t = j.at(field).get<int>();
  if (t < lowest || t >= kMaxThreads) {
    refuse(fmt::format("{} {} is not a thread id (below {})", field, t, kMaxThreads));
  }
  return t;
}

json step_to_json(const ResolvedStep& s) {
  json out{{"thread", s.thread},
           {"snapshot", s.snapshot},
           {"resolved", s.resolved},
           {"applied", s.applied},
           {"conflicted", s.conflicted},
           {"version_sensitive", s.version_sensitive},
           {"snapshot_attempt", s.snapshot_attempt},
           {"commit_attempt", s.commit_attempt},
           {"reads", ranges_to_json(s.reads)},
           {"checked", ranges_to_json(s.checked)},
           {"written", ranges_to_json(s.written)},
           {"refused_writes", ranges_to_json(s.refused_writes)},
           {"completes", s.completes},
           {"invokes", s.invokes}};
  if (!s.draw_groups.empty())
    out["draw_groups"] = s.draw_groups;  // files from before draws have none
  return out;
}

ResolvedStep step_from_json(const json& j) {
  ResolvedStep s;
  s.thread = thread_from(j, "thread", 0);
  s.snapshot = j.at("snapshot").get<bool>();
  s.resolved = j.at("resolved").get<bool>();
  s.applied = j.at("applied").get<bool>();
  s.conflicted = j.at("conflicted").get<bool>();
  s.version_sensitive = j.at("version_sensitive").get<bool>();
  s.snapshot_attempt = j.at("snapshot_attempt").get<std::uint64_t>();
  s.commit_attempt = j.at("commit_attempt").get<std::uint64_t>();
  s.reads = ranges_from(j, "reads");
  s.checked = ranges_from(j, "checked");
  s.written = ranges_from(j, "written");
  s.refused_writes = ranges_from(j, "refused_writes");
  s.completes = j.at("completes").get<bool>();
  s.invokes = j.at("invokes").get<bool>();
  if (j.contains("draw_groups")) {
    s.draw_groups = j.at("draw_groups").get<std::vector<std::uint64_t>>();
    if (s.draw_groups.empty()) refuse("draw_groups written but empty");
  }
  return s;
}

json node_to_json(const SearchNode& n) {
  json footprints = json::array();
  for (const auto& f : n.footprints)
    footprints.push_back(f ? step_to_json(*f) : json(nullptr));
  json out{{"fault", n.kind == NodeKind::fault},
           {"enabled", n.enabled},
           {"backtrack", n.backtrack},
           {"done", n.done},
           {"sleep", n.sleep},
           {"thread", n.thread},
           {"previous", n.previous},
           {"preemptions_before", n.preemptions_before},
           {"footprints", std::move(footprints)},
           {"site", static_cast<int>(n.site)},
           {"options", n.options},
           {"choice", n.choice},
           {"faults_before", n.faults_before}};
  if (n.kind == NodeKind::draw) out["draw"] = true;  // files from before draws have none
  return out;
}

SearchNode node_from_json(const json& j) {
  SearchNode n;
  const bool fault = j.at("fault").get<bool>();
  const bool draw = j.contains("draw") && j.at("draw").get<bool>();
  if (fault && draw) refuse("a node both a fault and a draw");
  n.kind = fault ? NodeKind::fault : draw ? NodeKind::draw : NodeKind::schedule;
  n.enabled = j.at("enabled").get<std::uint64_t>();
  n.backtrack = j.at("backtrack").get<std::uint64_t>();
  n.done = j.at("done").get<std::uint64_t>();
  n.sleep = j.at("sleep").get<std::uint64_t>();
  n.thread = thread_from(j, "thread", -1);
  n.previous = thread_from(j, "previous", -1);
  n.preemptions_before = j.at("preemptions_before").get<int>();
  for (const json& f : j.at("footprints")) {
    n.footprints.push_back(f.is_null() ? nullptr
                                       : std::make_shared<ResolvedStep>(step_from_json(f)));
  }
  if (n.footprints.size() > static_cast<std::size_t>(kMaxThreads)) refuse("too many footprints");
  const int site = j.at("site").get<int>();
  if (site < 0 || site > static_cast<int>(FaultSite::commit)) refuse("site is not a fault site");
  n.site = static_cast<FaultSite>(site);
  n.options = j.at("options").get<std::uint32_t>();
  n.choice = j.at("choice").get<std::uint32_t>();
  if (!n.schedules() && n.choice >= n.options) refuse("a fault or draw choice beyond its options");
  if (n.schedules() && n.thread < 0) refuse("a scheduling node without a thread");
  n.faults_before = j.at("faults_before").get<int>();
  return n;
}

}  // namespace

json progress_to_json(const DporProgress& progress) {
  json nodes = json::array();
  for (const SearchNode& n : progress.nodes)
    nodes.push_back(node_to_json(n));
  json body{{"nodes", std::move(nodes)},           {"follow", progress.follow},
            {"fixed_depth", progress.fixed_depth}, {"runs_from_depth", progress.runs_from_depth},
            {"executions", progress.executions},   {"blocked", progress.blocked}};
  std::string digest = digest_of(body.dump());
  return json{{"progress", std::move(body)}, {"digest", std::move(digest)}};
}

json nodes_to_json(const std::vector<SearchNode>& nodes) {
  json body = json::array();
  for (const SearchNode& n : nodes)
    body.push_back(node_to_json(n));
  std::string digest = digest_of(body.dump());
  return json{{"nodes", std::move(body)}, {"digest", std::move(digest)}};
}

std::optional<std::vector<SearchNode>> nodes_from_json(const json& j, std::string& error) {
  try {
    const json& body = j.at("nodes");
    if (digest_of(body.dump()) != j.at("digest").get<std::string>()) {
      refuse("its digest does not match its contents (edited or cut short)");
    }
    std::vector<SearchNode> nodes;
    for (const json& n : body)
      nodes.push_back(node_from_json(n));
    return nodes;
  } catch (const std::exception& e) {
    error = std::string("a unit's path: ") + e.what();
    return std::nullopt;
  }
}

std::optional<DporProgress> progress_from_json(const json& j, std::string& error) {
  try {
    const json& body = j.at("progress");
    if (digest_of(body.dump()) != j.at("digest").get<std::string>()) {
      refuse("its digest does not match its contents (edited or cut short)");
    }
    DporProgress p;
    for (const json& n : body.at("nodes"))
      p.nodes.push_back(node_from_json(n));
    p.follow = body.at("follow").get<std::size_t>();
    p.fixed_depth = body.at("fixed_depth").get<std::size_t>();
    p.runs_from_depth = body.at("runs_from_depth").get<std::size_t>();
    p.executions = body.at("executions").get<std::int64_t>();
    p.blocked = body.at("blocked").get<std::int64_t>();
    if (p.follow > p.nodes.size() || p.fixed_depth > p.nodes.size()) {
      refuse("follow or fixed_depth lies outside the path");
    }
    if (p.runs_from_depth > p.fixed_depth) refuse("runs_from_depth lies below fixed_depth");
    if (p.executions < 0 || p.blocked < 0 || p.executions + p.blocked == 0) {
      refuse("a progress saved before its first execution");
    }
    return p;
  } catch (const std::exception& e) {
    error = std::string("a unit's progress: ") + e.what();
    return std::nullopt;
  }
}

}  // namespace contend
