import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { defineConfig, type Plugin } from "vite";

const SRC = resolve(import.meta.dirname, "src");
// Value imports and re-exports, as e2e/lazy-wire.test.ts reads them (not `import type`, not `import()`).
const STATIC_IMPORT = /^(?:import|export)\s+(?!type\b)(?:[^;]*?\sfrom\s*)?["'](\.[^"']+)["']/gms;
// The modules loaded on demand (src/lazy/lazy.md): `import("./module.js")`.
const DYNAMIC_IMPORT = /\bimport\(\s*["'](\.[^"']+)["']\s*\)/g;
// What a client needs of src/json-schema/ up front (value checks, the subschema walk, pointers); the rest is the validator.
const SHARED_JSON_SCHEMA = /[\\/]src[\\/]json-schema[\\/](json-values|json-pointer|subschemas|aborted)\.ts$/;
const VALIDATOR = /[\\/]src[\\/]json-schema[\\/]/;
const isValidator = (file: string): boolean => VALIDATOR.test(file) && !SHARED_JSON_SCHEMA.test(file);

/** The source file an import of `path` in `file` names. */
const resolved = (file: string, path: string): string => resolve(dirname(file), path.replace(/\.js$/, ".ts"));

/** Every module the entries reach by static imports, and what those import dynamically: file → the files it imports. */
function staticImports(entries: string[]): { imports: Map<string, string[]>; lazy: Set<string> } {
  const imports = new Map<string, string[]>();
  const lazy = new Set<string>();
  const pending = [...entries];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (imports.has(file)) continue;
    const source = readFileSync(file, "utf8");
    const found = [...source.matchAll(STATIC_IMPORT)].map(([, path]) => resolved(file, path as string));
    for (const [, path] of source.matchAll(DYNAMIC_IMPORT)) lazy.add(resolved(file, path as string));
    imports.set(file, found);
    pending.push(...found, ...lazy);
  }
  return { imports, lazy };
}

/** The modules `entry` loads (itself included), by the static imports in `imports`. */
function reached(entry: string, imports: Map<string, string[]>): Set<string> {
  const seen = new Set<string>();
  const pending = [entry];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    pending.push(...(imports.get(file) ?? []));
  }
  return seen;
}

/**
 * The shared chunks, so that a process or a page loads only its side's code (src/entries/entries.md).
 * A bundler keeps in the first load every module that a module it keeps imports statically, used or
 * not, and Node loads every chunk an entry imports; so no chunk a client keeps may hold the validator
 * (src/lazy/lazy.md), and none a stdio server loads the client's or the HTTP handlers' code. Each
 * module goes to the first group whose side reaches it: `base` (what the modules loaded on demand
 * import), `core` (two of the server, the client and the Node adapters), `auth` (the client and the
 * HTTP handlers: the JOSE code, which a stdio server does not load), `client`, `json-schema` (the
 * validator, which only the server imports statically), `server`, `http-server`, and `proxy` (only
 * the universal entry: the proxy needs both sides). The entry files only re-export.
 */
function chunkGroups(entries: Record<"server" | "httpServer" | "client" | "node" | "all", string>): ChunkGroup[] {
  const { imports, lazy } = staticImports(Object.values(entries));
  const isEntry = (file: string): boolean => Object.values(entries).includes(file);
  const reach = Object.fromEntries(Object.entries(entries).map(([side, entry]) => [side, reached(entry, imports)]));
  const { server, httpServer, client, node, all } = reach as Record<keyof typeof entries, Set<string>>;
  const own = (side: Set<string>) => (id: string) => !isEntry(id) && !isValidator(id) && side.has(id);
  const shared = (id: string): boolean => [server.has(id), client.has(id), node.has(id)].filter(Boolean).length >= 2;
  const onDemand = new Set([...lazy].flatMap((module) => [...reached(module, imports)]));
  // Groups are filled in order, each with what its modules import that no earlier group took.
  return [
    // What the modules loaded on demand import of the rest: a bundler gives it a chunk of its own (shared with
    // theirs), so that `core` and the client's code share the app's entry chunk (one gzip context).
    { name: "base", test: (id) => own(all)(id) && onDemand.has(id) },
    { name: "core", test: (id) => own(all)(id) && shared(id) },
    { name: "auth", test: (id) => own(client)(id) && httpServer.has(id) },
    { name: "client", test: own(client) },
    { name: "json-schema", test: isValidator },
    { name: "server", test: own(server) },
    { name: "http-server", test: own(httpServer) },
    { name: "proxy", test: own(all) },
  ];
}

type ChunkGroup = { name: string; test: (id: string) => boolean };

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
        "entries/server": "src/entries/server.ts",
        "entries/http-server": "src/entries/http-server.ts",
        "entries/client": "src/entries/client.ts",
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
        codeSplitting: {
          groups: chunkGroups({
            server: resolve(SRC, "entries/server.ts"),
            httpServer: resolve(SRC, "entries/http-server.ts"),
            client: resolve(SRC, "entries/client.ts"),
            node: resolve(SRC, "node/index.ts"),
            all: resolve(SRC, "index.ts"),
          }),
        },
        // A library ships its names (the application's bundler minifies and mangles): no identifier
        // renamed, class and function names kept by the compressor; whitespace still removed.
        minify: { compress: { keepNames: { function: true, class: true } }, mangle: false, codegen: { removeWhitespace: true } },
      },
    },
  },
});
