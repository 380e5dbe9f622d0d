#!/usr/bin/env bash
# Sets up a Debian 12 machine for contend, builds it, and runs either the default scenario or
# the whole test suite. Usage: bash scripts/bootstrap.sh run|test|build|sanitize|threads
#   run      install what is missing, build the contend binary, run scenarios/queue.toml over 20 seeds
#   test     install what is missing, build everything with warnings as errors, run the CTest suite
#   build    install what is missing, build everything
#   sanitize install what is missing (and clang), build everything with clang in Debug (-O1) with
#            AddressSanitizer + UndefinedBehaviorSanitizer, every CONTEND_DEBUG_ASSERT on and the
#            libFuzzer targets, and run the suite (the fuzz targets for a short fixed number of
#            runs; without the long searches, the consumer builds, the .deb and the mutants)
#   threads  install what is missing (and clang), build with clang in Debug (-O1) with
#            ThreadSanitizer what runs threads — libfdb_c and its tests, the contend binary, the
#            tests of `--jobs`, the time limit and the stop signals — and run those (label threads)
# Environment: BUILD_DIR (default build, build-asan for sanitize, build-tsan for threads),
# CONTEND_LONG=1 adds the long searches to `test`.
set -euo pipefail
mode=${1:-run}
# Refused before anything is installed or built: a mistyped mode would otherwise cost a build.
case "$mode" in
  run | test | build | sanitize | threads) ;;
  *)
    echo "bootstrap: unknown mode '$mode' (expected run, test, build, sanitize or threads)" >&2
    exit 2
    ;;
esac
[ $# -le 1 ] || { echo "bootstrap: one mode at most; '${*:2}' is left over" >&2; exit 2; }
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${BUILD_DIR:-$root/build}
[ "$mode" = sanitize ] && build_dir=${BUILD_DIR:-$root/build-asan}
[ "$mode" = threads ] && build_dir=${BUILD_DIR:-$root/build-tsan}

packages=(build-essential g++ cmake ninja-build pkg-config
          libgtest-dev libgmock-dev libbenchmark-dev librapidcheck-dev
          libcli11-dev libtomlplusplus-dev nlohmann-json3-dev libfmt-dev libmimalloc-dev)

# The HTML report test renders in headless Chromium; the history converter's and the CI recipes'
# tests run python3 (the latter parses YAML). (dpkg-shlibdeps, for the .deb test, comes with
# build-essential's dpkg-dev.)
if [ "$mode" = test ] || [ "$mode" = sanitize ]; then packages+=(chromium python3 python3-yaml); fi
# The sanitizer builds use clang, and its sanitizer and libFuzzer runtimes (Debian's clang 14).
if [ "$mode" = sanitize ] || [ "$mode" = threads ]; then packages+=(clang libclang-rt-14-dev); fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

werror=OFF
[ "$mode" = test ] || [ "$mode" = sanitize ] || [ "$mode" = threads ] && werror=ON
if [ "$mode" = sanitize ]; then
  # Debug (assertions on) at -O1, as AddressSanitizer's documentation advises: at -O0 the suite's
  # searches ran 6.4 times slower and the stage took 62 minutes on 2 cores; -O1 keeps every check.
  cmake -S "$root" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++ \
    "-DCMAKE_CXX_FLAGS_DEBUG=-g -O1" \
    -DCONTEND_FUZZ=ON -DCONTEND_DEBUG_ASSERTS=ON -DCONTEND_BUILD_BENCH=OFF -DCONTEND_WERROR=ON
elif [ "$mode" = threads ]; then
  cmake -S "$root" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++ \
    "-DCMAKE_CXX_FLAGS_DEBUG=-g -O1" \
    -DCONTEND_TSAN=ON -DCONTEND_DEBUG_ASSERTS=ON -DCONTEND_BUILD_BENCH=OFF -DCONTEND_WERROR=ON
else
  cmake -S "$root" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCONTEND_WERROR=$werror
fi
# `run` needs only the contend binary, `threads` what its tests run; the others build every target.
targets=()
[ "$mode" = run ] && targets=(--target contend)
[ "$mode" = threads ] && targets=(--target contend_threads_tests)
cmake --build "$build_dir" --parallel "$(nproc)" "${targets[@]}"

case "$mode" in
  run)
    "$build_dir/contend" run "$root/scenarios/queue.toml" --seeds 1..20
    ;;
  test)
    labels=(-LE long)
    [ "${CONTEND_LONG:-0}" = 1 ] && labels=()
    ctest --test-dir "$build_dir" --output-on-failure --parallel "$(nproc)" "${labels[@]}"
    ;;
  sanitize)
    ctest --test-dir "$build_dir" --output-on-failure --parallel "$(nproc)" \
      -LE 'long|consumer|package|mutants|npm'
    ;;
  threads)
    # ThreadSanitizer's reports fail a test (its exit code 66) and stop at the first one.
    TSAN_OPTIONS="halt_on_error=1 ${TSAN_OPTIONS:-}" \
      ctest --test-dir "$build_dir" --output-on-failure --parallel "$(nproc)" -L threads
    ;;
  build) ;;
esac
