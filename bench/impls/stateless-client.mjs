// One client of the 2026-07-28 (stateless) era for every contender, so that only the server differs:
// a tools/call whose params carry the revision's `_meta`, POSTed with the revision's headers over
// node:http (kept-alive), or written as a line to a stdio child. No initialize, no session. An HTTP
// answer is read as JSON, or, when a server streams it, from its last SSE `data:` line.
import { Agent, request as httpRequest } from "node:http";
import { spawnLineChild } from "./limit.mjs";

export const STATELESS_VERSION = "2026-07-28";
const ACCEPT = "application/json, text/event-stream";
const META = {
  "io.modelcontextprotocol/protocolVersion": STATELESS_VERSION,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1.0.0" },
};

const callOf = (id, name, args) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args, _meta: META } });

function resultOf(answer) {
  if (answer.error) throw new Error(`the server answered ${answer.error.code}: ${answer.error.message}`);
  return answer.result;
}

function answerOf(text) {
  if (text.charCodeAt(0) === 123) return JSON.parse(text); // "{": a JSON answer
  const data = text.lastIndexOf("data:");
  return JSON.parse(text.slice(data + 5, text.indexOf("\n", data)));
}

/** The view every scenario takes of a connection; `check` proves the server answered in the 2026 era. */
async function checked(connection) {
  const result = await connection.call({ text: "check" });
  if (result.resultType !== "complete" || result.content?.[0]?.text !== "check")
    throw new Error(`not a 2026-07-28 echo: ${JSON.stringify(result)}`);
  return connection;
}

/** POSTs each call to `url` with node:http; 2026 headers: MCP-Protocol-Version, Mcp-Method, Mcp-Name. */
export function statelessHttpClient(url, close) {
  const agent = new Agent({ keepAlive: true });
  const { hostname, port, pathname } = new URL(url);
  let nextId = 1;
  const call = (name, args) =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify(callOf(nextId++, name, args));
      const headers = {
        "content-type": "application/json",
        accept: ACCEPT,
        "mcp-protocol-version": STATELESS_VERSION,
        "mcp-method": "tools/call",
        "mcp-name": name,
        "content-length": Buffer.byteLength(body),
      };
      const outgoing = httpRequest({ hostname, port, path: pathname, method: "POST", agent, headers }, (incoming) => {
        let text = "";
        incoming.setEncoding("utf8");
        incoming.on("data", (chunk) => (text += chunk));
        incoming.once("error", reject);
        incoming.once("end", () => {
          if (incoming.statusCode !== 200) reject(new Error(`HTTP ${incoming.statusCode}: ${text}`));
          else settle(resolve, reject, () => resultOf(answerOf(text)));
        });
      });
      outgoing.once("error", reject);
      outgoing.end(body);
    });
  return checked({
    call: (args) => call("echo", args),
    cpu: async () => Number((await call("cpu", {})).content[0].text),
    close: async () => {
      agent.destroy();
      await close();
    },
  });
}

function settle(resolve, reject, compute) {
  try {
    resolve(compute());
  } catch (error) {
    reject(error);
  }
}

/**
 * A line client over a stdio child (or any `{ write, onLine, close }`): a Map of pending ids; 2026 requests, or (`sessionEra`) initialize
 * first and plain requests.
 */
async function lineClient(child, { sessionEra = false } = {}) {
  const pending = new Map();
  let nextId = 1;
  child.onLine((line) => {
    const answer = JSON.parse(line);
    const { resolve, reject } = pending.get(answer.id);
    pending.delete(answer.id);
    settle(resolve, reject, () => resultOf(answer));
  });
  const send = (message) =>
    new Promise((resolve, reject) => {
      pending.set(message.id, { resolve, reject });
      child.write(JSON.stringify(message));
    });
  const call = sessionEra
    ? (name, args) => send({ jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name, arguments: args } })
    : (name, args) => send(callOf(nextId++, name, args));
  if (sessionEra) {
    await send({
      jsonrpc: "2.0",
      id: nextId++,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1.0.0" } },
    });
    child.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  }
  return {
    call: (args) => call("echo", args),
    cpu: async () => Number((await call("cpu", {})).content[0].text),
    close: () => child.close(),
  };
}

/** 2026-07-28 tools/call lines to a stdio child (or a `{ write, onLine, close }`). */
export async function statelessStdioClient(script) {
  return checked(await lineClient(typeof script === "string" ? await spawnLineChild(script) : script));
}

/** The same line client in the session era (initialize, then plain tools/call), for the same child. */
export async function sessionStdioClient(script) {
  const connection = await lineClient(typeof script === "string" ? await spawnLineChild(script) : script, { sessionEra: true });
  const result = await connection.call({ text: "check" });
  if (result.content?.[0]?.text !== "check") throw new Error(`not an echo: ${JSON.stringify(result)}`);
  return connection;
}
