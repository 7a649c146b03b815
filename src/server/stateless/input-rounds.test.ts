import { afterEach, describe, expect, it, vi } from "vitest";

import { streamableHttpHandler } from "../../transport/http-server/streamable-handler.js";
import { JsonRpcError } from "../../error-codes/mcp-error.js";
import { MCPServer } from "../mcp-server/mcp-server.js";
import { urlElicitationRequired } from "../mcp-server/url-elicitation.js";
import type { MCPServerOptions } from "../mcp-server/mcp-server.types.js";
import { answerOf, modernRequest } from "./stateless.test-helpers.js";

const FULL = { elicitation: {}, sampling: {}, roots: {} };
const NAME_SCHEMA = { type: "object" as const, properties: { name: { type: "string" as const } }, required: ["name"] };
const handlers: { close(): Promise<void> }[] = [];
const runs: string[] = [];

afterEach(async () => {
  runs.length = 0;
  await Promise.all(handlers.splice(0).map((handler) => handler.close()));
});

function askingServer(options: MCPServerOptions = {}) {
  const server = new MCPServer({ name: "asking", version: "1" }, options);
  server.tool("hello", { description: "asks a name" }, async (_args, ctx) => {
    runs.push("hello");
    const answer = await ctx.elicitInput({ message: "Your name?", requestedSchema: NAME_SCHEMA }, { key: "user_name" });
    return { content: [{ type: "text", text: `Hello, ${String(answer.content?.["name"])}!` }] };
  });
  server.tool("all-at-once", { description: "asks three things in one round" }, async (_args, ctx) => {
    const [who, model, roots] = await Promise.all([
      ctx.elicitInput({ message: "Name?", requestedSchema: NAME_SCHEMA }),
      ctx.createMessage({ messages: [{ role: "user", content: { type: "text", text: "Capital of France?" } }], maxTokens: 10 }),
      ctx.listRoots(),
    ]);
    return {
      content: [
        {
          type: "text",
          text: `${String(who.content?.["name"])} ${Array.isArray(model.content) ? "many" : model.content.type} ${roots.roots.length}`,
        },
      ],
    };
  });
  server.tool("two-rounds", { description: "asks twice, one after the other" }, async (_args, ctx) => {
    const first = await ctx.elicitInput({ message: "Name?", requestedSchema: NAME_SCHEMA }, { key: "step1" });
    const second = await ctx.elicitInput(
      { message: "Colour?", requestedSchema: { type: "object", properties: { color: { type: "string" } } } },
      { key: "step2" },
    );
    return { content: [{ type: "text", text: `${String(first.content?.["name"])} likes ${String(second.content?.["color"])}` }] };
  });
  server.prompt("contextual", { description: "asks for context" }, async (_args, ctx) => {
    const answer = await ctx.elicitInput(
      { message: "Context?", requestedSchema: { type: "object", properties: { context: { type: "string" } } } },
      { key: "ctx" },
    );
    return { messages: [{ role: "user", content: { type: "text", text: `with ${String(answer.content?.["context"])}` } }] };
  });
  const handler = streamableHttpHandler(server);
  handlers.push(handler);
  return handler;
}

type Result = Record<string, unknown> & {
  inputRequests?: Record<string, { method: string; params: Record<string, unknown> }>;
  requestState?: string;
};

async function call(
  handler: ReturnType<typeof askingServer>,
  id: number,
  params: Record<string, unknown>,
  capabilities: Record<string, unknown> = FULL,
  method = "tools/call",
) {
  const response = await handler.fetch(modernRequest(id, method, params, { capabilities }));
  return {
    status: response.status,
    answer: (await answerOf(response)) as { result?: Result; error?: { code: number; message: string; data?: unknown } },
  };
}

