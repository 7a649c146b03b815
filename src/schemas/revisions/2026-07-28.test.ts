import { describe, expect, it } from "vitest";

import { META_KEYS } from "../../constants/index.js";
import type { RevisionCodec } from "../codec.js";
import { validate } from "../validate.js";
import * as revision from "./2026-07-28.js";
import {
  accepts,
  clientNotification,
  clientParams,
  clientResult,
  type Difference,
  implementation,
  initializeParams,
  serverNotification,
  serverParams,
  textContent,
  tool,
} from "./revisions.test-helpers.js";

const meta = { [META_KEYS.protocolVersion]: "2026-07-28", [META_KEYS.clientCapabilities]: {} };
const withMeta = (params: object = {}): object => ({ _meta: meta, ...params });
const LEVELS = '"debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency"';

const formQuestion = {
  method: "elicitation/create",
  params: { message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } },
};
const urlQuestion = { method: "elicitation/create", params: { mode: "url", message: "Sign in", url: "https://example.com/sign-in" } };
const samplingQuestion = {
  method: "sampling/createMessage",
  params: { messages: [{ role: "user", content: textContent }], maxTokens: 10 },
};
const rootsQuestion = { method: "roots/list", params: {} };
const inputRequired = (inputRequests: object): object => ({ resultType: "input_required", inputRequests });
const capabilities = (value: object): boolean => validate(revision.ClientCapabilitiesSchema, value).ok;

/** The params and a complete result of each method that may ask for input. */
const RETRYABLE = [
  ["tools/call", withMeta({ name: "search" }), { content: [textContent] }],
  ["prompts/get", withMeta({ name: "greet" }), { messages: [{ role: "user", content: textContent }] }],
  ["resources/read", withMeta({ uri: "file:///a" }), { contents: [{ uri: "file:///a", text: "x" }] }],
] as const;

const differences: Difference[] = [
  ["tools/call params without the per-request _meta", clientParams("tools/call"), { name: "search" }, true, false],
  ["tools/call params with the per-request _meta", clientParams("tools/call"), withMeta({ name: "search" }), true, true],
  ["list params left out", clientParams("tools/list"), undefined, true, false],
  ["list params with the per-request _meta", clientParams("tools/list"), withMeta(), true, true],
  ["a tools/call result without resultType", clientResult("tools/call"), { content: [textContent] }, true, true],
  ["a tools/call result of an unknown resultType", clientResult("tools/call"), { resultType: "task", content: [textContent] }, true, false],
  ["a tools/call result asking for input", clientResult("tools/call"), inputRequired({ q: formQuestion }), false, true],
  [
    "a tools/list result asking for input",
    clientResult("tools/list"),
    { tools: [], resultType: "input_required", requestState: "s" },
    true,
    false,
  ],
  ["structured content that is an array", clientResult("tools/call"), { content: [], structuredContent: [1] }, false, true],
  [
    "an input schema property that is no object",
    clientResult("tools/list"),
    { tools: [{ ...tool, inputSchema: { type: "object", properties: { a: true } } }] },
    false,
    true,
  ],
  ["an output schema of array type", clientResult("tools/list"), { tools: [{ ...tool, outputSchema: { type: "array" } }] }, false, true],
  ["ttlMs of the wrong type", clientResult("tools/list"), { tools: [], ttlMs: "1m" }, true, false],
  ["an unknown cache scope", clientResult("resources/read"), { contents: [], cacheScope: "shared" }, true, false],
  ["a cancellation without a request id", clientNotification("notifications/cancelled"), { reason: "gone" }, true, false],
  ["a cancellation from the server", serverNotification("notifications/cancelled"), { requestId: "listen-1" }, true, true],
  [
    "a subscription id that is no request id",
    serverNotification("notifications/tools/list_changed"),
    { _meta: { [META_KEYS.subscriptionId]: {} } },
    true,
    false,
  ],
  ["a tools/call task request", clientParams("tools/call"), withMeta({ name: "search", task: { ttl: "1m" } }), false, true],
  ["server/discover", clientParams("server/discover"), withMeta(), false, true],
  ["subscriptions/listen", clientParams("subscriptions/listen"), withMeta({ notifications: { toolsListChanged: true } }), false, true],
  ["a subscription acknowledgement", serverNotification("notifications/subscriptions/acknowledged"), { notifications: {} }, false, true],
  ["initialize", clientParams("initialize"), initializeParams({}), true, false],
  ["ping", clientParams("ping"), withMeta(), true, false],
  ["logging/setLevel", clientParams("logging/setLevel"), withMeta({ level: "info" }), true, false],
  ["resources/subscribe", clientParams("resources/subscribe"), withMeta({ uri: "file:///a" }), true, false],
  ["tasks/result", clientParams("tasks/result"), withMeta({ taskId: "t" }), true, false],
  ["tasks/list", clientParams("tasks/list"), withMeta(), true, false],
  ["tasks/update", clientParams("tasks/update"), withMeta({ taskId: "t", inputResponses: {} }), false, true],
  [
    "a task created for a tools/call",
    clientResult("tools/call"),
    {
      resultType: "task",
      taskId: "t",
      status: "working",
      createdAt: "2026-01-01T00:00:00Z",
      lastUpdatedAt: "2026-01-01T00:00:00Z",
      ttlMs: null,
    },
    false,
    true,
  ],
  [
    "a core task created for a tools/call",
    clientResult("tools/call"),
    { task: { taskId: "t", status: "working", createdAt: "2026-01-01T00:00:00Z", lastUpdatedAt: "2026-01-01T00:00:00Z", ttl: null } },
    true,
    false,
  ],
  [
    "tasks/get of a task with a ttl but no ttlMs",
    clientResult("tasks/get"),
    { taskId: "t", status: "working", createdAt: "c", lastUpdatedAt: "u", ttl: 5 },
    true,
    false,
  ],
  [
    "notifications/tasks",
    serverNotification("notifications/tasks"),
    { taskId: "t", status: "cancelled", createdAt: "c", lastUpdatedAt: "u", ttlMs: 1000 },
    false,
    true,
  ],
  ["an elicitation request from the server", serverParams("elicitation/create"), formQuestion.params, true, false],
  ["progress from the client", clientNotification("notifications/progress"), { progressToken: 1, progress: 1 }, true, false],
  ["roots list_changed", clientNotification("notifications/roots/list_changed"), {}, true, false],
  ["elicitation complete", serverNotification("notifications/elicitation/complete"), { elicitationId: "e" }, true, false],
];

