#!/usr/bin/env bash
# Runs the official MCP conformance suite (@modelcontextprotocol/conformance 0.1.16) against
# @suaveplan/mcp: every server scenario (--suite all, pending ones included) against the fixture
# server, then every client scenario with the fixture client. Prints pass/fail counts per side and
# exits non-zero on any failure.
#
#   bash conformance/run.sh            (npm run conformance)
#
# Environment:
#   CONFORMANCE_CLIENT_AUTH=1     also run the auth/* client scenarios (the fixture client does not play
#                                 them yet: a later issue; by default they are listed as skipped)
#   CONFORMANCE_SKIP_BUILD=1      do not run `npx vite build` first
#   CONFORMANCE_RESULTS=<dir>     where results go (default conformance/.results/<timestamp>)
#
# Everything listens on 127.0.0.1 only: the fixture server binds it, and the suite's mock servers
# (which would bind every interface) get it through conformance/loopback.mjs, preloaded into the CLI.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CONF="$ROOT/conformance"
TOOLS="$CONF/.tools"
SUITE_VERSION="0.1.16"
NODE22="$TOOLS/node_modules/node/bin/node"
CLI="$TOOLS/node_modules/@modelcontextprotocol/conformance/dist/index.js"
RESULTS="${CONFORMANCE_RESULTS:-$CONF/.results/$(date -u +%Y%m%dT%H%M%SZ)}"
SERVER_SUITE_TIMEOUT_S=900   # the whole server suite (32 scenarios, each a few seconds at most)
CLIENT_SCENARIO_TIMEOUT_S=90 # one client scenario; the suite itself kills the client after 30 s
SERVER_START_TIMEOUT_S=20

cd "$ROOT"
mkdir -p "$RESULTS"

# ---- tools: Node 22 (the CLI needs it) and the suite, under conformance/.tools ----------------------
tools_ready() {
  [[ -x "$NODE22" && -f "$CLI" ]] || return 1
  [[ "$("$NODE22" --version 2>/dev/null)" == v22.* ]] || return 1
  [[ "$("$NODE22" -p "require('$TOOLS/node_modules/@modelcontextprotocol/conformance/package.json').version" 2>/dev/null)" == "$SUITE_VERSION" ]]
}
if ! tools_ready; then
  echo "== installing node@22 and @modelcontextprotocol/conformance@$SUITE_VERSION into conformance/.tools"
  mkdir -p "$TOOLS"
  [[ -f "$TOOLS/package.json" ]] || printf '{ "name": "suaveplan-conformance-tools", "private": true }\n' > "$TOOLS/package.json"
  npm install --prefix "$TOOLS" --no-audit --no-fund --save-exact "node@22" "@modelcontextprotocol/conformance@$SUITE_VERSION"
  tools_ready || { echo "conformance/.tools is not usable after npm install (is node@22's install script allowed to run?)" >&2; exit 1; }
fi
echo "== tools: node $("$NODE22" --version), @modelcontextprotocol/conformance $SUITE_VERSION"

suite() { "$NODE22" --import "$CONF/loopback.mjs" "$CLI" "$@"; }

# ---- build ----------------------------------------------------------------------------------------
if [[ "${CONFORMANCE_SKIP_BUILD:-}" != "1" ]]; then
  echo "== building the package (npx vite build)"
  if ! npx vite build > "$RESULTS/build.log" 2>&1; then
    tail -n 40 "$RESULTS/build.log" >&2
    echo "build failed (log: $RESULTS/build.log)" >&2
    exit 1
  fi
fi

# ---- the fixture server ---------------------------------------------------------------------------
SERVER_PID=""
stop_server() {
  if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  SERVER_PID=""
}
trap stop_server EXIT
trap 'stop_server; exit 130' INT
trap 'stop_server; exit 143' TERM

