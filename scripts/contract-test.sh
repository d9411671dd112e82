#!/usr/bin/env bash
# Contract tests of the OpenAPI document with two client generators, as a club website would
# use them (docs/api-guide.md#for-generated-clients):
#  (a) openapi-typescript generates types from openapi/openapi.json and tsc --strict
#      type-checks the example page tests/contract/ts/evening-page.ts against them;
#  (b) openapi-python-client generates a Python client, and tests/contract/py/walk.py walks
#      the demo club with it on a running service (SQLite): login, seasons, competitions,
#      standings, rounds, a result.
# Both generators must finish without a warning about the document, and each must make every
# operation: a type per operation id (TypeScript) and a module per operation id (Python). The tools are pinned
# (tests/contract/ts/package-lock.json, tests/contract/py/requirements.txt) and installed
# under target/contract from the npm registry and PyPI.
# Usage: scripts/contract-test.sh [BINARY]   (default: target/debug/clubcomp)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/debug/clubcomp}
port=${CONTRACT_PORT:-18091}
out=${CONTRACT_DIR:-target/contract}
mkdir -p "$out"
out=$(cd "$out" && pwd)

fail_on_warnings() { # NAME LOG
  if grep -qiE 'warn|error|unsupported|skipp' "$2"; then
    echo "$1 warned about the document:"; cat "$2"; exit 1
  fi
}

echo "== (a) openapi-typescript and tsc --strict"
ts="$out/ts"
mkdir -p "$ts"
cp tests/contract/ts/package.json tests/contract/ts/package-lock.json "$ts/"
if ! cmp -s tests/contract/ts/package-lock.json "$ts/.installed-lock" 2>/dev/null; then
  (cd "$ts" && npm ci --no-audit --no-fund --loglevel=error)
  cp tests/contract/ts/package-lock.json "$ts/.installed-lock"
fi
cp tests/contract/ts/evening-page.ts tests/contract/ts/tsconfig.json "$ts/"
mkdir -p "$ts/generated"
"$ts/node_modules/.bin/openapi-typescript" openapi/openapi.json -o "$ts/generated/api.d.ts" \
  > "$ts/generate.log" 2>&1 || { cat "$ts/generate.log"; exit 1; }
fail_on_warnings openapi-typescript "$ts/generate.log"
python3 tests/contract/operations.py openapi/openapi.json typescript "$ts/generated/api.d.ts"
(cd "$ts" && node_modules/.bin/tsc -p tsconfig.json)
echo "evening-page.ts type-checks against the generated types"

echo "== (b) openapi-python-client and the demo club"
venv="$out/py-venv"
if ! cmp -s tests/contract/py/requirements.txt "$venv/.installed" 2>/dev/null; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet -r tests/contract/py/requirements.txt
  cp tests/contract/py/requirements.txt "$venv/.installed"
fi
gen="$out/py-client"
rm -rf "$gen"
mkdir -p "$gen"
"$venv/bin/openapi-python-client" generate --path openapi/openapi.json \
  --output-path "$gen/clubcomp_client" --meta none --config tests/contract/py/config.yml \
  > "$out/py-generate.log" 2>&1 || { cat "$out/py-generate.log"; exit 1; }
fail_on_warnings openapi-python-client "$out/py-generate.log"
python3 tests/contract/operations.py openapi/openapi.json python "$gen/clubcomp_client"

work=$(mktemp -d)
server_pid=""
trap 'kill "$server_pid" 2>/dev/null || true; rm -rf "$work"' EXIT
. scripts/demo-server.sh
DEMO_DATABASE_URL="" start_demo_server "$bin" "$port" "$work"
CLUBCOMP_URL="http://127.0.0.1:$port" PYTHONPATH="$gen" "$venv/bin/python" \
  tests/contract/py/walk.py
if grep -q "panicked" "$work/server.log"; then
  echo "server log shows a panic:"; grep -A3 panicked "$work/server.log"; exit 1
fi
echo "contract tests passed"
