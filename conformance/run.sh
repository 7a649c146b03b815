#!/usr/bin/env bash
# Runs the official MCP conformance suite (@modelcontextprotocol/conformance) against @suaveplan/mcp:
#   1. 0.1.16, every server scenario (--suite all, pending ones included) against the fixture server;
#   2. 0.2.0-alpha.12, the 2026-07-28 requirement set (--requirements 2026-07-28: its scored scenarios,
#      plus the not-scored pending and tasks-* ones) against the SAME fixture server process;
#   3. 0.1.16, every client scenario with the fixture client, auth/* included (the extension scenario
#      not built is listed as not played: CLIENT_NOT_BUILT below);
#   1b, 2b. the same two server runs (server-cluster, server-2026-cluster) against conformance/cluster.mjs:
#      three fixture server processes sharing sessions and stores on a redis-server of their own, behind
#      the cluster suite's proxy alternating them per request (issue 22);
#   4. 0.2.0-alpha.12, the 2026-07-28 client requirement set (--requirements 2026-07-28: 32 scored
#      scenarios and 7 not scored, all at once) with the same fixture client.
# Prints pass/fail counts per run and exits non-zero on any failure: for run 2, a FAILURE in a scored
# scenario or in one of the three pending ones (json-schema-2020-12, http-header-validation,
# http-custom-header-server-validation); the tasks-* extension scenarios are reported only. For run 4,
# a scored scenario (auth/* included) or the not-scored json-schema-2020-12-preservation that did not
# pass as the suite's single-scenario mode would pass it; the not-scored auth/* extensions must pass too.
#
#   bash conformance/run.sh            (npm run conformance)
#
# Environment:
#   CONFORMANCE_RUNS="..."        which runs, space-separated, of: server (1), server-2026 (2), server-cluster
#                                 (1b), server-2026-cluster (2b), client (3), client-2026 (4); default all six
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
# The 2026-07-28 suite has its own prefix (one npm project cannot hold two versions of one package); it runs on the same Node 22.
TOOLS_2026="$CONF/.tools-2026"
SUITE_2026_VERSION="0.2.0-alpha.12"
SUITE_2026_PACKAGE="$TOOLS_2026/node_modules/@modelcontextprotocol/conformance"
CLI_2026="$SUITE_2026_PACKAGE/dist/index.js"
REQUIREMENTS_2026="$SUITE_2026_PACKAGE/requirements/2026-07-28.yaml"
RESULTS="${CONFORMANCE_RESULTS:-$CONF/.results/$(date -u +%Y%m%dT%H%M%SZ)}"
RUNS=" ${CONFORMANCE_RUNS:-server server-2026 server-cluster server-2026-cluster client client-2026} "
SERVER_SUITE_TIMEOUT_S=900   # the whole server suite (32 scenarios, each a few seconds at most)
SERVER_2026_SCENARIO_TIMEOUT_MS=30000 # one 2026 scenario (the CLI's --timeout: a hung one becomes a scenario-timeout FAILURE)
SERVER_2026_SUITE_TIMEOUT_S=1200      # the whole 2026 run (50 scenarios, each a few seconds at most)
CLIENT_SCENARIO_TIMEOUT_S=90 # one client scenario; the suite itself kills the client after 30 s
CLIENT_2026_SUITE_TIMEOUT_S=300 # the whole 2026 client run (39 scenarios at once, each client killed after 30 s)
SERVER_START_TIMEOUT_S=20
# Client extension scenarios of 0.1.16 the fixture client does not play (listed as not played): none today.
CLIENT_NOT_BUILT=""

runs() { [[ "$RUNS" == *" $1 "* ]]; }
for run in $RUNS; do
  case "$run" in server | server-2026 | server-cluster | server-2026-cluster | client | client-2026) ;; *) echo "CONFORMANCE_RUNS: unknown run '$run' (server, server-2026, server-cluster, server-2026-cluster, client, client-2026)" >&2; exit 2 ;; esac
done
RUNS_LABEL="$(echo $RUNS)"

cd "$ROOT"
mkdir -p "$RESULTS"

