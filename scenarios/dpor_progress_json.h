// A search's progress inside one unit (sim/runtime/dpor.h's DporProgress) as JSON, for the
// checkpoint file: the path with every node's ready, backtrack, done and sleeping threads, their
// steps' footprints (key ranges as hex), and the counts so far.
//
// Reading is strict: a field missing or of another type, a thread id out of range, a path index
// outside the path, or a footprint that is neither null nor a step is an error naming what was
// wrong (the checkpoint is then refused, never half-used). The object carries a digest of its own
// contents, so a file edited or cut short is refused too.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "sim/runtime/dpor.h"

namespace contend {

nlohmann::json progress_to_json(const DporProgress& progress);
// Nothing, and `error` saying what was wrong, when `j` is not progress_to_json's output.
std::optional<DporProgress> progress_from_json(const nlohmann::json& j, std::string& error);

// A unit's fixed path (search_units.h) alone, read as strictly.
nlohmann::json nodes_to_json(const std::vector<SearchNode>& nodes);
std::optional<std::vector<SearchNode>> nodes_from_json(const nlohmann::json& j, std::string& error);

}  // namespace contend
