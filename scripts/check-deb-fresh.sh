#!/usr/bin/env bash
# Installs contend's Debian package on a fresh Debian 12 the way a user does, and uses it there:
#   1. a pristine Debian 12 (debootstrap --variant=minbase bookworm, kept under the build
#      directory and copied afresh for every run);
#   2. `apt-get install ./contend_*.deb`: apt must find every runtime dependency the package
#      declares, and nothing else is installed first;
#   3. the installed `contend run` on an installed scenario;
#   4. docs/examples/my_recipe built against /usr with find_package(contend) and its tests run,
#      after `apt-get install cmake g++ make` (what a user adds to build their own tests).
# Usage: scripts/check-deb-fresh.sh BUILD_DIR
# Needs root (chroot, mounts) and Debian's mirror; exits 77 (skipped) when either is missing.
# Writes only under BUILD_DIR/consumers/fresh-debian.
set -euo pipefail
build=$(cd "${1:?usage: check-deb-fresh.sh BUILD_DIR}" && pwd)
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
work=$build/consumers/fresh-debian
pristine=$work/pristine
chroot_dir=$work/run
started=$SECONDS
fail() { echo "check-deb-fresh: FAILED: $*" >&2; exit 1; }
skip() { echo "check-deb-fresh: skipped: $*"; exit 77; }

[ "$(id -u)" = 0 ] || skip "needs root (chroot)"
command -v debootstrap > /dev/null || skip "debootstrap is not installed (apt-get install debootstrap)"
mkdir -p "$work"

# The package, as the package test builds it.
debs=("$build"/consumers/deb/contend_*.deb)
if [ ! -f "${debs[0]}" ]; then
  bash "$root/tests/consumers/deb.sh" "$build" > "$work/deb.log" 2>&1 ||
    fail "building the package: $(cat "$work/deb.log")"
  debs=("$build"/consumers/deb/contend_*.deb)
fi
deb=${debs[0]}

if [ ! -f "$pristine/.complete" ]; then
  rm -rf "$pristine"
  debootstrap --variant=minbase bookworm "$pristine" "$mirror" > "$work/debootstrap.log" 2>&1 ||
    skip "debootstrap could not reach $mirror: $(tail -3 "$work/debootstrap.log")"
  touch "$pristine/.complete"
fi

mounted=()
cleanup() {
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[$i]}" 2> /dev/null || true; done
}
trap cleanup EXIT
rm -rf "$chroot_dir"
cp -a "$pristine" "$chroot_dir"
for fs in proc dev; do
  mount --bind "/$fs" "$chroot_dir/$fs"
  mounted+=("$chroot_dir/$fs")
done
cp /etc/resolv.conf "$chroot_dir/etc/resolv.conf"
cp "$deb" "$chroot_dir/root/"
cp -r "$root/docs/examples/my_recipe" "$chroot_dir/root/my_recipe"
in_chroot() { chroot "$chroot_dir" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin \
  DEBIAN_FRONTEND=noninteractive bash -euo pipefail -c "$1"; }

in_chroot "apt-get update -qq" > "$work/apt-update.log" 2>&1 ||
  fail "apt-get update: $(tail -5 "$work/apt-update.log")"
in_chroot "cd /root && apt-get install -y -q ./$(basename "$deb")" > "$work/install.log" 2>&1 ||
  fail "apt-get install of the package: $(tail -20 "$work/install.log")"
in_chroot "contend run /usr/share/contend/scenarios/queue.toml --seeds 1..3" \
  > "$work/run.log" 2>&1 || fail "the installed contend run: $(cat "$work/run.log")"
in_chroot "apt-get install -y -q --no-install-recommends cmake g++ make" \
  > "$work/tools.log" 2>&1 || fail "installing cmake g++ make: $(tail -5 "$work/tools.log")"
in_chroot "cmake -S /root/my_recipe -B /root/build && cmake --build /root/build &&
           ctest --test-dir /root/build --output-on-failure" > "$work/example.log" 2>&1 ||
  fail "the example against /usr: $(tail -40 "$work/example.log")"
grep -q "100% tests passed" "$work/example.log" || fail "the example's tests: $(tail -20 "$work/example.log")"
grep -q "contend_DIR:PATH=/usr/lib/" "$chroot_dir/root/build/CMakeCache.txt" ||
  fail "find_package found contend outside /usr/lib: $(grep contend_DIR "$chroot_dir/root/build/CMakeCache.txt")"
echo "check-deb-fresh: ok in $((SECONDS - started)) s: $(basename "$deb") on a fresh Debian 12;" \
  "apt pulled $(grep -c '^Setting up' "$work/install.log") package(s)"