echo "== starting the fixture server (127.0.0.1, a free port)"
PORT=0 node "$CONF/server.mjs" > "$RESULTS/server.stdout.log" 2> "$RESULTS/server.log" &
SERVER_PID=$!
URL=""
for _ in $(seq 1 $((SERVER_START_TIMEOUT_S * 10))); do
  URL="$(grep -oE 'http://127\.0\.0\.1:[0-9]+/mcp' "$RESULTS/server.log" | head -n 1 || true)"
  [[ -n "$URL" ]] && break
  kill -0 "$SERVER_PID" 2>/dev/null || break
  sleep 0.1
done
if [[ -z "$URL" ]]; then
  cat "$RESULTS/server.log" >&2
  echo "the fixture server did not print its URL within ${SERVER_START_TIMEOUT_S}s" >&2
  exit 1
fi
echo "   $URL"

# ---- server scenarios -----------------------------------------------------------------------------
echo "== server scenarios: --suite all against $URL (log: $RESULTS/server-suite.log)"
server_rc=0
timeout "$SERVER_SUITE_TIMEOUT_S" "$NODE22" --import "$CONF/loopback.mjs" "$CLI" server --url "$URL" --suite all -o "$RESULTS/server" \
  > "$RESULTS/server-suite.log" 2>&1 || server_rc=$?
if [[ $server_rc -eq 124 ]]; then echo "   the server suite timed out after ${SERVER_SUITE_TIMEOUT_S}s"; fi
kill -0 "$SERVER_PID" 2>/dev/null || echo "   the fixture server is gone (log: $RESULTS/server.log)"
mkdir -p "$RESULTS/server"
server_summary_rc=0
node "$CONF/summarize.mjs" server "$RESULTS/server" | tee "$RESULTS/server-summary.txt" || server_summary_rc=$?
stop_server

# ---- client scenarios -----------------------------------------------------------------------------
mapfile -t CLIENT_SCENARIOS < <(suite list --client | sed -nE 's/^  - ([^ ]+).*/\1/p')
if [[ ${#CLIENT_SCENARIOS[@]} -eq 0 ]]; then echo "could not list the suite's client scenarios" >&2; exit 1; fi
echo "== client scenarios (${#CLIENT_SCENARIOS[@]} in the suite), --command \"node conformance/client.mjs\""
: > "$RESULTS/client-verdicts.txt"
skipped=()
for scenario in "${CLIENT_SCENARIOS[@]}"; do
  if [[ "$scenario" == auth/* && "${CONFORMANCE_CLIENT_AUTH:-}" != "1" ]]; then
    skipped+=("$scenario")
    continue
  fi
  safe="${scenario//\//_}"
  rc=0
  timeout "$CLIENT_SCENARIO_TIMEOUT_S" "$NODE22" --import "$CONF/loopback.mjs" "$CLI" client \
    --command "node conformance/client.mjs" --scenario "$scenario" --timeout 30000 -o "$RESULTS/client/$safe" \
    > "$RESULTS/client-$safe.log" 2>&1 || rc=$?
  echo "$scenario $rc" >> "$RESULTS/client-verdicts.txt"
done
mkdir -p "$RESULTS/client"
client_summary_rc=0
node "$CONF/summarize.mjs" client "$RESULTS/client" "$RESULTS/client-verdicts.txt" | tee "$RESULTS/client-summary.txt" || client_summary_rc=$?
if [[ ${#skipped[@]} -gt 0 ]]; then
  echo "client: ${#skipped[@]} auth/* scenarios skipped (set CONFORMANCE_CLIENT_AUTH=1 to run them): ${skipped[*]}"
fi

# ---- verdict --------------------------------------------------------------------------------------
echo "== results in $RESULTS"
if [[ $server_rc -ne 0 || $server_summary_rc -ne 0 || $client_summary_rc -ne 0 ]]; then
  echo "CONFORMANCE: FAILED (server suite exit $server_rc)"
  exit 1
fi
echo "CONFORMANCE: PASSED"