describe("2026-07-28 against 2025-11-25", () => {
  it.each(differences)("%s", (_label, pick, value, older, newer) => {
    expect(accepts("2025-11-25", pick, value)).toBe(older);
    expect(accepts("2026-07-28", pick, value)).toBe(newer);
  });
});

describe("the per-request _meta", () => {
  const methods = Object.keys(revision.codec.clientRequests);

  it.each(methods)("%s: refuses params without a protocol version or capabilities, naming the key", (method) => {
    const schema = revision.codec.clientRequests[method as keyof typeof revision.codec.clientRequests].params;
    const { [META_KEYS.protocolVersion]: _version, ...noVersion } = meta;
    const { [META_KEYS.clientCapabilities]: _capabilities, ...noCapabilities } = meta;
    expect(validate(schema, { _meta: noVersion })).toMatchObject({
      ok: false,
      issues: expect.stringContaining('_meta["io.modelcontextprotocol/protocolVersion"]: is required'),
    });
    expect(validate(schema, { _meta: noCapabilities })).toMatchObject({
      ok: false,
      issues: expect.stringContaining('_meta["io.modelcontextprotocol/clientCapabilities"]: is required'),
    });
    expect(validate(schema, {})).toMatchObject({ ok: false, issues: expect.stringContaining("_meta: is required") });
  });

  it("takes every key it defines, and keys of others", () => {
    const full = {
      ...meta,
      progressToken: 7,
      baggage: "k=v",
      [META_KEYS.clientInfo]: { ...implementation, title: "Example", websiteUrl: "https://example.com" },
      [META_KEYS.logLevel]: "debug",
      [META_KEYS.clientCapabilities]: {
        roots: {},
        sampling: { context: {}, tools: {} },
        elicitation: { form: {}, url: {} },
        extensions: { "com.example/x": {} },
        experimental: { y: {} },
      },
      "com.example/trace": { id: 1 },
    };
    expect(validate(revision.RequestMetaSchema, full)).toEqual({ ok: true, value: full });
  });

  it("refuses an unknown log level and a client info without a name", () => {
    expect(validate(revision.RequestMetaSchema, { ...meta, [META_KEYS.logLevel]: "trace" })).toStrictEqual({
      ok: false,
      issues: `["io.modelcontextprotocol/logLevel"]: expected ${LEVELS}`,
    });
    expect(validate(revision.RequestMetaSchema, { ...meta, [META_KEYS.logLevel]: 3 })).toStrictEqual({
      ok: false,
      issues: `["io.modelcontextprotocol/logLevel"]: expected ${LEVELS}`,
    });
    expect(validate(revision.RequestMetaSchema, { ...meta, [META_KEYS.clientInfo]: { version: "1" } })).toStrictEqual({
      ok: false,
      issues: '["io.modelcontextprotocol/clientInfo"].name: is required',
    });
  });

  it("types the capabilities of this revision: extensions, roots without listChanged, no tasks", () => {
    expect(capabilities({ extensions: { "com.example/x": "on" } })).toBe(false);
    expect(capabilities({ roots: { listChanged: "yes" } })).toBe(true);
    expect(capabilities({ tasks: { list: 1 } })).toBe(true);
    expect(validate(revision.ServerCapabilitiesSchema, { extensions: { "io.modelcontextprotocol/tasks": [] } }).ok).toBe(false);
    expect(validate(revision.ServerCapabilitiesSchema, { tools: { listChanged: true }, tasks: { list: 1 } }).ok).toBe(true);
  });
});

