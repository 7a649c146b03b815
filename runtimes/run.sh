#!/usr/bin/env bash
# The runtime suite (runtimes/suite.mjs) on every runtime the package claims: Node 20 (this machine's
# node), Node 22, Bun and Deno (from npm, pinned, installed under runtimes/.tools), and headless
# Chromium (Debian's /usr/bin/chromium: `apt-get install -y chromium`; .ci/run installs it). A runtime
# that is missing or unusable FAILS the run; nothing is skipped. Prints each runtime's counts, then
# the total as "N passed, N failed"; exits non-zero on any failure.
#
#   bash runtimes/run.sh                (npm run test:runtimes)
#
# Environment:
#   RUNTIMES_SKIP_BUILD=1   do not run `vite build` first (dist/ must be current)
#   RUNTIMES_ONLY="bun deno" run only these (node20 node22 bun deno chromium)
#   CHROMIUM=/path          another Chromium binary
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$ROOT/runtimes/.tools"
LOGS="$ROOT/runtimes/.out/logs"
NODE22_VERSION="22.23.3"
BUN_VERSION="1.4.5"
DENO_VERSION="2.9.6"
NODE22="$TOOLS/node_modules/node/bin/node"
BUN="$TOOLS/node_modules/.bin/bun"
DENO="$TOOLS/node_modules/.bin/deno"
CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
RUN_TIMEOUT_S=300   # one runtime's whole suite (each test has its own 15 s limit inside)
cd "$ROOT"
mkdir -p "$LOGS"

# ---- runtimes: Node 22, Bun and Deno from npm, pinned ---------------------------------------------
tools_ready() {
  [[ "$("$NODE22" --version 2>/dev/null)" == "v$NODE22_VERSION" ]] || return 1
  [[ "$("$BUN" --version 2>/dev/null)" == "$BUN_VERSION" ]] || return 1
  [[ "$("$DENO" --version 2>/dev/null | head -n 1)" == "deno $DENO_VERSION "* ]]
}
if ! tools_ready; then
  echo "== installing node@$NODE22_VERSION, bun@$BUN_VERSION and deno@$DENO_VERSION into runtimes/.tools"
  mkdir -p "$TOOLS"
  [[ -f "$TOOLS/package.json" ]] || printf '{ "name": "suaveplan-runtime-tools", "private": true }\n' > "$TOOLS/package.json"
  npm install --prefix "$TOOLS" --no-audit --no-fund --save-exact "node@$NODE22_VERSION" "bun@$BUN_VERSION" "deno@$DENO_VERSION"
  tools_ready || { echo "runtimes/.tools is not usable after npm install (node: $("$NODE22" --version 2>&1 || true); bun: $("$BUN" --version 2>&1 || true); deno: $("$DENO" --version 2>&1 | head -n 1 || true))" >&2; exit 1; }
fi

# ---- build ------------------------------------------------------------------------------------------
if [[ "${RUNTIMES_SKIP_BUILD:-}" != "1" ]]; then
  echo "== building the package (npx vite build)"
  if ! npx vite build > "$LOGS/build.log" 2>&1; then
    tail -n 40 "$LOGS/build.log" >&2
    echo "build failed (log: $LOGS/build.log)" >&2
    exit 1
  fi
fi

# ---- each runtime -----------------------------------------------------------------------------------
declare -A COMMANDS=(
  [node20]="node runtimes/cli.mjs"
  [node22]="$NODE22 runtimes/cli.mjs"
  [bun]="$BUN --tsconfig-override=runtimes/bun.tsconfig.json runtimes/cli.mjs"
  [deno]="$DENO run --allow-net=127.0.0.1 --allow-read=$ROOT --allow-env runtimes/cli.mjs"
  [chromium]="node runtimes/browser.mjs"
)
ORDER=(${RUNTIMES_ONLY:-node20 node22 bun deno chromium})

preflight() {
  case "$1" in
    node20) [[ "$(node --version)" == v20.* ]] || { echo "node20: this machine's node is $(node --version), not Node 20"; return 1; } ;;
    chromium) [[ -x "$CHROMIUM" ]] || { echo "chromium: $CHROMIUM is missing (apt-get update && apt-get install -y chromium)"; return 1; } ;;
  esac
}

total_passed=0
total_failed=0
summary=()
for name in "${ORDER[@]}"; do
  [[ -n "${COMMANDS[$name]:-}" ]] || { echo "unknown runtime $name" >&2; exit 2; }
  echo "== $name: ${COMMANDS[$name]}"
  log="$LOGS/$name.log"
  rc=0
  if preflight "$name" > "$log" 2>&1; then
    # shellcheck disable=SC2086
    CHROMIUM="$CHROMIUM" timeout "$RUN_TIMEOUT_S" ${COMMANDS[$name]} >> "$log" 2>&1 || rc=$?
  else
    rc=1
  fi
  sed 's/^/   /' "$log"
  counts="$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1 || true)"
  assertions="$(grep -oE '[0-9]+ assertions in [0-9]+ tests' "$log" | tail -n 1 || true)"
  if [[ $rc -eq 124 ]]; then echo "   $name timed out after ${RUN_TIMEOUT_S}s"; fi
  if [[ -z "$counts" ]]; then counts="0 passed, 1 failed"; fi
  passed="${counts%% passed*}"
  failed="${counts#*, }"; failed="${failed%% failed*}"
  if [[ $rc -ne 0 && $failed -eq 0 ]]; then failed=1; fi
  total_passed=$((total_passed + passed))
  total_failed=$((total_failed + failed))
  summary+=("$(printf '%-9s %3d passed, %d failed  (%s; exit %d)' "$name" "$passed" "$failed" "${assertions:-no assertions}" "$rc")")
done

echo "== runtime suite"
printf '   %s\n' "${summary[@]}"
echo "runtimes: ${total_passed} passed, ${total_failed} failed"
[[ $total_failed -eq 0 ]]