# ---- tools: Node 22 (the CLI needs it) and the suite, under conformance/.tools ----------------------
suite_version() { "$NODE22" -p "require('$1/node_modules/@modelcontextprotocol/conformance/package.json').version" 2>/dev/null; }
tools_ready() {
  [[ -x "$NODE22" && -f "$CLI" ]] || return 1
  [[ "$("$NODE22" --version 2>/dev/null)" == v22.* ]] || return 1
  [[ "$(suite_version "$TOOLS")" == "$SUITE_VERSION" ]]
}
tools_2026_ready() { [[ -f "$CLI_2026" && -f "$REQUIREMENTS_2026" && "$(suite_version "$TOOLS_2026")" == "$SUITE_2026_VERSION" ]]; }
if ! tools_ready; then
  echo "== installing node@22 and @modelcontextprotocol/conformance@$SUITE_VERSION into conformance/.tools"
  mkdir -p "$TOOLS"
  [[ -f "$TOOLS/package.json" ]] || printf '{ "name": "suaveplan-conformance-tools", "private": true }\n' > "$TOOLS/package.json"
  npm install --prefix "$TOOLS" --no-audit --no-fund --save-exact "node@22" "@modelcontextprotocol/conformance@$SUITE_VERSION"
  tools_ready || { echo "conformance/.tools is not usable after npm install (is node@22's install script allowed to run?)" >&2; exit 1; }
fi
runs_2026() { runs server-2026 || runs server-2026-cluster || runs client-2026; }
if runs_2026 && ! tools_2026_ready; then
  echo "== installing @modelcontextprotocol/conformance@$SUITE_2026_VERSION into conformance/.tools-2026"
  mkdir -p "$TOOLS_2026"
  [[ -f "$TOOLS_2026/package.json" ]] || printf '{ "name": "suaveplan-conformance-tools-2026", "private": true }\n' > "$TOOLS_2026/package.json"
  npm install --prefix "$TOOLS_2026" --no-audit --no-fund --save-exact "@modelcontextprotocol/conformance@$SUITE_2026_VERSION"
  tools_2026_ready || { echo "conformance/.tools-2026 is not usable after npm install" >&2; exit 1; }
fi
echo "== tools: node $("$NODE22" --version), @modelcontextprotocol/conformance $SUITE_VERSION$(runs_2026 && echo " and $SUITE_2026_VERSION")"

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

# The server runs, against one fixture: `server.mjs` (one process), or `cluster.mjs` (three processes
# sharing everything on Redis behind a proxy that alternates them per request) for the -cluster runs.
# One fixture serves both of its runs (each request is served in its own era).
server_failed=""
start_fixture() { # <script> <log name>
  echo "== starting the fixture ($1, 127.0.0.1, a free port)"
  PORT=0 node "$CONF/$1" > "$RESULTS/$2.stdout.log" 2> "$RESULTS/$2.log" &
  SERVER_PID=$!
  URL=""
  for _ in $(seq 1 $((SERVER_START_TIMEOUT_S * 10))); do
    URL="$(grep -oE 'listening on http://127\.0\.0\.1:[0-9]+/mcp' "$RESULTS/$2.log" | head -n 1 | sed 's/^listening on //' || true)"
    [[ -n "$URL" ]] && break
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.1
  done
  if [[ -z "$URL" ]]; then
    cat "$RESULTS/$2.log" >&2
    echo "the fixture ($1) did not print its URL within ${SERVER_START_TIMEOUT_S}s" >&2
    exit 1
  fi
  echo "   $URL"
}

# 0.1.16 (2025 sessions), every server scenario.
server_suite() { # <run name> <log name>
  local rc=0 summary_rc=0
  echo "== $1: --suite all against $URL (log: $RESULTS/$1-suite.log)"
  timeout "$SERVER_SUITE_TIMEOUT_S" "$NODE22" --import "$CONF/loopback.mjs" "$CLI" server --url "$URL" --suite all -o "$RESULTS/$1" \
    > "$RESULTS/$1-suite.log" 2>&1 || rc=$?
  if [[ $rc -eq 124 ]]; then echo "   the server suite timed out after ${SERVER_SUITE_TIMEOUT_S}s"; fi
  kill -0 "$SERVER_PID" 2>/dev/null || echo "   the fixture is gone (log: $RESULTS/$2.log)"
  mkdir -p "$RESULTS/$1"
  node "$CONF/summarize.mjs" server "$RESULTS/$1" | tee "$RESULTS/$1-summary.txt" || summary_rc=$?
  [[ $rc -eq 0 && $summary_rc -eq 0 ]] || server_failed+=" $1 (suite exit $rc, summary exit $summary_rc)"
}

