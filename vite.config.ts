import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { defineConfig, type Plugin } from "vite";

const SRC = resolve(import.meta.dirname, "src");
// Value imports and re-exports, as e2e/lazy-wire.test.ts reads them (not `import type`, not `import()`).
const STATIC_IMPORT = /^(?:import|export)\s+(?!type\b)(?:[^;]*?\sfrom\s*)?["'](\.[^"']+)["']/gms;
// What a client needs of src/json-schema/ up front (value checks, the subschema walk, pointers); the rest is the validator.
const SHARED_JSON_SCHEMA = /[\\/]src[\\/]json-schema[\\/](json-values|json-pointer|subschemas|aborted)\.ts$/;
const VALIDATOR = /[\\/]src[\\/]json-schema[\\/]/;
const isValidator = (file: string): boolean => VALIDATOR.test(file) && !SHARED_JSON_SCHEMA.test(file);

/**
 * The chunks of the universal entry, so that a bundler can leave the JSON Schema validator out of a
 * client's first load (src/lazy/lazy.md). A bundler keeps in the first load every module that a
 * module it keeps imports statically, used or not; so no module a client keeps may import the
 * validator. `core` is what the entry reaches without the validator's importers (the server's schema
 * code and everything above it), `server` those importers, and `dist/index.js` only re-exports them.
 */
function chunkGroups(entry: string): { name: string; test: (id: string) => boolean }[] {
  const imports = new Map<string, string[]>();
  const pending = [entry];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (imports.has(file)) continue;
    const found = [...readFileSync(file, "utf8").matchAll(STATIC_IMPORT)].map(([, path]) =>
      resolve(dirname(file), (path as string).replace(/\.js$/, ".ts")),
    );
    imports.set(file, found);
    pending.push(...found);
  }
  // The validator's static importers, and theirs, up to the entry (which stays a file of re-exports).
  const server = new Set<string>();
  for (let grew = true; grew;) {
    grew = false;
    for (const [file, found] of imports) {
      if (file === entry || isValidator(file) || server.has(file)) continue;
      if (!found.some((imported) => isValidator(imported) || server.has(imported))) continue;
      server.add(file);
      grew = true;
    }
  }
  return [
    { name: "core", test: (id) => id !== entry && imports.has(id) && !server.has(id) && !isValidator(id) },
    { name: "json-schema", test: isValidator },
    { name: "server", test: (id) => server.has(id) },
  ];
}

/** Declarations come from the TypeScript compiler itself, after the bundle is written. */
function emitDeclarations(): Plugin {
  return {
    name: "emit-declarations",
    apply: "build",
    closeBundle() {
      execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.lib.json"], { stdio: "inherit" });
    },
  };
}

export default defineConfig({
  plugins: [emitDeclarations()],
  build: {
    target: "es2022",
    // Whitespace and syntax minified, names kept (see `output.minify`): a fresh process compiles fewer
    // bytes, and a user's stack traces and `constructor.name` read as the sources do.
    minify: true,
    sourcemap: true,
    emptyOutDir: true,
    lib: {
      entry: {
        index: "src/index.ts",
        "node/index": "src/node/index.ts",
        "schemas/index": "src/schemas/index.ts",
        "telemetry/index": "src/telemetry/index.ts",
        "redis/index": "src/redis/index.ts",
        // What package.json `imports` maps `#default-fetch` to: the Node one, the platform's elsewhere.
        "shared/default-fetch-node": "src/node/default-fetch.ts",
        "shared/default-fetch-platform": "src/transport/http-client/platform-fetch.ts",
      },
      formats: ["es"],
    },
    rollupOptions: {
      // `#default-fetch` is resolved where the package runs (package.json `imports`), not here.
      external: [/^zod(\/.*)?$/, /^@opentelemetry\/api$/, /^node:/, /^#default-fetch$/],
      // A few files, not one per module: a fresh process loads 6 files instead of ~150, about 30 ms less to import.
      output: {
        entryFileNames: "[name].js",
        // Each map embeds the sources it names: src/ is not in the package.
        sourcemapExcludeSources: false,
        chunkFileNames: "shared/[name]-[hash].js",
        // Groups are filled in order, each with what its modules import that no earlier group took.
        codeSplitting: { groups: chunkGroups(resolve(SRC, "index.ts")) },
        // A library ships its names (the application's bundler minifies and mangles): no identifier
        // renamed, class and function names kept by the compressor; whitespace still removed.
        minify: { compress: { keepNames: { function: true, class: true } }, mangle: false, codegen: { removeWhitespace: true } },
      },
    },
  },
});
