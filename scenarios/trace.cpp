#include "scenarios/trace.h"

#include <fmt/format.h>

#include <algorithm>

#include "model/history_json.h"
#include "sim/store/tuple.h"

namespace contend {

namespace {

std::string format_tuple(const Tuple& t);

std::string format_element(const TupleElement& e) {
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, TupleNull>) return "None";
        if constexpr (std::is_same_v<T, TupleBytes>) {
          std::string hex = to_hex(v.bytes);
          return "b'" + (hex.size() > 8 ? hex.substr(0, 8) + "…" : hex) + "'";
        }
        if constexpr (std::is_same_v<T, std::string>) return "\"" + v + "\"";
        if constexpr (std::is_same_v<T, Tuple>) return format_tuple(v);
        if constexpr (std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::uint64_t>) {
          return std::to_string(v);
        }
        if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
          return fmt::format("{}", v);
        if constexpr (std::is_same_v<T, bool>) return v ? "True" : "False";
        if constexpr (std::is_same_v<T, Uuid>) return "uuid";
        if constexpr (std::is_same_v<T, Versionstamp>) {
          return "vs(" +
                 to_hex(BytesView(reinterpret_cast<const char*>(v.transaction.data()), 10)) + ")";
        }
      },
      e.value);
}

std::string format_tuple(const Tuple& t) {
  std::string out = "(";
  for (std::size_t i = 0; i < t.size(); ++i)
    out += (i ? ", " : "") + format_element(t[i]);
  return out + (t.size() == 1 ? ",)" : ")");
}

}  // namespace

std::string format_key(BytesView key) {
  if (key.empty()) return "''";
  // Range bounds are often a tuple followed by 0x00 or 0xff: show that byte as a suffix.
  if (key.back() == '\xff' || key.back() == '\0') {
    UnpackResult body = unpack(key.substr(0, key.size() - 1));
    if (body.ok()) return format_tuple(*body.tuple) + (key.back() == '\xff' ? "+\\xff" : "+\\x00");
  }
  if (UnpackResult whole = unpack(key); whole.ok()) return format_tuple(*whole.tuple);
  return "'" + printable(key) + "'";
}

std::string format_range(const KeyRange& range) {
  if (range.end == key_after(range.begin)) return format_key(range.begin);
  return "[" + format_key(range.begin) + ", " + format_key(range.end) + ")";
}

std::string format_read(const ReadRecord& r) {
  std::string out;
  if (!r.range) {
    out = "get " + format_key(r.keys.begin) + (r.snapshot ? " (snapshot)" : "") + " = " +
          (r.value ? "'" + printable(*r.value) + "'" : std::string("absent"));
    return out;
  }
  out = "range " + format_range(r.keys);
  if (r.options.limit > 0) out += " limit " + std::to_string(r.options.limit);
  if (r.options.reverse) out += " reverse";
  if (r.snapshot) out += " (snapshot)";
  out += " = " + std::to_string(r.rows.size()) + " row(s)";
  if (!r.rows.empty()) out += " first " + format_key(r.rows.front().key);
  return out;
}

std::string format_attempt(const AttemptRecord& a) {
  std::string out =
      fmt::format("client {} tx#{} rv={}", a.client, a.transaction_id, a.read_version);
  for (const ReadRecord& r : a.reads)
    out += "; " + format_read(r);
  if (!a.read_ranges.empty()) {
    out += "; conflict ranges";
    for (const auto& r : a.read_ranges)
      out += " " + format_range(r);
  }
  if (!a.mutations.empty()) {
    out += "; writes";
    for (const auto& m : a.mutations) {
      const bool clear_one = m.type == MutationType::clear_range && m.param2 == key_after(m.param1);
      out += " " + std::string(clear_one ? "clear" : mutation_name(m.type)) + " " +
             (m.type == MutationType::clear_range ? format_range(KeyRange{m.param1, m.param2})
                                                  : format_key(m.param1));
    }
  }
  if (ok(a.outcome)) {
    out += a.commit_version == kInvalidVersion ? " -> ok (read-only)"
                                               : fmt::format(" -> committed @{}", a.commit_version);
  } else {
    out += " -> " + std::string(error_name(a.outcome));
  }
  if (a.conflict) {
    const ConflictCause& c = *a.conflict;
    out += fmt::format(": its read of {}{} met the write of {} committed @{} by client {} (tx#{})",
                       format_range(c.read_range),
                       a.conflict_step.empty() ? "" : " (step " + a.conflict_step + ")",
                       format_range(c.writer_range), c.writer_version, c.writer_client,
                       c.writer_transaction_id);
  }
  return out;
}

// Attempts and events in the order the run recorded them (times may tie: an exhaustive world runs
// a step's store operations at one time).
void print_trace(std::FILE* out, const SeedRun& run) {
  std::size_t next_attempt = 0;
  auto flush_attempts_before = [&](std::int64_t event_index) {
    while (next_attempt < run.attempts.size() &&
           run.attempts[next_attempt].events_before <= event_index) {
      const AttemptRecord& a = run.attempts[next_attempt++];
      fmt::print(out, "{:>12.6f}s      {}\n", static_cast<double>(a.end_us) / 1e6,
                 format_attempt(a));
    }
  };
  for (const model::Event& e : run.history) {
    flush_attempts_before(e.index);
    auto client = run.process_client.find(e.process);
    fmt::print(
        out, "{:>12.6f}s  op  process {} (client {}{}) {} {}{}\n",
        static_cast<double>(e.time_us) / 1e6, e.process,
        client == run.process_client.end() ? -1 : client->second,
        run.drain_process == e.process ? ": the drain" : "", to_string(e.type), to_string(e.f),
        e.value ? " " + e.value->value +
                      (e.value->priority ? " p" + std::to_string(*e.value->priority) : "")
                : (e.type == model::EventType::ok && !model::is_insert(e.f) ? " (empty)" : ""));
  }
  flush_attempts_before(INT64_MAX);
}

std::string trace_text(const SeedRun& run) {
  char* buffer = nullptr;
  std::size_t size = 0;
  FILE* memory = open_memstream(&buffer, &size);
  print_trace(memory, run);
  std::fclose(memory);
  std::string out(buffer, size);
  std::free(buffer);
  return out;
}

}  // namespace contend
