// What a fresh process pays to import the installed package: a stdio server imports the universal and
// the Node entries and never serves HTTP, spawns a child or opens a browser, so neither entry may load
// Node's HTTP or child-process modules at import (the Node entry loads them when first used).
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CONSUMER } from "./support/paths.js";

describe("importing the installed tarball", () => {
  it("loads no node:http, node:https or node:child_process for the universal and Node entries", () => {
    writeFileSync(
      join(CONSUMER, "start-up.mjs"),
      `await import("@suaveplan/mcp");
await import("@suaveplan/mcp/node");
console.log(JSON.stringify(process.moduleLoadList.filter((name) => name.startsWith("NativeModule "))));
`,
    );
    const loaded = JSON.parse(
      execFileSync(process.execPath, ["start-up.mjs"], { cwd: CONSUMER, encoding: "utf8", timeout: 60_000 }),
    ) as string[];
    // The list is Node's own record of the built-in modules loaded so far: the check reads something that can be there.
    expect(loaded).toContain("NativeModule path");
    expect(loaded.filter((name) => /^NativeModule (?:https?|child_process|_http_\w+)$/.test(name))).toEqual([]);
  });
});
