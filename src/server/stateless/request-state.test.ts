import { createHash, createHmac } from "node:crypto";
import * as fc from "fast-check";
import { describe, expect, it, vi } from "vitest";

import { MCP_CODES } from "../../error-codes/error-codes.js";
import { InMemoryRequestStateKeys, staticRequestStateKeys, type RequestStateKeys } from "../../stores/request-state-keys.js";
import { RequestStateSealer, requestDigest, type OpenedState, type StateBinding } from "./request-state.js";
import { rejectedWith } from "../../error-codes/mcp-error.test-helpers.js";

const runs = (normal: number): number => Number(process.env["FUZZ_RUNS"]) || normal;
const SEED = 20260728;
const SECRET = "the deployment's shared secret, 32+ bytes";
const PRINCIPAL = "alice@example.com";
const T0 = 1_800_000_000_000;
const KEYS = staticRequestStateKeys([{ id: "k1", secret: SECRET }]);
const CALL = { name: "book_flight", arguments: { to: "Lisbon", seats: 2 } };
const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const REASONS = ["malformed", "unknown-key", "forged", "expired", "other-principal", "other-request"];

async function bindingFor(
  method: string,
  params: Record<string, unknown>,
  principal: string | undefined = PRINCIPAL,
): Promise<StateBinding> {
  return { principal, method, digest: await requestDigest(method, params) };
}

const BINDING = await bindingFor("tools/call", CALL);
const sealer = new RequestStateSealer(KEYS, { now: () => T0 });
const DATA = { step: 2, answers: { seat: "12A" }, list: [1, "two", null] };
const STATE = await sealer.seal(DATA, BINDING);

const refusal = (reason: string): OpenedState => ({ ok: false, reason }) as OpenedState;
const macOf = (secret: string, text: string): string => createHmac("sha256", secret).update(text).digest("base64url");
const payloadText = (state: string): string => Buffer.from(state.split(".")[2] as string, "base64url").toString("utf8");

/** A state written by hand, per stateless.md, MACed with `secret`: the format is the contract between processes and versions. */
function craft(payload: string | Buffer, keyId = "k1", secret = SECRET): string {
  const signed = `v1.${keyId}.${Buffer.from(payload).toString("base64url")}`;
  return `${signed}.${macOf(secret, signed)}`;
}

describe("RequestStateSealer: sealing and opening", () => {
  it("opens what it sealed, for the same principal and request", async () => {
    expect(await sealer.open(STATE, BINDING)).toEqual({ ok: true, data: DATA });
    expect(await sealer.open(await sealer.seal(undefined, BINDING), BINDING)).toEqual({ ok: true, data: undefined });
  });

  it("gives back any JSON value as JSON carries it", async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 3 }), async (data) => {
        expect(await sealer.open(await sealer.seal(data, BINDING), BINDING)).toEqual({ ok: true, data: JSON.parse(JSON.stringify(data)) });
      }),
      { numRuns: runs(100), seed: SEED },
    );
  });

  it("writes v1.<keyId>.<payload>.<MAC of all before it>, with neither the principal nor the request in clear", () => {
    const [version, keyId, payload, mac] = STATE.split(".");
    expect([version, keyId]).toEqual(["v1", "k1"]);
    expect(mac).toBe(macOf(SECRET, `v1.k1.${payload}`));
    const sub = macOf(SECRET, JSON.stringify(["principal", PRINCIPAL]));
    const req = macOf(SECRET, JSON.stringify(["request", BINDING.method, BINDING.digest]));
    expect(JSON.parse(payloadText(STATE))).toEqual({ exp: T0 + 10 * 60 * 1000, sub, req, data: DATA });
    for (const clear of [PRINCIPAL, "alice", "Lisbon", "book_flight", BINDING.digest])
      expect(`${STATE} ${payloadText(STATE)}`).not.toContain(clear);
  });

  it("opens a state written by hand to the documented format", async () => {
    const sub = macOf(SECRET, JSON.stringify(["principal", null]));
    const req = macOf(SECRET, JSON.stringify(["request", "prompts/get", "d"]));
    const state = craft(JSON.stringify({ exp: T0 + 1, sub, req, data: [1] }));
    expect(await sealer.open(state, { principal: undefined, method: "prompts/get", digest: "d" })).toEqual({ ok: true, data: [1] });
  });

  it("accepts key ids with dots, which the format splits from the right", async () => {
    const keys = staticRequestStateKeys([{ id: "2026.07.a", secret: SECRET }]);
    const dotted = new RequestStateSealer(keys);
    const state = await dotted.seal("x", BINDING);
    expect(state.startsWith("v1.2026.07.a.")).toBe(true);
    expect(await dotted.open(state, BINDING)).toEqual({ ok: true, data: "x" });
  });

  it("works with a key store that answers asynchronously", async () => {
    const keys: RequestStateKeys = { current: () => Promise.resolve(KEYS.current()), byId: (id) => Promise.resolve(KEYS.byId(id)) };
    const state = await new RequestStateSealer(keys).seal(1, BINDING);
    expect(await new RequestStateSealer(keys).open(state, BINDING)).toEqual({ ok: true, data: 1 });
  });
});

