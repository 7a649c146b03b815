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
    minify: false,
    sourcemap: true,
    emptyOutDir: true,
    lib: {
      entry: { index: "src/index.ts", "node/index": "src/node/index.ts" },
      formats: ["es"],
    },
    rollupOptions: {
      external: [/^zod(\/.*)?$/, /^@opentelemetry\/api$/, /^node:/],
      output: { preserveModules: true, preserveModulesRoot: "src", entryFileNames: "[name].js" },
    },
  },
});
