import * as fc from "fast-check";
import { describe, expect, it } from "vitest";

import { META_KEYS } from "../../constants/index.js";
import { JsonRpcError } from "../../error-codes/mcp-error.js";
import { claimsStatelessEra, readRequestMeta, requestedVersion, type RequestMeta } from "./request-meta.js";

const anything = fc.anything({ maxDepth: 3, withNullPrototype: true, withObjectString: true });

/** `_meta` objects near valid ones: each per-request key valid, absent or replaced by anything. */
const nearMeta = fc.record(
  {
    [META_KEYS.protocolVersion]: fc.oneof(fc.constant("2026-07-28"), fc.string(), anything),
    [META_KEYS.clientCapabilities]: fc.oneof(fc.constant({}), fc.dictionary(fc.string(), anything), anything),
    [META_KEYS.clientInfo]: fc.oneof(fc.constant({ name: "c", version: "1" }), anything),
    [META_KEYS.logLevel]: fc.oneof(fc.constantFrom("debug", "error"), anything),
  },
  { requiredKeys: [] },
);

describe("the _meta reader, on anything a client may send", () => {
  it("answers a well-formed meta, or refuses with -32602 / -32022; it never throws anything else", () => {
    fc.assert(
      fc.property(fc.oneof(anything, nearMeta.map((meta) => ({ _meta: meta }))), (params) => {
        expect(typeof claimsStatelessEra(params)).toBe("boolean");
        const version = requestedVersion(params);
        expect(version === undefined || typeof version === "string").toBe(true);
        let read: RequestMeta | undefined;
        let refusal: unknown;
        try {
          read = readRequestMeta(params, ["2026-07-28"]);
        } catch (error) {
          refusal = error;
        }
        // A refusal quotes at most 64 characters of what it was sent.
        const verdict = read
          ? ["read", read.protocolVersion, typeof read.capabilities]
          : ["refused", refusal instanceof JsonRpcError, [-32602, -32022].includes((refusal as JsonRpcError).code), (refusal as Error).message.length < 400];
        expect([
          ["read", "2026-07-28", "object"],
          ["refused", true, true, true],
        ]).toContainEqual(verdict);
      }),
      { numRuns: 2000 },
    );
  });
});
