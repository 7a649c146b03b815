// Summarises a `client --requirements 2026-07-28` run of @modelcontextprotocol/conformance 0.2.x (the
// folders it writes with `-o <dir>`: `<scenario>-<timestamp>/` and `auth/<name>-<timestamp>/`, each with
// checks.json and the client's stdout.txt / stderr.txt), against the requirement file of the installed suite.
//
//   node conformance/summarize-client-2026.mjs <results-dir> <requirements/2026-07-28.yaml> [--require-auth]
//
// Four groups, from the requirement file:
//   scored          the non-auth items of the `client:` list: required;
//   unscored        the non-auth `not_scored` client entries (added after the release): required here too;
//   auth            the auth/* items of `client:`: held to the bar with --require-auth (run.sh gives it),
//                   reported only without;
//   auth extensions the auth/* `not_scored` client entries (client credentials, enterprise-managed, DPoP,
//                   workload identity): held to the bar with --require-auth too, reported only without.
// A required scenario passes as the suite's single-scenario mode would have it pass, as far as its
// files show: checks.json is there with no FAILURE, no WARNING and no SKIPPED check other than those a
// 2026-07-28 client cannot exercise (below), and the client finished its steps (its stderr says so;
// the suite runs all scenarios at once and keeps no exit status). Exit status 1 when one failed.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { countChecks, requirementsOf } from "./requirements-2026.mjs";

const [dir, requirementsFile, flag] = process.argv.slice(2);
if (!dir || !requirementsFile || (flag !== undefined && flag !== "--require-auth")) {
  console.error("usage: node conformance/summarize-client-2026.mjs <results-dir> <requirements.yaml> [--require-auth]");
  process.exit(2);
}

/** SKIPPED rows a stateless-era client leaves: http-standard-headers judges the handshake's methods, which this era never sends. */
const EXPECTED_SKIPS = new Set(["ClientMcpMethodHeader_initialize", "ClientMcpMethodHeader_notifications_initialized"]);
/** What client.mjs writes to stderr: when a scenario's steps all ran, and when it does not play one. */
const finished = (name) => `scenario ${name}: done`;
const NOT_PLAYED = "is not played by this client";

/** scenario → { checks, stderr } for every `[auth/]<scenario>-<timestamp>` folder (checks undefined without checks.json). */
function resultsOf(root) {
  const found = new Map();
  const scan = (folder, prefix) => {
    if (!existsSync(folder)) return;
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      const match = /^(.+)-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/.exec(name);
      if (!match || !statSync(path).isDirectory()) continue;
      const read = (file) => (existsSync(join(path, file)) ? readFileSync(join(path, file), "utf8") : undefined);
      const checks = read("checks.json");
      found.set(prefix + match[1], { checks: checks === undefined ? undefined : JSON.parse(checks), stderr: read("stderr.txt") ?? "" });
    }
  };
  scan(root, "");
  scan(join(root, "auth"), "auth/");
  return found;
}

/** Why a required scenario fails (empty when it passes). */
function problemsOf(name, result, counts) {
  if (!result) return ["did not run"];
  if (result.checks === undefined) return ["no checks.json (it threw outside its checks: see the suite log)"];
  const problems = [];
  if (counts.failed > 0) problems.push(`${counts.failed} FAILURE`);
  if (counts.warnings > 0) problems.push(`${counts.warnings} WARNING`);
  const skipped = result.checks.filter((check) => check.status === "SKIPPED" && !EXPECTED_SKIPS.has(check.name));
  if (skipped.length > 0) problems.push(`not exercised: ${skipped.map((check) => check.name ?? check.id).join(", ")}`);
  if (!result.stderr.includes(finished(name))) problems.push("the client did not finish its steps (see its stderr.txt)");
  return problems;
}

