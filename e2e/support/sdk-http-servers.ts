// The official SDK's HTTP server transports on a real Node HTTP server bound to 127.0.0.1, serving
// an McpServer with tools (progress, cancellation, server-to-client requests), a subscribable
// resource and a prompt (or the McpServers of a factory given). For the interop tests of the HTTP
// client transports.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server as NodeServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport, type EventStore } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  CreateMessageResultSchema,
  ListRootsResultSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";

/** What the servers saw: every HTTP request, and what the tools went through. */
export interface ServerProbe {
  readonly requests: Array<{ method: string; url: string; headers: IncomingHttpHeaders }>;
  readonly started: string[];
  readonly cancelled: string[];
  readonly subscriptions: Set<string>;
  readonly servers: McpServer[];
}

export interface RunningServer {
  readonly url: string;
  readonly probe: ServerProbe;
  /** Streamable HTTP sessions by id (HTTP+SSE ones too, by the id in their endpoint). */
  readonly sessions: Map<string, { close(): Promise<void> }>;
  close(): Promise<void>;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function progressOf(extra: { _meta?: { progressToken?: string | number | undefined } | undefined }, progress: number, total: number) {
  const progressToken = extra["_meta"]?.progressToken;
  return progressToken === undefined
    ? undefined
    : { method: "notifications/progress" as const, params: { progressToken, progress, total } };
}

/** Makes the McpServer of one session; it is closed with the server (`probe.servers`). */
export type SdkServerFactory = (probe: ServerProbe) => McpServer;

/** An McpServer with everything the interop tests drive. */
export function featureServer(probe: ServerProbe): McpServer {
  const server = new McpServer(
    { name: "sdk-http-server", version: "1.0.0" },
    { capabilities: { logging: {}, resources: { subscribe: true } } },
  );
  probe.servers.push(server);
  server.registerTool("count", { inputSchema: { to: z.number() } }, async ({ to }, extra) => {
    for (let step = 1; step <= to; step++) {
      const progress = progressOf(extra, step, to);
      if (progress) await extra.sendNotification(progress);
    }
    return { content: [{ type: "text", text: `counted to ${to}` }] };
  });
  server.registerTool("wait-for-cancel", {}, (extra) => {
    probe.started.push("wait-for-cancel");
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve({ content: [{ type: "text", text: "never cancelled" }] }), 5000);
      extra.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        probe.cancelled.push("wait-for-cancel");
        resolve({ content: [] });
      });
    });
  });
  server.registerTool("ask-model", { inputSchema: { question: z.string() } }, async ({ question }, extra) => {
    const answer = await extra.sendRequest(
      {
        method: "sampling/createMessage",
        params: { messages: [{ role: "user", content: { type: "text", text: question } }], maxTokens: 20 },
      },
      CreateMessageResultSchema,
    );
    return { content: [{ type: "text", text: `the model said ${JSON.stringify(answer.content)}` }] };
  });
  server.registerTool("ask-roots", {}, async (extra) => {
    const { roots } = await extra.sendRequest({ method: "roots/list" }, ListRootsResultSchema);
    return { content: [{ type: "text", text: roots.map((root) => root.uri).join(",") }] };
  });
  // Not tied to the call: the request goes out on the GET stream (the only way in JSON-response mode).
  server.registerTool("ask-model-aside", {}, async () => {
    const answer = await server.server.createMessage({
      messages: [{ role: "user", content: { type: "text", text: "aside" } }],
      maxTokens: 5,
    });
    return { content: [{ type: "text", text: `aside: ${JSON.stringify(answer.content)}` }] };
  });
  // SEP-1699: drops the POST's connection mid-call; the client must poll the rest with GET.
  server.registerTool("poll", {}, async (extra) => {
    const first = progressOf(extra, 1, 2);
    const second = progressOf(extra, 2, 2);
    if (first) await extra.sendNotification(first);
    extra.closeSSEStream?.();
    await delay(30);
    if (second) await extra.sendNotification(second);
    return { content: [{ type: "text", text: "polled" }] };
  });
  server.registerResource("counter", "test://counter", { mimeType: "text/plain" }, (uri) => ({
    contents: [{ uri: uri.href, text: "42" }],
  }));
  server.server.setRequestHandler(SubscribeRequestSchema, (request) => {
    probe.subscriptions.add(request.params.uri);
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    probe.subscriptions.delete(request.params.uri);
    return {};
  });
  server.registerPrompt("greet", { argsSchema: { name: z.string() } }, ({ name }) => ({
    messages: [{ role: "user", content: { type: "text", text: `Hello, ${name}!` } }],
  }));
  return server;
}

function newProbe(): ServerProbe {
  return { requests: [], started: [], cancelled: [], subscriptions: new Set(), servers: [] };
}

async function listen(
  handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
  path: string,
  probe: ServerProbe,
  sessions: RunningServer["sessions"],
): Promise<RunningServer> {
  const http: NodeServer = createServer((request, response) => {
    probe.requests.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers });
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    probe,
    sessions,
    close: async () => {
      for (const session of sessions.values()) await session.close();
      for (const server of probe.servers) await server.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function sessionNotFound(response: ServerResponse): void {
  response
    .writeHead(404, { "content-type": "application/json" })
    .end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32001, message: "Session not found" } }));
}

export interface StreamableServerOptions {
  readonly enableJsonResponse?: boolean;
  readonly eventStore?: EventStore;
  readonly retryInterval?: number;
}

/** The SDK's StreamableHTTPServerTransport, stateful: one transport and McpServer per session, at /mcp. */
export async function startStreamableServer(
  options: StreamableServerOptions = {},
  factory: SdkServerFactory = featureServer,
): Promise<RunningServer> {
  const probe = newProbe();
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  return listen(
    async (request, response) => {
      const sessionId = request.headers["mcp-session-id"];
      if (typeof sessionId === "string") {
        const transport = sessions.get(sessionId);
        if (transport) await transport.handleRequest(request, response);
        else sessionNotFound(response);
        return;
      }
      if (request.method !== "POST") {
        response.writeHead(400).end("a session id is required");
        return;
      }
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        ...options,
        onsessioninitialized: (id) => void sessions.set(id, transport),
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await factory(probe).connect(transport);
      await transport.handleRequest(request, response);
    },
    "/mcp",
    probe,
    sessions,
  );
}

/**
 * The SDK's legacy SSEServerTransport: GET /sse opens a session, POST /messages?sessionId= carries messages; POST /sse is refused with 405.
 */
export async function startSseServer(factory: SdkServerFactory = featureServer): Promise<RunningServer> {
  const probe = newProbe();
  const sessions = new Map<string, SSEServerTransport>();
  return listen(
    async (request, response) => {
      const url = new URL(request.url ?? "/", "http://127.0.0.1");
      if (url.pathname === "/sse" && request.method === "GET") {
        const transport = new SSEServerTransport("/messages", response);
        sessions.set(transport.sessionId, transport);
        transport.onclose = () => void sessions.delete(transport.sessionId);
        await factory(probe).connect(transport);
        return;
      }
      if (url.pathname === "/messages" && request.method === "POST") {
        const transport = sessions.get(url.searchParams.get("sessionId") ?? "");
        if (transport) await transport.handlePostMessage(request, response);
        else sessionNotFound(response);
        return;
      }
      response.writeHead(url.pathname === "/sse" ? 405 : 404).end();
    },
    "/sse",
    probe,
    sessions,
  );
}
