// The client's incoming layers, through a real server whose tool asks for input and our MCPClient in
// memory, in both eras (server-to-client requests in the session era, an input-required round in the
// stateless era): a layer answers in the handler's place, changes its answer, or sees every request
// with its era; methods the client never answers are refused.
import { describe, expect, it } from "vitest";
import { MCP_CODES } from "../error-codes/error-codes.js";
import { MCPClient } from "../client/mcp-client/mcp-client.js";
import { MCPServer } from "../server/mcp-server/mcp-server.js";
import { InMemoryTransport } from "../transport/in-memory/in-memory.js";
import type { IncomingContext, IncomingMiddleware } from "./incoming-middleware.js";

/** A server whose `interview` asks the client for a name, a model's answer and the roots. */
function interviewer(): MCPServer {
  const server = new MCPServer({ name: "interviewer", version: "1.0.0" }, { telemetry: null });
  server.tool("interview", {}, async (_args, ctx) => {
    const named = await ctx.elicitInput({ message: "Your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } });
    const sampled = await ctx.createMessage({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 10 });
    const { roots } = await ctx.listRoots();
    const content = Array.isArray(sampled.content) ? sampled.content[0] : sampled.content;
    const said = { action: named.action, name: named.content?.["name"] ?? null, model: sampled.model, text: content?.type === "text" ? content.text : "", roots: roots.map((root) => root.uri) };
    return { content: [{ type: "text", text: JSON.stringify(said) }] };
  });
  return server;
}

async function connected(era: "session" | "stateless", asked: string[]): Promise<MCPClient> {
  const [clientEnd, serverEnd] = InMemoryTransport.pair();
  await interviewer().start(serverEnd);
  const client = new MCPClient(
    { name: "incoming", version: "1.0.0" },
    {
      era,
      telemetry: null,
      roots: [{ uri: "file:///work", name: "work" }],
      sampling: (params) => (asked.push("sampling"), { role: "assistant", content: { type: "text", text: `echo ${params.messages.length}` }, model: "handler-model" }),
      elicitation: { form: () => (asked.push("elicitation"), { action: "accept", content: { name: "Ada" } }) },
    },
  );
  await client.connect(clientEnd);
  return client;
}

const interviewed = async (client: MCPClient) => JSON.parse(((await client.callTool("interview")).content[0] as { text: string }).text) as Record<string, unknown>;

describe.each(["session", "stateless"] as const)("incoming middleware, %s era", (era) => {
  it("lets a layer answer in the handler's place or change its answer, and shows every request with its era", async () => {
    const asked: string[] = [];
    const seen: [string, IncomingContext["era"]][] = [];
    const client = await connected(era, asked);
    client
      .useIncoming((next) => (request, context) => (seen.push([request.method, context.era]), next(request, context)))
      .useIncoming("elicitation/create", () => () => Promise.resolve({ action: "decline" }))
      .useIncoming("sampling/createMessage", (next) => async (request, context) => {
        const answer = await next(request, context);
        return { ...answer, model: `checked ${answer.model}` };
      });
    expect(await interviewed(client)).toEqual({ action: "decline", name: null, model: "checked handler-model", text: "echo 1", roots: ["file:///work"] });
    // The elicitation never reached the handler; the sampling did.
    expect(asked).toEqual(["sampling"]);
    expect(seen).toEqual([
      ["elicitation/create", era],
      ["sampling/createMessage", era],
      ["roots/list", era],
    ]);
    await client.close();
  });

  it("answers as before without layers", async () => {
    const asked: string[] = [];
    const client = await connected(era, asked);
    expect(await interviewed(client)).toEqual({ action: "accept", name: "Ada", model: "handler-model", text: "echo 1", roots: ["file:///work"] });
    expect(asked).toEqual(["elicitation", "sampling"]);
    await client.close();
  });
});

const passThrough: IncomingMiddleware = (next) => next;

describe("incoming middleware registration", () => {
  it("refuses a method the server never asks a client for", async () => {
    const client = await connected("session", []);
    expect(() => client.useIncoming("tools/call" as "roots/list", (next) => next)).toThrow(
      expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS, message: "No client middleware sees tools/call: the server asks for sampling/createMessage, elicitation/create, roots/list" }),
    );
    expect(() => client.useIncoming("roots/list", passThrough)).not.toThrow();
    await client.close();
  });
});
