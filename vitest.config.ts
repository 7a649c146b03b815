import { defineConfig } from "vitest/config";

export default defineConfig({
  // package.json `imports` maps it to dist/ (the published files); the tests run on Node, from the sources.
  resolve: { alias: { "#default-fetch": new URL("./src/node/default-fetch.ts", import.meta.url).pathname } },
  test: {
    include: ["src/**/*.test.ts", "e2e/**/*.test.ts", "lint/**/*.test.ts"],
    environment: "node",
    globalSetup: ["e2e/support/build-package.ts"],
    restoreMocks: true,
    coverage: {
      provider: "v8",
      include: ["src/**/*.ts"],
      // src/redis/** is measured by the cluster suite (cluster-tests/vitest.config.ts), on a real redis-server this suite does not need.
      exclude: ["src/redis/**", "src/**/*.test.ts", "src/**/*.test-helpers.ts", "src/**/*.d.ts", "src/**/*.types.ts"],
      reporter: ["text-summary", "text"],
      thresholds: { lines: 100, branches: 100, functions: 100, statements: 100 },
    },
  },
});
