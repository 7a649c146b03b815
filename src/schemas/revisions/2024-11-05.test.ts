import { LOGGING_LEVELS } from "../../constants/index.js";
import { describe, expect, it } from "vitest";

import { validate } from "../validate.js";
import * as revision from "./2024-11-05.js";

describe("2024-11-05", () => {
  it("keeps unknown keys at every depth", () => {
    const result = {
      content: [
        { type: "text", text: "hi", annotations: { audience: ["assistant"], priority: 0, "x-a": 1 }, "x-b": 2 },
        { type: "resource", resource: { uri: "file:///a", blob: "AA==", "x-c": 3 } },
      ],
      "x-d": 4,
    };
    expect(validate(revision.CallToolResultSchema, result)).toEqual({ ok: true, value: result });
    const params = {
      protocolVersion: "2024-11-05",
      capabilities: { experimental: { "vendor.feature": { level: 2 } }, roots: { listChanged: true, "x-e": 5 } },
      clientInfo: { name: "c", version: "1", "x-f": 6 },
      _meta: { progressToken: "p", traceparent: "00-abc-def-01" },
    };
    expect(validate(revision.InitializeRequestParamsSchema, params)).toEqual({ ok: true, value: params });
  });

  it("requires experimental capabilities to be objects", () => {
    const params = { protocolVersion: "x", capabilities: { experimental: { feature: true } }, clientInfo: { name: "c", version: "1" } };
    expect(validate(revision.InitializeRequestParamsSchema, params)).toEqual({
      ok: false,
      issues: "capabilities.experimental.feature: expected object, received boolean",
    });
  });

  it("requires the request id in a cancellation", () => {
    expect(validate(revision.CancelledNotificationParamsSchema, { reason: "gone" }).ok).toBe(false);
  });

  it("orders logging levels from least to most severe", () => {
    expect(LOGGING_LEVELS).toEqual(["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]);
    expect(revision.LoggingLevelSchema.options).toEqual(LOGGING_LEVELS);
  });

  it("offers neither batching nor the later revisions' methods", () => {
    expect(revision.codec.batching).toBe(false);
    expect(Object.keys(revision.codec.serverRequests)).toEqual(["ping", "sampling/createMessage", "roots/list"]);
  });
});
