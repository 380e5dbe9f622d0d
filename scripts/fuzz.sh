#!/usr/bin/env bash
# Long fuzzing runs: builds the libFuzzer targets with clang (ASan + UBSan, coverage) in
# build-fuzz/ and runs each target for RUNS executions (default 10,000,000) from its seed
# corpus, printing the execution count and anything found. Usage:
#   bash scripts/fuzz.sh [target...]        targets: tuple history scenario merge seeds checkpoint log
#                                           fdb_c_api
# Environment: RUNS (executions per target), SEED (libFuzzer's -seed, default 1: the same ground
# each time; another value explores other ground, 0 one drawn from the clock), BUILD_DIR (default
# build-fuzz), JOBS (build parallelism, default nproc). New corpus entries go to
# BUILD_DIR/fuzz/found/<target>; a crash leaves BUILD_DIR/fuzz/crash-* (make it a regression
# test: tests/fuzz_regression_test.cpp).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${BUILD_DIR:-$root/build-fuzz}
runs=${RUNS:-10000000}
seed=${SEED:-1}
[[ "$seed" =~ ^[0-9]+$ ]] || { echo "fuzz.sh: SEED must be a number, not '$seed'" >&2; exit 2; }
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: RUNS must be a positive number, not '$runs'" >&2
                                    exit 2; }
all_targets=(tuple history scenario merge seeds checkpoint log fdb_c_api)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all_targets[@]}")
for t in "${targets[@]}"; do  # before anything is built
  [[ " ${all_targets[*]} " == *" $t "* ]] ||
    { echo "fuzz.sh: no fuzz target '$t' (targets: ${all_targets[*]})" >&2; exit 2; }
done

missing=()
for p in clang libclang-rt-14-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=()
  [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

cmake -S "$root" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER=clang++ -DCONTEND_FUZZ=ON -DCONTEND_BUILD_BENCH=OFF -DCONTEND_INSTALL=OFF
cmake --build "$build_dir" --parallel "${JOBS:-$(nproc)}" \
  --target "${targets[@]/%/_fuzz}" checkpoint_fuzz_seeds

cd "$build_dir/fuzz"
status=0
for t in "${targets[@]}"; do
  mkdir -p "found/$t"
  max_len=4096
  case "$t" in
    tuple | merge | seeds | log | fdb_c_api) seeds="$root/fuzz/corpus/$t" ;;
    history | scenario) seeds="$build_dir/fuzz/seeds/$t" ;;
    checkpoint)  # made by the search they belong to; 100 KB or more each
      seeds="$build_dir/fuzz/seeds/$t"
      ./checkpoint_fuzz_seeds "$seeds"
      max_len=262144
      ;;
  esac
  echo "== $t: $runs runs, seed $seed"
  log="fuzz-$t.log"
  if "./${t}_fuzz" -runs="$runs" -seed="$seed" -max_len="$max_len" -print_final_stats=1 \
       "found/$t" "$seeds" > "$log" 2>&1; then
    echo "   $(grep -E '^stat::number_of_executed_units' "$log")   no crash"
  else
    echo "   FOUND a failure: see $build_dir/fuzz/$log and crash-* there"
    status=1
  fi
done
exit $status
