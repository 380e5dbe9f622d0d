// Refusing a JSON object that names one key twice. nlohmann::json keeps the last of the two and
// says nothing, so a file contend reads (a history line, a run report, a checkpoint, a transaction
// log line) could carry two values of one field and be judged by either: contend never writes
// one, so data of that shape is not data it wrote, and is refused naming the key.
#pragma once

#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace contend::model {

// What DuplicateKeyCheck throws: what() is "key \"name\" appears twice in one object".
class DuplicateKey : public std::invalid_argument {
 public:
  explicit DuplicateKey(const std::string& key);
  const std::string& key() const { return key_; }

 private:
  std::string key_;
};

// The keys of each object a parse is in, as nlohmann's parser callback reports them: call it at
// every event, and it throws DuplicateKey at a key already met in its object. (It counts depth,
// not ends: nlohmann reports no end of an object a callback discarded.)
class DuplicateKeyCheck {
 public:
  void operator()(int depth, nlohmann::json::parse_event_t event, const nlohmann::json& parsed);

 private:
  std::vector<std::set<std::string>> keys_by_depth_;  // [d]: the object open at depth d + 1
};

// `text` parsed as nlohmann::json::parse(text, nullptr, false) parses it, but a key met twice in
// one object makes it discarded too, with `duplicate` naming the key ("" otherwise: `text` is not
// JSON, or it is parsed).
nlohmann::json parse_json_unique_keys(std::string_view text, std::string& duplicate);

}  // namespace contend::model
