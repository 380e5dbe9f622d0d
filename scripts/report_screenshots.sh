#!/usr/bin/env bash
# Regenerates the HTML report screenshots the tutorial and docs/report.md show (docs/images/
# report-*.png) with headless Chromium. Usage: bash scripts/report_screenshots.sh [build dir]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
contend=${1:-$root/build}/contend
out=$root/docs/images
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

shot() {  # shot NAME REPORT HASH [HEIGHT]
  local profile
  profile=$(mktemp -d "$work/profile.XXXX")
  timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --user-data-dir="$profile" \
    --hide-scrollbars --window-size=1400,"${4:-980}" --screenshot="$out/report-$1.png" \
    "file://$2#$3" >/dev/null 2>&1
  echo "wrote $out/report-$1.png"
}

"$contend" run "$root/scenarios/first-cut-queue.toml" --seed 1 --report html="$work/first-cut.html" >/dev/null
shot first-cut "$work/first-cut.html" "story=counterexample"
"$contend" run "$root/scenarios/snapshot-dequeue-queue.toml" --seeds 1..3 \
  --report html="$work/snapshot-dequeue.html" >/dev/null
shot snapshot-dequeue "$work/snapshot-dequeue.html" "story=counterexample"
"$contend" run "$root/scenarios/strict-queue.toml" --seed 1 --report html="$work/strict.html" >/dev/null
shot strict-queue "$work/strict.html" "story=run&at=first-conflict&zoom=0.15&pan=-0.1" 1100
"$contend" run "$root/scenarios/queue.toml" --seed 4 --report html="$work/queue.html" >/dev/null
shot queue-conflict "$work/queue.html" "story=run&at=first-conflict&zoom=0.12&pan=-0.15" 1150
"$contend" run "$root/scenarios/queue-unknown-result.toml" --seed 1 \
  --report html="$work/unknown-result.html" >/dev/null
shot unknown-result "$work/unknown-result.html" "story=counterexample"
"$contend" run "$root/scenarios/priority-queue-ties.toml" --seed 28 --no-shrink \
  --report html="$work/pq-ties.html" >/dev/null
shot pq-ties "$work/pq-ties.html" "story=run&at=100&zoom=0.5" 1100
"$contend" run "$root/scenarios/checked-dequeue-queue.toml" --seed 2822 \
  --report html="$work/checked-dequeue.html" >/dev/null
shot checked-dequeue "$work/checked-dequeue.html" "story=counterexample"
"$contend" run "$root/scenarios/hc-priority-queue-as-priority.toml" --seed 2 \
  --report html="$work/hc-pq-layer.html" >/dev/null
shot hc-pq-layer "$work/hc-pq-layer.html" "story=counterexample"
"$contend" run "$root/scenarios/hc-priority-queue-ordered.toml" --seed 2 \
  --report html="$work/hc-pq-ordered.html" >/dev/null
shot hc-pq-ordered "$work/hc-pq-ordered.html" "story=run&at=first-conflict&zoom=0.15&pan=-0.1" 1100
(cd "$root" && "$contend" check docs/examples/histories/order-inversion.jsonl \
  --report html="$work/check.html" >/dev/null 2>&1) || true
shot check "$work/check.html" "" 720
