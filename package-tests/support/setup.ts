// Global setup of the package tests: build dist/, `npm pack` it into package-tests/.scratch/, and
// install that tarball into a fresh consumer project there (its own package.json, its own
// node_modules), the way a user's app gets the package. Every step is bounded in time.
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "vite";
import { CONSUMER, PACK_INFO, ROOT, SCRATCH, type PackInfo } from "./paths.js";

const npm = (args: string[], cwd: string): string =>
  execFileSync("npm", args, {
    cwd,
    encoding: "utf8",
    timeout: 180_000,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, npm_config_update_notifier: "false" },
  });

export default async function setup(): Promise<void> {
  await build({ configFile: join(ROOT, "vite.config.ts"), logLevel: "warn" });
  rmSync(SCRATCH, { recursive: true, force: true });
  mkdirSync(CONSUMER, { recursive: true });

  const [packed] = JSON.parse(npm(["pack", "--json", "--pack-destination", SCRATCH], ROOT)) as Array<{
    filename: string;
    size: number;
    unpackedSize: number;
    files: Array<{ path: string }>;
  }>;
  if (!packed) throw new Error("npm pack printed nothing");
  const info: PackInfo = {
    tarball: join(SCRATCH, packed.filename),
    size: packed.size,
    unpackedSize: packed.unpackedSize,
    files: packed.files.map((file) => file.path).toSorted(),
  };
  writeFileSync(PACK_INFO, JSON.stringify(info, null, 2));

  writeFileSync(
    join(CONSUMER, "package.json"),
    JSON.stringify(
      { name: "consumer", private: true, type: "module", dependencies: { "@suaveplan/mcp": `file:${info.tarball}` } },
      null,
      2,
    ),
  );
  // Its runtime dependencies (zod, @opentelemetry/api) come from the registry like a user's, the npm cache first.
  npm(["install", "--no-audit", "--no-fund", "--prefer-offline", "--no-package-lock"], CONSUMER);
}
