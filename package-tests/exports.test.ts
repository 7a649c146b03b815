// Pins what the package promises to resolvers: the exports map (adding, renaming or dropping an
// entry is a decision, made here on purpose), ESM-only, side-effect-free, and every target present
// in the packed tarball, which holds dist/, the README and package.json and nothing else.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PACK_INFO, ROOT, type PackInfo } from "./support/paths.js";

const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as Record<string, unknown>;
const pack = (): PackInfo => JSON.parse(readFileSync(PACK_INFO, "utf8")) as PackInfo;

const EXPORTS = {
  ".": { types: "./dist/index.d.ts", import: "./dist/index.js" },
  "./server": { types: "./dist/entries/server.d.ts", import: "./dist/entries/server.js" },
  "./http-server": { types: "./dist/entries/http-server.d.ts", import: "./dist/entries/http-server.js" },
  "./client": { types: "./dist/entries/client.d.ts", import: "./dist/entries/client.js" },
  "./node": { types: "./dist/node/index.d.ts", import: "./dist/node/index.js" },
  "./schemas": { types: "./dist/schemas/index.d.ts", import: "./dist/schemas/index.js" },
  "./telemetry": { types: "./dist/telemetry/index.d.ts", import: "./dist/telemetry/index.js" },
  "./redis": { types: "./dist/redis/index.d.ts", import: "./dist/redis/index.js" },
  "./package.json": "./package.json",
};

// The HTTP client transports' default fetch (src/transport/http-client/http-client.md, "The default
// fetch"): Bun and Deno also match "node", so they and the web runtimes come first.
const PLATFORM_FETCH = "./dist/shared/default-fetch-platform.js";
const IMPORTS = {
  "#default-fetch": {
    bun: PLATFORM_FETCH,
    deno: PLATFORM_FETCH,
    browser: PLATFORM_FETCH,
    worker: PLATFORM_FETCH,
    workerd: PLATFORM_FETCH,
    "edge-light": PLATFORM_FETCH,
    "react-native": PLATFORM_FETCH,
    node: "./dist/shared/default-fetch-node.js",
    default: PLATFORM_FETCH,
  },
};

describe("the package manifest", () => {
  it("pins the imports map: the Node default fetch under node only, after every runtime that also matches it", () => {
    expect(manifest.imports).toStrictEqual(IMPORTS);
    const conditions = Object.keys(IMPORTS["#default-fetch"]);
    expect(conditions.indexOf("node")).toBe(conditions.length - 2);
    const targets = [...new Set(Object.values(IMPORTS["#default-fetch"]))];
    expect(targets.filter((target) => !existsSync(join(ROOT, target)))).toEqual([]);
    expect(targets.filter((target) => !pack().files.includes(target.slice(2)))).toEqual([]);
  });

  it("pins the exports map", () => {
    expect(manifest.exports).toStrictEqual(EXPORTS);
    // `types` comes first in each condition set, so TypeScript picks it before `import`.
    const firstConditions = Object.values(EXPORTS).flatMap((conditions) =>
      typeof conditions === "object" ? [Object.keys(conditions)[0]] : [],
    );
    expect(firstConditions).toEqual(Array.from({ length: 8 }, () => "types"));
  });

  it("is ESM only, side-effect free, and publishes dist/ and the README", () => {
    expect(manifest).toMatchObject({ name: "@suaveplan/mcp", type: "module", sideEffects: false, files: ["dist", "README.md"] });
    expect(manifest).not.toHaveProperty("main");
    expect(manifest).not.toHaveProperty("module");
    expect(manifest).not.toHaveProperty("browser");
    expect(Object.keys(manifest.dependencies as object).toSorted()).toEqual(["@opentelemetry/api", "zod"]);
  });

  it("has every export target in dist/ after the build", () => {
    const targets = Object.values(EXPORTS).flatMap((value) => (typeof value === "string" ? [value] : Object.values(value)));
    expect(targets.filter((target) => !existsSync(join(ROOT, target)))).toEqual([]);
  });

  it("packs every export target, and nothing but dist/, README.md and package.json", () => {
    const { files } = pack();
    for (const target of [
      "dist/index.js",
      "dist/index.d.ts",
      "dist/entries/server.js",
      "dist/entries/server.d.ts",
      "dist/entries/http-server.js",
      "dist/entries/http-server.d.ts",
      "dist/entries/client.js",
      "dist/entries/client.d.ts",
      "dist/node/index.js",
      "dist/node/index.d.ts",
      "dist/schemas/index.js",
      "dist/schemas/index.d.ts",
      "dist/telemetry/index.js",
      "dist/telemetry/index.d.ts",
      "dist/redis/index.js",
      "dist/redis/index.d.ts",
      "package.json",
      "README.md",
    ])
      expect(files).toContain(target);
    expect(files.filter((file) => !file.startsWith("dist/") && file !== "README.md" && file !== "package.json")).toEqual([]);
    // Each entry has its declaration beside it; code shared by the entries lives in internal chunks (dist/shared/), which no export names.
    const js = files.filter((file) => file.endsWith(".js"));
    expect(js.filter((file) => file.startsWith("dist/shared/")).length).toBeGreaterThan(0);
    const missing = js.filter((file) => !file.startsWith("dist/shared/") && !files.includes(file.replace(/\.js$/, ".d.ts")));
    expect(missing).toEqual([]);
  });
});
