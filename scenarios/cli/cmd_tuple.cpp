// `contend tuple pack '<JSON array>'` and `contend tuple unpack <hex>`: look at keys as
// FoundationDB's tuple layer encodes them.
#include <fmt/format.h>

#include <cstdio>

#include "model/history_json.h"
#include "scenarios/cli/commands.h"
#include "scenarios/cli/tuple_json.h"

namespace contend::cli {

namespace {

int pack_command(const std::string& text) {
  // A tuple nests at most kMaxTupleDepth deep; its JSON one level more (an element's object).
  if (model::json_nesting_depth(text, kMaxTupleDepth + 1) > kMaxTupleDepth + 1) {
    fmt::print(stderr, "contend tuple pack: nested deeper than {} levels\n", kMaxTupleDepth);
    return 2;
  }
  std::string error;
  std::optional<nlohmann::json> j = parse_tuple_json(text, error);
  if (!j) {
    fmt::print(stderr, "contend tuple pack: {}\n", error);
    return 2;
  }
  auto tuple = tuple_from_json(*j, error);
  if (!tuple) {
    fmt::print(stderr, "contend tuple pack: {}\n", error);
    return 2;
  }
  fmt::print("{}\n", to_hex(pack(*tuple)));
  return 0;
}

int unpack_command(const std::string& hex) {
  std::string error;
  auto bytes = from_hex(hex, error);
  if (!bytes) {
    fmt::print(stderr, "contend tuple unpack: {}\n", error);
    return 2;
  }
  UnpackResult result = unpack(*bytes);
  if (!result.ok()) {
    fmt::print(stderr, "contend tuple unpack: {}\n", result.error.to_string());
    return 2;
  }
  fmt::print("{}\n", tuple_to_json(*result.tuple).dump());
  return 0;
}

}  // namespace

void register_tuple_command(CLI::App& app, CommandContext& ctx) {
  CLI::App* tuple = app.add_subcommand("tuple", "Pack and unpack FoundationDB tuple-encoded keys");
  tuple->require_subcommand(1);
  tuple->footer(
      "The JSON form of a tuple: null, true, false; integers (int64 and uint64, exact); doubles as "
      "numbers with a fraction or exponent, or {\"double\": \"nan\"|\"inf\"|\"-inf\"}; "
      "strings; {\"bytes\": \"<hex>\"}; {\"uuid\": \"<8-4-4-4-12 hex>\"}; {\"float\": "
      "number|\"nan\"|\"inf\"|\"-inf\"} for 32-bit floats; {\"versionstamp\": \"<20 hex "
      "digits>\", \"user_version\": n}; arrays for nested tuples. unpack prints this form and "
      "pack reads it back.");
  auto json_text = std::make_shared<std::string>();
  auto hex = std::make_shared<std::string>();
  CLI::App* pack_cmd = tuple->add_subcommand("pack", "JSON array -> lowercase hex of the encoding");
  pack_cmd
      ->add_option("tuple", *json_text, "A JSON array, e.g. '[\"Q\", 1, {\"bytes\": \"00ff\"}]'")
      ->required();
  pack_cmd->callback([json_text, &ctx] { ctx.exit_code = pack_command(*json_text); });
  CLI::App* unpack_cmd = tuple->add_subcommand("unpack", "hex of an encoding -> JSON array");
  unpack_cmd->add_option("hex", *hex, "Hex digits of a packed tuple")->required();
  unpack_cmd->callback([hex, &ctx] { ctx.exit_code = unpack_command(*hex); });
}

}  // namespace contend::cli