# 0.2.0-alpha.12 at 2026-07-28 (stateless).
server_2026_suite() { # <run name> <log name>
  local rc=0 summary_rc=0
  echo "== $1: --requirements 2026-07-28 ($SUITE_2026_VERSION) against $URL (log: $RESULTS/$1-suite.log)"
  timeout "$SERVER_2026_SUITE_TIMEOUT_S" "$NODE22" --import "$CONF/loopback.mjs" "$CLI_2026" server --url "$URL" --requirements 2026-07-28 \
    --timeout "$SERVER_2026_SCENARIO_TIMEOUT_MS" -o "$RESULTS/$1" > "$RESULTS/$1-suite.log" 2>&1 || rc=$?
  if [[ $rc -eq 124 ]]; then echo "   the 2026 server run timed out after ${SERVER_2026_SUITE_TIMEOUT_S}s"; fi
  kill -0 "$SERVER_PID" 2>/dev/null || echo "   the fixture is gone (log: $RESULTS/$2.log)"
  mkdir -p "$RESULTS/$1"
  node "$CONF/summarize-2026.mjs" "$RESULTS/$1" "$REQUIREMENTS_2026" | tee "$RESULTS/$1-summary.txt" || summary_rc=$?
  [[ $rc -eq 0 && $summary_rc -eq 0 ]] || server_failed+=" $1 (run exit $rc, summary exit $summary_rc)"
}

for fixture in "server.mjs:" "cluster.mjs:-cluster"; do
  script="${fixture%%:*}"
  suffix="${fixture#*:}"
  log_name="${script%.mjs}"
  if runs "server$suffix" || runs "server-2026$suffix"; then
    start_fixture "$script" "$log_name"
    if runs "server$suffix"; then server_suite "server$suffix" "$log_name"; fi
    if runs "server-2026$suffix"; then server_2026_suite "server-2026$suffix" "$log_name"; fi
    stop_server
  fi
done

# ---- client scenarios, 0.1.16 ----------------------------------------------------------------------
client_summary_rc=0
if runs client; then
  mapfile -t CLIENT_SCENARIOS < <(suite list --client | sed -nE 's/^  - ([^ ]+).*/\1/p')
  if [[ ${#CLIENT_SCENARIOS[@]} -eq 0 ]]; then echo "could not list the suite's client scenarios" >&2; exit 1; fi
  echo "== client scenarios (${#CLIENT_SCENARIOS[@]} in the suite), --command \"node conformance/client.mjs\""
  : > "$RESULTS/client-verdicts.txt"
  skipped=()
  for scenario in "${CLIENT_SCENARIOS[@]}"; do
    if [[ " $CLIENT_NOT_BUILT " == *" $scenario "* ]]; then
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
  node "$CONF/summarize.mjs" client "$RESULTS/client" "$RESULTS/client-verdicts.txt" | tee "$RESULTS/client-summary.txt" || client_summary_rc=$?
  if [[ ${#skipped[@]} -gt 0 ]]; then
    echo "client: ${#skipped[@]} extension scenarios not played (not built): ${skipped[*]}"
  fi
fi

# ---- client scenarios, 0.2.0-alpha.12 at 2026-07-28 (stateless) ------------------------------------
client_2026_timed_out=0
client_2026_summary_rc=0
if runs client-2026; then
  echo "== client scenarios: --requirements 2026-07-28 ($SUITE_2026_VERSION), --command \"node conformance/client.mjs\" (log: $RESULTS/client-2026-suite.log)"
  # The summary judges each group against the requirement file; the CLI's exit status is only shown.
  rc=0
  timeout "$CLIENT_2026_SUITE_TIMEOUT_S" "$NODE22" --import "$CONF/loopback.mjs" "$CLI_2026" client --command "node conformance/client.mjs" \
    --requirements 2026-07-28 --timeout 30000 -o "$RESULTS/client-2026" > "$RESULTS/client-2026-suite.log" 2>&1 || rc=$?
  if [[ $rc -eq 124 ]]; then client_2026_timed_out=1; echo "   the 2026 client run timed out after ${CLIENT_2026_SUITE_TIMEOUT_S}s"
  else echo "   the CLI exited $rc (the summary below judges)"; fi
  mkdir -p "$RESULTS/client-2026"
  node "$CONF/summarize-client-2026.mjs" "$RESULTS/client-2026" "$REQUIREMENTS_2026" --require-auth | tee "$RESULTS/client-2026-summary.txt" || client_2026_summary_rc=$?
fi

# ---- verdict --------------------------------------------------------------------------------------
echo "== results in $RESULTS"
if [[ -n "$server_failed" || $client_summary_rc -ne 0 || $client_2026_timed_out -ne 0 || $client_2026_summary_rc -ne 0 ]]; then
  echo "CONFORMANCE: FAILED (runs: $RUNS_LABEL; failed server runs:${server_failed:- none}; client summary exit $client_summary_rc, 2026 client summary exit $client_2026_summary_rc)"
  exit 1
fi
echo "CONFORMANCE: PASSED (runs: $RUNS_LABEL)"
