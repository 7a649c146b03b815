// One client's view of a shared ResponseCache: what is kept (a positive ttlMs, with its scope), who
// reads it (a public result: every client of the server; a private one: the same principal), and
// what a change forgets.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ClientResponses, ResponseCache } from "./response-cache.js";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["performance"] });
});
afterEach(() => {
  vi.useRealTimers();
});

function views() {
  const cache = new ResponseCache();
  const view = (server: string, principal: string) => new ClientResponses({ cache, server, principal });
  return { cache, alice: view("s", "alice"), bob: view("s", "bob"), elsewhere: view("s2", "alice") };
}

const fresh = (scope?: string) => ({ ttlMs: 1000, ...(scope === undefined ? {} : { cacheScope: scope }) });
const keep = (view: ClientResponses, method: string, params: Record<string, string>, scope = "public") =>
  view.keep(view.keyOf(method, params) as string, fresh(scope));
const held = (view: ClientResponses, method: string, params: Record<string, string>) =>
  view.get(view.keyOf(method, params) as string) !== undefined;

describe("ClientResponses", () => {
  it("keys only the cacheable methods, by their params", () => {
    const { alice } = views();
    expect(alice.keyOf("tools/call", { name: "x" })).toBeUndefined();
    expect(alice.keyOf("resources/read", { uri: "a" })).not.toBe(alice.keyOf("resources/read", { uri: "b" }));
    expect(alice.keyOf("tools/list", undefined)).toBe(alice.keyOf("tools/list", {}));
    for (const method of ["server/discover", "tools/list", "prompts/list", "resources/list", "resources/templates/list", "resources/read"])
      expect(alice.keyOf(method, {})).toBeDefined();
  });

  it("keeps a result with a positive ttlMs only, private unless the server said public", () => {
    const { cache, alice, bob, elsewhere } = views();
    const key = alice.keyOf("tools/list", {}) as string;
    for (const ttlMs of [undefined, 0, -5, "1000", Number.NaN]) alice.keep(key, { ttlMs });
    expect(cache.size).toBe(0);
    const mine = fresh("private");
    alice.keep(key, mine);
    expect([alice.get(key), bob.get(key)]).toEqual([mine, undefined]);
    const unsaid = fresh();
    alice.keep(alice.keyOf("prompts/list", {}) as string, unsaid);
    expect([alice.get(alice.keyOf("prompts/list", {}) as string), bob.get(bob.keyOf("prompts/list", {}) as string)]).toEqual([
      unsaid,
      undefined,
    ]);
    const everyone = fresh("public");
    alice.keep(alice.keyOf("resources/list", {}) as string, everyone);
    expect(bob.get(bob.keyOf("resources/list", {}) as string)).toBe(everyone);
    expect(elsewhere.get(elsewhere.keyOf("resources/list", {}) as string)).toBeUndefined();
    // The principal's own result comes first.
    const bobs = fresh("private");
    bob.keep(bob.keyOf("resources/list", {}) as string, bobs);
    expect(bob.get(bob.keyOf("resources/list", {}) as string)).toBe(bobs);
  });

  it("forgets what a change names: a list's pages, a resource's reads for all, nothing else; clear() this server only", () => {
    const { cache, alice, bob, elsewhere } = views();
    keep(alice, "tools/list", {});
    keep(alice, "tools/list", { cursor: "2" });
    keep(alice, "prompts/list", {});
    keep(alice, "resources/list", {});
    keep(alice, "resources/templates/list", {});
    keep(alice, "resources/read", { uri: "memo://a" }, "private");
    keep(bob, "resources/read", { uri: "memo://a" }, "private");
    keep(alice, "resources/read", { uri: "memo://ab" });
    keep(elsewhere, "tools/list", {});
    alice.changed("notifications/message", { uri: "memo://a", level: "info" });
    expect(cache.size).toBe(9);
    alice.changed("notifications/tools/list_changed", {});
    expect([held(alice, "tools/list", {}), held(alice, "tools/list", { cursor: "2" }), held(elsewhere, "tools/list", {})]).toEqual([
      false,
      false,
      true,
    ]);
    alice.changed("notifications/prompts/list_changed", {});
    expect(held(alice, "prompts/list", {})).toBe(false);
    alice.changed("notifications/resources/list_changed", {});
    expect([
      held(alice, "resources/list", {}),
      held(alice, "resources/templates/list", {}),
      held(alice, "resources/read", { uri: "memo://a" }),
    ]).toEqual([false, false, true]);
    alice.changed("notifications/resources/updated", { uri: "memo://a" });
    expect([
      held(alice, "resources/read", { uri: "memo://a" }),
      held(bob, "resources/read", { uri: "memo://a" }),
      held(alice, "resources/read", { uri: "memo://ab" }),
    ]).toEqual([false, false, true]);
    alice.clear();
    expect([cache.size, held(elsewhere, "tools/list", {})]).toEqual([1, true]);
  });
});