describe("multi-round-trip requests (2026-07-28): one input API, the handler run again with the answers", () => {
  it("answers input_required with the request for input and a sealed state, then completes on the retry", async () => {
    const handler = askingServer();
    const first = await call(handler, 1, { name: "hello", arguments: {} });
    expect(first.answer.result).toMatchObject({
      resultType: "input_required",
      inputRequests: { user_name: { method: "elicitation/create", params: { message: "Your name?" } } },
      requestState: expect.any(String),
    });
    expect(first.answer.result).not.toHaveProperty("ttlMs");
    const second = await call(handler, 2, {
      name: "hello",
      arguments: {},
      inputResponses: { user_name: { action: "accept", content: { name: "Alice" } } },
      requestState: first.answer.result?.requestState,
    });
    expect(second.answer.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "Hello, Alice!" }] });
    expect(runs).toEqual(["hello", "hello"]);
  });

  it("asks for everything asked together in one round, and for what was left unanswered again", async () => {
    const handler = askingServer();
    const first = await call(handler, 1, { name: "all-at-once", arguments: {} });
    const asked = first.answer.result?.inputRequests ?? {};
    expect(Object.values(asked).map((request) => request.method)).toEqual(["elicitation/create", "sampling/createMessage", "roots/list"]);
    const keys = Object.keys(asked);
    const partly = await call(handler, 2, {
      name: "all-at-once",
      arguments: {},
      inputResponses: { [keys[0] as string]: { action: "accept", content: { name: "Bo" } } },
      requestState: first.answer.result?.requestState,
    });
    expect(Object.keys(partly.answer.result?.inputRequests ?? {})).toEqual(keys.slice(1));
    const answers = {
      [keys[1] as string]: { role: "assistant", content: { type: "text", text: "Paris" }, model: "m" },
      [keys[2] as string]: { roots: [{ uri: "file:///a" }] },
    };
    const done = await call(handler, 3, {
      name: "all-at-once",
      arguments: {},
      inputResponses: answers,
      requestState: partly.answer.result?.requestState,
    });
    expect(done.answer.result).toMatchObject({ resultType: "complete", content: [{ text: "Bo text 1" }] });
  });

  it("goes round after round for inputs asked one after the other, with a new state each time", async () => {
    const handler = askingServer();
    const r1 = await call(handler, 1, { name: "two-rounds", arguments: {} });
    const r2 = await call(handler, 2, {
      name: "two-rounds",
      arguments: {},
      inputResponses: { step1: { action: "accept", content: { name: "Al" } } },
      requestState: r1.answer.result?.requestState,
    });
    expect(Object.keys(r2.answer.result?.inputRequests ?? {})).toEqual(["step2"]);
    expect(r2.answer.result?.requestState).not.toBe(r1.answer.result?.requestState);
    // A retry that brings the state but no answer is asked again what it left open.
    const empty = await call(handler, 9, { name: "two-rounds", arguments: {}, requestState: r2.answer.result?.requestState });
    expect(Object.keys(empty.answer.result?.inputRequests ?? {})).toEqual(["step2"]);
    // An answer to what the round did not ask (step1 again, forged) is ignored: the sealed one stands.
    const forged = { step1: { action: "accept", content: { name: "Mallory" } }, step2: { action: "accept", content: { color: "blue" } } };
    const r3 = await call(handler, 3, {
      name: "two-rounds",
      arguments: {},
      inputResponses: forged,
      requestState: r2.answer.result?.requestState,
    });
    expect(r3.answer.result).toMatchObject({ resultType: "complete", content: [{ text: "Al likes blue" }] });
  });

  it("refuses a tampered state, or one issued for another tool or other arguments, with -32602", async () => {
    const handler = askingServer();
    const state = (await call(handler, 1, { name: "hello", arguments: {} })).answer.result?.requestState as string;
    const answers = { user_name: { action: "accept", content: { name: "Eve" } } };
    for (const [params, reason] of [
      [{ name: "hello", arguments: {}, inputResponses: answers, requestState: `${state}-TAMPERED` }, "malformed"],
      [{ name: "two-rounds", arguments: {}, inputResponses: answers, requestState: state }, "other-request"],
      [{ name: "hello", arguments: { x: 1 }, inputResponses: answers, requestState: state }, "other-request"],
    ] as const) {
      const refused = await call(handler, 2, params);
      expect([refused.status, refused.answer.error?.code, refused.answer.error?.message]).toEqual([
        400,
        -32602,
        expect.stringContaining("requestState rejected"),
      ]);
      expect(refused.answer.error?.message).toMatch(reason === "malformed" ? /malformed|forged/ : /other-request/);
    }
  });

  it("never asks for an undeclared capability: -32021 naming it, with HTTP 400", async () => {
    const handler = askingServer();
    const refused = await call(handler, 1, { name: "all-at-once", arguments: {} }, { elicitation: {}, roots: {} });
    expect([refused.status, refused.answer.error]).toEqual([
      400,
      { code: -32021, message: expect.stringContaining("sampling"), data: { requiredCapabilities: { sampling: {} } } },
    ]);
  });

  it("checks answers: an accepted form against its schema, a malformed answer, are -32602", async () => {
    const handler = askingServer();
    const wrongShape = await call(handler, 1, { name: "hello", arguments: {}, inputResponses: { user_name: 12345 } });
    expect(wrongShape.answer.error).toMatchObject({ code: -32602 });
    const offSchema = await call(handler, 2, {
      name: "hello",
      arguments: {},
      inputResponses: { user_name: { action: "accept", content: { nickname: "x" } } },
    });
    expect(offSchema.answer.error).toMatchObject({ code: -32602, message: expect.stringContaining("requested schema") });
    const otherKind = await call(handler, 3, { name: "hello", arguments: {}, inputResponses: { user_name: { roots: [] } } });
    expect(otherKind.answer.error).toMatchObject({ code: -32602, message: expect.stringContaining("malformed") });
  });

  it("asks again for an answer under the wrong key, and ignores keys it did not ask for", async () => {
    const handler = askingServer();
    const wrongKey = await call(handler, 1, {
      name: "hello",
      arguments: {},
      inputResponses: { other: { action: "accept", content: { name: "x" } } },
    });
    expect(wrongKey.answer.result).toMatchObject({ resultType: "input_required", inputRequests: { user_name: expect.any(Object) } });
    const extra = await call(handler, 2, {
      name: "hello",
      arguments: {},
      inputResponses: { user_name: { action: "accept", content: { name: "Al" } }, extra: { action: "decline" } },
    });
    expect(extra.answer.result).toMatchObject({ resultType: "complete" });
  });

  it("turns a handler's -32042 (URL elicitation required) into a round of URL elicitations, never the code itself", async () => {
    const server = new MCPServer({ name: "url", version: "1" });
    let done = false;
    server.tool("connect", { description: "needs the user to sign in first" }, async (_args, ctx) => {
      await ctx.elicitInput({ message: "Your name?", requestedSchema: NAME_SCHEMA }, { key: "who" });
      if (!done) throw urlElicitationRequired([{ mode: "url", elicitationId: "e1", url: "https://example.com/login", message: "Sign in" }]);
      return { content: [{ type: "text", text: "connected" }] };
    });
    server.tool("plain-error", { description: "a protocol error" }, () => {
      throw new JsonRpcError(-32602, "bad input");
    });
    const handler = streamableHttpHandler(server);
    handlers.push(handler);
    const answered = { who: { action: "accept", content: { name: "Al" } } };
    const first = await call(
      handler,
      1,
      { name: "connect", arguments: {}, inputResponses: answered },
      { elicitation: { form: {}, url: {} } },
    );
    expect(first.answer.result).toMatchObject({
      resultType: "input_required",
      inputRequests: {
        "url-0": { method: "elicitation/create", params: { mode: "url", url: "https://example.com/login", message: "Sign in" } },
      },
    });
    expect(first.answer.result?.inputRequests?.["url-0"]?.params).not.toHaveProperty("elicitationId");
    done = true;
    const second = await call(
      handler,
      2,
      {
        name: "connect",
        arguments: {},
        inputResponses: { "url-0": { action: "accept" } },
        requestState: first.answer.result?.requestState,
      },
      { elicitation: { form: {}, url: {} } },
    );
    expect(second.answer.result).toMatchObject({ resultType: "complete", content: [{ text: "connected" }] });
    done = false;
    const formOnly = await call(handler, 3, { name: "connect", arguments: {}, inputResponses: answered }, { elicitation: { form: {} } });
    expect([formOnly.status, formOnly.answer.error]).toEqual([
      400,
      { code: -32021, message: expect.stringContaining("elicitation.url"), data: { requiredCapabilities: { elicitation: { url: {} } } } },
    ]);
    expect((await call(handler, 4, { name: "plain-error", arguments: {} })).answer.error).toMatchObject({
      code: -32602,
      message: "bad input",
    });
  });

  it("fires the signal of an abandoned run: a handler that looks after its round went out sees it aborted", async () => {
    const server = new MCPServer({ name: "late", version: "1" });
    let seen: unknown;
    server.tool("careful", { description: "cleans up after an unanswered input" }, async (_args, ctx) => {
      try {
        await ctx.elicitInput({ message: "Name?", requestedSchema: NAME_SCHEMA });
      } catch {
        seen = [ctx.signal.aborted, (ctx.signal.reason as Error).message];
      }
      return { content: [] };
    });
    const handler = streamableHttpHandler(server);
    handlers.push(handler);
    expect((await call(handler, 1, { name: "careful", arguments: {} })).answer.result).toMatchObject({ resultType: "input_required" });
    await vi.waitFor(() => expect(seen).toEqual([true, expect.stringContaining("input_required")]));
  });

  it("works for prompts too", async () => {
    const handler = askingServer();
    const first = await call(handler, 1, { name: "contextual" }, FULL, "prompts/get");
    expect(first.answer.result).toMatchObject({ resultType: "input_required", inputRequests: { ctx: { method: "elicitation/create" } } });
    const done = await call(
      handler,
      2,
      {
        name: "contextual",
        inputResponses: { ctx: { action: "accept", content: { context: "tests" } } },
        requestState: first.answer.result?.requestState,
      },
      FULL,
      "prompts/get",
    );
    expect(done.answer.result).toMatchObject({ resultType: "complete", messages: [{ content: { text: "with tests" } }] });
  });

  it("binds the state to the principal: another caller's state is refused", async () => {
    let caller = "alice";
    const handler = streamableHttpHandler(askingServerFor(), { authenticate: () => ({ authInfo: { sub: caller } }) });
    handlers.push(handler);
    const first = await call(handler, 1, { name: "hello", arguments: {} });
    caller = "mallory";
    const stolen = await call(handler, 2, {
      name: "hello",
      arguments: {},
      inputResponses: { user_name: { action: "accept", content: { name: "M" } } },
      requestState: first.answer.result?.requestState,
    });
    expect(stolen.answer.error?.message).toContain("other-principal");
  });
});

function askingServerFor(): MCPServer {
  const server = new MCPServer({ name: "asking", version: "1" });
  server.tool("hello", { description: "asks a name" }, async (_args, ctx) => {
    const answer = await ctx.elicitInput({ message: "Your name?", requestedSchema: NAME_SCHEMA }, { key: "user_name" });
    return { content: [{ type: "text", text: String(answer.content?.["name"]) }] };
  });
  return server;
}
