// Ours as an HTTP server child, for the rows of our client over Streamable HTTP: one MCPServer (the
// echo tool and a `cpu` tool), both eras, behind two `streamableHttpHandler`s served by `serveHttp`
// on 127.0.0.1, port 0: one answering POSTs with JSON (`enableJsonResponse`: the session era then
// answers as the stateless era always does), one with the handler's default (SSE answers in the
// session era). Prints `{ "json": url, "sse": url }` as one line; exits when its stdin ends.
import { streamableHttpHandler } from "@suaveplan/mcp/http-server";
import { serveHttp } from "@suaveplan/mcp/node";
import { oursServer } from "../impls/ours-server.mjs";

const server = oursServer();
const handlers = { json: streamableHttpHandler(server, { enableJsonResponse: true }), sse: streamableHttpHandler(server) };
const served = {};
for (const [name, handler] of Object.entries(handlers)) served[name] = await serveHttp(handler, { port: 0 });
process.stdout.write(
  `${JSON.stringify(Object.fromEntries(Object.entries(served).map(([name, { url }]) => [name, new URL("/mcp", url).href])))}\n`,
);
process.stdin.resume();
async function shutdown() {
  for (const [name, handler] of Object.entries(handlers)) {
    await handler.close();
    await served[name].close();
  }
  process.exit(0);
}
process.stdin.once("end", () => void shutdown());
