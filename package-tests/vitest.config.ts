// The package tests (npm run test:package): what a user of the published tarball gets — the pinned
// exports map, the tarball installed in a scratch project and imported on each entry, publint and
// attw, a browser bundle with no Node built-in, and the bundle-size budget. Not part of `npm test`:
// they pack and install, which takes longer than the unit suite should.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    root: new URL(".", import.meta.url).pathname,
    include: ["**/*.test.ts"],
    exclude: [".scratch/**", "node_modules/**"],
    environment: "node",
    globalSetup: ["support/setup.ts"],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    fileParallelism: false,
  },
});
