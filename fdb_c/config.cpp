#include "fdb_c/config.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

#include <toml++/toml.h>

#include "base/input_file.h"
#include "base/toml_dotted_keys.h"

namespace contend::fdb {

namespace {

std::string where(const std::string& file, const toml::node* node, std::string_view key) {
  std::string out = file;
  if (node != nullptr && node->source().begin.line > 0)
    out += ":" + std::to_string(node->source().begin.line);
  return out + ": " + std::string(key);
}

// Reads one table's keys into the fields `read` names; any other key is an error.
class TableReader {
 public:
  TableReader(const std::string& file, const toml::table& table, std::string prefix)
      : file_(file), table_(table), prefix_(std::move(prefix)) {}

  bool probability(std::string_view key, double& out) {
    const toml::node* node = table_.get(key);
    seen_.emplace_back(key);
    if (node == nullptr) return true;
    std::optional<double> v = node->value<double>();
    if (!v || !(*v >= 0.0 && *v <= 1.0)) {
      return fail(where(file_, node, prefix_ + std::string(key)) +
                  ": expected a probability in [0, 1]");
    }
    out = *v;
    return true;
  }
  bool non_negative(std::string_view key, std::int64_t& out, std::int64_t most = INT64_MAX) {
    const toml::node* node = table_.get(key);
    seen_.emplace_back(key);
    if (node == nullptr) return true;
    std::optional<std::int64_t> v = node->is_integer() ? node->value<std::int64_t>() : std::nullopt;
    if (!v || *v < 0 || *v > most) {
      return fail(where(file_, node, prefix_ + std::string(key)) +
                  (most == INT64_MAX
                       ? ": expected an integer >= 0"
                       : ": expected an integer in [0, " + std::to_string(most) + "]"));
    }
    out = *v;
    return true;
  }
  bool boolean(std::string_view key, bool& out) {
    const toml::node* node = table_.get(key);
    seen_.emplace_back(key);
    if (node == nullptr) return true;
    if (!node->is_boolean())
      return fail(where(file_, node, prefix_ + std::string(key)) + ": expected true or false");
    out = *node->value<bool>();
    return true;
  }
  bool string(std::string_view key, std::string& out) {
    const toml::node* node = table_.get(key);
    seen_.emplace_back(key);
    if (node == nullptr) return true;
    if (!node->is_string())
      return fail(where(file_, node, prefix_ + std::string(key)) + ": expected a string");
    out = *node->value<std::string>();
    return true;
  }
  const toml::table* table(std::string_view key) {
    seen_.emplace_back(key);
    const toml::node* node = table_.get(key);
    if (node == nullptr) return nullptr;
    if (!node->is_table()) {
      fail(where(file_, node, prefix_ + std::string(key)) + ": expected a table");
      return nullptr;
    }
    return node->as_table();
  }
  // Every key of the table was read: else an error naming the first other one.
  bool no_other_keys() {
    for (const auto& [key, node] : table_) {
      const std::string_view name = key.str();
      bool known = false;
      for (const std::string& s : seen_)
        known = known || s == name;
      if (!known) return fail(where(file_, &node, prefix_ + std::string(name)) + ": unknown key");
    }
    return error_.empty();
  }
  const std::string& error() const { return error_; }

 private:
  bool fail(std::string message) {
    if (error_.empty()) error_ = std::move(message);
    return false;
  }
  const std::string& file_;
  const toml::table& table_;
  std::string prefix_;
  std::vector<std::string> seen_;
  std::string error_;
};

bool read_latency(const std::string& file, const toml::table& table, const std::string& name,
                  Latency& out, std::string& error) {
  TableReader r(file, table, "latency." + name + ".");
  const bool ok = r.non_negative("min_us", out.min_us, kLatencyUsMax) &&
                  r.non_negative("mean_us", out.mean_us, kLatencyUsMax) && r.no_other_keys();
  if (!ok) error = r.error();
  return ok;
}

}  // namespace

ConfigOrError parse_config(const std::string& text, const std::string& file) {
  // Its keys have three parts at most ("latency.read.min_us"); one of thousands overflowed the
  // stack inside toml::parse (base/toml_dotted_keys.h).
  constexpr std::size_t kKeyPartsMax = 16;
  if (std::string why = dotted_key_refusal(text, kKeyPartsMax); !why.empty())
    return {std::nullopt, file + ":" + why + " (a config's keys have 3 at most)"};
  toml::table root;
  try {
    root = toml::parse(text, file);
  } catch (const toml::parse_error& e) {
    return {std::nullopt, file + ":" + std::to_string(e.source().begin.line) + ": " +
                              std::string(e.description())};
  }
  Config c;
  TableReader top(file, root, "");
  std::int64_t seed = 1;
  if (!top.non_negative("seed", seed) || !top.boolean("deterministic", c.deterministic) ||
      !top.non_negative("quiet_us", c.quiet_us, kQuietUsMax) || !top.string("log", c.log_path)) {
    return {std::nullopt, top.error()};
  }
  if (c.quiet_us == 0) return {std::nullopt, file + ": quiet_us: must be at least 1"};
  c.seed = static_cast<std::uint64_t>(seed);
  if (const toml::table* faults = top.table("faults")) {
    TableReader f(file, *faults, "faults.");
    const bool ok = f.probability("not_committed", c.not_committed) &&
                    f.probability("unknown_result_applied", c.unknown_result_applied) &&
                    f.probability("unknown_result_not_applied", c.unknown_result_not_applied) &&
                    f.probability("read_too_old", c.read_too_old) &&
                    f.probability("read_future_version", c.read_future_version) &&
                    f.no_other_keys();
    if (!ok) return {std::nullopt, f.error()};
  }
  if (!top.error().empty()) return {std::nullopt, top.error()};
  if (const toml::table* latency = top.table("latency")) {
    TableReader l(file, *latency, "latency.");
    std::string error;
    const toml::table* read = l.table("read");
    if (read != nullptr && !read_latency(file, *read, "read", c.read_latency, error))
      return {std::nullopt, error};
    const toml::table* commit = l.table("commit");
    if (commit != nullptr && !read_latency(file, *commit, "commit", c.commit_latency, error))
      return {std::nullopt, error};
    if (!l.no_other_keys()) return {std::nullopt, l.error()};
  }
  if (!top.no_other_keys()) return {std::nullopt, top.error()};
  const double commit_faults =
      c.not_committed + c.unknown_result_applied + c.unknown_result_not_applied;
  if (commit_faults > 1.0)
    return {std::nullopt, file + ": faults: the commit faults add up to more than 1"};
  if (c.read_too_old + c.read_future_version > 1.0)
    return {std::nullopt, file + ": faults: the read faults add up to more than 1"};
  return {c, ""};
}

ConfigOrError config_from_environment() {
  ConfigOrError out{Config{}, ""};
  if (const char* path = std::getenv("CONTEND_FDB_CONFIG"); path != nullptr && *path != '\0') {
    std::string why;
    const std::optional<std::string> text = read_input(path, kFdbConfigInput, why);
    if (!text) {
      return {std::nullopt,
              std::string(path) + ": cannot be read (CONTEND_FDB_CONFIG: " + why + ")"};
    }
    out = parse_config(*text, path);
    if (!out.config) return out;
  }
  if (const char* log = std::getenv("CONTEND_FDB_LOG"); log != nullptr && *log != '\0')
    out.config->log_path = log;
  return out;
}

}  // namespace contend::fdb
