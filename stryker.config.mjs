// @ts-check
// Mutation testing of the core modules: `npm run test:mutation` (mutation/run.mjs) runs Stryker with
// these options once per module of mutation/modules.mjs, naming what to mutate and where to keep
// that module's incremental results; RELIABILITY.md has the scores.
/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "mutation/vitest.config.ts", related: true },
  coverageAnalysis: "perTest",
  incremental: true,
  // Four runners on two cores: a mutant's run waits on I/O and timers part of the time.
  concurrency: 4,
  timeoutMS: 5_000,
  reporters: ["clear-text", "progress", "json"],
  clearTextReporter: { allowEmojis: false, logTests: false, maxTestsToLog: 0 },
  // The sandbox needs no tsconfig rewriting (every `extends` stays inside it), and TypeScript 7 has
  // no JS compiler API for Stryker to do it with.
  tsconfigFile: "mutation/no-tsconfig.json",
  tempDirName: "mutation/.stryker-tmp",
  cleanTempDir: "always",
  // The conformance tools are links in a worktree, which the sandbox cannot copy; no test needs them.
  ignorePatterns: [
    "coverage",
    "bench/results",
    "runtimes/.tools",
    "runtimes/.out",
    "package-tests/.scratch",
    "mutation/.out",
    "conformance/.tools",
    "conformance/.tools-2026",
    "conformance/.results",
  ],
  thresholds: { high: 90, low: 85, break: null },
};
