// A server whose tool asks its client for every kind of input, and our MCPClient answering it in
// memory, in either era: what the middleware tests of both directions of input drive.
import type { MCPClient } from "../client/mcp-client/mcp-client.js";
import { MCPServer } from "../server/mcp-server/mcp-server.js";
import { ourClientOf } from "../server/mcp-server/our-client.test-helpers.js";

/** A server whose `interview` asks for a name, a model's answer and the roots, and reports what it got and what its context says. */
export function interviewer(): MCPServer {
  const server = new MCPServer({ name: "interviewer", version: "1.0.0" }, { telemetry: null });
  server.tool("interview", {}, async (_args, ctx) => {
    const named = await ctx.elicitInput({
      message: "Your name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } } },
    });
    const sampled = await ctx.createMessage({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 10 });
    const { roots } = await ctx.listRoots();
    await ctx.progress(1, 1);
    await ctx.log("info", "interviewed");
    const content = Array.isArray(sampled.content) ? sampled.content[0] : sampled.content;
    const context = {
      era: ctx.era,
      version: ctx.protocolVersion,
      client: ctx.client.info?.name,
      level: ctx.logLevel ?? null,
      id: typeof ctx.requestId,
      meta: typeof ctx.meta,
      inbound: ctx.inbound ?? null,
      principal: ctx.principal ?? null,
      aborted: ctx.signal.aborted,
      session: typeof ctx.session?.id,
    };
    const said = {
      action: named.action,
      name: named.content?.["name"] ?? null,
      model: sampled.model,
      text: content?.type === "text" ? content.text : "",
      roots: roots.map((root) => root.uri),
      context,
    };
    return { content: [{ type: "text", text: JSON.stringify(said) }] };
  });
  return server;
}

/** `authInfo`: what the server's end says the transport authenticated (each message carries it, as over HTTP). */
export function interviewClient(server: MCPServer, era: "session" | "stateless", asked: string[], authInfo?: unknown): Promise<MCPClient> {
  return ourClientOf(server, era, {
    name: "asked",
    authInfo,
    roots: [{ uri: "file:///work", name: "work" }],
    sampling: (params) => (
      asked.push("sampling"),
      { role: "assistant", content: { type: "text", text: `echo ${params.messages.length}` }, model: "client-model" }
    ),
    elicitation: { form: (params) => (asked.push(`elicitation ${params.message}`), { action: "accept", content: { name: "Ada" } }) },
  });
}

export const interviewed = async (client: MCPClient) =>
  JSON.parse(((await client.callTool("interview")).content[0] as { text: string }).text) as Record<string, unknown>;
