// What the two 2026-07-28 summaries (summarize-2026.mjs for the server leg, summarize-client-2026.mjs
// for the client leg) share: the installed suite's requirement file, and the counting of checks.
import { readFileSync } from "node:fs";

/**
 * The scenarios of one leg (`server` or `client`) in a requirement file: the items of its `<leg>:`
 * list are scored; the `not_scored:` entries with `leg: <leg>` carry their reason. Reads only the
 * shape that file has (top-level keys, `- ` items, `key: value` lines), not YAML at large.
 */
export function requirementsOf(file, leg) {
  const scored = [];
  const notScored = [];
  let section;
  let entry;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (/^\S/.test(line) && !line.startsWith("#")) section = line.replace(/:.*$/, "");
    const item = /^ {2}- (?:scenario: )?(\S+)\s*$/.exec(line);
    if (section === leg && item) scored.push(item[1]);
    if (section !== "not_scored") continue;
    if (item) notScored.push((entry = { scenario: item[1] }));
    const field = /^ {4}(leg|reason): (\S+)\s*$/.exec(line);
    if (field && entry) entry[field[1]] = field[2];
  }
  return { scored, notScored: notScored.filter((e) => e.leg === leg) };
}

/** How many checks passed, failed, warned and were skipped. */
export function countChecks(checks = []) {
  const of = (status) => checks.filter((check) => check.status === status).length;
  return { passed: of("SUCCESS"), failed: of("FAILURE"), warnings: of("WARNING"), skipped: of("SKIPPED") };
}