describe("RequestStateSealer: what it refuses", () => {
  it("refuses every state with one character changed", async () => {
    const alphabet = `${BASE64URL}.`;
    for (let index = 0; index < STATE.length; index++) {
      const char = STATE[index] as string;
      const next = alphabet[(alphabet.indexOf(char) + 1) % alphabet.length] as string;
      const opened = await sealer.open(STATE.slice(0, index) + next + STATE.slice(index + 1), BINDING);
      expect(opened.ok, `character ${index}: ${char} -> ${next}`).toBe(false);
    }
  });

  it("refuses every state with a bit flipped or a character replaced anywhere", async () => {
    const change = fc.tuple(
      fc.nat({ max: STATE.length - 1 }),
      fc.oneof(
        fc.nat({ max: 15 }).map((bit) => ({ bit })),
        fc.string({ minLength: 1, maxLength: 2 }).map((text) => ({ text })),
      ),
    );
    await fc.assert(
      fc.asyncProperty(change, async ([index, how]) => {
        const original = STATE.charCodeAt(index);
        const replacement = "bit" in how ? String.fromCharCode(original ^ (1 << how.bit)) : how.text;
        fc.pre(replacement !== STATE[index]);
        const opened = await sealer.open(STATE.slice(0, index) + replacement + STATE.slice(index + 1), BINDING);
        expect(opened.ok).toBe(false);
        expect(REASONS).toContain((opened as { reason: string }).reason);
      }),
      { numRuns: runs(300), seed: SEED + 1 },
    );
  });

  it("refuses every truncation, from either end", async () => {
    for (let length = 0; length < STATE.length; length++) {
      expect((await sealer.open(STATE.slice(0, length), BINDING)).ok, `first ${length}`).toBe(false);
      expect((await sealer.open(STATE.slice(STATE.length - length), BINDING)).ok, `last ${length}`).toBe(false);
    }
    expect(await sealer.open(`${STATE}A`, BINDING)).toEqual(refusal("malformed"));
  });

  it("refuses a state presented by another principal, or without one", async () => {
    for (const principal of ["bob@example.com", "", "alice@example.com ", undefined]) {
      expect(await sealer.open(STATE, { ...BINDING, principal })).toEqual(refusal("other-principal"));
    }
    const anonymous = await sealer.seal(1, { ...BINDING, principal: undefined });
    expect(await sealer.open(anonymous, { ...BINDING, principal: undefined })).toEqual({ ok: true, data: 1 });
    expect(await sealer.open(anonymous, { ...BINDING, principal: "null" })).toEqual(refusal("other-principal"));
  });

  it("refuses a state presented on another method, tool, prompt, arguments or uri", async () => {
    const others = await Promise.all([
      bindingFor("prompts/get", CALL),
      bindingFor("tools/call", { ...CALL, name: "cancel_flight" }),
      bindingFor("tools/call", { ...CALL, arguments: { to: "Porto", seats: 2 } }),
      bindingFor("tools/call", { name: CALL.name }),
    ]);
    for (const other of [...others, { ...BINDING, method: "prompts/get" }])
      expect(await sealer.open(STATE, other)).toEqual(refusal("other-request"));
    const read = await bindingFor("resources/read", { uri: "file:///a" });
    const state = await sealer.seal(0, read);
    expect(await sealer.open(state, await bindingFor("resources/read", { uri: "file:///b" }))).toEqual(refusal("other-request"));
  });

  it("refuses a state for any other binding, never opening it", async () => {
    const binding = fc.record({ principal: fc.option(fc.string(), { nil: undefined }), method: fc.string(), digest: fc.string() });
    await fc.assert(
      fc.asyncProperty(binding, binding, async (sealedFor, presented) => {
        fc.pre(JSON.stringify(sealedFor) !== JSON.stringify(presented));
        const opened = await sealer.open(await sealer.seal(null, sealedFor), presented);
        expect(opened).toEqual(refusal(sealedFor.principal === presented.principal ? "other-request" : "other-principal"));
      }),
      { numRuns: runs(100), seed: SEED + 2 },
    );
  });

  it("refuses a state once its time to live has passed", async () => {
    let now = T0;
    const clock = new RequestStateSealer(KEYS, { ttlMs: 5000, now: () => now });
    const state = await clock.seal("d", BINDING);
    now = T0 + 4999;
    expect(await clock.open(state, BINDING)).toEqual({ ok: true, data: "d" });
    now = T0 + 5000;
    expect(await clock.open(state, BINDING)).toEqual(refusal("expired"));
    expect(await sealer.open(state, BINDING)).toEqual({ ok: true, data: "d" });
  });

  it("refuses a state of a key it does not know, and one MACed with another secret under a known id", async () => {
    const elsewhere = new RequestStateSealer(staticRequestStateKeys([{ id: "k2", secret: SECRET }]));
    expect(await sealer.open(await elsewhere.seal(1, BINDING), BINDING)).toEqual(refusal("unknown-key"));
    const impostor = new RequestStateSealer(staticRequestStateKeys([{ id: "k1", secret: `${SECRET}?` }]));
    expect(await sealer.open(await impostor.seal(1, BINDING), BINDING)).toEqual(refusal("forged"));
  });

  it.each([
    ["another version", `v2${STATE.slice(2)}`],
    ["a missing part", STATE.slice(0, STATE.lastIndexOf("."))],
    ["no key id", `v1.${STATE.slice(STATE.indexOf(".", 3) + 1)}`],
    ["a key id of 33 characters", STATE.replace("v1.k1.", `v1.${"k".repeat(33)}.`)],
    ["an empty payload", `v1.k1..${STATE.slice(-43)}`],
    ["a payload outside base64url", STATE.replace(".ey", ".e+")],
    ["a MAC one character short", STATE.slice(0, -1)],
    ["a MAC one character long", `${STATE}A`],
    ["a MAC with unused bits set", STATE.slice(0, -1) + BASE64URL[BASE64URL.indexOf(STATE.slice(-1)) + 1]],
    ["a MAC outside base64url", `${STATE.slice(0, -1)}=`],
  ])("calls a state with %s malformed", async (_what, state) => {
    expect(await sealer.open(state, BINDING)).toEqual(refusal("malformed"));
  });

  it.each([
    ["not UTF-8", Buffer.from([0x7b, 0xff, 0x7d])],
    ["not JSON", "{exp:1}"],
    ["an array", "[1]"],
    ["null", "null"],
    ["without exp", JSON.stringify({ sub: "s", req: "r" })],
    ["with an infinite exp", '{"exp":1e999,"sub":"s","req":"r"}'],
    ["with exp as text", JSON.stringify({ exp: "9999999999999", sub: "s", req: "r" })],
    ["without sub", JSON.stringify({ exp: T0 + 1, req: "r" })],
    ["with req as a number", JSON.stringify({ exp: T0 + 1, sub: "s", req: 1 })],
  ])("calls a correctly MACed payload that is %s malformed, and a wrongly MACed one forged", async (_what, payload) => {
    expect(await sealer.open(craft(payload), BINDING)).toEqual(refusal("malformed"));
    expect(await sealer.open(craft(payload, "k1", `${SECRET}?`), BINDING)).toEqual(refusal("forged"));
  });

  it("calls a correctly MACed payload that is not base64url of whole bytes malformed", async () => {
    const signed = "v1.k1.AAAAA";
    expect(await sealer.open(`${signed}.${macOf(SECRET, signed)}`, BINDING)).toEqual(refusal("malformed"));
  });

  it("never throws, whatever it is given", async () => {
    const stateLike = fc
      .tuple(fc.constantFrom("k1", "k2", "x.y"), fc.base64String(), fc.base64String({ minLength: 44, maxLength: 44 }))
      .map(([id, payload, mac]) => `v1.${id}.${payload}.${mac.slice(0, 43)}`.replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", ""));
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.anything(), fc.string(), fc.string({ unit: "binary" }), stateLike), async (state) => {
        const opened = await sealer.open(state, BINDING);
        expect(opened.ok).toBe(false);
        expect(REASONS).toContain((opened as { reason: string }).reason);
      }),
      { numRuns: runs(300), seed: SEED + 3 },
    );
  });

  it("calls anything but a string, or a string over maxLength, malformed", async () => {
    for (const value of [undefined, null, 42, {}, [STATE], new String(STATE)])
      expect(await sealer.open(value, BINDING)).toEqual(refusal("malformed"));
    const small = new RequestStateSealer(KEYS, { maxLength: STATE.length - 1, now: () => T0 });
    expect(await small.open(STATE, BINDING)).toEqual(refusal("malformed"));
    expect(await new RequestStateSealer(KEYS, { maxLength: STATE.length, now: () => T0 }).open(STATE, BINDING)).toEqual({
      ok: true,
      data: DATA,
    });
  });
});