/** Prints one group; returns its counts. `required`: held to the bar; otherwise reported (and "not played" when the client said so). */
function report(title, names, results, { required }) {
  console.log(`-- ${title}`);
  const totals = { scenarios: names.length, passed: 0, notPlayed: 0, checks: { passed: 0, failed: 0, warnings: 0, skipped: 0 } };
  for (const name of names) {
    const result = results.get(name);
    const counts = countChecks(result?.checks);
    for (const key of Object.keys(totals.checks)) totals.checks[key] += counts[key];
    const tally = `${counts.passed} passed, ${counts.failed} failed, ${counts.warnings} warnings, ${counts.skipped} skipped`;
    if (!required && result?.stderr.includes(NOT_PLAYED)) {
      totals.notPlayed++;
      console.log(`  NOT PLAYED ${name} (the suite still judged it: ${tally})`);
      continue;
    }
    const problems = problemsOf(name, result, counts);
    if (problems.length === 0) totals.passed++;
    const skips = (result?.checks ?? []).filter((check) => check.status === "SKIPPED").map((check) => check.name ?? check.id);
    console.log(
      `  ${problems.length === 0 ? "PASS" : "FAIL"} ${name}: ${tally}` +
        `${skips.length ? ` (skipped: ${skips.join(", ")})` : ""}${problems.length ? ` — ${problems.join("; ")}` : ""}`,
    );
    if (problems.length === 0 || !result?.checks) continue;
    for (const check of result.checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING")) {
      console.log(
        `         ${check.status} ${check.id}${check.name ? ` ${check.name}` : ""}: ` +
          String(check.errorMessage ?? check.description).replaceAll("\n", "\n           "),
      );
    }
  }
  return totals;
}

const isAuth = (name) => name.startsWith("auth/");
const requireAuth = flag === "--require-auth";
const { scored, notScored } = requirementsOf(requirementsFile, "client");
const results = resultsOf(dir);
const unscored = notScored.map((entry) => entry.scenario);
const known = new Set([...scored, ...unscored]);
// A scenario the requirement file does not name would be a suite/requirements mismatch: held to the scored bar.
const unknown = [...results.keys()].filter((name) => !known.has(name) && !isAuth(name));

const core = report("scored, non-auth (required)", [...scored.filter((name) => !isAuth(name)), ...unknown], results, { required: true });
const extra = report(
  "not scored, non-auth (required here)",
  unscored.filter((name) => !isAuth(name)),
  results,
  { required: true },
);
const auth = report(`scored auth/* (${requireAuth ? "required: --require-auth" : "reported only"})`, scored.filter(isAuth), results, {
  required: requireAuth,
});
const authExtensions = report(
  `not scored auth/* extensions (${requireAuth ? "required: --require-auth" : "reported only"})`,
  unscored.filter(isAuth),
  results,
  { required: requireAuth },
);

const checks = (t) => `${t.checks.passed} SUCCESS, ${t.checks.failed} FAILURE, ${t.checks.warnings} WARNING, ${t.checks.skipped} SKIPPED`;
const played = (t) =>
  t.notPlayed === t.scenarios ? `${t.scenarios} not played` : `${t.passed}/${t.scenarios} passed, ${t.notPlayed} not played (${checks(t)})`;
const extraNames = unscored.filter((name) => !isAuth(name)).join(", ");
console.log(`client 2026-07-28: ${core.passed}/${core.scenarios} scored non-auth scenarios passed (${checks(core)})`);
console.log(`client 2026-07-28 scored auth/*: ${played(auth)}`);
console.log(
  `client 2026-07-28 not scored: ${extra.passed}/${extra.scenarios} non-auth passed (${extraNames}: ${checks(extra)}); ` +
    `auth/* extensions: ${played(authExtensions)}`,
);
if (scored.length === 0) console.log(`no scored client scenarios found in ${requirementsFile}`);
const failed =
  scored.length === 0 ||
  core.passed < core.scenarios ||
  extra.passed < extra.scenarios ||
  (requireAuth && (auth.passed < auth.scenarios || authExtensions.passed < authExtensions.scenarios));
process.exit(failed ? 1 : 0);
