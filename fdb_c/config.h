// What a run of contend's libfdb_c injects and records, read from the TOML file named by the
// environment variable CONTEND_FDB_CONFIG (docs/fdb_c.md has the format):
//     seed = 7                       # fault, latency and jitter draws; the deterministic order
//     deterministic = false          # futures delivered one at a time in a seeded order
//     quiet_us = 5000                # deterministic: real time without client calls before each
//     log = "transactions.jsonl"     # the transaction log (CONTEND_FDB_LOG overrides it)
//     [faults]                       # probabilities per commit and per read call
//     not_committed = 0.0
//     unknown_result_applied = 0.0
//     unknown_result_not_applied = 0.0
//     read_too_old = 0.0
//     read_future_version = 0.0
//     [latency.read]                 # delay before a future is ready:
//     min_us = 0                     #   min_us + exponential(mean_us)
//     mean_us = 0
//     [latency.commit]
//     min_us = 0
//     mean_us = 0
// Invariants: every probability lies in [0, 1]; every latency lies in [0, kLatencyUsMax] and
// quiet_us in [1, kQuietUsMax], so no delay drawn from them overflows a time; a file with another
// key, another type or a value out of range is refused with a message naming the file, the line
// and the key — nothing is silently defaulted.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace contend::fdb {

// The largest latency a file may ask for (an hour): an exponential draw is at most about 37
// means, so min_us + a draw stays far inside a time in microseconds.
inline constexpr std::int64_t kLatencyUsMax = 3'600'000'000;
// The longest quiet time a deterministic run may wait before each delivery (a minute).
inline constexpr std::int64_t kQuietUsMax = 60'000'000;

struct Latency {
  std::int64_t min_us = 0;
  std::int64_t mean_us = 0;
};

struct Config {
  std::uint64_t seed = 1;
  bool deterministic = false;
  std::int64_t quiet_us = 5000;
  std::string log_path;  // empty: no transaction log
  double not_committed = 0.0;
  double unknown_result_applied = 0.0;
  double unknown_result_not_applied = 0.0;
  double read_too_old = 0.0;
  double read_future_version = 0.0;
  Latency read_latency;
  Latency commit_latency;
};

// The configuration in `text` (named `file` in messages), or the error that refuses it.
struct ConfigOrError {
  std::optional<Config> config;
  std::string error;
};
ConfigOrError parse_config(const std::string& text, const std::string& file);
// From the environment: CONTEND_FDB_CONFIG (a file) and CONTEND_FDB_LOG (overrides `log`).
ConfigOrError config_from_environment();

}  // namespace contend::fdb
