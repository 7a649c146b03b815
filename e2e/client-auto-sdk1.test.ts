// Our MCPClient in its default, automatic era mode ↔ the official SDK 1.x server
// (@modelcontextprotocol/sdk 1.32, session era only) serving fixtures/sdk1-server.mjs over each
// transport it offers: StreamableHTTPServerTransport (sessions) and the legacy SSEServerTransport on
// 127.0.0.1, and stdio in a child process. Auto's server/discover probe is refused, and the client
// falls back to initialize: 2025-11-25, over Streamable HTTP, and over HTTP+SSE where connectHttp
// finds Streamable HTTP refused. Then the walk of support/era-surface.ts: tools with progress, the
// server's own elicitation, sampling and roots requests, resources, prompts, completion, and
// list_changed and resources/updated notifications.
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { connectHttp, HttpSseTransport, StreamableHttpTransport, type ConnectResult, type MCPClient } from "../src/index.js";
import { sdk1Server } from "./fixtures/sdk1-server.mjs";
import { spawnNodeChild } from "./support/children.js";
import { surfaceClient, walkChanges, walkResourcesAndPrompts, walkTools, type Asked } from "./support/era-surface.js";
import { startSseServer, startStreamableServer, type SdkServerFactory } from "./support/sdk-http-servers.js";

const serverScript = fileURLToPath(new URL("./fixtures/sdk1-server.mjs", import.meta.url));
const SESSION = { era: "session", protocolVersion: "2025-11-25" };

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup();
});
const defer = (cleanup: () => Promise<void>) => void cleanups.push(cleanup);

const fixture: SdkServerFactory = (probe) => {
  const server = sdk1Server();
  probe.servers.push(server);
  return server;
};

type Flavour = "streamable-http" | "stdio" | "http+sse (connectHttp)";

interface Connected {
  readonly client: MCPClient;
  readonly asked: Asked;
  readonly chosen: ConnectResult;
  /** What reached the server over HTTP, as "METHOD path Mcp-Method" (nothing over stdio). */
  readonly requests: () => string[];
}

/**
 * How each flavour opens: over HTTP the probe (a stateless-era POST) is refused, then the handshake; over HTTP+SSE initialize is refused
 * too (405), then the stream opens.
 */
const OPENINGS: Record<Flavour, string[]> = {
  "streamable-http": ["POST /mcp server/discover", "POST /mcp -", "POST /mcp -"],
  stdio: [],
  "http+sse (connectHttp)": ["POST /sse server/discover", "POST /sse -", "GET /sse -", "POST /messages -"],
};

async function connect(flavour: Flavour): Promise<Connected> {
  const { client, asked } = surfaceClient();
  if (flavour === "stdio") {
    const transport = await spawnNodeChild([serverScript], defer);
    defer(() => client.close());
    return { client, asked, chosen: await client.connect(transport), requests: () => [] };
  }
  const running = flavour === "streamable-http" ? await startStreamableServer({}, fixture) : await startSseServer(fixture);
  defer(() => running.close());
  defer(() => client.close());
  const requests = () =>
    running.probe.requests.map(({ method, url, headers }) => `${method} ${url.split("?")[0]} ${String(headers["mcp-method"] ?? "-")}`);
  if (flavour === "streamable-http")
    return { client, asked, chosen: await client.connect(new StreamableHttpTransport(running.url)), requests };
  const transport = await connectHttp(client, running.url);
  expect(transport).toBeInstanceOf(HttpSseTransport);
  return { client, asked, chosen: { era: client.era, protocolVersion: client.protocolVersion } as ConnectResult, requests };
}

describe.each<Flavour>(["streamable-http", "stdio", "http+sse (connectHttp)"])(
  "our client (auto) ↔ the SDK 1.x server over %s",
  (flavour) => {
    it("falls back to the session era: tools, progress, elicitation, sampling, roots, resources, prompts, completion", async () => {
      const { client, asked, chosen, requests } = await connect(flavour);
      expect(chosen).toEqual(SESSION);
      expect(client.serverInfo).toEqual({ name: "sdk1-server", version: "1.0.0" });
      expect(client.instructions).toBe("an SDK 1.x server");
      expect(client.capabilities).toEqual({ roots: { listChanged: true }, sampling: {}, elicitation: { form: {} } });
      expect(requests().slice(0, OPENINGS[flavour].length)).toEqual(OPENINGS[flavour]);
      await walkTools(client, asked, "session");
      await walkResourcesAndPrompts(client, asked);
    });

    it("hears list changes and resource updates (session era)", async () => {
      const { client, chosen, requests } = await connect(flavour);
      expect(chosen).toEqual(SESSION);
      // What the server sends on its own goes out on the client's GET stream over Streamable HTTP (HTTP+SSE has its stream from the start).
      const getStream = flavour === "streamable-http" ? ["GET /mcp -"] : [];
      await vi.waitFor(() => expect(requests()).toEqual(expect.arrayContaining(getStream)));
      await walkChanges(client);
    });
  },
);
