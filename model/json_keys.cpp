// Refusing a key met twice in one JSON object (json_keys.h).
#include "model/json_keys.h"

namespace contend::model {

DuplicateKey::DuplicateKey(const std::string& key)
    : std::invalid_argument(
          "key " +
          nlohmann::json(key).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) +
          " appears twice in one object"),
      key_(key) {}

void DuplicateKeyCheck::operator()(int depth, nlohmann::json::parse_event_t event,
                                   const nlohmann::json& parsed) {
  using Event = nlohmann::json::parse_event_t;
  if (event == Event::object_start) {  // at its container's depth: its keys come at depth + 1
    const auto at = static_cast<std::size_t>(depth);
    if (keys_by_depth_.size() <= at) keys_by_depth_.resize(at + 1);
    keys_by_depth_[at].clear();
  } else if (event == Event::key && depth >= 1) {
    const auto at = static_cast<std::size_t>(depth - 1);
    if (keys_by_depth_.size() <= at) keys_by_depth_.resize(at + 1);
    const std::string& key = parsed.get_ref<const std::string&>();
    if (!keys_by_depth_[at].insert(key).second) throw DuplicateKey(key);
  }
}

nlohmann::json parse_json_unique_keys(std::string_view text, std::string& duplicate) {
  duplicate.clear();
  DuplicateKeyCheck check;
  try {
    return nlohmann::json::parse(
        text,
        [&check](int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
          check(depth, event, parsed);
          return true;
        },
        /*allow_exceptions=*/false);
  } catch (const DuplicateKey& e) {
    duplicate = e.key();
    return nlohmann::json(nlohmann::json::value_t::discarded);
  }
}

}  // namespace contend::model
