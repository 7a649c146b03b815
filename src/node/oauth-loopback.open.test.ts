// The default opener: the system's command for a URL, per platform, detached and let go of; a
// missing command is no error (the user can still open the URL).
import { EventEmitter } from "node:events";
import { afterEach, describe, expect, it, vi } from "vitest";

const spawned: Array<{ command: string; args: readonly string[]; unref: () => void }> = [];
vi.mock("node:child_process", () => ({
  spawn: (command: string, args: readonly string[]) => {
    const child = Object.assign(new EventEmitter(), { unref: vi.fn() });
    spawned.push({ command, args, unref: child.unref });
    // The command is missing on this machine: the child reports it and nothing throws.
    queueMicrotask(() => child.emit("error", Object.assign(new Error("spawn ENOENT"), { code: "ENOENT" })));
    return child;
  },
}));

const { loopbackInteraction } = await import("./oauth-loopback.js");

const platform = Object.getOwnPropertyDescriptor(process, "platform") as PropertyDescriptor;
afterEach(() => {
  Object.defineProperty(process, "platform", platform);
  spawned.length = 0;
});

describe("loopbackInteraction's default opener", () => {
  it.each([
    ["darwin", "open", ["URL"]],
    ["win32", "cmd", ["/c", "start", "", "URL"]],
    ["linux", "xdg-open", ["URL"]],
  ])("on %s runs %s", async (name, command, args) => {
    Object.defineProperty(process, "platform", { value: name });
    const loopback = await loopbackInteraction({ timeoutMs: 20 });
    const url = "https://as.test/authorize?state=s";
    await expect(loopback.interact(url, new AbortController().signal)).rejects.toMatchObject({ data: { reason: "authorization-denied" } });
    await loopback.close();
    expect(spawned.map((child) => [child.command, child.args])).toEqual([[command, args.map((arg) => (arg === "URL" ? url : arg))]]);
    expect(spawned[0]?.unref).toHaveBeenCalled();
  });
});
