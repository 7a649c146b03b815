// The compiler fence: universal sources are checked with no ambient types beyond
// src/web-platform.d.ts, so Node globals and node:* imports fail the core build.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..");
// Made when the tests run, not when the file is collected: a run that filters them all out leaves nothing behind.
let scratch: string | undefined;
beforeAll(() => {
  scratch = mkdtempSync(join(root, "node_modules", ".fence-"));
});
afterAll(() => {
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

function checkAsCore(source: string): string {
  if (scratch === undefined) throw new Error("the scratch folder is made in beforeAll");
  const file = join(scratch, `probe-${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(file, source);
  const config = join(scratch, `tsconfig-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(
    config,
    JSON.stringify({ extends: join(root, "tsconfig.core.json"), include: [file, join(root, "src/web-platform.d.ts")], exclude: [] }),
  );
  try {
    execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", config], { encoding: "utf8" });
    return "";
  } catch (error) {
    return String((error as { stdout?: string }).stdout);
  }
}

describe("the universal compiler fence", () => {
  it("accepts the web-standard globals the core relies on", () => {
    expect(checkAsCore("const c = new AbortController(); setTimeout(() => c.abort(), 1); export const t = performance.now();")).toBe("");
  });

  it.each([
    ["Buffer", "export const b = Buffer.from('x');", "Buffer"],
    ["process", "export const e = process.env;", "process"],
    ["a node: import", "import { readFileSync } from 'node:fs'; export const r = readFileSync;", "node:fs"],
    ["the DOM", "export const d = document.title;", "document"],
  ])("rejects %s", (_label, source, name) => {
    expect(checkAsCore(source)).toContain(name);
  });
});
