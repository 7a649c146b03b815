import * as fc from "fast-check";
import { describe, expect, it, vi } from "vitest";

import { MCP_CODES } from "../error-codes/error-codes.js";
import { MCPError } from "../error-codes/mcp-error.js";
import { InMemoryRequestStateKeys, REQUEST_STATE_KEY_ID, staticRequestStateKeys, type RequestStateKey } from "./request-state-keys.js";

const runs = (normal: number): number => Number(process.env["FUZZ_RUNS"]) || normal;
const SEED = 20260728;
const SECRET = "a shared secret of more than 32 bytes";
const bytesOf = (text: string): Uint8Array => new TextEncoder().encode(text);

/** The MCPError a bad configuration throws, checked to carry no secret. */
function configError(build: () => unknown, secret = SECRET): MCPError {
  let thrown: unknown;
  try {
    build();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(MCPError);
  const error = thrown as MCPError;
  expect(error.code).toBe(MCP_CODES.INVALID_PARAMS);
  expect(error.message).not.toContain(secret);
  return error;
}

describe("staticRequestStateKeys", () => {
  it("seals with the first key and opens with every key, by id", async () => {
    const keys = staticRequestStateKeys([
      { id: "key.2026-07_b", secret: SECRET },
      { id: "old", secret: bytesOf(`${SECRET} (old)`) },
    ]);
    expect(await keys.current()).toEqual({ id: "key.2026-07_b", secret: bytesOf(SECRET) });
    expect(await keys.byId("old")).toEqual({ id: "old", secret: bytesOf(`${SECRET} (old)`) });
    expect(await keys.byId("key.2026-07_b")).toBe(await keys.current());
    expect(await keys.byId("missing")).toBeUndefined();
  });

  it("counts a string secret in UTF-8 bytes, not characters", async () => {
    expect((await staticRequestStateKeys([{ id: "k", secret: "é".repeat(16) }]).current()).secret).toHaveLength(32);
    configError(() => staticRequestStateKeys([{ id: "k", secret: "é".repeat(15) + "e" }]));
    configError(() => staticRequestStateKeys([{ id: "k", secret: "e".repeat(31) }]));
  });

  it("keeps its own copy of a Uint8Array secret", async () => {
    const secret = bytesOf(SECRET);
    const keys = staticRequestStateKeys([{ id: "k", secret }]);
    secret.fill(0);
    expect((await keys.current()).secret).toEqual(bytesOf(SECRET));
  });

  it("refuses an empty list, or no list", () => {
    expect(configError(() => staticRequestStateKeys([])).message).toBe("staticRequestStateKeys needs at least one key");
    expect(configError(() => staticRequestStateKeys(undefined as never)).message).toBe("staticRequestStateKeys needs at least one key");
  });

  it.each([
    ["", "empty"],
    ["x".repeat(33), "33 characters"],
    ["a b", "a space"],
    ["a/b", "a slash"],
    ["ключ", "non-ASCII"],
    [7, "a number"],
  ])("refuses an id that is %j (%s), naming the key by position", (id, _what) => {
    const error = configError(
      () =>
        staticRequestStateKeys([
          { id: "fine", secret: SECRET },
          { id: id as string, secret: SECRET },
        ]),
      SECRET,
    );
    expect(error.message).toBe("request-state key #1: id must be 1 to 32 characters of A-Z a-z 0-9 . _ -");
  });

  it("refuses a key that is not an object", () => {
    expect(configError(() => staticRequestStateKeys([null as never])).message).toBe(
      "request-state key #0: id must be 1 to 32 characters of A-Z a-z 0-9 . _ -",
    );
  });

  it("refuses two keys with one id, naming both positions and neither secret", () => {
    const error = configError(
      () =>
        staticRequestStateKeys([
          { id: "a", secret: SECRET },
          { id: "b", secret: SECRET },
          { id: "a", secret: `${SECRET}!` },
        ]),
      SECRET,
    );
    expect(error.message).toBe("request-state keys #0 and #2 have the same id; ids must be unique");
  });

  it.each([[undefined], [42], [new ArrayBuffer(40)], [[1, 2, 3]]])("refuses a secret that is %o", (secret) => {
    expect(configError(() => staticRequestStateKeys([{ id: "k", secret: secret as never }])).message).toBe(
      "request-state key #0: secret must be a Uint8Array or a string",
    );
  });

  it("never puts a secret, or an id that may be one, into its messages", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 8, maxLength: 24, unit: "binary-ascii" }).map((text) => `s3cr3t:${text}`),
        (secret) => {
          expect(configError(() => staticRequestStateKeys([{ id: "k", secret }]), secret).message).toMatch(
            /^request-state key #0: secret must/,
          );
          expect(configError(() => staticRequestStateKeys([{ id: secret, secret }]), secret).message).toMatch(
            /^request-state key #0: id must/,
          );
        },
      ),
      { numRuns: runs(100), seed: SEED },
    );
  });
});

describe("InMemoryRequestStateKeys", () => {
  it("makes one random 32-byte key on first use and keeps it until rotate()", () => {
    const random = vi.spyOn(crypto, "getRandomValues");
    const keys = new InMemoryRequestStateKeys();
    expect(random).not.toHaveBeenCalled();
    const first = keys.current();
    expect(first.secret).toHaveLength(32);
    expect(first.id).toMatch(REQUEST_STATE_KEY_ID);
    expect(random.mock.results.map((result) => result.value)).toContain(first.secret);
    expect(keys.current()).toBe(first);
    expect(keys.byId(first.id)).toBe(first);
  });

  it("makes no key for byId before first use", () => {
    const keys = new InMemoryRequestStateKeys();
    expect(keys.byId("anything")).toBeUndefined();
    const made = keys.current();
    expect(keys.byId(made.id)).toBe(made);
  });

  it("gives every process, and every rotation, a key of its own", () => {
    const a = new InMemoryRequestStateKeys();
    const b = new InMemoryRequestStateKeys();
    const before = a.current();
    a.rotate();
    const ids = new Set([before.id, a.current().id, b.current().id]);
    expect(ids.size).toBe(3);
    expect(a.current().secret).not.toEqual(before.secret);
    expect(b.current().secret).not.toEqual(before.secret);
  });

  it("keeps one previous key by default: two rotations ago is gone", () => {
    const keys = new InMemoryRequestStateKeys();
    const oldest = keys.current();
    keys.rotate();
    const previous = keys.current();
    expect(keys.byId(oldest.id)).toBe(oldest);
    keys.rotate();
    expect(keys.byId(previous.id)).toBe(previous);
    expect(keys.byId(oldest.id)).toBeUndefined();
  });

  it.each([0, 3])("keeps exactly `keep` = %i previous keys", (keep) => {
    const keys = new InMemoryRequestStateKeys({ keep });
    const made: RequestStateKey[] = [keys.current()];
    for (let round = 0; round < 5; round++) {
      keys.rotate();
      made.push(keys.current());
    }
    const kept = made.filter((key) => keys.byId(key.id) === key);
    expect(kept).toEqual(made.slice(-(keep + 1)));
  });

  it("uses the key made by a rotate() before first use as the current one", () => {
    const keys = new InMemoryRequestStateKeys();
    keys.rotate();
    const current = keys.current();
    keys.rotate();
    expect(keys.byId(current.id)).toBe(current);
    expect(keys.current()).not.toBe(current);
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])("refuses keep = %d", (keep) => {
    expect(configError(() => new InMemoryRequestStateKeys({ keep })).message).toBe(
      "InMemoryRequestStateKeys: keep must be a whole number of keys, 0 or more",
    );
  });
});
