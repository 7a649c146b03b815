// publint and @arethetypeswrong/cli on the packed tarball (the one the global setup made with
// `npm pack`). attw runs with the esm-only profile: the package is ESM only on purpose, so the CJS
// resolutions (node10, node16-from-CJS) are not asked of it; every ESM and bundler resolution is.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PACK_INFO, ROOT, type PackInfo } from "./support/paths.js";

const { tarball } = JSON.parse(readFileSync(PACK_INFO, "utf8")) as PackInfo;
const bin = (name: string): string => join(ROOT, "node_modules", ".bin", name);
const run = (command: string, args: string[]): string =>
  execFileSync(command, args, { cwd: ROOT, encoding: "utf8", timeout: 120_000, env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" } });

describe("the packed tarball", () => {
  it("passes publint (strict: warnings count too)", () => {
    const output = run(bin("publint"), ["run", tarball, "--strict"]);
    console.log(output);
    expect(output).toContain("All good!");
  });

  it("passes @arethetypeswrong/cli on every entry (ESM and bundler resolutions)", () => {
    const output = run(bin("attw"), [tarball, "--profile", "esm-only", "--format", "table-flipped", "--no-emoji"]);
    console.log(output);
    const json = JSON.parse(run(bin("attw"), [tarball, "--profile", "esm-only", "--format", "json"])) as {
      analysis: { problems: unknown[]; entrypoints: Record<string, unknown> };
    };
    expect(Object.keys(json.analysis.entrypoints).toSorted()).toEqual([
      ".",
      "./client",
      "./http-server",
      "./node",
      "./package.json",
      "./redis",
      "./schemas",
      "./server",
      "./telemetry",
    ]);
    expect(json.analysis.problems.filter((problem) => !isCjsOnly(problem))).toEqual([]);
  });
});

/** Problems the esm-only profile ignores: those that only a CommonJS consumer would have. */
function isCjsOnly(problem: unknown): boolean {
  const { resolutionKind } = problem as { resolutionKind?: string };
  return resolutionKind === "node10" || resolutionKind === "node16-cjs";
}
