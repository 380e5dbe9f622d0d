#!/usr/bin/env bash
# Builds the Debian package from BUILD_DIR into BUILD_DIR/consumers/deb and checks what it declares
# and holds: runtime dependencies (shared libraries of the binary, -dev packages of the CMake
# package), the binary, the entry headers, the CMake package, and no test code.
#   deb.sh BUILD_DIR      (environment: CPACK_COMMAND)
set -euo pipefail
build=$1
cpack=${CPACK_COMMAND:-cpack}
work=$build/consumers/deb
rm -rf "$work"
mkdir -p "$work"
fail() { echo "deb.sh: FAILED: $*" >&2; exit 1; }
started=$SECONDS

"$cpack" -G DEB --config "$build/CPackConfig.cmake" -B "$work" > "$work/cpack.log" 2>&1 ||
  fail "cpack: $(cat "$work/cpack.log")"
debs=("$work"/contend_*.deb)
[ ${#debs[@]} = 1 ] && [ -f "${debs[0]}" ] || fail "expected one contend_*.deb in $work"
deb=${debs[0]}
info=$(dpkg-deb -I "$deb")
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
for want in libc6 libstdc++6 libfmt9 libtomlplusplus3 libfmt-dev nlohmann-json3-dev \
            libtomlplusplus-dev libgtest-dev; do
  sed 's/ *([^)]*)//g; s/, */\n/g' <<< "$depends" | grep -qxF -- "$want" ||
    fail "Depends lacks $want: $depends"
done
grep -q "^ Package: contend$" <<< "$info" || fail "not package contend: $info"
files=$(dpkg-deb -c "$deb" | awk '{print $6}')
for f in ./usr/bin/contend ./usr/include/contend/testing.h ./usr/include/contend/recipe.h \
         ./usr/share/contend/scenarios/queue.toml; do
  grep -qx -- "$f" <<< "$files" || fail "the package lacks $f"
done
grep -q '^\./usr/lib/.*cmake/contend/contendConfig\.cmake$' <<< "$files" || fail "no contendConfig.cmake"
grep -q '^\./usr/lib/.*libcontend_testing\.a$' <<< "$files" || fail "no libcontend_testing.a"
# (The documentation under /usr/share/doc carries the example's test source; nothing else may.)
! grep -v '^\./usr/share/doc/' <<< "$files" | grep -q '_test\.\|_test$\|/tests/\|_bench' ||
  fail "test or bench files in the package"
echo "deb.sh: ok in $((SECONDS - started)) s: $(basename "$deb"), $(wc -l <<< "$files") entries"
