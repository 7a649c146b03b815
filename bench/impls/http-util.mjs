// A node:http server on 127.0.0.1 for the SDK servers and the limit; `close()` drops every connection.
import { createServer, request as httpRequest } from "node:http";

export async function listen(handle) {
  const server = createServer((request, response) => {
    handle(request, response).catch((error) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export function readBody(request) {
  return new Promise((resolve, reject) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk) => (body += chunk));
    request.once("end", () => resolve(body));
    request.once("error", reject);
  });
}

/** POSTs `body` with node:http over a kept-alive connection; resolves with the answer's text. */
export function postText(agent, url, headers, body) {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      url,
      { method: "POST", agent, headers: { ...headers, "content-length": Buffer.byteLength(body) } },
      (incoming) => {
        let text = "";
        incoming.setEncoding("utf8");
        incoming.on("data", (chunk) => (text += chunk));
        incoming.once("end", () => resolve(text));
        incoming.once("error", reject);
      },
    );
    outgoing.once("error", reject);
    outgoing.end(body);
  });
}

/** A web-standard handler (ours or an SDK's) served by our Node entry's `serveHttp` on 127.0.0.1: its `/mcp` URL, and what closes both. */
export async function servedHandler(handler) {
  const { serveHttp } = await import("@suaveplan/mcp/node");
  const served = await serveHttp(handler, { port: 0 });
  return {
    url: new URL("/mcp", served.url).href,
    close: async () => {
      await handler.close();
      await served.close();
    },
  };
}
