// Layers around a server handler's requests for input, through a real server and our MCPClient in
// memory, in both eras (server-to-client requests in the session era, input-required rounds in the
// stateless era): a layer answers without asking the client, changes what is asked or answered, sees
// every ask with the handler's context; one method or all; the registrations refused.
import { describe, expect, it } from "vitest";
import { MCP_CODES } from "../error-codes/error-codes.js";
import { MCPClient } from "../client/mcp-client/mcp-client.js";
import { MCPServer } from "../server/mcp-server/mcp-server.js";
import { InMemoryTransport } from "../transport/in-memory/in-memory.js";
import { aroundInput, type InputMiddleware } from "./input-middleware.js";

/** A server whose `interview` asks for a name, a model's answer and the roots, and reports what it got and what its context says. */
function interviewer(): MCPServer {
  const server = new MCPServer({ name: "interviewer", version: "1.0.0" }, { telemetry: null });
  server.tool("interview", {}, async (_args, ctx) => {
    const named = await ctx.elicitInput({ message: "Your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } });
    const sampled = await ctx.createMessage({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 10 });
    const { roots } = await ctx.listRoots();
    await ctx.progress(1, 1);
    await ctx.log("info", "interviewed");
    const content = Array.isArray(sampled.content) ? sampled.content[0] : sampled.content;
    const context = { era: ctx.era, version: ctx.protocolVersion, client: ctx.client.info?.name, level: ctx.logLevel ?? null, id: typeof ctx.requestId, meta: typeof ctx.meta, inbound: ctx.inbound ?? null, principal: ctx.principal ?? null, aborted: ctx.signal.aborted, session: typeof ctx.session?.id };
    const said = { action: named.action, name: named.content?.["name"] ?? null, model: sampled.model, text: content?.type === "text" ? content.text : "", roots: roots.map((root) => root.uri), context };
    return { content: [{ type: "text", text: JSON.stringify(said) }] };
  });
  return server;
}

async function connected(server: MCPServer, era: "session" | "stateless", asked: string[]): Promise<MCPClient> {
  const [clientEnd, serverEnd] = InMemoryTransport.pair();
  await server.start(serverEnd);
  const client = new MCPClient(
    { name: "asked", version: "1.0.0" },
    {
      era,
      telemetry: null,
      roots: [{ uri: "file:///work", name: "work" }],
      sampling: (params) => (asked.push("sampling"), { role: "assistant", content: { type: "text", text: `echo ${params.messages.length}` }, model: "client-model" }),
      elicitation: { form: (params) => (asked.push(`elicitation ${params.message}`), { action: "accept", content: { name: "Ada" } }) },
    },
  );
  await client.connect(clientEnd);
  return client;
}

const interviewed = async (client: MCPClient) => JSON.parse(((await client.callTool("interview")).content[0] as { text: string }).text) as Record<string, unknown>;

describe.each(["session", "stateless"] as const)("aroundInput, %s era", (era) => {
  it("lets a layer answer without the client, change what is asked and what comes back, and see every ask", async () => {
    const asked: string[] = [];
    const seen: string[] = [];
    // Each aroundInput wraps the context the layers after it and the handler get: the one added last is nearest the handler, and sees its asks first.
    const server = interviewer()
      .use(aroundInput("sampling/createMessage", () => () => Promise.resolve({ role: "assistant", content: { type: "text", text: "from policy" }, model: "policy" })))
      .use(
        aroundInput("elicitation/create", (next) => async (request, context) => {
          const answer = await next({ ...request, params: { ...request.params, message: `[${context.era}] ${request.params.message}` } }, context);
          return { ...answer, content: { name: `${String(answer.content?.["name"])}!` } };
        }),
      )
      .use(aroundInput((next) => (request, context) => (seen.push(`${request.method} ${context.era}`), next(request, context))));
    const client = await connected(server, era, asked);
    const said = await interviewed(client);
    expect(said).toMatchObject({ action: "accept", name: "Ada!", model: "policy", text: "from policy", roots: ["file:///work"] });
    // The sampling never reached the client; the elicitation did, changed.
    expect(asked).toEqual([`elicitation [${era}] Your name?`]);
    // Each ask went through the outer layer (in the stateless era a round runs the handler again, and its asks with it).
    expect(new Set(seen)).toEqual(new Set([`elicitation/create ${era}`, `sampling/createMessage ${era}`, `roots/list ${era}`]));
    await client.close();
  });

  it("hands the handler its own context otherwise: scope, progress, log", async () => {
    const plain = await interviewed(await connected(interviewer(), era, []));
    const layered = await interviewed(await connected(interviewer().use(aroundInput("roots/list", (next) => next)), era, []));
    expect(layered["context"]).toEqual(plain["context"]);
    expect(layered["context"]).toMatchObject({ era, client: "asked", id: expect.any(String), aborted: false });
  });

  it("makes what a layer throws the handler's failure to ask", async () => {
    const server = interviewer().use(aroundInput("elicitation/create", () => () => Promise.reject(new Error("no asking today"))));
    const client = await connected(server, era, []);
    const result = await client.callTool("interview");
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("no asking today");
    await client.close();
  });
});

describe("aroundInput's registration", () => {
  it("refuses a method that is no request for input, a layer that is no function, and one that gives no handler", () => {
    expect(() => aroundInput("tools/call" as "roots/list", (next) => next)).toThrow(expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS, message: "aroundInput sees sampling/createMessage, elicitation/create and roots/list, not tools/call" }));
    expect(() => aroundInput("roots/list", "no" as unknown as InputMiddleware<"roots/list">)).toThrow(expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS }));
    expect(() => aroundInput((() => undefined) as unknown as InputMiddleware)).toThrow(expect.objectContaining({ message: expect.stringContaining("An input middleware gave no handler") }));
  });
});
