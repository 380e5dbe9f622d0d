#include "scenarios/outcome.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <string_view>
#include <vector>

#include "base/digest128.h"
#include "base/invariant.h"

namespace contend {

namespace {

// The readable spelling: bytes as hex, fields as text.
class TextSink {
 public:
  void add(std::string_view text) { text_ += text; }
  void add_bytes(BytesView bytes) { text_ += to_hex(bytes); }
  void add_number(std::int64_t n) { text_ += std::to_string(n); }
  void add_part(const TextSink& part) { text_ += part.text_; }
  std::string take() { return std::move(text_); }

 private:
  std::string text_;
};

// The digest spelling: base/digest128.h over the stream, each field behind its length, so the
// fields' boundaries are part of what is digested.
class DigestSink {
 public:
  void add(std::string_view text) { digest_.add_raw(text); }
  void add_bytes(BytesView bytes) {
    digest_.add_field(std::string_view(bytes.data(), bytes.size()));
  }
  void add_number(std::int64_t n) { digest_.add_i64(n); }
  void add_part(const DigestSink& part) { digest_.add_value(part.digest_.finish()); }
  std::string take() {
    const Digest128::Value lanes = digest_.finish();
    char bytes[16];
    std::memcpy(bytes, lanes.data(), sizeof bytes);
    return to_hex(BytesView(bytes, sizeof bytes));
  }

 private:
  Digest128 digest_;
};

template <typename Sink>
std::string spell_outcome(const SeedRun& run, const model::Verdict& verdict) {
  Sink out;
  out.add(verdict.summary());
  out.add("|");
  // Each operation by (slot, ordinal within its slot), in that order.
  std::vector<std::vector<Sink>> ops;                                // [slot][ordinal]
  std::map<std::int64_t, std::pair<std::size_t, std::size_t>> open;  // process -> op
  for (const model::Event& e : run.history) {
    const int slot = run.process_slot.at(e.process);
    CONTEND_ASSERT(slot >= 0, "a process without a client slot");
    const auto s = static_cast<std::size_t>(slot);
    if (ops.size() <= s) ops.resize(s + 1);
    if (e.type == model::EventType::invoke) {
      open[e.process] = {s, ops[s].size()};
      ops[s].emplace_back().add(model::to_string(e.f));
      continue;
    }
    const auto [op_slot, ordinal] = open.at(e.process);
    Sink& op = ops[op_slot][ordinal];
    op.add(" ");
    op.add(model::to_string(e.type));
    if (e.value && !model::is_insert(e.f)) {
      op.add(" ");
      op.add(e.value->value);
    }
  }
  for (std::size_t s = 0; s < ops.size(); ++s) {
    for (std::size_t k = 0; k < ops[s].size(); ++k) {
      out.add_number(static_cast<std::int64_t>(s));
      out.add(".");
      out.add_number(static_cast<std::int64_t>(k));
      out.add(":");
      out.add_part(std::move(ops[s][k]));
      out.add(";");
    }
  }
  out.add("|");
  for (const auto& [key, value] : run.final_state) {
    out.add_bytes(key);
    out.add("=");
    out.add_bytes(value);
    out.add(";");
  }
  // Each client's attempts in its own order (clients interleave differently between runs).
  std::map<ClientId, int> slot_of_client;
  for (const auto& [process, client] : run.process_client)
    slot_of_client[client] = run.process_slot.at(process);
  std::map<int, Sink> attempts;
  for (const AttemptRecord& a : run.attempts) {
    Sink& text = attempts[slot_of_client.at(a.client)];
    for (const ReadRecord& r : a.reads) {
      text.add("r");
      text.add_bytes(r.keys.begin);
      text.add("-");
      text.add_bytes(r.keys.end);
      text.add("=");
      if (r.value) text.add_bytes(*r.value);
      for (const KeyValue& row : r.rows) {
        text.add_bytes(row.key);
        text.add(":");
        text.add_bytes(row.value);
        text.add(",");
      }
    }
    text.add(" ");
    text.add(error_name(a.outcome));
    text.add(";");
  }
  for (auto& [slot, text] : attempts) {
    out.add("|");
    out.add_number(slot);
    out.add(":");
    out.add_part(std::move(text));
  }
  return out.take();
}

}  // namespace

std::string outcome_of(const SeedRun& run, const model::Verdict& verdict) {
  return spell_outcome<TextSink>(run, verdict);
}

std::string outcome_digest(const SeedRun& run, const model::Verdict& verdict) {
  return spell_outcome<DigestSink>(run, verdict);
}

}  // namespace contend
