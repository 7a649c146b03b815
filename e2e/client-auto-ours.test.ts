// Our MCPClient in its default, automatic era mode ↔ our own MCPServer (fixtures/dual-era-server.mjs)
// in both eras, over each transport it serves: in memory, stdio (a child process), Streamable HTTP on
// 127.0.0.1, and HTTP+SSE. Auto speaks the stateless era (2026-07-28) wherever the transport carries
// it and the server answers server/discover; `era: "session"` on the same server, and connectHttp
// against the HTTP+SSE endpoint, speak 2025-11-25. Each walks the one surface of
// support/era-surface.ts: tools with progress, input (elicitation, sampling, roots), resources,
// prompts, completion, and change notifications.
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  connectHttp,
  HttpSseTransport,
  InMemoryTransport,
  MCPServer,
  sseHttpHandler,
  StreamableHttpTransport,
  streamableHttpHandler,
  type ConnectResult,
  type HttpHandler,
  type MCPClient,
} from "../src/index.js";
import { dualEraServer } from "./fixtures/dual-era-server.mjs";
import { spawnNodeChild } from "./support/children.js";
import { servedRecording } from "./support/served.js";
import { surfaceClient, walkChanges, walkResourcesAndPrompts, walkTools, type Asked } from "./support/era-surface.js";

const serverScript = fileURLToPath(new URL("./fixtures/dual-era-server.mjs", import.meta.url));

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup();
});
const defer = (cleanup: () => Promise<void>) => void cleanups.push(cleanup);

/** Serves `handler` on 127.0.0.1, noting each exchange as "METHOD status". */
function served(handler: HttpHandler, exchanges: string[]): Promise<URL> {
  return servedRecording(handler, (request, response) => exchanges.push(`${request.method} ${response.status}`), defer);
}

type Flavour = "in-memory" | "stdio" | "streamable-http";

interface Connected {
  readonly client: MCPClient;
  readonly asked: Asked;
  readonly chosen: ConnectResult;
  /** The HTTP exchanges, as "METHOD status" (none in memory and over stdio). */
  readonly exchanges: string[];
}

async function connect(flavour: Flavour, era?: "session"): Promise<Connected> {
  const { client, asked } = surfaceClient(era ? { era } : {});
  const exchanges: string[] = [];
  let chosen: ConnectResult;
  if (flavour === "in-memory") {
    const server = dualEraServer(MCPServer);
    const [clientEnd, serverEnd] = InMemoryTransport.pair();
    await server.start(serverEnd);
    defer(() => server.close());
    chosen = await client.connect(clientEnd);
  } else if (flavour === "stdio") {
    chosen = await client.connect(await spawnNodeChild([serverScript], defer));
  } else {
    chosen = await client.connect(new StreamableHttpTransport(await served(streamableHttpHandler(dualEraServer(MCPServer)), exchanges)));
  }
  defer(() => client.close());
  return { client, asked, chosen, exchanges };
}

describe.each<Flavour>(["in-memory", "stdio", "streamable-http"])("our client (auto) ↔ our dual-era server over %s", (flavour) => {
  it("speaks the stateless era (2026-07-28) and drives tools with progress, input rounds, resources, prompts and completion", async () => {
    const { client, asked, chosen } = await connect(flavour);
    expect(chosen).toEqual({ era: "stateless", protocolVersion: "2026-07-28" });
    expect(client.serverInfo).toEqual({ name: "dual-era", version: "1.0.0" });
    await walkTools(client, asked, "stateless");
    await walkResourcesAndPrompts(client, asked);
  });

  it("hears list changes and resource updates in the stateless era (subscriptions/listen)", async () => {
    const { client, chosen } = await connect(flavour);
    expect(chosen.era).toBe("stateless");
    await walkChanges(client);
  });

  it('speaks the session era (2025-11-25) with the same server when told (era: "session"): all of it and its notifications', async () => {
    const { client, asked, chosen, exchanges } = await connect(flavour, "session");
    expect(chosen).toEqual({ era: "session", protocolVersion: "2025-11-25" });
    await walkTools(client, asked, "session");
    await walkResourcesAndPrompts(client, asked);
    // What the server sends on its own goes out on the session's GET stream over HTTP.
    const getStream = flavour === "streamable-http" ? ["GET 200"] : [];
    await vi.waitFor(() => expect(exchanges).toEqual(expect.arrayContaining(getStream)));
    await walkChanges(client);
  });
});

describe("our client (auto) ↔ our server's HTTP+SSE endpoint", () => {
  it("connectHttp falls back to HTTP+SSE and the session era, and drives the whole surface", async () => {
    const exchanges: string[] = [];
    const url = await served(sseHttpHandler(dualEraServer(MCPServer)), exchanges);
    const { client, asked } = surfaceClient();
    defer(() => client.close());
    const transport = await connectHttp(client, url);
    expect(transport).toBeInstanceOf(HttpSseTransport);
    expect([client.era, client.protocolVersion]).toEqual(["session", "2025-11-25"]);
    // The stateless probe and initialize, both refused as Streamable HTTP POSTs, then the HTTP+SSE stream.
    expect(exchanges.slice(0, 3)).toEqual([expect.stringMatching(/^POST 4\d\d$/), expect.stringMatching(/^POST 4\d\d$/), "GET 200"]);
    await walkTools(client, asked, "session");
    await walkResourcesAndPrompts(client, asked);
    await walkChanges(client);
  });
});
