import * as fc from "fast-check";
import { describe, expect, it } from "vitest";

import { META_KEYS } from "../../constants/index.js";
import { MCPServer } from "../mcp-server/mcp-server.js";
import { claimsStatelessEra, requestedVersion } from "./request-meta.js";

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

describe("a request's _meta, on anything a client may send", () => {
  it("is served, or refused before any handler with -32602 / -32022; nothing else ever comes of it", async () => {
    const server = new MCPServer({ name: "fuzzed", version: "1" });
    server.tool("t", { description: "a tool" }, () => ({ content: [] }));
    const channel = { signal: new AbortController().signal, inbound: undefined, notify: () => Promise.resolve() };
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          anything,
          nearMeta.map((meta) => ({ _meta: meta })),
        ),
        async (params) => {
          expect(typeof claimsStatelessEra(params)).toBe("boolean");
          const version = requestedVersion(params);
          expect(version === undefined || typeof version === "string").toBe(true);
          const answer = await server.serveStateless(1, "tools/list", params as Record<string, unknown>, channel);
          // A refusal quotes at most 64 characters of what it was sent.
          const verdict =
            "result" in answer
              ? ["served", answer.result["resultType"]]
              : ["refused", answer.envelope, [-32602, -32022].includes(answer.error.code), answer.error.message.length < 600];
          expect([
            ["served", "complete"],
            ["refused", true, true, true],
          ]).toContainEqual(verdict);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
