#!/usr/bin/env bash
# How often does a seed reproduce? Runs driver.js RUNS times under contend's deterministic mode
# with the same seeds and counts the runs whose transaction log is byte for byte the first one's.
#   LD_LIBRARY_PATH=<contend>/lib bash reproduce.sh [RUNS] [CLIENTS] [OPS]
# Needs `npm install` here first (package.json). Writes only under a temporary directory.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
runs=${1:-100}
clients=${2:-8}
ops=${3:-20}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'seed = 7\ndeterministic = true\n[faults]\nnot_committed = 0.05\nunknown_result_applied = 0.05\n' \
  > "$work/config.toml"
same=0
first=""
for i in $(seq 1 "$runs"); do
  CONTEND_FDB_CONFIG="$work/config.toml" CONTEND_FDB_LOG="$work/log.jsonl" \
    node "$here/driver.js" --clients "$clients" --ops "$ops" --seed 1 --out "$work/history.jsonl" \
    > /dev/null
  digest=$(sha256sum "$work/log.jsonl" | cut -d' ' -f1)
  [ -z "$first" ] && first=$digest
  [ "$digest" = "$first" ] && same=$((same + 1))
done
echo "reproduce: the same transaction log in $same of $runs runs" \
  "($clients clients x $ops operations, seed 1, deterministic seed 7; $(wc -l < "$work/log.jsonl") commit attempts)"
