// The loopback redirect URI of a desktop or CLI host: the listener on 127.0.0.1, the page the browser
// lands on, the flows it hands their callbacks to (by state), and what ends a wait.
import { afterEach, describe, expect, it, vi } from "vitest";
import { MCP_CODES } from "../error-codes/error-codes.js";
import { loopbackInteraction, type LoopbackInteraction } from "./oauth-loopback.js";

const opened: LoopbackInteraction[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const loopback of opened.splice(0)) await loopback.close();
});

async function started(options: Parameters<typeof loopbackInteraction>[0]): Promise<LoopbackInteraction> {
  const loopback = await loopbackInteraction(options);
  opened.push(loopback);
  return loopback;
}

const authorizationUrl = (state: string) => `https://as.test/authorize?client_id=c&state=${state}`;

describe("loopbackInteraction", () => {
  it("is a redirect URI on 127.0.0.1; a callback goes to the flow of its state, and its page shows nothing of it", async () => {
    const pages: string[] = [];
    const loopback = await started({
      path: "/cb",
      // The "browser": the authorization server sent it straight back with a code.
      open: async (url) => {
        const state = new URL(url).searchParams.get("state") ?? "";
        const landed = await fetch(`${loopback.redirectUri}?code=secret-code&state=${state}`);
        pages.push(`${landed.status} ${await landed.text()}`);
      },
    });
    expect(loopback.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/cb$/);
    const signal = new AbortController().signal;
    await expect(loopback.interact(authorizationUrl("s1"), signal)).resolves.toBe(`${loopback.redirectUri}?code=secret-code&state=s1`);
    expect(pages).toEqual([
      "200 <!doctype html><meta charset=utf-8><title>Authorized</title><p>You can close this window and go back to the application.</p>",
    ]);
    expect(pages.join()).not.toContain("secret-code");
  });

  it("answers 404 to anything but a waiting flow's callback", async () => {
    const loopback = await started({ open: () => undefined });
    const waiting = loopback.interact(authorizationUrl("s2"), new AbortController().signal);
    for (const path of ["/callback?state=other", "/elsewhere?state=s2", "/callback?code=no-state"]) {
      const response = await fetch(new URL(path, loopback.redirectUri));
      expect([response.status, await response.text()]).toEqual([404, "No authorization is waiting here."]);
    }
    const posted = await fetch(`${loopback.redirectUri}?state=s2`, { method: "POST" });
    expect(posted.status).toBe(404);
    await fetch(`${loopback.redirectUri}?state=s2&code=c`);
    await expect(waiting).resolves.toContain("state=s2");
  });

  it("stops waiting when the flow is cancelled or the user does not come back in time", async () => {
    const loopback = await started({ open: () => undefined, timeoutMs: 50 });
    const controller = new AbortController();
    const cancelled = loopback.interact(authorizationUrl("s3"), controller.signal);
    controller.abort(new Error("user gave up"));
    await expect(cancelled).rejects.toThrow("user gave up");
    await expect(loopback.interact(authorizationUrl("s4"), new AbortController().signal)).rejects.toMatchObject({
      code: MCP_CODES.UNAUTHORIZED,
      message: `Nobody came back to ${loopback.redirectUri} within 50 ms`,
      data: { reason: "authorization-denied" },
    });
    // A flow whose authorization URL has no state waits under none, and times out the same.
    await expect(loopback.interact("https://as.test/authorize?client_id=c", new AbortController().signal)).rejects.toMatchObject({
      data: { reason: "authorization-denied" },
    });
    // A late callback finds nobody waiting.
    expect((await fetch(`${loopback.redirectUri}?state=s4&code=c`)).status).toBe(404);
  });

  it("refuses a port already taken", async () => {
    const first = await started({});
    const port = Number(new URL(first.redirectUri).port);
    await expect(loopbackInteraction({ port })).rejects.toMatchObject({ code: "EADDRINUSE" });
  });
});
