import { execFileSync } from "node:child_process";
import { defineConfig, type Plugin } from "vite";

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
    // A fresh process compiles about half the bytes (importing both entries: about 2.5 ms less); the
    // maps carry the sources, and the error classes set their own names.
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
      },
      formats: ["es"],
    },
    rollupOptions: {
      external: [/^zod(\/.*)?$/, /^@opentelemetry\/api$/, /^node:/],
      // One file per entry (plus a chunk they share): a fresh process loads 3 files instead of ~150, about 30 ms less to import.
      output: { entryFileNames: "[name].js", chunkFileNames: "shared/[name]-[hash].js" },
    },
  },
});
