// Checks for the numeric flags, so that the number a command runs with is the number typed.
// CLI11 (2.1) reads an integer with strtoll / strtoull in base 0: "010" is 8 and "0x10" is 16,
// "-3" wraps around in an unsigned flag, and a number beyond its type becomes the type's largest
// (`--seed 18446744073709551616` replayed seed 18446744073709551615); its double takes "nan",
// which every range check lets through. These accept plain decimal text only (leading zeros are
// decimal), say the accepted range when they refuse, and hand CLI11 the number written
// canonically, so its own conversion cannot read it another way: give them to an option with
// `->transform(...)`, since CLI11's `->check(...)` discards what a validator rewrites.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>

namespace contend::cli {

// A whole number in [least, most], in decimal digits ("1", "007"; not "+1", "0x10", "1e3").
CLI::Validator whole_number_in(std::int64_t least, std::int64_t most);
// The most threads --jobs runs on, in every command that takes it (run, sweep, explore): results
// never depend on it, and a number past any machine's cores is a typo, not a wish.
inline constexpr std::int64_t kJobsMax = 1024;
// --jobs: a whole number from 1 to kJobsMax.
CLI::Validator jobs_number();
// A value that may not be empty (a range, a shard, a file): "" was taken as the flag not given, so
// `--seeds ""` ran the scenario's seeds and `--checkpoint ""` kept no checkpoint, without a word.
CLI::Validator not_empty();
// A seed: a whole number in [0, 2^64 - 1], in decimal digits.
CLI::Validator seed_number();
// A finite decimal number in [least, most] ("2", "0.5", "1e3"; not "nan", "inf", "0x1p3").
CLI::Validator finite_number_in(double least, double most);

}  // namespace contend::cli