describe("results", () => {
  it("hand a result without resultType back as it came (the client reads it as complete)", () => {
    const result = { tools: [tool] };
    expect(validate(revision.codec.clientRequests["tools/list"].result, result)).toEqual({ ok: true, value: result });
  });

  it("accept only the result types the core protocol defines", () => {
    expect(revision.ResultTypeSchema.def.entries).toEqual({ complete: "complete", input_required: "input_required" });
    expect(validate(revision.ResultSchema, { resultType: "complete" }).ok).toBe(true);
    expect(validate(revision.ResultSchema, { resultType: "input_required" })).toStrictEqual({
      ok: false,
      issues: 'resultType: expected "complete"',
    });
  });

  it.each(RETRYABLE)("%s: its own result, or input asked for with each kind of request", (method, _params, result) => {
    const schema = revision.codec.clientRequests[method].result;
    for (const value of [result, { ...result, resultType: "complete" }]) expect(validate(schema, value)).toEqual({ ok: true, value });
    for (const question of [formQuestion, urlQuestion, samplingQuestion, rootsQuestion, { method: "roots/list" }]) {
      const value = inputRequired({ q: question });
      expect(validate(schema, value)).toEqual({ ok: true, value });
    }
    const stateOnly = { resultType: "input_required", requestState: "opaque" };
    expect(validate(schema, stateOnly)).toEqual({ ok: true, value: stateOnly });
    expect(validate(schema, { resultType: "input_required" })).toStrictEqual({ ok: false, issues: "inputRequests: is required" });
  });

  it("refuses an input request of a method outside the three, or with a session-era field missing", () => {
    const schema = revision.InputRequiredResultSchema;
    expect(validate(schema, inputRequired({ q: { method: "tools/call", params: {} } }))).toStrictEqual({
      ok: false,
      issues: 'inputRequests.q.method: expected one of "elicitation/create" | "sampling/createMessage" | "roots/list"',
    });
    expect(validate(schema, inputRequired({ q: { method: "elicitation/create", params: { mode: "url", message: "m" } } }))).toStrictEqual({
      ok: false,
      issues: "inputRequests.q.params.url: is required",
    });
    expect(validate(schema, inputRequired({ q: { method: "sampling/createMessage" } }))).toStrictEqual({
      ok: false,
      issues: "inputRequests.q.params: is required",
    });
    expect(validate(schema, { resultType: "complete", requestState: "s" })).toStrictEqual({
      ok: false,
      issues: 'resultType: expected "input_required"',
    });
  });

  it("types the caching hints and the listen result", () => {
    const discover = { supportedVersions: ["2026-07-28"], capabilities: {}, ttlMs: 0, cacheScope: "private" };
    expect(validate(revision.DiscoverResultSchema, discover)).toEqual({ ok: true, value: discover });
    expect(validate(revision.DiscoverResultSchema, { ...discover, ttlMs: -5 }).ok).toBe(true);
    expect(validate(revision.CacheScopeSchema, "public").ok).toBe(true);
    expect(validate(revision.CacheScopeSchema, "shared").ok).toBe(false);
    expect(validate(revision.SubscriptionsListenResultSchema, { _meta: { [META_KEYS.subscriptionId]: "listen-1" } }).ok).toBe(true);
    expect(validate(revision.SubscriptionsListenResultSchema, { _meta: {} })).toStrictEqual({
      ok: false,
      issues: '_meta["io.modelcontextprotocol/subscriptionId"]: is required',
    });
  });
});

