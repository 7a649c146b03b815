// The servers the mount tests compose: a "weather" child with every kind of entry (tools that report
// progress and log, scopes, a prompt and a template with completers, resources with and without
// `scheme://`), a "notes" child with no completers, and a client of the parent in either era.
import { MCPClient } from "../../client/mcp-client/mcp-client.js";
import type { MCPClientEventMap } from "../../client/mcp-client/mcp-client.types.js";
import { InMemoryTransport } from "../../transport/in-memory/in-memory.js";
import { MCPServer } from "../mcp-server/mcp-server.js";
import type { HandlerContext } from "../mcp-server/mcp-server.types.js";

export const ERAS = ["session", "stateless"] as const;
export type TestEra = (typeof ERAS)[number];

/** What the weather child's handlers saw: the arguments of each call, and the contexts its template's list ran with. */
export interface Seen {
  readonly args: unknown[];
  readonly syncAsks: unknown[];
}

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

export function weatherServer(seen: Seen = { args: [], syncAsks: [] }): MCPServer {
  const server = new MCPServer({ name: "weather", version: "1.0.0" }, { telemetry: null, pageSize: 2 });
  const input = {
    type: "object",
    properties: { city: { type: "string" }, days: { type: "number" }, units: { type: "string" } },
    required: ["city", "days", "units"],
  };
  server.tool(
    "forecast",
    {
      description: "Forecast for a city",
      inputSchema: input,
      outputSchema: { type: "object", properties: { celsius: { type: "number" } }, required: ["celsius"] },
    },
    async (args, ctx) => {
      seen.args.push(args);
      await ctx.progress(1, 2, "asking the sky");
      await ctx.log("info", { city: args["city"] });
      return { content: [], structuredContent: { celsius: 21 } };
    },
  );
  server.tool("echo", { inputSchema: { type: "object", properties: { word: { type: "string" } } } }, (args, ctx) =>
    text(JSON.stringify({ args, era: ctx.era })),
  );
  server.tool("secret", { requiredScopes: ["weather:admin"], cache: { ttlMs: 5, cacheScope: "private" } }, () => text("classified"));
  server.tool("broken", { outputSchema: { type: "object", properties: { celsius: { type: "number" } } } }, () => ({
    content: [],
    structuredContent: { celsius: "hot" },
  }));
  server.tool("bare", { inputSchema: { type: "object" } }, () => text("bare"));
  server.prompt(
    "review",
    {
      description: "Review code",
      arguments: { language: { required: true, complete: (typed) => ["go", "ts"].filter((value) => value.startsWith(typed)) } },
    },
    ({ language }) => ({
      messages: [{ role: "user", content: { type: "text", text: `Review ${language}` } }],
    }),
  );
  server.resource("readme", "file:///README.md", { mimeType: "text/markdown" }, (uri) => ({ contents: [{ uri, text: "# Weather" }] }));
  server.resource("isbn", "urn:isbn:1", {}, (uri) => ({ contents: [{ uri, text: "no scheme://" }] }));
  server.resourceTemplate(
    "book",
    "library://books/{id}",
    { list: (ctx) => bookList(ctx, seen), complete: { id: (typed) => ["1", "2", "12"].filter((id) => id.startsWith(typed)) } },
    (uri, { id }) => ({
      contents: [
        { uri, text: `book ${String(id)}` },
        { uri: "urn:isbn:1", text: "its number" },
      ],
    }),
  );
  server.resourceTemplate("shelf", "library://shelves/{shelf}", { description: "A shelf" }, (uri) => ({
    contents: [{ uri, text: "shelf" }],
  }));
  // After the book template, which reads its URIs first.
  server.resourceTemplate("anywhere", "{+path}", {}, (uri) => ({ contents: [{ uri, text: "anywhere" }] }));
  return server;
}

/** The book template's enumeration: when the mount syncs (no request), it tries what a context offers. */
async function bookList(ctx: HandlerContext, seen: Seen) {
  if (ctx.requestId === "mount") {
    await ctx.progress(1);
    await ctx.log("info", "syncing");
    seen.syncAsks.push(
      ...(await Promise.all(
        [
          ctx.listRoots(),
          ctx.createMessage({ messages: [], maxTokens: 1 }),
          ctx.elicitInput({ message: "?", requestedSchema: { type: "object", properties: {} } }),
        ].map((ask) => ask.catch((error: { code: string }) => error.code)),
      )),
    );
  }
  return [
    { uri: "library://books/1", name: "Dune" },
    { uri: "other://loose", name: "Loose" },
    { uri: "urn:x", name: "No scheme" },
  ];
}

export function notesServer(): MCPServer {
  const server = new MCPServer({ name: "notes", version: "1.0.0" }, { telemetry: null });
  server.tool("add", { inputSchema: { type: "object", properties: { note: { type: "string" } }, required: ["note"] } }, ({ note }) =>
    text(`added ${String(note)}`),
  );
  server.tool("forecast", {}, () => text("notes have no weather"));
  server.prompt("today", { arguments: { day: { description: "Which day" } } }, () => ({
    messages: [{ role: "user", content: { type: "text", text: "today's notes" } }],
  }));
  server.resource("today", "memo://today", {}, (uri) => ({ contents: [{ uri, text: "memo" }] }));
  return server;
}

export async function clientOf(server: MCPServer, era: TestEra): Promise<MCPClient> {
  const [clientEnd, serverEnd] = InMemoryTransport.pair();
  await server.start(serverEnd);
  const client = new MCPClient({ name: "mount-client", version: "1.0.0" }, { era, telemetry: null });
  await client.connect(clientEnd);
  return client;
}

/** The next `event` the client hears. */
export function nextEvent<E extends keyof MCPClientEventMap>(client: MCPClient, event: E): Promise<MCPClientEventMap[E]> {
  return new Promise((resolve) => {
    const stop = client.on(event, (payload) => {
      stop();
      resolve(payload);
    });
  });
}

export const names = (items: readonly { readonly name: string }[]): string[] => items.map((item) => item.name);
