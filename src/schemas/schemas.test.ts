import { describe, expect, expectTypeOf, it } from "vitest";

import * as schemas from "./schemas.js";
import type {
  CallToolResult,
  ContentBlock,
  CreateMessageResult,
  ElicitRequestParams,
  Implementation,
  JsonRpcMessage,
  LoggingLevel,
  Task,
} from "./schemas.js";

describe("the schemas barrel", () => {
  it("exports validation, codecs, envelopes and every revision", () => {
    expect(schemas.validate(schemas.JsonRpcMessageSchema, { jsonrpc: "2.0", method: "ping", id: 1 }).ok).toBe(true);
    expect(schemas.codecFor("2025-06-18")).toBe(schemas.CODECS["2025-06-18"]);
    expect(schemas.revision20241105.codec.version).toBe("2024-11-05");
    expect(schemas.revision20250326.codec.version).toBe("2025-03-26");
    expect(schemas.revision20250618.codec.version).toBe("2025-06-18");
    expect(schemas.revision20251125.codec.version).toBe("2025-11-25");
  });

  it("exports the logging levels in severity order", () => {
    expect(schemas.LOGGING_LEVELS.indexOf("debug")).toBe(0);
    expect(schemas.LOGGING_LEVELS.at(-1)).toBe("emergency");
    expect(schemas.LOGGING_LEVELS.indexOf("warning")).toBeLessThan(schemas.LOGGING_LEVELS.indexOf("error"));
  });

  it("infers the public types from the newest revision", () => {
    expectTypeOf<ContentBlock["type"]>().toEqualTypeOf<"text" | "image" | "audio" | "resource_link" | "resource">();
    expectTypeOf<CallToolResult["structuredContent"]>().toEqualTypeOf<Record<string, unknown> | undefined>();
    expectTypeOf<Implementation>().toHaveProperty("icons");
    expectTypeOf<ElicitRequestParams>().toHaveProperty("message");
    expectTypeOf<Task["ttl"]>().toEqualTypeOf<number | null>();
    expectTypeOf<LoggingLevel>().toEqualTypeOf<(typeof schemas.LOGGING_LEVELS)[number]>();
    expectTypeOf<CreateMessageResult["model"]>().toEqualTypeOf<string>();
    expectTypeOf<JsonRpcMessage>().toHaveProperty("jsonrpc");
    const level: LoggingLevel = "notice";
    expect(schemas.LOGGING_LEVELS).toContain(level);
  });
});
