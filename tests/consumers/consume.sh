#!/usr/bin/env bash
# Builds docs/examples/my_recipe the way a user's project would and runs its tests.
#   consume.sh installed  BUILD_DIR   install contend into BUILD_DIR/consumers/installed/prefix,
#                                     then build the example with find_package(contend) against it
#   consume.sh subproject BUILD_DIR   build docs/examples/subproject: contend's sources added with
#                                     add_subdirectory (its tests and benchmarks must stay off)
#   consume.sh fetchcontent BUILD_DIR the same project getting contend with FetchContent from the
#                                     source checkout's git repository, at its HEAD commit (exit 77,
#                                     skipped, when the sources are not a git checkout)
# Environment: CONTEND_SOURCE_DIR, CMAKE_COMMAND, CTEST_COMMAND, CXX_COMPILER, GENERATOR, and
# CONTEND_CONSUMER_JOBS (build parallelism, default 1).
# Everything is written under BUILD_DIR/consumers/MODE; each run starts from scratch.
set -euo pipefail
mode=$1
build=$2
src=${CONTEND_SOURCE_DIR:?}
cmake=${CMAKE_COMMAND:-cmake}
ctest=${CTEST_COMMAND:-ctest}
work=$build/consumers/$mode
rm -rf "$work"
mkdir -p "$work"
configure=(-G "${GENERATOR:-Ninja}" -DCMAKE_CXX_COMPILER="${CXX_COMPILER:-c++}")
fail() { echo "consume.sh $mode: FAILED: $*" >&2; exit 1; }
started=$SECONDS

case "$mode" in
  installed)
    prefix=$work/prefix
    "$cmake" --install "$build" --prefix "$prefix" > "$work/install.log"
    # What a user gets: the CLI, the two entry headers, the package config, no test code.
    for f in bin/contend include/contend/testing.h include/contend/recipe.h \
             include/contend/scenarios/testing/contend_testing.h; do
      [ -f "$prefix/$f" ] || fail "not installed: $f"
    done
    config=$(find "$prefix" -name contendConfig.cmake)
    [ -n "$config" ] || fail "no contendConfig.cmake"
    [ -f "$(dirname "$config")/contendConfigVersion.cmake" ] || fail "no version file"
    for lib in model store runtime recipes scenarios testing; do
      [ -n "$(find "$prefix" -name "libcontend_$lib.a")" ] || fail "no libcontend_$lib.a"
    done
    if find "$prefix/include" -path '*/tests/*' -o -name '*_test.h' -o -path '*/bench/*' | grep -q .; then
      fail "test headers installed"
    fi
    "$prefix/bin/contend" run "$prefix/share/contend/scenarios/queue.toml" --seeds 1..2 \
      > "$work/cli.log" || fail "installed contend run: $(cat "$work/cli.log")"
    "$cmake" -S "$src/docs/examples/my_recipe" -B "$work/build" "${configure[@]}" \
      -DCMAKE_PREFIX_PATH="$prefix" > "$work/configure.log" ||
      fail "configure: $(cat "$work/configure.log")"
    # The package must have been found in the scratch prefix, not elsewhere.
    grep -q "contend_DIR:PATH=$prefix" "$work/build/CMakeCache.txt" ||
      fail "contend found outside $prefix: $(grep contend_DIR "$work/build/CMakeCache.txt")"
    ;;
  subproject | fetchcontent)
    get=(-DCONTEND_SOURCE_DIR="$src")
    if [ "$mode" = fetchcontent ]; then
      commit=$(git -C "$src" rev-parse --verify HEAD 2>/dev/null) ||
        { echo "consume.sh fetchcontent: $src is not a git checkout: skipped"; exit 77; }
      get=(-DCONTEND_GIT_REPOSITORY="file://$src" -DCONTEND_GIT_TAG="$commit"
           -DFETCHCONTENT_BASE_DIR="$work/deps")
    fi
    "$cmake" -S "$src/docs/examples/subproject" -B "$work/build" "${configure[@]}" "${get[@]}" \
      > "$work/configure.log" 2>&1 || fail "configure: $(cat "$work/configure.log")"
    if [ "$mode" = fetchcontent ]; then
      [ "$(git -C "$work/deps/contend-src" rev-parse HEAD 2>/dev/null)" = "$commit" ] ||
        fail "FetchContent did not check out $commit under $work/deps/contend-src"
    fi
    grep -q "CONTEND_BUILD_TESTS:BOOL=OFF" "$work/build/CMakeCache.txt" ||
      fail "contend's tests are on in a subproject"
    grep -q "CONTEND_BUILD_BENCH:BOOL=OFF" "$work/build/CMakeCache.txt" ||
      fail "contend's benchmarks are on in a subproject"
    targets=$("$cmake" --build "$work/build" --target help)
    grep -q "my_queue_test" <<< "$targets" || fail "no my_queue_test target"
    ! grep -q "store_test\|world_bench" <<< "$targets" || fail "contend's tests are defined"
    ;;
  *) fail "unknown mode" ;;
esac

"$cmake" --build "$work/build" --parallel "${CONTEND_CONSUMER_JOBS:-1}" > "$work/build.log" 2>&1 || fail "build: $(tail -50 "$work/build.log")"
"$ctest" --test-dir "$work/build" --output-on-failure > "$work/ctest.log" 2>&1 ||
  fail "the example's tests: $(cat "$work/ctest.log")"
# MyQueue.* (2), the broken recipe's expected failure, and with the package the CLI's scenario run.
passing=3
[ "$mode" = installed ] && passing=4
grep -q "100% tests passed, 0 tests failed out of $passing" "$work/ctest.log" ||
  fail "expected $passing passing tests: $(cat "$work/ctest.log")"
if [ "$mode" = installed ]; then
  grep -q "contend.ShippedQueueScenario .*Passed" "$work/ctest.log" ||
    fail "the installed contend CLI did not run as a test: $(cat "$work/ctest.log")"
fi
grep -q "IsLinearizable.*Not Run (Disabled)\|Disabled" "$work/ctest.log" ||
  fail "the broken recipe's test should be listed disabled: $(cat "$work/ctest.log")"

# The deliberately wrong recipe: exit code 1, the violation, the counterexample, the replay.
test_binary=$(find "$work/build" -name my_queue_test -type f -perm -u+x | head -1)
[ -n "$test_binary" ] || fail "no my_queue_test binary"
set +e
"$test_binary" --gtest_also_run_disabled_tests --gtest_filter='MyBrokenQueue.*' \
  > "$work/broken.log" 2>&1
code=$?
set -e
[ "$code" = 1 ] || fail "the broken recipe's test exited $code, expected 1: $(cat "$work/broken.log")"
for want in "my-broken-queue over seeds 1..20 (expect linearizable)" "order_inversion" \
            "counterexample: " "reproduce: CONTEND_SEEDS=" "--gtest_also_run_disabled_tests --gtest_filter=MyBrokenQueue.DISABLED_IsLinearizable" \
            "[  FAILED  ] MyBrokenQueue.DISABLED_IsLinearizable"; do
  grep -qF -- "$want" "$work/broken.log" || fail "the failure report lacks '$want': $(cat "$work/broken.log")"
done
echo "consume.sh $mode: ok in $((SECONDS - started)) s"
