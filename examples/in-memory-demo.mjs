// A server and a client in one process, joined by the in-memory transport: the handshake, a tool
// listing and a tool call with progress, all through the library's JSON-RPC engine.
// Run with `npm run demo` (it builds the package first).
import { InMemoryTransport, JsonRpcDispatcher, LATEST_PROTOCOL_VERSION, isProtocolVersion } from "@suaveplan/mcp";

const say = (who, text) => console.log(`${who.padEnd(6)} ${text}`);

function startServer(transport) {
  const server = new JsonRpcDispatcher({ side: "server" });
  server.setRequestHandler("initialize", (params) => {
    const version = isProtocolVersion(params.protocolVersion) ? params.protocolVersion : LATEST_PROTOCOL_VERSION;
    server.setProtocolVersion(version);
    say("server", `initialize from ${params.clientInfo.name}, speaking ${version}`);
    return { protocolVersion: version, capabilities: { tools: {} }, serverInfo: { name: "demo-server", version: "0.1.0" } };
  });
  server.setNotificationHandler("notifications/initialized", () => say("server", "client is ready"));
  server.setRequestHandler("tools/list", () => ({
    tools: [
      {
        name: "count",
        description: "Counts to n, reporting progress",
        inputSchema: { type: "object", properties: { n: { type: "integer" } } },
      },
    ],
  }));
  server.setRequestHandler("tools/call", async (params, context) => {
    const n = Number(params.arguments?.n ?? 3);
    for (let i = 1; i <= n; i++) await context.progress(i, n, `counted ${i}`);
    return { content: [{ type: "text", text: `counted to ${n}` }] };
  });
  return server.connect(transport).then(() => server);
}

const [clientTransport, serverTransport] = InMemoryTransport.pair();
const server = await startServer(serverTransport);
const client = new JsonRpcDispatcher({ side: "client" });
await client.connect(clientTransport);

const init = await client.request("initialize", {
  protocolVersion: LATEST_PROTOCOL_VERSION,
  capabilities: {},
  clientInfo: { name: "demo-client", version: "0.1.0" },
});
client.setProtocolVersion(init.protocolVersion);
say("client", `connected to ${init.serverInfo.name} on ${init.protocolVersion}`);
await client.notify("notifications/initialized");

const { tools } = await client.request("tools/list");
say("client", `tools: ${tools.map((tool) => tool.name).join(", ")}`);

const result = await client.request(
  "tools/call",
  { name: "count", arguments: { n: 3 } },
  { onProgress: (update) => say("client", `progress ${update.progress}/${update.total}: ${update.message}`) },
);
say("client", `result: ${result.content[0].text}`);

await client.close();
say("client", `closed; server pending requests: ${server.pendingCount.incoming}`);
