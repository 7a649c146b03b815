// One MCPServer, three clients pinned to three revisions: each receives what its own revision
// defines. What the server hands its transport is recorded and compared whole, so a field the
// revision lacks shows up as a difference (the revisions' schemas are loose and would let it pass).
import { describe, expect, it } from "vitest";
import { InMemoryTransport, MCPClient, MCPServer, type ProtocolVersion, type Transport } from "../src/index.js";

const icons = [{ src: "https://example.com/icon.png", mimeType: "image/png" }];
const inputSchema = { type: "object", properties: {} };
const outputSchema = { type: "object", properties: { count: { type: "number" } }, required: ["count"] };

function mediaServer(): MCPServer {
  const server = new MCPServer({ name: "media", version: "1.0.0", title: "Media Server", icons }, { capabilities: { completions: {} } });
  server.tool(
    "media",
    { title: "Media", description: "Everything at once", inputSchema, outputSchema, annotations: { readOnlyHint: true }, icons },
    async (_args, context) => {
      await context.progress(1, 1, "gathered");
      return {
        content: [
          { type: "text", text: "three things" },
          { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
          { type: "resource_link", uri: "memo://song", name: "song", title: "The Song", mimeType: "audio/wav", icons },
        ],
        structuredContent: { count: 3 },
      };
    },
  );
  server.resource(
    "song",
    "memo://song",
    { title: "The Song", mimeType: "audio/wav", icons, annotations: { priority: 1, lastModified: "2025-01-01T00:00:00Z" } },
    (uri) => ({ contents: [{ uri, blob: "UklGRg==" }] }),
  );
  return server;
}

/** The server's end of an in-memory pair, recording (as JSON) every message the server sends. */
function tapped(end: Transport, sent: unknown[]): Transport {
  return {
    start: (receiver) => end.start(receiver),
    send: (message) => {
      sent.push(JSON.parse(JSON.stringify(message)));
      return end.send(message);
    },
    close: () => end.close(),
  };
}

/** The result the server last sent. */
function lastResult(sent: readonly unknown[]): unknown {
  return (sent.filter((message) => typeof message === "object" && message !== null && "result" in message).at(-1) as { result: unknown })
    .result;
}

async function session(version: ProtocolVersion) {
  const server = mediaServer();
  const [clientEnd, serverEnd] = InMemoryTransport.pair();
  const sent: unknown[] = [];
  await server.start(tapped(serverEnd, sent));
  const client = new MCPClient({ name: "pinned", version: "1.0.0" }, { protocolVersion: version, telemetry: null });
  await client.connect(clientEnd);
  expect(client.protocolVersion).toBe(version);
  return { client, sent, initialize: lastResult(sent) };
}

const fullTool = {
  name: "media",
  title: "Media",
  description: "Everything at once",
  inputSchema,
  outputSchema,
  annotations: { readOnlyHint: true },
  icons,
};
const fullResource = {
  uri: "memo://song",
  name: "song",
  title: "The Song",
  mimeType: "audio/wav",
  icons,
  annotations: { priority: 1, lastModified: "2025-01-01T00:00:00Z" },
};
const text = { type: "text", text: "three things" };
const audio = { type: "audio", data: "UklGRg==", mimeType: "audio/wav" };
const linkAsText = { type: "text", text: 'Resource "The Song" at memo://song (audio/wav)' };
const structuredAsText = { type: "text", text: '{"count":3}' };

const EXPECTED: Record<
  "2024-11-05" | "2025-03-26" | "2025-11-25",
  { serverInfo: object; completions: boolean; tool: object; content: object[]; structured: boolean; resource: object; progress: object }
> = {
  "2024-11-05": {
    serverInfo: { name: "media", version: "1.0.0" },
    completions: false,
    tool: { name: "media", description: "Everything at once", inputSchema },
    content: [
      text,
      { type: "text", text: "Audio (audio/wav) left out: protocol revision 2024-11-05 cannot carry audio" },
      linkAsText,
      structuredAsText,
    ],
    structured: false,
    resource: { uri: "memo://song", name: "The Song", mimeType: "audio/wav", annotations: { priority: 1 } },
    progress: { progress: 1, total: 1 },
  },
  "2025-03-26": {
    serverInfo: { name: "media", version: "1.0.0" },
    completions: true,
    tool: { name: "media", description: "Everything at once", inputSchema, annotations: { readOnlyHint: true, title: "Media" } },
    content: [text, audio, linkAsText, structuredAsText],
    structured: false,
    resource: { uri: "memo://song", name: "The Song", mimeType: "audio/wav", annotations: { priority: 1 } },
    progress: { progress: 1, total: 1, message: "gathered" },
  },
  "2025-11-25": {
    serverInfo: { name: "media", version: "1.0.0", title: "Media Server", icons },
    completions: true,
    tool: fullTool,
    content: [text, audio, { type: "resource_link", uri: "memo://song", name: "song", title: "The Song", mimeType: "audio/wav", icons }],
    structured: true,
    resource: fullResource,
    progress: { progress: 1, total: 1, message: "gathered" },
  },
};

describe("MCPServer sends each session its own revision's shapes", () => {
  it.each(Object.entries(EXPECTED))(
    "%s: initialize, tools/list, tools/call (audio, resource link, structured content, progress), resources/list",
    async (version, expected) => {
      const { client, sent, initialize } = await session(version as ProtocolVersion);
      expect(initialize).toMatchObject({ protocolVersion: version, serverInfo: expected.serverInfo });
      expect((initialize as { serverInfo: object }).serverInfo).toEqual(expected.serverInfo);
      // The options declare completions: 2024-11-05 has no such capability.
      expect("completions" in (initialize as { capabilities: object }).capabilities).toBe(expected.completions);

      await client.listAllTools();
      expect(lastResult(sent)).toEqual({ tools: [expected.tool] });

      const progress: unknown[] = [];
      await client.callTool("media", {}, { onProgress: (update) => progress.push(update) });
      expect(lastResult(sent)).toEqual(
        expected.structured ? { content: expected.content, structuredContent: { count: 3 } } : { content: expected.content },
      );
      const notifications = sent.filter((message) => (message as { method?: string }).method === "notifications/progress");
      expect(notifications.map((message) => (message as { params: object }).params)).toEqual([
        { progressToken: expect.anything(), ...expected.progress },
      ]);
      expect(progress).toHaveLength(1);

      await client.listAllResources();
      expect(lastResult(sent)).toEqual({ resources: [expected.resource] });
      await client.close();
    },
  );
});
