#!/usr/bin/env bash
# The scripts a user types (scripts/bootstrap.sh, scripts/fuzz.sh) refuse a mistyped argument
# with exit status 2 and a message naming it, before they install, configure or build anything:
# a mode or target mistyped used to cost a whole build before the refusal.
#   scripts_arguments_test.sh SOURCE_DIR WORK_DIR
set -uo pipefail
root=$1
work=$2
rm -rf "$work" && mkdir -p "$work"
failures=0

refused() {  # refused "MESSAGE" ENV... -- SCRIPT ARGS...: exit 2, MESSAGE on stderr, nothing built
  local message=$1
  shift
  local env=()
  while [ "$1" != -- ]; do env+=("$1"); shift; done
  shift
  local build="$work/build-$RANDOM"
  local err status
  err=$(env "${env[@]}" BUILD_DIR="$build" bash "$root/$@" 2>&1 > /dev/null)
  status=$?
  if [ $status -ne 2 ] || [[ "$err" != *"$message"* ]] || [ -e "$build" ]; then
    echo "FAILED: $* (${env[*]}): exit $status, expected 2 and '$message' with nothing built"
    echo "  said: $err"
    failures=$((failures + 1))
  fi
}

refused "bootstrap: unknown mode 'tets' (expected run, test, build, sanitize or threads)" \
  -- scripts/bootstrap.sh tets
refused "bootstrap: one mode at most; 'extra' is left over" -- scripts/bootstrap.sh run extra
refused "fuzz.sh: no fuzz target 'tupel' (targets: tuple history scenario merge seeds checkpoint log fdb_c_api)" \
  -- scripts/fuzz.sh tuple tupel
refused "fuzz.sh: RUNS must be a positive number, not 'abc'" RUNS=abc -- scripts/fuzz.sh tuple
refused "fuzz.sh: RUNS must be a positive number, not '0'" RUNS=0 -- scripts/fuzz.sh tuple
refused "fuzz.sh: SEED must be a number, not '-1'" SEED=-1 -- scripts/fuzz.sh tuple

rm -rf "$work"
echo "$failures failure(s)"
[ $failures -eq 0 ]
