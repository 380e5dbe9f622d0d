#!/usr/bin/env bash
# The FoundationDB Node.js binding's own test suite (npm foundationdb@2.0.1, dist/test/*.js, with
# mocha) run against contend's libfdb_c: the binding's prebuilt native module loads our
# libfdb_c.so from LD_LIBRARY_PATH, unmodified. Prints mocha's report and the pass counts; fails
# when any test fails. WORK_DIR holds what npm_install.sh installed; skipped (77) without it.
#   binding_suite.sh LIB_DIR WORK_DIR
set -euo pipefail
lib_dir=$(cd "${1:?usage: binding_suite.sh LIB_DIR WORK_DIR}" && pwd)
work=${2:?usage: binding_suite.sh LIB_DIR WORK_DIR}
if [ ! -d "$work/node_modules/foundationdb" ] || [ ! -x "$work/node_modules/.bin/mocha" ]; then
  echo "binding_suite: skipped: nothing installed in $work (npm_install.sh)"
  exit 77
fi
cd "$work"
cd node_modules/foundationdb
status=0
LD_LIBRARY_PATH="$lib_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" timeout 600 \
  ../.bin/mocha --reporter spec dist/test/*.js > "$work/mocha.log" 2>&1 || status=$?
cat "$work/mocha.log"
passing=$(grep -Eo '[0-9]+ passing' "$work/mocha.log" | grep -Eo '[0-9]+' || echo 0)
failing=$(grep -Eo '[0-9]+ failing' "$work/mocha.log" | grep -Eo '[0-9]+' || echo 0)
pending=$(grep -Eo '[0-9]+ pending' "$work/mocha.log" | grep -Eo '[0-9]+' || echo 0)
echo "binding_suite: foundationdb@2.0.1 on contend's libfdb_c: $passing passing, $failing failing," \
  "$pending pending (skipped by the suite itself); mocha exit $status"
[ "$status" -eq 0 ] && [ "$failing" -eq 0 ] && [ "$passing" -gt 0 ]