describe("RequestStateSealer: keys", () => {
  it("opens a state of the previous key after rotate(), not one of two rotations ago", async () => {
    const keys = new InMemoryRequestStateKeys();
    const local = new RequestStateSealer(keys);
    const first = await local.seal("first", BINDING);
    keys.rotate();
    const second = await local.seal("second", BINDING);
    expect(second.split(".")[1]).not.toBe(first.split(".")[1]);
    expect(await local.open(first, BINDING)).toEqual({ ok: true, data: "first" });
    keys.rotate();
    expect(await local.open(first, BINDING)).toEqual(refusal("unknown-key"));
    expect(await local.open(second, BINDING)).toEqual({ ok: true, data: "second" });
  });

  it("lets processes configured with the same keys open each other's states, old keys included", async () => {
    const [a, b] = [
      new RequestStateSealer(staticRequestStateKeys([{ id: "k1", secret: SECRET }])),
      new RequestStateSealer(staticRequestStateKeys([{ id: "k1", secret: SECRET }])),
    ];
    expect(await b.open(await a.seal("from a", BINDING), BINDING)).toEqual({ ok: true, data: "from a" });
    expect(await a.open(await b.seal("from b", BINDING), BINDING)).toEqual({ ok: true, data: "from b" });
    const rotated = new RequestStateSealer(
      staticRequestStateKeys([
        { id: "k2", secret: `${SECRET} (new)` },
        { id: "k1", secret: SECRET },
      ]),
    );
    expect(await rotated.open(await a.seal("old", BINDING), BINDING)).toEqual({ ok: true, data: "old" });
    expect(await a.open(await rotated.seal("new", BINDING), BINDING)).toEqual(refusal("unknown-key"));
  });

  it("imports the store's key for each seal and open, keeping none between calls", async () => {
    const importKey = vi.spyOn(crypto.subtle, "importKey");
    const keys = staticRequestStateKeys([
      { id: "n1", secret: SECRET },
      { id: "n0", secret: `${SECRET}0` },
    ]);
    const local = new RequestStateSealer(keys);
    const states = await Promise.all([1, 2, 3].map((data) => local.seal(data, BINDING)));
    for (const state of states) expect((await local.open(state, BINDING)).ok).toBe(true);
    expect(await local.open(craft("{}", "n0", `${SECRET}0`), BINDING)).toEqual(refusal("malformed"));
    expect(importKey.mock.calls.map(([, secret]) => new TextDecoder().decode(secret as Uint8Array))).toEqual([
      ...Array<string>(6).fill(SECRET),
      `${SECRET}0`,
    ]);
  });

  it("imports again when the store gives another secret under a known id", async () => {
    let secret = new TextEncoder().encode(SECRET);
    const keys: RequestStateKeys = { current: () => ({ id: "same", secret }), byId: () => ({ id: "same", secret }) };
    const local = new RequestStateSealer(keys);
    const before = await local.seal("before", BINDING);
    secret = new TextEncoder().encode(`${SECRET} (changed)`);
    expect(await local.open(before, BINDING)).toEqual(refusal("forged"));
    expect(await local.open(await local.seal("after", BINDING), BINDING)).toEqual({ ok: true, data: "after" });
  });

  const unusable = "the request-state key store gave a key without a valid id or with a secret under 32 bytes";

  it.each([
    ["a bad id", { id: "a b", secret: new Uint8Array(32) }],
    ["a short secret", { id: "k", secret: new Uint8Array(31) }],
    ["a secret that is text", { id: "k", secret: SECRET }],
  ])("fails, naming no secret, when the store gives %s", async (_what, key) => {
    const broken = { current: () => key, byId: () => key } as unknown as RequestStateKeys;
    expect((await rejectedWith(new RequestStateSealer(broken).seal(1, BINDING), MCP_CODES.INTERNAL_ERROR)).message).toBe(unusable);
    expect((await rejectedWith(new RequestStateSealer(broken).open(STATE, BINDING), MCP_CODES.INTERNAL_ERROR)).message).toBe(unusable);
  });

  it("cannot seal when the store has no current key", async () => {
    const empty = { current: () => undefined, byId: () => undefined } as unknown as RequestStateKeys;
    expect((await rejectedWith(new RequestStateSealer(empty).seal(1, BINDING), MCP_CODES.INTERNAL_ERROR)).message).toBe(unusable);
    expect(await new RequestStateSealer(empty).open(STATE, BINDING)).toEqual(refusal("unknown-key"));
  });
});

