// The transaction log judged for serializability (transaction_log_check.h): each line parsed in
// the shape fdb_c/transaction_log.cpp writes, then the applied and read-only commits replayed.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <istream>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/input_file.h"
#include "model/history_json.h"
#include "model/json_keys.h"
#include "scenarios/cli/transaction_log_check.h"
#include "scenarios/cli/tuple_json.h"
#include "sim/runtime/serializability.h"
#include "sim/store/error.h"
#include "sim/store/mutation.h"

namespace contend::cli {

namespace {

constexpr std::size_t kLogDepthMax = 8;  // a line nests 4 levels; deeper is not a log line
// The longest line read: FoundationDB refuses a commit whose writes pass 10 MB, and the log writes
// keys and values in hex; 64 MiB leaves more than 40 MB for its reads. A longer line is refused
// once this much of it is read (one as long as the log's bound, 1 GiB, was held whole).
constexpr std::size_t kLogLineBytesMax = std::size_t{64} << 20;
// The most mutations a count in a line may name (mutations_before): more than any line holds.
constexpr std::uint64_t kCountMax = UINT32_MAX;

// Reads fields of one JSON object, remembering the first problem as "field: why".
class Fields {
 public:
  explicit Fields(const nlohmann::json& object) : object_(object) {}
  const nlohmann::json* get(const char* name, const char* kind) {
    if (!object_.is_object() || !object_.contains(name)) return fail(name, "missing");
    const nlohmann::json& v = object_.at(name);
    const bool good = std::string_view(kind) == "bool"     ? v.is_boolean()
                      : std::string_view(kind) == "int"    ? v.is_number_integer()
                      : std::string_view(kind) == "string" ? v.is_string()
                      : std::string_view(kind) == "array"  ? v.is_array()
                                                           : true;
    if (!good) return fail(name, std::string("expected ") + kind);
    return &v;
  }
  // An integer in [0, most]: a count, an id or a version as the library writes them (a negative
  // one, or one past its type, would wrap when read).
  const nlohmann::json* count(const char* name, std::uint64_t most) {
    const nlohmann::json* v = get(name, "int");
    if (v == nullptr) return nullptr;
    if (!v->is_number_unsigned() || v->get<std::uint64_t>() > most)
      return fail(name, "expected an integer in [0, " + std::to_string(most) + "]");
    return v;
  }
  // A version: in [0, 2^63 - 1], or -1 (kInvalidVersion) for none, as a read-only attempt that
  // read nothing logs its read version.
  const nlohmann::json* version(const char* name) {
    const nlohmann::json* v = get(name, "int");
    if (v == nullptr) return nullptr;
    const bool in_range = v->is_number_unsigned() ? v->get<std::uint64_t>() <= INT64_MAX
                                                  : v->get<std::int64_t>() == kInvalidVersion;
    if (!in_range) return fail(name, "expected a version (an integer in [0, 2^63 - 1]) or -1");
    return v;
  }
  std::optional<Bytes> bytes(const char* name) {
    const nlohmann::json* v = get(name, "string");
    if (v == nullptr) return std::nullopt;
    return hex(*v, name);
  }
  std::optional<Bytes> hex(const nlohmann::json& v, const char* name) {
    if (!v.is_string()) {
      fail(name, "expected a hex string");
      return std::nullopt;
    }
    std::string why;
    std::optional<Bytes> b = from_hex(v.get<std::string>(), why);
    if (!b) fail(name, why);
    return b;
  }
  // Fails at the first key of the object outside `known`, the keys the library writes in it
  // (fdb_c/transaction_log.h, which allows no other): a line it could not have written. `why`
  // says so ("unknown key").
  void only(std::initializer_list<std::string_view> known, const std::string& why) {
    if (!object_.is_object()) return;  // get() names what is missing
    for (const auto& [key, value] : object_.items()) {
      if (std::find(known.begin(), known.end(), key) != known.end()) continue;
      fail(key, why);
      return;
    }
  }
  const std::string& error() const { return error_; }
  bool ok() const { return error_.empty(); }

