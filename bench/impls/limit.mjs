// The physical limit: the same JSON-RPC messages with only JSON.stringify, JSON.parse and a Map of
// pending ids — no validation, no protocol logic.

/** The result the limit's server gives a request (shared by every limit transport). */
export function limitAnswer(request) {
  switch (request.method) {
    case "initialize":
      return {
        protocolVersion: request.params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: "bench", version: "1.0.0" },
      };
    case "tools/list":
      return { tools: LIMIT_TOOLS };
    case "tools/call":
      return request.params.name === "cpu" ? cpuResult() : echoResult(request.params);
    default:
      return {};
  }
}

// A 2026-07-28 request (its params carry `_meta`) gets what ours and SDK 2.x answer it: the
// revision's `resultType` and the server named in `_meta`.
const SERVER_META = { "io.modelcontextprotocol/serverInfo": { name: "bench", version: "1.0.0" } };
const echoResult = (params) =>
  params["_meta"] === undefined
    ? { content: [{ type: "text", text: params.arguments.text }] }
    : { content: [{ type: "text", text: params.arguments.text }], resultType: "complete", _meta: SERVER_META };

const LIMIT_TOOLS = [
  { name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
  { name: "cpu", inputSchema: { type: "object", properties: {} } },
];

/** What the `cpu` tool of every bench server answers: this process's CPU time so far, in µs. */
export function cpuResult() {
  const { user, system } = process.cpuUsage();
  return { content: [{ type: "text", text: String(user + system) }] };
}

/** The client half every limit transport shares: ids, a Map of pending ids, JSON text out. */
export function limitClient(write) {
  const pending = new Map();
  let nextId = 1;
  const request = (method, params) =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      write(JSON.stringify(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params }));
    });
  const receive = (text) => {
    const response = JSON.parse(text);
    const settle = pending.get(response.id);
    pending.delete(response.id);
    settle(response.result);
  };
  const connection = {
    initialize: () =>
      request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1.0.0" } }),
    call: (args) => request("tools/call", { name: "echo", arguments: args }),
    ping: () => request("ping"),
    cpu: async () => Number((await request("tools/call", { name: "cpu", arguments: {} })).content[0].text),
    pendingHeld: () => pending,
  };
  return { connection, receive };
}

export async function limitInProcess() {
  const { connection, receive } = limitClient((text) =>
    queueMicrotask(() => {
      const request = JSON.parse(text);
      const reply = JSON.stringify({ jsonrpc: "2.0", id: request.id, result: limitAnswer(request) });
      queueMicrotask(() => receive(reply));
    }),
  );
  return { ...connection, close: async () => undefined };
}

// The environment a stdio child gets, as ours and the SDKs' clients pass it by default (the MCP
// specification's safe set): a variable such as NODE_EXTRA_CA_CERTS would cost the child 15 ms at start.
const CHILD_ENV = ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"];

/** A stdio child spoken to in JSON lines: `write` one message's text, `onLine` for each line it answers. */
export async function spawnLineChild(script) {
  const { spawn } = await import("node:child_process");
  const env = Object.fromEntries(CHILD_ENV.filter((name) => process.env[name] !== undefined).map((name) => [name, process.env[name]]));
  const child = spawn(process.execPath, [script], { stdio: ["pipe", "pipe", "inherit"], env });
  await new Promise((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", reject);
  });
  let receive;
  let partial = [];
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk) => {
    let start = 0;
    let newline = chunk.indexOf("\n");
    while (newline !== -1) {
      const piece = chunk.slice(start, newline);
      receive(partial.length === 0 ? piece : partial.join("") + piece);
      partial = [];
      start = newline + 1;
      newline = chunk.indexOf("\n", start);
    }
    if (start < chunk.length) partial.push(chunk.slice(start));
  });
  return {
    write: (text) => child.stdin.write(`${text}\n`),
    onLine: (listener) => (receive = listener),
    close: async () => {
      const exited = new Promise((resolve) => child.once("close", resolve));
      child.stdin.end();
      await exited;
    },
  };
}

/** The limit over stdio: a child that echoes JSON lines, newline framing on this side. */
export async function limitStdio(script) {
  const child = await spawnLineChild(script);
  const { connection, receive } = limitClient(child.write);
  child.onLine(receive);
  await connection.initialize();
  return { ...connection, close: child.close };
}

/** The limit's HTTP server: node:http answering each JSON POST with a JSON body, whatever its headers. */
export async function limitHttpServer() {
  const { listen, readBody } = await import("./http-util.mjs");
  return listen(async (request, response) => {
    const message = JSON.parse(await readBody(request));
    const body = JSON.stringify({ jsonrpc: "2.0", id: message.id, result: limitAnswer(message) });
    response.writeHead(200, { "content-type": "application/json" }).end(body);
  });
}

/**
 * The limit over HTTP: its server, and on this side node:http over a kept-alive connection (the
 * platform fetch costs about 3.5 times its CPU per request: it is no floor).
 */
export async function limitHttp() {
  const { Agent } = await import("node:http");
  const { postText } = await import("./http-util.mjs");
  const agent = new Agent({ keepAlive: true });
  const served = await limitHttpServer();
  const url = `${served.url}/mcp`;
  const { connection, receive } = limitClient(async (text) =>
    receive(await postText(agent, url, { "content-type": "application/json", accept: "application/json" }, text)),
  );
  await connection.initialize();
  return {
    ...connection,
    close: async () => {
      agent.destroy();
      await served.close();
    },
  };
}