describe("RequestStateSealer: configuration and data", () => {
  it.each([[{ ttlMs: 0 }], [{ ttlMs: -1 }], [{ ttlMs: Number.NaN }], [{ ttlMs: Number.POSITIVE_INFINITY }]])("refuses %o", (options) => {
    const message = "RequestStateSealer: ttlMs must be a positive number of milliseconds";
    expect(() => new RequestStateSealer(KEYS, options)).toThrow(expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS, message }));
  });

  it.each([[{ maxLength: 0 }], [{ maxLength: 1.5 }], [{ maxLength: Number.POSITIVE_INFINITY }]])("refuses %o", (options) => {
    const message = "RequestStateSealer: maxLength must be a positive whole number";
    expect(() => new RequestStateSealer(KEYS, options)).toThrow(expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS, message }));
  });

  it("refuses to seal what JSON cannot carry", async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic["self"] = cyclic;
    for (const data of [10n, cyclic]) {
      const error = await rejectedWith(sealer.seal(data, BINDING), MCP_CODES.INTERNAL_ERROR);
      expect(error.message).toBe("requestState data must be JSON-serialisable");
    }
  });

  it("refuses to seal a state longer than maxLength, quoting no data", async () => {
    const limited = new RequestStateSealer(KEYS, { maxLength: 300 });
    const error = await rejectedWith(limited.seal({ secretNote: "x".repeat(400) }, BINDING), MCP_CODES.INTERNAL_ERROR);
    expect(error.message).toMatch(/^requestState would be \d+ characters, more than the 300 allowed: keep less data in it$/);
    expect(await limited.seal("short", BINDING)).toHaveProperty("length", expect.any(Number));
  });
});

