// The suite Stryker runs against each mutant: the unit tests beside the sources. The e2e tests
// drive the built package (dist/), which a mutant of src/ never reaches, so they are left out, and
// so are the coverage thresholds (Stryker measures what each test covers itself).
//
// Stryker switches mutants on at run time, so the sources need not be loaded again for each
// mutant: most test files share one module graph (`isolate: false`), which makes a mutant's run
// several times cheaper. The files that test what a fresh process has not loaded yet get their own.
import { defineConfig } from "vitest/config";

const FRESH_GRAPH = [
  "src/schemas/wire-loader.test.ts",
  "src/server/mcp-server/mcp-server.converter.test.ts",
  // Loads zod's converter, which the Standard Schema tests count on finding unloaded.
  "src/server/mcp-server/mcp-server.prompt-converter.test.ts",
  "src/server/mcp-server/mcp-server.standard-schema.test.ts",
  "src/transport/http-server/streamable-http.resume.test.ts",
  // Registers with the process's OpenTelemetry API, which a shared graph has set up already.
  "src/server/stateless/stateless-observability.test.ts",
];

export default defineConfig({
  // package.json `imports` maps it to dist/ (the published files); the tests run on Node, from the sources.
  resolve: { alias: { "#default-fetch": new URL("../src/node/default-fetch.ts", import.meta.url).pathname } },
  test: {
    environment: "node",
    restoreMocks: true,
    projects: [
      { extends: true, test: { name: "shared", include: ["src/**/*.test.ts"], exclude: FRESH_GRAPH, isolate: false } },
      { extends: true, test: { name: "fresh", include: FRESH_GRAPH, isolate: true } },
    ],
  },
});
