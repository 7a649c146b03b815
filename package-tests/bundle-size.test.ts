// The bundle-size budget (package-tests/bundle-budget.json; why each byte range is spent:
// package-tests/BUNDLE-BUDGET.md): min+gzip of (a) a client-only browser app with the Streamable
// HTTP transport, (b) a server with the web-standard handler and (c) the client alone with the
// in-process transport, bundled by Vite for the browser from the installed tarball: the whole app
// (its dynamic imports inlined), and for the clients what loads before any of them runs. Each run
// prints the figures, their split (ours, @opentelemetry/api, zod), and the official SDK's equivalent
// apps bundled the same way (the live reference).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  CLIENT_APP,
  CLIENT_ONLY_APP,
  EVERYTHING_APP,
  SDK_CLIENT_APP,
  SDK_SERVER_APP,
  SERVER_APP,
  bundle,
  type Bundle,
} from "./support/bundle.js";
import { SCRATCH } from "./support/paths.js";

interface Budget {
  readonly gzipBytes: number;
  readonly minifiedBytes: number;
  /** What loads before any dynamic import runs, gzipped file by file (the clients only). */
  readonly firstLoadGzipBytes?: number;
}
const budgets = JSON.parse(readFileSync(new URL("bundle-budget.json", import.meta.url), "utf8")) as Record<
  "client" | "server" | "clientOnly",
  Budget
> & {
  readonly sdkClientBrowserGzipBytes: number;
};

const APPS = { client: CLIENT_APP, server: SERVER_APP } as const;

/** Each of our two apps bundled once per run, whichever test asks first. */
const bundledApps = new Map<keyof typeof APPS, Promise<Bundle>>();
function bundledApp(name: keyof typeof APPS): Promise<Bundle> {
  let bundled = bundledApps.get(name);
  if (bundled === undefined) {
    bundled = bundle(name, APPS[name]);
    bundledApps.set(name, bundled);
  }
  return bundled;
}

// A share found as a difference of two gzip sizes can come out a few bytes below zero (gzip is not additive).
const kib = (bytes: number): string => `${(Math.max(0, bytes) / 1024).toFixed(1)} KiB`;

describe("bundle size (min+gzip, Vite for the browser)", () => {
  it("bundles the client app to ≤ 65 % of the official SDK's browser client (about 79 KiB gzip), the server app to less", async () => {
    const [client, server] = await Promise.all([bundledApp("client"), bundledApp("server")]);
    expect(client.gzipBytes).toBeLessThanOrEqual(budgets.sdkClientBrowserGzipBytes * 0.65);
    expect(server.gzipBytes).toBeLessThan(budgets.sdkClientBrowserGzipBytes);
  });

  it.each([
    ["client", CLIENT_APP, SDK_CLIENT_APP],
    ["server", SERVER_APP, SDK_SERVER_APP],
  ] as const)("%s app stays within its budget, and under the SDK's same app", async (name, source, sdkSource) => {
    const whole = await bundledApp(name);
    const withoutZod = await bundle(`${name}-no-zod`, source, { external: [/^zod(\/.*)?$/] });
    const oursOnly = await bundle(`${name}-ours`, source, { external: [/^zod(\/.*)?$/, /^@opentelemetry\/api$/] });
    const sdk = await bundle(`sdk-${name}`, sdkSource, { dir: join(SCRATCH, "sdk-apps") });
    const budget = budgets[name];
    console.log(
      `${name}: ${kib(whole.gzipBytes)} gzip (budget ${kib(budget.gzipBytes)}), ` +
        `${kib(whole.minifiedBytes)} min (budget ${kib(budget.minifiedBytes)}); ` +
        `ours ≈ ${kib(oursOnly.gzipBytes)}, @opentelemetry/api ≈ ${kib(withoutZod.gzipBytes - oursOnly.gzipBytes)}, ` +
        `zod ≈ ${kib(whole.gzipBytes - withoutZod.gzipBytes)}; ${whole.modules.length} modules. ` +
        `The official SDK 2.x, same app, same bundler: ${kib(sdk.gzipBytes)} gzip, ${kib(sdk.minifiedBytes)} min`,
    );
    expect(whole.gzipBytes).toBeLessThanOrEqual(budget.gzipBytes);
    expect(whole.minifiedBytes).toBeLessThanOrEqual(budget.minifiedBytes);
    expect(whole.gzipBytes).toBeLessThan(sdk.gzipBytes);
  });

  it.each([
    ["client", CLIENT_APP],
    ["clientOnly", CLIENT_ONLY_APP],
  ] as const)("%s app: what loads before the first connection asks for more stays within its budget", async (name, source) => {
    const split = await bundle(`${name}-split`, source, { split: true });
    const whole = name === "client" ? await bundledApp("client") : await bundle(name, source);
    const oursOnly = await bundle(`${name}-split-ours`, source, { split: true, external: [/^zod(\/.*)?$/, /^@opentelemetry\/api$/] });
    const first = split.firstLoad as NonNullable<Bundle["firstLoad"]>;
    const ours = oursOnly.firstLoad as NonNullable<Bundle["firstLoad"]>;
    const budget = budgets[name];
    console.log(
      `${name}: first load ${kib(first.gzipBytes)} gzip ` +
        `(budget ${kib(budget.firstLoadGzipBytes ?? 0)}), ${kib(first.minifiedBytes)} min; ` +
        `ours ≈ ${kib(ours.gzipBytes)}, zod and @opentelemetry/api ≈ ${kib(first.gzipBytes - ours.gzipBytes)}; ` +
        `the whole app ${kib(whole.gzipBytes)} gzip (budget ${kib(budget.gzipBytes)}), ${kib(whole.minifiedBytes)} min`,
    );
    expect(first.gzipBytes).toBeLessThanOrEqual(budget.firstLoadGzipBytes ?? 0);
    expect(whole.gzipBytes).toBeLessThanOrEqual(budget.gzipBytes);
    expect(whole.minifiedBytes).toBeLessThanOrEqual(budget.minifiedBytes);
    // What waits for a dynamic import is a real part of the app, not lost: the first load is less than the whole.
    expect(first.gzipBytes).toBeLessThan(whole.gzipBytes);
  });

  it("reports the whole universal entry for reference (not budgeted: no app imports all of it)", async () => {
    const everything = await bundle("everything", EVERYTHING_APP);
    console.log(
      `everything in @suaveplan/mcp: ${kib(everything.gzipBytes)} gzip, ${kib(everything.minifiedBytes)} min, ` +
        `${everything.modules.length} modules`,
    );
    expect(everything.gzipBytes).toBeGreaterThan(0);
  });
});
