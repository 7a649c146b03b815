// An experiment, not a scenario: what the server side of Streamable HTTP costs when our MCPServer
// (dispatcher, validation, tools) is fed straight from node:http, with no Request, Response or web
// stream in between; next to it, the same fetch client against our real handler and the limit.
// It was the evidence for the exchange core (bench/README.md, "HTTP"), and now measures what our
// handler costs above that floor with every check it makes. One session, JSON answers, no checks
// beyond the session id: a floor, not a server.
//
//   npm run build && node bench/http-floor.mjs
import { createServer } from "node:http";
import { oursServer } from "./impls/ours.mjs";
import { limitHttp } from "./impls/limit.mjs";
import { sequentialCalls } from "./scenarios/in-process.mjs";

class NativeSession {
  waiting = new Map();
  async start(receiver) {
    this.receiver = receiver;
  }
  async send(message) {
    const res = this.waiting.get(message.id);
    if (!res) return;
    this.waiting.delete(message.id);
    res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "s1" }).end(JSON.stringify(message));
  }
  async close() {}
}
const session = new NativeSession();
await oursServer().start(session);
const http = createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    // Only the session id is checked: a floor, not a server.
    if (req.headers["mcp-session-id"] !== "s1" && req.headers["mcp-session-id"] !== undefined) {
      res.writeHead(404).end();
      return;
    }
    const message = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    if (message.id === undefined) res.writeHead(202).end();
    else session.waiting.set(message.id, res);
    session.receiver.onMessage(message);
  });
});
await new Promise((r) => http.listen(0, "127.0.0.1", r));
const url = `http://127.0.0.1:${http.address().port}/mcp`;
const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };
let r = await fetch(url, {
  method: "POST",
  headers,
  body: JSON.stringify({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "b", version: "1" } },
  }),
});
await r.text();
headers["mcp-session-id"] = "s1";
r = await fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });
await r.text();
let id = 1;
const raw = {
  call: async (a) =>
    (
      await fetch(url, {
        method: "POST",
        headers,
        body: JSON.stringify({ jsonrpc: "2.0", id: id++, method: "tools/call", params: { name: "echo", arguments: a } }),
      })
    ).text(),
};
const limit = await limitHttp();
const real = await realHandler();
for (let rep = 0; rep < 3; rep++)
  for (const [name, c] of [
    ["fetch → MCPServer from node:http", raw],
    ["fetch → streamableHttpHandler", real.connection],
    ["limit client → limit server", limit],
  ]) {
    await sequentialCalls(c, 300, { text: "x" });
    const t = process.cpuUsage();
    await sequentialCalls(c, 2000, { text: "x" });
    const u = process.cpuUsage(t);
    console.log(name.padEnd(32), ((u.user + u.system) / 2000).toFixed(1), "µs/call");
  }
await limit.close();
await real.close();
http.close();
http.closeAllConnections();

/** The same client against our real handler (JSON answers) served by serveHttp. */
async function realHandler() {
  const { streamableHttpHandler } = await import("@suaveplan/mcp");
  const { serveHttp } = await import("@suaveplan/mcp/node");
  const handler = streamableHttpHandler(oursServer(), { enableJsonResponse: true });
  const served = await serveHttp(handler, { port: 0 });
  const endpoint = new URL("/mcp", served.url).href;
  const base = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const opened = await fetch(endpoint, {
    method: "POST",
    headers: base,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "b", version: "1" } },
    }),
  });
  const sessionHeaders = { ...base, "mcp-session-id": opened.headers.get("mcp-session-id"), "mcp-protocol-version": "2025-11-25" };
  await opened.text();
  await (
    await fetch(endpoint, {
      method: "POST",
      headers: sessionHeaders,
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    })
  ).text();
  let next = 1;
  const connection = {
    call: async (args) =>
      (
        await fetch(endpoint, {
          method: "POST",
          headers: sessionHeaders,
          body: JSON.stringify({ jsonrpc: "2.0", id: next++, method: "tools/call", params: { name: "echo", arguments: args } }),
        })
      ).text(),
  };
  return {
    connection,
    close: async () => {
      await handler.close();
      await served.close();
    },
  };
}