const digestOf = (value: unknown): string => createHash("sha256").update(JSON.stringify(value)).digest("base64url");
const shuffle = <T>(entries: T[], seed: number): T[] =>
  entries
    .map((entry, index) => [entry, (index * 7919 + seed) % 101] as const)
    .toSorted((a, b) => a[1] - b[1])
    .map(([entry]) => entry);

const METHOD = fc.constantFrom("tools/call", "prompts/get", "resources/read", "x/y");

describe("requestDigest", () => {
  it("is SHA-256 (base64url) of the canonical JSON of [method, salient params]", async () => {
    const params = { arguments: { b: [2, { z: 1, a: 0 }], a: "é" }, name: "t", _meta: { k: 1 } };
    expect(await requestDigest("tools/call", params)).toBe(
      digestOf(["tools/call", { arguments: { a: "é", b: [2, { a: 0, z: 1 }] }, name: "t" }]),
    );
    expect(await requestDigest("resources/read", { uri: "u", extra: 1 })).toBe(digestOf(["resources/read", { uri: "u" }]));
    expect(await requestDigest("tools/call", undefined)).toBe(digestOf(["tools/call", {}]));
  });

  it("ignores key order at every depth", async () => {
    const reorder = (value: unknown, seed: number): unknown => {
      if (Array.isArray(value)) return value.map((item) => reorder(item, seed));
      if (typeof value !== "object" || value === null) return value;
      return Object.fromEntries(shuffle(Object.entries(value), seed).map(([key, inner]) => [key, reorder(inner, seed)]));
    };
    await fc.assert(
      fc.asyncProperty(
        METHOD,
        fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 3 })),
        fc.nat(),
        async (method, args, seed) => {
          const params = { name: "n", uri: "u", arguments: args, other: args };
          expect(await requestDigest(method, reorder(params, seed) as Record<string, unknown>)).toBe(await requestDigest(method, params));
        },
      ),
      { numRuns: runs(100), seed: SEED + 4 },
    );
  });

  it.each(["tools/call", "prompts/get", "resources/read", "custom/method"])(
    "ignores _meta, inputResponses and requestState on %s",
    async (method) => {
      const params = { name: "n", arguments: { a: 1 }, uri: "u" };
      const retry = { ...params, _meta: { progressToken: 1 }, inputResponses: { q: { action: "accept" } }, requestState: STATE };
      expect(await requestDigest(method, retry)).toBe(await requestDigest(method, params));
    },
  );

  it("counts every other param of a method it has no rule for", async () => {
    expect(await requestDigest("custom/method", { a: 1 })).not.toBe(await requestDigest("custom/method", { a: 2 }));
    expect(await requestDigest("tools/call", { ...CALL, task: { ttl: 1 } })).toBe(await requestDigest("tools/call", CALL));
  });

  it("differs when the method, name, arguments or uri differ", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string(),
        fc.string(),
        fc.jsonValue({ maxDepth: 2 }),
        fc.jsonValue({ maxDepth: 2 }),
        async (name1, name2, args1, args2) => {
          const [one, two] = [
            { name: name1, arguments: args1, uri: name1 },
            { name: name2, arguments: args2, uri: name2 },
          ];
          const same = JSON.stringify([name1, args1]) === JSON.stringify([name2, args2]);
          fc.pre(!same);
          expect(await requestDigest("tools/call", one)).not.toBe(await requestDigest("tools/call", two));
          expect((await requestDigest("resources/read", one)) === (await requestDigest("resources/read", two))).toBe(name1 === name2);
          expect(await requestDigest("prompts/get", one)).not.toBe(await requestDigest("tools/call", one));
        },
      ),
      { numRuns: runs(200), seed: SEED + 5 },
    );
  });
});
