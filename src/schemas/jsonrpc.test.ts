import { describe, expect, it } from "vitest";

import {
  JsonRpcBatchRequestSchema,
  JsonRpcBatchResponseSchema,
  JsonRpcErrorResponseSchema,
  JsonRpcMessageSchema,
  JsonRpcNotificationSchema,
  JsonRpcRequestSchema,
  JsonRpcResponseSchema,
  JsonRpcResultResponseSchema,
  RequestMetaSchema,
} from "./jsonrpc.js";
import { validate } from "./validate.js";

const request = { jsonrpc: "2.0", id: 1, method: "tools/list" };
const notification = { jsonrpc: "2.0", method: "notifications/initialized" };
const resultResponse = { jsonrpc: "2.0", id: "a", result: {} };
const errorResponse = { jsonrpc: "2.0", id: 1, error: { code: -32601, message: "Method not found" } };

const accepts = (schema: Parameters<typeof validate>[0], value: unknown): boolean => validate(schema, value).ok;

describe("JsonRpcRequestSchema", () => {
  it.each([
    ["an integer id", request],
    ["a string id", { ...request, id: "req-1" }],
    ["params", { ...request, params: { cursor: "c", _meta: { progressToken: 1 } } }],
    ["an extension key", { ...request, "x-trace": "t" }],
  ])("accepts %s", (_label, value) => {
    expect(validate(JsonRpcRequestSchema, value)).toEqual({ ok: true, value });
  });

  it.each([
    ["a null id", { ...request, id: null }],
    ["a fractional id", { ...request, id: 1.5 }],
    ["no id", notification],
    ["another JSON-RPC version", { ...request, jsonrpc: "1.0" }],
    ["no method", { jsonrpc: "2.0", id: 1 }],
    ["positional params", { ...request, params: [1, 2] }],
  ])("rejects %s", (_label, value) => {
    expect(accepts(JsonRpcRequestSchema, value)).toBe(false);
  });
});

describe("JsonRpcNotificationSchema", () => {
  it("accepts a notification with or without params", () => {
    expect(accepts(JsonRpcNotificationSchema, notification)).toBe(true);
    expect(accepts(JsonRpcNotificationSchema, { ...notification, params: { _meta: {} } })).toBe(true);
  });

  it.each([
    ["an id", { ...notification, id: 1 }],
    ["a null id", { ...notification, id: null }],
    ["no method", { jsonrpc: "2.0" }],
  ])("rejects %s", (_label, value) => {
    expect(accepts(JsonRpcNotificationSchema, value)).toBe(false);
  });
});

describe("JsonRpcResultResponseSchema", () => {
  it("accepts a result with _meta and extension keys", () => {
    const value = { ...resultResponse, result: { _meta: { a: 1 }, tools: [] } };
    expect(validate(JsonRpcResultResponseSchema, value)).toEqual({ ok: true, value });
  });

  it.each([
    ["a null id", { ...resultResponse, id: null }],
    ["no id", { jsonrpc: "2.0", result: {} }],
    ["a result that is not an object", { ...resultResponse, result: 5 }],
    ["both result and error", { ...resultResponse, error: errorResponse.error }],
  ])("rejects %s", (_label, value) => {
    expect(accepts(JsonRpcResultResponseSchema, value)).toBe(false);
  });
});

describe("JsonRpcErrorResponseSchema", () => {
  it.each([
    ["an id", errorResponse],
    ["a null id, for a message that could not be read", { ...errorResponse, id: null }],
    ["no id, as 2025-11-25 writes it", { jsonrpc: "2.0", error: errorResponse.error }],
    ["error data", { ...errorResponse, error: { ...errorResponse.error, data: { detail: "x" } } }],
  ])("accepts %s", (_label, value) => {
    expect(validate(JsonRpcErrorResponseSchema, value)).toEqual({ ok: true, value });
  });

  it.each([
    ["a fractional code", { ...errorResponse, error: { code: -32600.5, message: "x" } }],
    ["a string code", { ...errorResponse, error: { code: "-32600", message: "x" } }],
    ["no message", { ...errorResponse, error: { code: -32600 } }],
    ["no error", { jsonrpc: "2.0", id: 1 }],
    ["both error and result", { ...errorResponse, result: {} }],
  ])("rejects %s", (_label, value) => {
    expect(accepts(JsonRpcErrorResponseSchema, value)).toBe(false);
  });
});

describe("JsonRpcMessageSchema", () => {
  it.each([
    ["a request", request],
    ["a notification", notification],
    ["a result response", resultResponse],
    ["an error response", errorResponse],
  ])("accepts %s", (_label, value) => {
    expect(validate(JsonRpcMessageSchema, value)).toEqual({ ok: true, value });
  });

  it.each([
    ["a batch", [request]],
    ["a string", "ping"],
    ["an object with neither method, result nor error", { jsonrpc: "2.0", id: 1 }],
  ])("rejects %s", (_label, value) => {
    expect(accepts(JsonRpcMessageSchema, value)).toBe(false);
  });

  it("accepts responses through JsonRpcResponseSchema but not requests", () => {
    expect(accepts(JsonRpcResponseSchema, resultResponse)).toBe(true);
    expect(accepts(JsonRpcResponseSchema, errorResponse)).toBe(true);
    expect(accepts(JsonRpcResponseSchema, request)).toBe(false);
  });
});

describe("batches", () => {
  it("accepts requests and notifications in a request batch, not responses or an empty batch", () => {
    expect(accepts(JsonRpcBatchRequestSchema, [request, notification])).toBe(true);
    expect(accepts(JsonRpcBatchRequestSchema, [resultResponse])).toBe(false);
    expect(validate(JsonRpcBatchRequestSchema, [])).toEqual({ ok: false, issues: "length must be at least 1" });
  });

  it("accepts responses in a response batch, not requests or an empty batch", () => {
    expect(accepts(JsonRpcBatchResponseSchema, [resultResponse, errorResponse])).toBe(true);
    expect(accepts(JsonRpcBatchResponseSchema, [request])).toBe(false);
    expect(accepts(JsonRpcBatchResponseSchema, [])).toBe(false);
  });
});

describe("RequestMetaSchema", () => {
  it("accepts string and integer progress tokens and keeps other keys", () => {
    expect(validate(RequestMetaSchema, { progressToken: "p", traceparent: "00-x" })).toEqual({
      ok: true,
      value: { progressToken: "p", traceparent: "00-x" },
    });
    expect(accepts(RequestMetaSchema, { progressToken: 42 })).toBe(true);
    expect(accepts(RequestMetaSchema, {})).toBe(true);
  });

  it("rejects a progress token that is neither a string nor an integer", () => {
    expect(accepts(RequestMetaSchema, { progressToken: { id: 1 } })).toBe(false);
    expect(accepts(RequestMetaSchema, { progressToken: 0.5 })).toBe(false);
  });
});
