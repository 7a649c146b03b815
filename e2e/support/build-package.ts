// Vitest global setup: builds dist/ once per run, so the tests that run examples as real child
// processes (they import the package by name) always exercise the current sources.
import { build } from "vite";

export default async function buildPackage(): Promise<void> {
  await build({ configFile: new URL("../../vite.config.ts", import.meta.url).pathname, logLevel: "warn" });
}