 private:
  const nlohmann::json* fail(const std::string& name, const std::string& why) {
    if (error_.empty()) error_ = name + ": " + why;
    return nullptr;
  }
  const nlohmann::json& object_;
  std::string error_;
};

// The store's error code named `name` (error.h), as the library logs an outcome; none when no
// code has that name.
std::optional<ErrorCode> error_code_named(const std::string& name) {
  // Every code error_name knows lies below kCodesEnd (FoundationDB's codes are 4 digits).
  constexpr int kCodesEnd = 10'000;
  static const std::map<std::string, ErrorCode, std::less<>> codes = [] {
    std::map<std::string, ErrorCode, std::less<>> known;
    for (int code = 0; code < kCodesEnd; ++code) {
      const auto e = static_cast<ErrorCode>(code);
      if (const std::string_view n = error_name(e); n != "unknown_error") known.emplace(n, e);
    }
    return known;
  }();
  const auto it = codes.find(name);
  return it == codes.end() ? std::nullopt : std::optional<ErrorCode>(it->second);
}

std::optional<MutationType> mutation_type_named(const std::string& name) {
  constexpr MutationType kTypes[] = {MutationType::set_value,
                                     MutationType::clear_range,
                                     MutationType::add,
                                     MutationType::max,
                                     MutationType::min,
                                     MutationType::set_versionstamped_key,
                                     MutationType::set_versionstamped_value,
                                     MutationType::byte_min,
                                     MutationType::byte_max};
  for (MutationType type : kTypes) {
    if (mutation_name(type) == name) return type;
  }
  return std::nullopt;
}

bool parse_read(const nlohmann::json& j, ReadRecord& r, std::string& error) {
  Fields f(j);
  const nlohmann::json* range = f.get("range", "bool");
  const nlohmann::json* snapshot = f.get("snapshot", "bool");
  const nlohmann::json* before = f.count("mutations_before", kCountMax);
  std::optional<Bytes> begin = f.bytes("begin");
  std::optional<Bytes> end = f.bytes("end");
  if (!f.ok()) {
    error = "reads[]." + f.error();
    return false;
  }
  r.range = range->get<bool>();
  r.snapshot = snapshot->get<bool>();
  r.options.snapshot = r.snapshot;
  r.mutations_before = before->get<std::size_t>();
  r.keys = KeyRange{std::move(*begin), std::move(*end)};
  if (r.range) {
    f.only({"range", "begin", "end", "snapshot", "mutations_before", "limit", "reverse", "rows"},
           "unknown key in a range read");
  } else {
    f.only({"range", "begin", "end", "snapshot", "mutations_before", "value"},
           "unknown key in a point read");
  }
  if (!f.ok()) {
    error = "reads[]." + f.error();
    return false;
  }
  if (r.range && compare_bytes(r.keys.begin, r.keys.end) > 0) {
    error = "reads[].end: before begin, an inverted range (the library refuses one)";
    return false;
  }
  if (!r.range) {
    const nlohmann::json* value = f.get("value", "any");
    if (value != nullptr && !value->is_null()) r.value = f.hex(*value, "value");
  } else {
    const nlohmann::json* limit = f.count("limit", INT32_MAX);
    const nlohmann::json* reverse = f.get("reverse", "bool");
    const nlohmann::json* rows = f.get("rows", "array");
    if (f.ok()) {
      r.options.limit = limit->get<int>();
      r.options.reverse = reverse->get<bool>();
      for (const nlohmann::json& row : *rows) {
        if (!row.is_array() || row.size() != 2) {
          error = "reads[].rows[]: expected [key, value]";
          return false;
        }
        std::optional<Bytes> k = f.hex(row[0], "rows[][0]");
        std::optional<Bytes> v = f.hex(row[1], "rows[][1]");
        if (k && v) r.rows.push_back(KeyValue{std::move(*k), std::move(*v)});
      }
    }
  }
  if (!f.ok()) error = "reads[]." + f.error();
  return f.ok();
}

bool parse_mutation(const nlohmann::json& j, Mutation& m, std::string& error) {
  Fields f(j);
  f.only({"type", "param1", "param2"}, "unknown key");
  const nlohmann::json* type = f.get("type", "string");
  std::optional<Bytes> p1 = f.bytes("param1");
  std::optional<Bytes> p2 = f.bytes("param2");
  if (!f.ok()) {
    error = "mutations[]." + f.error();
    return false;
  }
  std::optional<MutationType> t = mutation_type_named(type->get<std::string>());
  if (!t) {
    error = "mutations[].type: unknown mutation \"" + type->get<std::string>() + "\"";
    return false;
  }
  const bool stamped_key = *t == MutationType::set_versionstamped_key;
  const bool stamped_value = *t == MutationType::set_versionstamped_value;
  if ((stamped_key && !ok(check_versionstamp_param(*p1))) ||
      (stamped_value && !ok(check_versionstamp_param(*p2)))) {
    error = std::string("mutations[].") + (stamped_key ? "param1" : "param2") +
            ": no room for a versionstamp at its 4-byte offset";
    return false;
  }
  if (*t == MutationType::clear_range && compare_bytes(*p1, *p2) > 0) {
    error = "mutations[].param2: before param1, an inverted clear_range (the library refuses one)";
    return false;
  }
  m = Mutation{*t, std::move(*p1), std::move(*p2)};
  return true;
}

// One line: the transaction to replay (applied or read-only), nothing for a failed attempt,
// or an error.
bool parse_line(const nlohmann::json& j, std::optional<CommittedTransaction>& out,
                std::string& error) {
  Fields f(j);
  f.only({"client", "transaction", "read_version", "commit_version", "applied", "outcome", "reads",
          "mutations"},
         "unknown key");
  const nlohmann::json* client = f.count("client", INT32_MAX);
  const nlohmann::json* id = f.count("transaction", UINT64_MAX);
  const nlohmann::json* rv = f.version("read_version");
  const nlohmann::json* applied = f.get("applied", "bool");
  const nlohmann::json* outcome = f.get("outcome", "string");
  const nlohmann::json* reads = f.get("reads", "array");
  const nlohmann::json* mutations = f.get("mutations", "array");
  const nlohmann::json* cv = f.get("commit_version", "any");
  if (f.ok() && !cv->is_null()) cv = f.count("commit_version", INT64_MAX);
  if (!f.ok()) {
    error = f.error();
    return false;
  }
  const std::string& outcome_name = outcome->get_ref<const std::string&>();
  const std::optional<ErrorCode> code = error_code_named(outcome_name);
  if (!code) {
    error = "outcome: \"" + outcome_name + "\" is not an error name";
    return false;
  }
  const bool read_only = !applied->get<bool>() && ok(*code);
  if (applied->get<bool>() != cv->is_number_integer()) {
    error = "commit_version: an integer exactly when applied";
    return false;
  }
  // The store applies a commit only when it answers success or an error that may have committed.
  if (applied->get<bool>() && !ok(*code) && !maybe_committed(*code)) {
    error = "applied: true, but outcome \"" + outcome_name + "\" says nothing was applied";
    return false;
  }
  // A commit with mutations reaches the store, so one that succeeded unapplied had none.
  if (read_only && !mutations->empty()) {
    error = "mutations: a successful commit that was not applied is read-only, yet has some";
    return false;
  }
  CommittedTransaction t;
  t.client = client->get<ClientId>();
  t.transaction_id = id->get<std::uint64_t>();
  t.read_version = rv->get<Version>();
  const bool replayed = applied->get<bool>() || read_only;  // else nothing reached the store
  t.commit_version = applied->get<bool>() ? cv->get<Version>() : kInvalidVersion;
  for (const nlohmann::json& r : *reads) {
    if (!parse_read(r, t.reads.emplace_back(), error)) return false;
  }
  for (const nlohmann::json& m : *mutations) {
    if (!parse_mutation(m, t.mutations.emplace_back(), error)) return false;
  }
  if (!replayed) return true;  // read in the shape the library writes, like any line
  // The replay's preconditions, which a log the library wrote always meets.
  if (!read_only && t.commit_version <= t.read_version) {
    error = "commit_version: not after read_version";
    return false;
  }
  for (const ReadRecord& r : t.reads) {
    if (r.mutations_before > t.mutations.size()) {
      error = "reads[].mutations_before: more than the transaction's mutations";
      return false;
    }
  }
  out = std::move(t);
  return true;
}

}  // namespace

LogCheck check_transaction_log(std::istream& in, const std::string& name) {
  std::vector<CommittedTransaction> replayed;
  std::size_t lines = 0;
  std::string text;
  LineRead read = LineRead::line;
  for (std::size_t number = 1;
       (read = read_line_within(in, text, kLogLineBytesMax)) != LineRead::end; ++number) {
    if (read == LineRead::too_long) {
      return {2, fmt::format("{}:{}: longer than {}, the most contend reads of one commit attempt",
                             name, number, bytes_text(kLogLineBytesMax))};
    }
    if (text.empty()) continue;
    ++lines;
    if (model::json_nesting_depth(text, kLogDepthMax + 1) > kLogDepthMax)
      return {2, fmt::format("{}:{}: nested deeper than a log line", name, number)};
    std::string duplicate;
    nlohmann::json j = model::parse_json_unique_keys(text, duplicate);
    std::string error = !j.is_discarded()   ? ""
                        : duplicate.empty() ? "not valid JSON"
                                            : model::DuplicateKey(duplicate).what();
    std::optional<CommittedTransaction> t;
    if (error.empty()) parse_line(j, t, error);
    if (!error.empty()) return {2, fmt::format("{}:{}: {}", name, number, error)};
    if (t) replayed.push_back(std::move(*t));
  }
  if (in.bad()) return {2, name + ": could not be read to its end"};
  if (lines == 0) {
    // Nothing logged is serializable, and passing it would pass a client that never wrote here.
    return {2, name +
                   ": no commit attempt logged: there is nothing to check (did the client run "
                   "with CONTEND_FDB_LOG naming this file?)"};
  }
  if (std::optional<std::string> broken = check_serializable(replayed))
    return {1, "NOT SERIALIZABLE: " + *broken};
  return {0, fmt::format("serializable: {} commit attempts logged, {} replayed ({})", lines,
                         replayed.size(), name)};
}

}  // namespace contend::cli