describe("retries", () => {
  it.each(RETRYABLE)("%s: takes each kind of answer under the server's keys, and the state as a string", (method, params) => {
    const schema = revision.codec.clientRequests[method].params;
    const inputResponses = {
      name: { action: "accept", content: { name: "octocat", tags: ["a"] } },
      capital: { role: "assistant", content: [textContent], model: "m-1" },
      roots: { roots: [{ uri: "file:///home" }] },
    };
    const retry = { ...params, inputResponses, requestState: "opaque" };
    expect(validate(schema, retry)).toEqual({ ok: true, value: retry });
    expect(validate(schema, { ...params, requestState: 5 })).toStrictEqual({
      ok: false,
      issues: "requestState: expected string, received number",
    });
    expect(validate(schema, { ...params, inputResponses: { name: "yes" } })).toStrictEqual({
      ok: false,
      issues: "inputResponses.name: expected object, received string",
    });
  });

  it("leaves the retry fields off the methods that cannot ask for input", () => {
    const listParams = withMeta({ requestState: 5, inputResponses: "x" });
    expect(validate(revision.codec.clientRequests["tools/list"].params, listParams)).toEqual({ ok: true, value: listParams });
  });

  it("checks one answer against the schema of what was asked under its key", () => {
    expect(validate(revision.InputResponsesSchema, { a: { action: "accept" }, b: { roots: [] } }).ok).toBe(true);
    expect(validate(revision.ElicitResultSchema, { roots: [] }).ok).toBe(false);
    expect(validate(revision.ListRootsResultSchema, { roots: [] }).ok).toBe(true);
    expect(
      validate(revision.CreateMessageResultSchema, {
        role: "assistant",
        content: { type: "tool_result", toolUseId: "u", content: [], structuredContent: "x" },
        model: "m",
      }).ok,
    ).toBe(true);
  });
});

describe("error data", () => {
  it("says which capabilities were missing and which versions the server speaks", () => {
    expect(validate(revision.MissingRequiredClientCapabilityErrorDataSchema, { requiredCapabilities: { elicitation: {} } }).ok).toBe(true);
    expect(validate(revision.MissingRequiredClientCapabilityErrorDataSchema, {})).toStrictEqual({
      ok: false,
      issues: "requiredCapabilities: is required",
    });
    expect(validate(revision.UnsupportedProtocolVersionErrorDataSchema, { supported: ["2026-07-28"], requested: "1900-01-01" }).ok).toBe(
      true,
    );
    expect(validate(revision.UnsupportedProtocolVersionErrorDataSchema, { supported: "2026-07-28", requested: "x" })).toStrictEqual({
      ok: false,
      issues: "supported: expected array, received string",
    });
    for (const data of [undefined, "header", { header: "Mcp-Name" }])
      expect(validate(revision.HeaderMismatchErrorDataSchema, data)).toEqual({ ok: true, value: data });
  });
});

describe("the codec", () => {
  it("has only the client's requests of this revision and no server requests; the client only cancels", () => {
    const codec: RevisionCodec = revision.codec;
    expect(codec.version).toBe("2026-07-28");
    expect(codec.batching).toBe(false);
    expect(codec.serverRequests).toEqual({});
    expect(Object.keys(codec.clientNotifications)).toEqual(["notifications/cancelled"]);
  });

  it("uses the schemas it exports by name", () => {
    const { clientRequests, serverNotifications } = revision.codec;
    expect(clientRequests["server/discover"]).toEqual({ params: revision.RequestParamsSchema, result: revision.DiscoverResultSchema });
    expect(clientRequests["subscriptions/listen"].params).toBe(revision.SubscriptionsListenRequestParamsSchema);
    expect(serverNotifications["notifications/subscriptions/acknowledged"]).toBe(
      revision.SubscriptionsAcknowledgedNotificationParamsSchema,
    );
    expect(revision.RequestParamsSchema.shape["_meta"]).toBe(revision.RequestMetaSchema);
    expect(revision.InputRequestsSchema.def.valueType).toBe(revision.InputRequestSchema);
    expect(revision.InputResponsesSchema.def.valueType).toBe(revision.InputResponseSchema);
  });
});
