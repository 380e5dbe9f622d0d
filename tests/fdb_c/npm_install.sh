#!/usr/bin/env bash
# Installs what the npm-labelled tests use into WORK_DIR: FoundationDB's Node.js binding
# (foundationdb@2.0.1, whose prebuilt module loads libfdb_c.so) and mocha 10. Skipped (77) when
# node/npm are missing or the registry cannot be reached.
#   npm_install.sh WORK_DIR
set -euo pipefail
work=${1:?usage: npm_install.sh WORK_DIR}
if ! command -v node > /dev/null || ! command -v npm > /dev/null; then
  echo "npm_install: skipped: node and npm are needed"
  exit 77
fi
mkdir -p "$work"
cd "$work"
[ -f package.json ] || echo '{"name": "contend-npm-tests", "private": true}' > package.json
if [ -d node_modules/foundationdb ] && [ -x node_modules/.bin/mocha ]; then
  echo "npm_install: already installed in $work"
  exit 0
fi
if ! timeout 600 npm install --no-audit --no-fund --ignore-scripts foundationdb@2.0.1 mocha@10 \
    > npm-install.log 2>&1; then
  echo "npm_install: skipped: npm install failed: $(tail -3 npm-install.log)"
  exit 77
fi
echo "npm_install: foundationdb@2.0.1 and mocha@10 in $work"
