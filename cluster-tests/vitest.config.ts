// The cluster suite: the Redis entry against a real redis-server (Debian's, /usr/bin/redis-server,
// or REDIS_SERVER), with node-redis and ioredis. `npm run test:cluster`. It measures the coverage
// of src/redis/**, which the unit suite leaves out (it needs no redis-server).
import { defineConfig } from "vitest/config";

export default defineConfig({
  // package.json `imports` maps it to dist/ (the published files); the tests run on Node, from the sources.
  resolve: { alias: { "#default-fetch": new URL("../src/node/default-fetch.ts", import.meta.url).pathname } },
  test: {
    root: ".",
    include: ["cluster-tests/**/*.test.ts"],
    environment: "node",
    restoreMocks: true,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    coverage: {
      provider: "v8",
      include: ["src/redis/**/*.ts"],
      exclude: ["src/**/*.test.ts", "src/**/*.test-helpers.ts"],
      reporter: ["text-summary", "text"],
      thresholds: { lines: 100, branches: 100, functions: 100, statements: 100 },
    },
  },
});
