// `npm run test:mutation [-- module ...] [-- --write]`: Stryker over each core module in turn (all of
// them by default), each with its own incremental file so a re-run tests only the mutants of code or
// tests that changed since. Prints the score per module and fails below 85 %. With --write it also
// puts the table, and the mutants marked equivalent in the sources, into RELIABILITY.md.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { relative } from "node:path";
import { Stryker } from "@stryker-mutator/core";
import { MODULES } from "./modules.mjs";

const TARGET = 85;
const args = process.argv.slice(2);
const write = args.includes("--write");
const asked = args.filter((arg) => !arg.startsWith("--"));
const unknown = asked.filter((name) => !(name in MODULES));
if (unknown.length > 0) {
  console.error(`unknown module(s): ${unknown.join(", ")}; the modules are ${Object.keys(MODULES).join(", ")}`);
  process.exit(2);
}
if (write && asked.length > 0) {
  console.error("--write puts every module's score into RELIABILITY.md: run it without naming modules");
  process.exit(2);
}
const names = asked.length > 0 ? asked : Object.keys(MODULES);

// A few unit tests start the examples as child processes, and those import the built package.
if (!existsSync("dist/index.js")) execFileSync("npx", ["vite", "build", "--logLevel", "warn"], { stdio: "inherit" });

const rows = [];
for (const name of names) {
  const started = Date.now();
  const results = await new Stryker({
    mutate: MODULES[name].mutate,
    vitest: { configFile: MODULES[name].tests, related: true },
    incrementalFile: `mutation/incremental/${name}.json`,
    jsonReporter: { fileName: `mutation/.out/${name}.json` },
  }).runMutationTest();
  rows.push({ name, ...tally(results), seconds: Math.round((Date.now() - started) / 1000) });
}

/** Stryker's "total" score: killed and timed-out mutants over every mutant that was tested or had no test at all. */
function tally(results) {
  const count = (...statuses) => results.filter((result) => statuses.includes(result.status)).length;
  const detected = count("Killed", "Timeout");
  const undetected = count("Survived", "NoCoverage");
  const equivalent = results
    .filter((result) => result.status === "Ignored")
    .map(
      (result) =>
        `\`${relative(process.cwd(), result.fileName)}:${result.location.start.line}\` (${result.mutatorName}): ${result.statusReason}`,
    );
  return { detected, undetected, score: (100 * detected) / (detected + undetected), equivalent };
}

const table = [
  "| module | score | detected (killed or timed out) | survived or not covered | equivalent (marked in the source) | run |",
  "| --- | --- | --- | --- | --- | --- |",
  ...rows.map(
    (row) =>
      `| ${row.name} | ${row.score.toFixed(1)} % | ${row.detected} | ${row.undetected} | ${row.equivalent.length} | ${row.seconds} s |`,
  ),
].join("\n");
console.log(`\n${table}\n`);

if (write) {
  // One line per mark: a mark covers every mutant of its kind on its line (both twins of a condition, say).
  const marks = new Map();
  for (const line of rows.flatMap((row) => row.equivalent)) marks.set(line, (marks.get(line) ?? 0) + 1);
  const equivalents = [...marks].map(([line, mutants]) => `- ${line}${mutants > 1 ? ` (${mutants} mutants)` : ""}`);
  const block = [table, "", "Equivalent mutants (each marked where it is, with why no test can tell it apart):", "", ...equivalents].join(
    "\n",
  );
  const page = readFileSync("RELIABILITY.md", "utf8");
  const marked = /(<!-- mutation:start -->\n)[\s\S]*?(<!-- mutation:end -->)/;
  if (!marked.test(page)) throw new Error("RELIABILITY.md has no <!-- mutation:start --> … <!-- mutation:end --> block");
  writeFileSync(
    "RELIABILITY.md",
    page.replace(marked, (_, start, end) => `${start}${block}\n${end}`),
  );
}

const low = rows.filter((row) => row.score < TARGET);
if (low.length > 0) {
  console.error(`below ${TARGET} %: ${low.map((row) => `${row.name} ${row.score.toFixed(1)} %`).join(", ")}`);
  process.exit(1);
}
