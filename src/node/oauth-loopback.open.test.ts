// The default opener: the system's command for a URL, per platform, detached and let go of; a
// missing command is no error (the user can still open the URL).
import { EventEmitter } from "node:events";
import type { spawn } from "node:child_process";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loopbackInteraction, systemBrowser } from "./oauth-loopback.js";

afterEach(() => {
  vi.restoreAllMocks();
});

/** A spawn that records what it was asked to run, whose command is missing on this machine. */
function fakeSpawn() {
  const spawned: Array<{ command: string; args: readonly string[]; options: unknown; unref: () => void }> = [];
  const run = ((command: string, args: readonly string[], options: unknown) => {
    const child = Object.assign(new EventEmitter(), { unref: vi.fn() });
    spawned.push({ command, args, options, unref: child.unref });
    queueMicrotask(() => child.emit("error", Object.assign(new Error("spawn ENOENT"), { code: "ENOENT" })));
    return child;
  }) as unknown as typeof spawn;
  return { run, spawned };
}

describe("the system browser", () => {
  it.each([
    ["darwin", "open", ["URL"]],
    ["win32", "cmd", ["/c", "start", "", "URL"]],
    ["linux", "xdg-open", ["URL"]],
  ])("on %s runs %s, detached, and a missing command is no error", async (platform, command, args) => {
    const { run, spawned } = fakeSpawn();
    const url = "https://as.test/authorize?state=s";
    systemBrowser.open(url, platform, run);
    await Promise.resolve();
    expect(spawned.map((child) => [child.command, child.args, child.options])).toEqual([
      [command, args.map((arg) => (arg === "URL" ? url : arg)), { stdio: "ignore", detached: true }],
    ]);
    expect(spawned[0]?.unref).toHaveBeenCalled();
  });

  it("is what loopbackInteraction opens the authorization URL with when given no opener", async () => {
    const opened = vi.spyOn(systemBrowser, "open").mockImplementation(() => undefined);
    const loopback = await loopbackInteraction({ timeoutMs: 20 });
    const url = "https://as.test/authorize?state=s";
    await expect(loopback.interact(url, new AbortController().signal)).rejects.toMatchObject({ data: { reason: "authorization-denied" } });
    await loopback.close();
    expect(opened).toHaveBeenCalledWith(url);
  });
});
