import { describe, expect, expectTypeOf, it } from "vitest";

import * as schemas from "./schemas.js";
import type {
  CacheScope,
  CallToolResult,
  ClientCapabilities,
  ContentBlock,
  CreateMessageResult,
  DiscoverResult,
  ElicitRequestParams,
  Implementation,
  InputRequest,
  InputRequiredResult,
  InputResponse,
  InputResponses,
  JsonRpcMessage,
  LoggingLevel,
  RequestMeta,
  ResultType,
  StatelessClientCapabilities,
  StatelessRequestMeta,
  SubscriptionsListenRequestParams,
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
    expect(schemas.revision20260728.codec.version).toBe("2026-07-28");
    expect(schemas.codecFor("2026-07-28")).toBe(schemas.revision20260728.codec);
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
    expectTypeOf<ClientCapabilities>().toHaveProperty("tasks");
    expectTypeOf<RequestMeta["io.modelcontextprotocol/protocolVersion"]>().toEqualTypeOf<unknown>();
    const level: LoggingLevel = "notice";
    expect(schemas.LOGGING_LEVELS).toContain(level);
  });

  it("infers the types of revision 2026-07-28 beside them", () => {
    expectTypeOf<StatelessRequestMeta["io.modelcontextprotocol/protocolVersion"]>().toEqualTypeOf<string>();
    expectTypeOf<StatelessRequestMeta["io.modelcontextprotocol/logLevel"]>().toEqualTypeOf<LoggingLevel | undefined>();
    expectTypeOf<StatelessClientCapabilities>().toHaveProperty("extensions");
    expectTypeOf<ResultType>().toEqualTypeOf<"complete" | "input_required">();
    expectTypeOf<CacheScope>().toEqualTypeOf<"public" | "private">();
    expectTypeOf<InputRequest["method"]>().toEqualTypeOf<"elicitation/create" | "sampling/createMessage" | "roots/list">();
    expectTypeOf<InputRequiredResult["resultType"]>().toEqualTypeOf<"input_required">();
    expectTypeOf<InputResponses>().toEqualTypeOf<Record<string, InputResponse>>();
    expectTypeOf<DiscoverResult["supportedVersions"]>().toEqualTypeOf<string[]>();
    expectTypeOf<SubscriptionsListenRequestParams["notifications"]["resourceSubscriptions"]>().toEqualTypeOf<string[] | undefined>();
    const scope: CacheScope = "private";
    expect(schemas.revision20260728.CacheScopeSchema.def.entries).toHaveProperty(scope);
  });
});
