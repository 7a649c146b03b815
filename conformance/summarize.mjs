// Summarises the checks.json files the conformance CLI writes with `-o <dir>`.
//
//   node conformance/summarize.mjs server <results-dir>
//   node conformance/summarize.mjs client <results-dir> <verdicts-file>
//
// server: one line per scenario (the suite fails a server scenario on any FAILURE check).
// client: one line per scenario; the verdict comes from the CLI's exit status, written by run.sh
// as "<scenario> <rc>" lines (the suite also fails a client scenario on warnings, on a client that
// exited non-zero and on a timeout, which checks.json alone does not show).
// Prints the counts; exit status 1 when any scenario failed.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const [mode, dir, verdictsFile] = process.argv.slice(2);

function checksFiles(root) {
  const found = [];
  const walk = (path) => {
    for (const name of readdirSync(path)) {
      const child = join(path, name);
      if (statSync(child).isDirectory()) walk(child);
      else if (name === "checks.json") found.push(child);
    }
  };
  walk(root);
  return found;
}

/** `<prefix><scenario>-<ISO timestamp with : and . as ->` → scenario. */
function scenarioOf(file, prefix) {
  const folder = relative(dir, join(file, ".."));
  return folder.replace(/-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/, "").replace(prefix, "");
}

function count(checks) {
  const of = (status) => checks.filter((check) => check.status === status).length;
  return { passed: of("SUCCESS"), failed: of("FAILURE"), warnings: of("WARNING") };
}

const results = new Map();
for (const file of checksFiles(dir)) {
  const scenario = mode === "server" ? scenarioOf(file, /^server-/) : scenarioOf(file, /^[^/]+\//);
  results.set(scenario, { checks: JSON.parse(readFileSync(file, "utf8")), file, order: statSync(file).mtimeMs });
}

const verdicts = new Map();
if (mode === "client") {
  for (const line of readFileSync(verdictsFile, "utf8").split("\n").filter(Boolean)) {
    const [scenario, rc] = line.split(" ");
    verdicts.set(scenario, Number(rc));
  }
}

// Client scenarios in the order run.sh ran them; server scenarios in the order the suite ran them.
const names =
  mode === "client" ? [...verdicts.keys()] : [...results.keys()].toSorted((a, b) => results.get(a).order - results.get(b).order);
let scenariosPassed = 0;
let scenariosFailed = 0;
const totals = { passed: 0, failed: 0, warnings: 0 };
for (const name of names) {
  const result = results.get(name);
  const counts = result ? count(result.checks) : { passed: 0, failed: 0, warnings: 0 };
  for (const key of Object.keys(totals)) totals[key] += counts[key];
  const ok = mode === "client" ? verdicts.get(name) === 0 : result !== undefined && counts.failed === 0;
  if (ok) scenariosPassed++;
  else scenariosFailed++;
  const note = !result
    ? " (no checks.json)"
    : mode === "client" && !ok && counts.failed === 0
      ? ` (suite exit ${verdicts.get(name)}: warnings, client error or timeout — see its log)`
      : "";
  console.log(`  ${ok ? "PASS" : "FAIL"} ${name}: ${counts.passed} passed, ${counts.failed} failed, ${counts.warnings} warnings${note}`);
  if (result) {
    for (const check of result.checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING")) {
      console.log(`         ${check.status} ${check.id}: ${check.errorMessage ?? check.description}`);
    }
  }
}
console.log(
  `${mode}: ${scenariosPassed}/${names.length} scenarios passed, ${scenariosFailed} failed; ` +
    `checks: ${totals.passed} passed, ${totals.failed} failed, ${totals.warnings} warnings`,
);
process.exit(scenariosFailed > 0 ? 1 : 0);
