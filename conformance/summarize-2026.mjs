// Summarises a `--requirements 2026-07-28` server run of @modelcontextprotocol/conformance 0.2.x
// (the checks.json files it writes with `-o <dir>`), against the requirement file of the installed suite.
//
//   node conformance/summarize-2026.mjs <results-dir> <requirements/2026-07-28.yaml>
//
// Four groups, from the requirement file:
//   scored     the `server:` list — what the suite's own exit code is about;
//   pending    `not_scored` server entries with reason `pending` — the suite reports them only, but here
//              they must pass too;
//   extension  `not_scored` entries of an extension this library implements: the ten tasks-* scenarios of
//              io.modelcontextprotocol/tasks (fixtures-tasks.mjs; tasks-status-notifications has one SKIPPED
//              check) — the suite scores none, but here they must pass too;
//   reported   any other `not_scored` server entry — listed with its failing checks, never failing the run.
// A scenario of the first three groups fails on any FAILURE check, and when it left no checks.json (it did
// not run, or threw outside its own checks: the suite's console log says which). WARNING, SKIPPED and
// INFO never fail. Exit status 1 when a scenario of the first three groups failed.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { countChecks, requirementsOf } from "./requirements-2026.mjs";

const [dir, requirementsFile] = process.argv.slice(2);
if (!dir || !requirementsFile) {
  console.error("usage: node conformance/summarize-2026.mjs <results-dir> <requirements.yaml>");
  process.exit(2);
}

/** scenario → { checks, order } for every `server-<scenario>-<timestamp>` folder (checks undefined when it holds no checks.json). */
function resultsOf(root) {
  const found = new Map();
  if (!existsSync(root)) return found;
  for (const name of readdirSync(root)) {
    const folder = join(root, name);
    const match = /^server-(.+)-(\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z)$/.exec(name);
    if (!match || !statSync(folder).isDirectory()) continue;
    const file = join(folder, "checks.json");
    const checks = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined;
    found.set(match[1], { checks, order: match[2] });
  }
  return found;
}

/** Prints one group; returns its scenario and check counts. */
function report(title, names, results, { details }) {
  console.log(`-- ${title}`);
  const totals = { scenarios: names.length, scenariosPassed: 0, passed: 0, failed: 0, warnings: 0 };
  for (const name of names) {
    const result = results.get(name);
    const counts = countChecks(result?.checks);
    for (const key of ["passed", "failed", "warnings"]) totals[key] += counts[key];
    const ok = result?.checks !== undefined && counts.failed === 0;
    if (ok) totals.scenariosPassed++;
    const note = !result
      ? " (did not run)"
      : result.checks === undefined
        ? " (no checks.json: it threw outside its checks, see the suite log)"
        : "";
    console.log(`  ${ok ? "PASS" : "FAIL"} ${name}: ${counts.passed} passed, ${counts.failed} failed, ${counts.warnings} warnings${note}`);
    if (!details) continue;
    for (const check of (result?.checks ?? []).filter((c) => c.status === "FAILURE" || c.status === "WARNING")) {
      // Messages can span lines (the wire-schema check quotes each offending message on its own line).
      const message = String(check.errorMessage ?? check.description).replaceAll("\n", "\n           ");
      console.log(`         ${check.status} ${check.id}: ${message}`);
    }
  }
  return totals;
}

const line = (label, t) => {
  const scenarios = `${t.scenariosPassed}/${t.scenarios} scenarios passed, ${t.scenarios - t.scenariosPassed} failed`;
  return `${label}: ${scenarios}; checks: ${t.passed} SUCCESS, ${t.failed} FAILURE, ${t.warnings} WARNING`;
};

const { scored, notScored } = requirementsOf(requirementsFile, "server");
const results = resultsOf(dir);
/** The extensions this library implements: their scenarios are required here. */
const IMPLEMENTED = (e) => e.reason === "extension" && e.scenario.startsWith("tasks-");
const pending = notScored.filter((e) => e.reason === "pending").map((e) => e.scenario);
const extension = notScored.filter(IMPLEMENTED).map((e) => e.scenario);
const reported = notScored.filter((e) => e.reason !== "pending" && !IMPLEMENTED(e)).map((e) => e.scenario);
const known = new Set([...scored, ...pending, ...extension, ...reported]);
// A scenario the requirement file does not name would be a suite/requirements mismatch: held to the scored bar.
const unknown = [...results.keys()].filter((name) => !known.has(name));
const byRunOrder = (names) => names.toSorted((a, b) => (results.get(a)?.order ?? "~").localeCompare(results.get(b)?.order ?? "~"));

const scoredTotals = report("scored (the suite's verdict)", byRunOrder([...scored, ...unknown]), results, { details: true });
const pendingTotals = report("pending (not scored by the suite; required here)", byRunOrder(pending), results, { details: true });
const extensionTotals = report(
  "extension, not scored by the suite (io.modelcontextprotocol/tasks; required here)",
  byRunOrder(extension),
  results,
  { details: true },
);
const reportedTotals = report("not scored, reported only", byRunOrder(reported), results, { details: true });
console.log(line("server 2026-07-28 scored", scoredTotals));
console.log(line("server 2026-07-28 pending (required here)", pendingTotals));
console.log(line("server 2026-07-28 tasks extension (required here)", extensionTotals));
console.log(line("server 2026-07-28 not scored (ignored)", reportedTotals));
if (scored.length === 0) console.log(`no scored server scenarios found in ${requirementsFile}`);
const failed =
  scored.length === 0 || [scoredTotals, pendingTotals, extensionTotals].some((totals) => totals.scenariosPassed < totals.scenarios);
process.exit(failed ? 1 : 0);
