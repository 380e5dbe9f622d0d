#include "scenarios/outcome.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <string_view>
#include <vector>

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

// The digest spelling: two 64-bit lanes of multiply-xorshift over the stream's 8-byte words,
// each field behind its length, so the fields' boundaries are part of what is digested.
class DigestSink {
 public:
  void add(std::string_view text) { feed(text); }
  void add_bytes(BytesView bytes) {
    add_number(static_cast<std::int64_t>(bytes.size()));
    feed(std::string_view(bytes.data(), bytes.size()));
  }
  void add_number(std::int64_t n) {
    char word[sizeof n];
    std::memcpy(word, &n, sizeof n);
    feed(std::string_view(word, sizeof n));
  }
  void add_part(DigestSink part) {
    const std::array<std::uint64_t, 2> lanes = part.finish();
    add_number(static_cast<std::int64_t>(lanes[0]));
    add_number(static_cast<std::int64_t>(lanes[1]));
  }
  std::string take() {
    const std::array<std::uint64_t, 2> lanes = finish();
    char bytes[16];
    std::memcpy(bytes, lanes.data(), sizeof bytes);
    return to_hex(BytesView(bytes, sizeof bytes));
  }

 private:
  static std::uint64_t mix(std::uint64_t h) {
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebULL;
    return h ^ (h >> 31);
  }

  void word(std::uint64_t w) {
    a_ = mix(a_ ^ w) * 0x9e3779b97f4a7c15ULL;
    b_ = mix(b_ + w + 0x632be59bd9b4e019ULL) ^ (b_ >> 17);
    ++words_;
  }

  void feed(std::string_view bytes) {
    if (pending_bytes_ == 0) {  // whole words at a time while the stream is at a word boundary
      while (bytes.size() >= 8) {
        std::uint64_t w = 0;
        for (std::size_t i = 0; i < 8; ++i)
          w |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[i])) << (8 * i);
        word(w);
        bytes.remove_prefix(8);
      }
    }
    for (char c : bytes) {
      pending_ |= static_cast<std::uint64_t>(static_cast<unsigned char>(c)) << (8 * pending_bytes_);
      if (++pending_bytes_ == 8) {
        word(pending_);
        pending_ = 0;
        pending_bytes_ = 0;
      }
    }
  }

  std::array<std::uint64_t, 2> finish() {
    word(pending_ ^ (static_cast<std::uint64_t>(pending_bytes_) << 56));
    const std::uint64_t length = words_;
    return {mix(a_ ^ length), mix(b_ + mix(length))};
  }

  std::uint64_t a_ = 0x243f6a8885a308d3ULL;
  std::uint64_t b_ = 0x13198a2e03707344ULL;
  std::uint64_t pending_ = 0;
  unsigned pending_bytes_ = 0;
  std::uint64_t words_ = 0;
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
