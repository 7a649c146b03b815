// The universal entry bundles for the browser with no Node built-in and no polyfill: Vite, from the
// installed tarball, every export of "@suaveplan/mcp". Nothing may ask for a node:* module or a bare
// built-in name, nothing may fall back to Vite's browser-external stub, and every module in the
// bundle is the package's own dist/ or one of its two dependencies — no buffer/process/events/stream
// shim came in. The Node entry, by contrast, does import Node built-ins (so the check can fail).
import { describe, expect, it } from "vitest";
import { EVERYTHING_APP, bundle, isNodeBuiltin } from "./support/bundle.js";

// The bundler's own runtime helpers (the dynamic import that loads the schemas) are not a polyfill.
const ALLOWED_MODULE = new RegExp(
  `^(${[
    String.raw`apps/[\w-]+\.mjs`,
    String.raw`node_modules/@suaveplan/mcp/dist/.+\.js`,
    String.raw`node_modules/zod/.+\.js`,
    String.raw`node_modules/@opentelemetry/api/build/esm/.+\.js`,
    String.raw`(\.\./)*\0rolldown/runtime\.js`,
  ].join("|")})$`,
);

describe("the universal entry in a browser bundle", () => {
  it("asks for no Node built-in and needs no polyfill", async () => {
    const result = await bundle("universal-unminified", EVERYTHING_APP, { minify: false });
    expect(result.requested.filter(isNodeBuiltin)).toEqual([]);
    expect(result.code).not.toContain("__vite-browser-external");
    expect(result.code).not.toMatch(/\bfrom\s*["'`]node:|\bimport\(\s*["'`]node:|\brequire\(|getBuiltinModule/);
    expect(result.modules.filter((id) => !ALLOWED_MODULE.test(id))).toEqual([]);
    expect(result.modules.some((id) => id.startsWith("node_modules/@suaveplan/mcp/dist/"))).toBe(true);
    // The bundle is self-contained: no import statement is left in it.
    expect(result.code).not.toMatch(/^\s*import\s/m);
  });

  it("(the check bites: the Node entry does ask for built-ins, when it needs them)", async () => {
    const result = await bundle("node-entry", `export * from "@suaveplan/mcp/node";\n`, { minify: false });
    // It loads them with process.getBuiltinModule when first used, which the check above refuses (the
    // published code may quote a string with any of the three quotes).
    expect(result.code).toMatch(/getBuiltinModule\(\s*["'`]node:http["'`]\)/);
    expect(result.code).toMatch(/getBuiltinModule\(\s*["'`]node:child_process["'`]\)/);
  });
});
