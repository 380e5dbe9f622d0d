// The restart that gives a build on glibc's malloc its larger thread cache keeps the process what
// it was: its name, its arguments, the user's own tunables (scenarios/allocator_tuning.h).
#include <gtest/gtest.h>

#include <string>

#include "tests/support/run_cli.h"

namespace contend {
namespace {

// What tests/probe/restart_probe.cpp prints once restarted, run with `environment` set before it.
std::string restarted_probe(const std::string& environment) {
  const testing::CliResult r =
      testing::run_shell("env -u GLIBC_TUNABLES " + environment + " " +
                         std::string(CONTEND_RESTART_PROBE) + " one 'two words' 2>&1");
  return r.output + (r.exit_code != 0 ? "exit status " + std::to_string(r.exit_code) : "");
}

TEST(AllocatorTuning, ARestartedProcessKeepsItsNameSoPsAndPgrepFindIt) {
  // Restarted as /proc/self/exe, the kernel named the process "exe": ps showed it so, `pgrep
  // contend` found nothing, and a test sampling a contend process by name sampled nothing.
  EXPECT_EQ(restarted_probe(""),
            "name: restart_probe\n"
            "tunables: glibc.malloc.tcache_count=1000\n"
            "arguments: one two words\n");
}

TEST(AllocatorTuning, AUsersOwnTunablesAreKeptAndACacheCountOfTheirsIsNotOverridden) {
  EXPECT_EQ(restarted_probe("GLIBC_TUNABLES=glibc.malloc.arena_max=2"),
            "name: restart_probe\n"
            "tunables: glibc.malloc.arena_max=2:glibc.malloc.tcache_count=1000\n"
            "arguments: one two words\n");
  EXPECT_EQ(restarted_probe("GLIBC_TUNABLES=glibc.malloc.tcache_count=7"),
            "name: restart_probe\n"
            "tunables: glibc.malloc.tcache_count=7\n"
            "arguments: one two words\n");
}

}  // namespace
}  // namespace contend
