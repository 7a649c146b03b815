// The chain the proxy tests run: an upstream MCPServer ↔ a proxyClient ↔ proxy's MCPServer ↔ a
// downstream MCPClient whose handlers answer sampling, elicitation and roots, all in memory, each side
// in the era the test names. The upstream has tools that report progress and log, wait for a cancel,
// ask the user and the model, fail with a JSON-RPC error or an isError result; a prompt and a template
// with completers, and a static resource.
import { MCPClient } from "../client/mcp-client/mcp-client.js";
import { JsonRpcError } from "../error-codes/mcp-error.js";
import type { MCPServerOptions } from "../server/mcp-server/mcp-server.types.js";
import { MCPServer } from "../server/mcp-server/mcp-server.js";
import { InMemoryTransport } from "../transport/in-memory/in-memory.js";
import { proxyClient } from "./input-router.js";
import { proxy } from "./proxy.js";
import type { ProxyOptions } from "./proxy.types.js";

export const ERAS = ["session", "stateless"] as const;
export type TestEra = (typeof ERAS)[number];
export const PAIRS = ERAS.flatMap((up) => ERAS.map((down) => [up, down] as const));

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

/** What the upstream's handlers saw. */
export interface Upstream {
  readonly server: MCPServer;
  /** Resolved when the `wait` tool starts, and when its signal fires. */
  readonly waiting: Deferred;
  readonly cancelled: Deferred;
}

export interface Deferred {
  readonly promise: Promise<void>;
  readonly resolve: () => void;
}

function deferred(): Deferred {
  const resolvers: Array<() => void> = [];
  const promise = new Promise<void>((done) => resolvers.push(done));
  return { promise, resolve: () => resolvers.forEach((done) => done()) };
}

export function upstreamServer(options: MCPServerOptions = {}): Upstream {
  const server = new MCPServer({ name: "up", version: "1.0.0" }, { telemetry: null, pageSize: 2, ...options });
  const waiting = deferred();
  const cancelled = deferred();
  server.tool(
    "echo",
    { description: "Echoes", inputSchema: { type: "object", properties: { word: { type: "string" } }, required: ["word"] } },
    (args, ctx) => text(`${String(args["word"])} (${ctx.era})`),
  );
  server.tool(
    "report",
    { outputSchema: { type: "object", properties: { done: { type: "boolean" } }, required: ["done"] } },
    async (_args, ctx) => {
      await ctx.progress(1, 2, "half way");
      await ctx.log("warning", { step: 1 }, "up");
      return { content: [], structuredContent: { done: true } };
    },
  );
  server.tool("wait", {}, async (_args, ctx) => {
    waiting.resolve();
    await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
    cancelled.resolve();
    return text("never seen");
  });
  server.tool("ask", {}, async (_args, ctx) => {
    const answer = await ctx.elicitInput({
      message: "Your name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    });
    const reply = await ctx.createMessage({ messages: [{ role: "user", content: { type: "text", text: "Hello?" } }], maxTokens: 5 });
    const roots = await ctx.listRoots();
    return text(`${String(answer.content?.["name"])} / ${(reply.content as { text: string }).text} / ${String(roots.roots[0]?.uri)}`);
  });
  server.tool("refuse", {}, () => {
    throw new JsonRpcError(-32050, "upstream says no", { reason: "quota" });
  });
  server.tool("fail", {}, () => ({ ...text("it went wrong"), isError: true }));
  server.prompt(
    "greet",
    {
      title: "Greeting",
      arguments: { language: { required: true, complete: (typed) => ["en", "es", "fr"].filter((value) => value.startsWith(typed)) } },
    },
    ({ language }) => ({
      messages: [{ role: "user", content: { type: "text", text: `Greet in ${language}` } }],
    }),
  );
  server.resource("memo", "memo://one", { mimeType: "text/plain" }, (uri) => ({ contents: [{ uri, text: "one memo" }] }));
  server.resourceTemplate(
    "book",
    "library://books/{id}",
    { complete: { id: (typed) => ["1", "12", "2"].filter((id) => id.startsWith(typed)) } },
    (uri, { id }) => ({ contents: [{ uri, text: `book ${String(id)}` }] }),
  );
  return { server, waiting, cancelled };
}

/** The downstream client: it answers elicitation, sampling and roots as a user and a model would. */
export function downstreamClient(era: TestEra): MCPClient {
  return new MCPClient(
    { name: "down", version: "1.0.0" },
    {
      era,
      telemetry: null,
      elicitation: { form: (params) => ({ action: "accept", content: { name: params.message === "Your name?" ? "Ada" : "?" } }) },
      sampling: () => ({ role: "assistant", content: { type: "text", text: "Hi from the model" }, model: "test-model" }),
      roots: [{ uri: "file:///work", name: "work" }],
    },
  );
}

/** The whole chain, with the upstream's end of its transport (closing it kills the upstream). */
export async function chain(up: TestEra, down: TestEra, options: ProxyOptions = {}, upstream = upstreamServer()) {
  const [upClientEnd, upServerEnd] = InMemoryTransport.pair();
  await upstream.server.start(upServerEnd);
  const client = proxyClient({ name: "proxy", version: "1.0.0" }, { era: up, telemetry: null });
  await client.connect(upClientEnd);
  const handle = await proxy(client, options);
  const [downClientEnd, downServerEnd] = InMemoryTransport.pair();
  await handle.server.start(downServerEnd);
  const downstream = downstreamClient(down);
  await downstream.connect(downClientEnd);
  return { upstream, client, handle, downstream, upServerEnd };
}

/** The next `event` the client hears. */
export function nextEvent<T>(on: (listener: (payload: T) => void) => () => void): Promise<T> {
  return new Promise((resolve) => {
    const stop = on((payload) => {
      stop();
      resolve(payload);
    });
  });
}

export const names = (items: readonly { readonly name: string }[]): string[] => items.map((item) => item.name);
export const textOf = (result: { readonly content: readonly unknown[] }) => (result.content[0] as { text: string }).text;
