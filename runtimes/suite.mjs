// The runtime suite: the same tests on Node 20, Node 22, Bun, Deno and headless Chromium, against
// the BUILT package (dist/), so no runtime needs a TypeScript loader. Every runtime hands in the
// package's universal entry, zod, and the ways it can serve HTTP; nothing here imports node:*.
//
//   (1) the e2e walk over the in-memory pair, once per protocol revision (e2e/support/walk.ts, ported)
//   (2) stdio framing over web streams: StdioTransport over TransformStream pairs, byte by byte
//   (3) Streamable HTTP client ↔ server through the web-standard handler: its `fetch` called directly
//       through an injected fetch, and served by the runtime's own HTTP server where it has one
//       (Bun.serve, Deno.serve; on Node serveHttp from @suaveplan/mcp/node), or, in the browser, a
//       server on 127.0.0.1 reached across origins (CORS).

/** A StdioWritable over a WritableStream. */
const writerOf = (writable) => {
  const writer = writable.getWriter();
  return { write: (chunk) => writer.write(chunk), close: () => writer.close() };
};

// fetch's contract: an aborted request rejects with an AbortError, whatever the server does next.
// The handler's own promise ignores the client's signal (it sees the abort as a disconnect and
// may still answer), so the in-process fetch honours the signal the way a network fetch does.
const inProcessFetch = (handler, request) =>
  new Promise((resolve, reject) => {
    const abort = () => reject(request.signal.reason ?? new DOMException("This operation was aborted", "AbortError"));
    if (request.signal.aborted) return abort();
    request.signal.addEventListener("abort", abort, { once: true });
    handler
      .fetch(request)
      .then(resolve, reject)
      .finally(() => request.signal.removeEventListener("abort", abort));
  });

const closeAll = async (...closables) => {
  for (const closable of closables) await closable?.close();
};

/**
 * @param {ReturnType<import("./harness.mjs").createHarness>} harness
 * @param {{
 *   mcp: typeof import("../dist/index.js"),
 *   sides: { server: typeof import("../dist/entries/server.js"), httpServer: typeof import("../dist/entries/http-server.js"),
 * client: typeof import("../dist/entries/client.js") },
 *   z: typeof import("zod"),
 *   runtime: string,
 * servers: Array<{ label: string, serve(handler: { fetch(request: Request): Promise<Response> }): Promise<{ url: string, close():
 * Promise<void> }> }>,
 *   remote?: Array<{ label: string, url: string }>,
 *   refused?: Array<{ label: string, url: string }>,
 *   defaultFetchModule?: string,
 * }} env
 */
export function registerSuite(harness, { mcp, sides, z, runtime, servers, remote = [], refused = [], defaultFetchModule }) {
  const { test } = harness;
  const {
    InMemoryTransport,
    MCPClient,
    MCPServer,
    PROTOCOL_VERSIONS,
    StdioTransport,
    StreamableHttpTransport,
    connectHttp,
    streamableHttpHandler,
  } = mcp;

  // ---- the walk (e2e/support/walk.ts, with this harness's assertions) ------------------------------
  const walkServer = () => makeWalkServer({ mcp, z, runtime });

  function walkClient(version) {
    return new MCPClient(
      { name: "walk-client", version: "1.0.0" },
      {
        protocolVersion: version,
        telemetry: null,
        sampling: () => ({ role: "assistant", content: { type: "text", text: "4" }, model: "test" }),
        roots: [{ uri: "file:///project", name: "project" }],
      },
    );
  }

  async function walk(t, client, server, started, version, { progressBeforeResult = true, serverSide = true } = {}) {
    const logs = [];
    const updates = [];
    client.on("log", (message) => logs.push(message.data));
    client.on("resourceUpdated", ({ uri }) => updates.push(uri));
    t.equal(client.protocolVersion, version, "negotiated revision:");
    if (serverSide)
      t.ok(
        [...server.sessions].some((session) => session.protocolVersion === version),
        "a server session on the revision",
      );
    t.equal(client.instructions, "walk", "instructions:");

    t.deepEqual(
      (await client.listAllTools()).map((tool) => tool.name),
      ["add", "wait", "ask-model", "roots", "runtime"],
      "tools:",
    );
    const progress = [];
    await t.resolves(client.callTool("add", { a: 2, b: 3 }, { onProgress: (update) => progress.push(update.progress) }), {
      content: [{ type: "text", text: "5" }],
    });
    // With JSON answers, progress travels on the GET stream and may land after the answer it belongs to.
    if (progressBeforeResult) t.deepEqual(progress, [1, 2], "progress:");
    else
      t.ok(
        progress.every((value) => value === 1 || value === 2),
        "progress values",
      );
    await t.resolves(client.callTool("runtime"), { content: [{ text: runtime }] });

    const controller = new AbortController();
    const waiting = client.callTool("wait", {}, { signal: controller.signal });
    await t.waitFor(() => started.length === 1, "the wait tool to start");
    controller.abort();
    await t.rejects(waiting, { code: "MCP.REQUEST_CANCELLED" });
    await t.waitFor(() => started[0]?.aborted === true, "the handler's signal to fire");

    t.deepEqual(
      (await client.listAllResources()).map((resource) => resource.uri),
      ["memo://note"],
      "resources:",
    );
    await t.resolves(client.readResource("memo://items/7"), { contents: [{ text: "item 7" }] });
    await client.subscribeResource("memo://note");
    await server.markResourceUpdated("memo://note");
    await t.waitFor(() => updates.length === 1 && updates[0] === "memo://note", "resources/updated");

    t.deepEqual(
      (await client.listAllPrompts()).map((prompt) => prompt.name),
      ["greet"],
      "prompts:",
    );
    await t.resolves(client.getPrompt("greet", { name: "Ada" }), { messages: [{ content: { text: "Hello Ada" } }] });
    await t.resolves(client.complete({ type: "ref/prompt", name: "greet" }, { name: "name", value: "A" }), {
      completion: { values: ["Ada", "Alan"] },
    });
    await t.resolves(client.complete({ type: "ref/resource", uri: "memo://items/{id}" }, { name: "id", value: "1" }), {
      completion: { values: ["1", "12"] },
    });

    await t.resolves(client.callTool("ask-model"), { content: [{ text: "model said 4" }] });
    await t.resolves(client.callTool("roots"), { content: [{ text: "file:///project" }] });

    await client.setLoggingLevel("warning");
    await server.log("info", "hidden");
    await server.log("error", "shown");
    await t.waitFor(() => logs.length === 1 && logs[0] === "shown", "the one log message at or above warning");
  }

  // ---- (1) in-memory --------------------------------------------------------------------------------
  for (const version of PROTOCOL_VERSIONS) {
    test(`in-memory: the whole walk on ${version}, then a clean disconnect`, async (t) => {
      const { server, started } = walkServer();
      const [clientEnd, serverEnd] = InMemoryTransport.pair();
      const session = await server.start(serverEnd);
      const client = walkClient(version);
      await client.connect(clientEnd);
      t.equal(session.protocolVersion, version);
      await walk(t, client, server, started, version);
      await client.close();
      await session.finished;
      t.equal(server.sessions.size, 0, "sessions left:");
      await t.rejects(client.ping(), {}, "ping after close");
    });
  }

  // The client's JSON Schema validator comes with a dynamic import of our own chunk (src/lazy/lazy.md): a call resolves only once
  // the client has loaded it and checked the result (the server checks its own results first, so a broken one never reaches it).
  test("in-memory: a tool's outputSchema checked by the validator the client loads on demand", async (t) => {
    const server = new MCPServer({ name: "output", version: "1.0.0" }, { telemetry: null });
    const outputSchema = { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] };
    server.tool("sum", { outputSchema }, () => ({ content: [], structuredContent: { sum: 3 } }));
    const [clientEnd, serverEnd] = InMemoryTransport.pair();
    await server.start(serverEnd);
    const client = new MCPClient({ name: "output-client", version: "1.0.0" }, { telemetry: null });
    await client.connect(clientEnd);
    await t.resolves(client.callTool("sum"), { structuredContent: { sum: 3 } });
    await client.close();
  });

  // The side entries (src/entries/entries.md): the universal entry's own objects, and a program built on them alone works.
  test("entries: a server from /server behind the handler of /http-server answers a client from /client", async (t, defer) => {
    const mismatched = Object.entries(sides).flatMap(([side, module]) =>
      Object.entries(module).flatMap(([name, value]) => (mcp[name] === value ? [] : [`${side}.${name}`])),
    );
    t.deepEqual(mismatched, [], "exports that are not the universal entry's:");
    t.ok(!("MCPClient" in sides.server) && !("MCPServer" in sides.client), "each side without the other's class");
    const server = new sides.server.MCPServer({ name: "sides", version: "1.0.0" }, { telemetry: null });
    server.tool("side", {}, () => ({ content: [{ type: "text", text: "from /server" }] }));
    const handler = sides.httpServer.streamableHttpHandler(server);
    const client = new sides.client.MCPClient({ name: "sides-client", version: "1.0.0" }, { telemetry: null });
    defer(() => closeAll(client, handler));
    const fetchImpl = (url, init) => inProcessFetch(handler, new Request(url, init));
    await client.connect(new sides.client.StreamableHttpTransport("http://127.0.0.1/mcp", { fetchImpl }));
    await t.resolves(client.callTool("side"), { content: [{ type: "text", text: "from /server" }] });
  });

  // ---- (2) stdio over web streams -------------------------------------------------------------------
  test("stdio: the whole walk over StdioTransport on TransformStream pairs", async (t) => {
    const toServer = new TransformStream();
    const toClient = new TransformStream();
    const { server, started } = walkServer();
    const session = await server.start(new StdioTransport({ readable: toServer.readable, writable: writerOf(toClient.writable) }));
    const client = walkClient("2025-11-25");
    await client.connect(new StdioTransport({ readable: toClient.readable, writable: writerOf(toServer.writable) }));
    await walk(t, client, server, started, "2025-11-25");
    await client.close();
    await session.finished;
    t.equal(server.sessions.size, 0, "sessions left:");
  });

  test("stdio: framing — split UTF-8, CRLF, blank lines, several frames a chunk, a bad line and an oversized frame answered", async (t) => {
    const encoder = new TextEncoder();
    const decoder = new TextDecoder();
    let input;
    const readable = new ReadableStream({ start: (controller) => void (input = controller) });
    const frames = [];
    let pending = "";
    const writable = {
      write: async (chunk) => {
        pending += decoder.decode(chunk, { stream: true });
        let newline;
        while ((newline = pending.indexOf("\n")) >= 0) {
          frames.push(JSON.parse(pending.slice(0, newline)));
          pending = pending.slice(newline + 1);
        }
      },
      close: async () => undefined,
    };
    const server = new MCPServer({ name: "framing", version: "1.0.0" });
    server.tool("echo", { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({ content: [{ type: "text", text }] }));
    const session = await server.start(new StdioTransport({ readable, writable, maxFrameBytes: 1024 }));
    const send = (text) => input.enqueue(encoder.encode(text));
    const byId = (id) => frames.find((frame) => frame.id === id);

    const name = "café ☕ 𝄞";
    const initialize = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name, version: "1" } },
    });
    // One byte per chunk: every multi-byte character is split; the frame ends with CRLF.
    for (const byte of encoder.encode(`${initialize}\r\n`)) input.enqueue(new Uint8Array([byte]));
    await t.waitFor(() => byId(1), "the initialize answer");
    t.match(byId(1), { result: { protocolVersion: "2025-11-25", serverInfo: { name: "framing" } } });
    t.equal(session.client?.info.name, name, "client name decoded whole:");

    send(`\n\r\n${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\nnot json\n`);
    await t.waitFor(() => frames.some((frame) => frame.id === null), "the answer to a line that is not JSON");
    t.match(
      frames.find((frame) => frame.id === null),
      { error: { code: -32700 } },
    );

    // Two frames in one chunk, the second split across two more.
    const call = JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "echo", arguments: { text: "ünïcödé" } } });
    send(`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" })}\n${call.slice(0, 20)}`);
    send(call.slice(20, 50));
    send(`${call.slice(50)}\n`);
    await t.waitFor(() => byId(2) && byId(3), "ping and tools/call answers");
    t.match(byId(2), { result: {} });
    t.match(byId(3), { result: { content: [{ type: "text", text: "ünïcödé" }] } });

    // Longer than maxFrameBytes: answered -32700 with id null and skipped to its newline; the next frame is read.
    send(
      `{"jsonrpc":"2.0","id":4,"method":"ping","params":{"pad":"${"x".repeat(2000)}"}}\n` +
        `${JSON.stringify({ jsonrpc: "2.0", id: 5, method: "ping" })}\n`,
    );
    await t.waitFor(() => byId(5), "the ping after the oversized frame");
    t.equal(frames.filter((frame) => frame.id === null && frame.error?.code === -32700).length, 2, "parse errors answered:");
    t.equal(byId(4), undefined, "the oversized frame itself:");

    // The end of the input closes the transport, and the session with it.
    input.close();
    await session.finished;
    t.equal(server.sessions.size, 0, "sessions left:");
  });

  // ---- (3) Streamable HTTP through the web-standard handler ----------------------------------------
  for (const [label, version, json] of [
    ["SSE answers", "2025-11-25", false],
    ["JSON answers", "2025-06-18", true],
  ]) {
    test(`http: the whole walk through streamableHttpHandler(server).fetch, called in-process (${label})`, async (t, defer) => {
      const { server, started } = walkServer();
      const handler = streamableHttpHandler(server, { enableJsonResponse: json });
      const fetched = [];
      const fetchImpl = (url, init) => {
        const request = new Request(url, init);
        fetched.push(request.method);
        return inProcessFetch(handler, request);
      };
      const client = walkClient(version);
      defer(() => closeAll(client, handler));
      const transport = new StreamableHttpTransport("http://127.0.0.1/mcp", { fetchImpl });
      await client.connect(transport);
      t.ok(/^[0-9a-f]{64}$/.test(transport.sessionId ?? ""), "a session id");
      await walk(t, client, server, started, version, { progressBeforeResult: !json });
      t.ok(fetched.includes("POST") && fetched.includes("GET"), "POSTs and the GET stream went through the handler");
      await client.close();
      t.equal(handler.sessionCount, 0, "handler sessions after DELETE:");
    });
  }

  for (const runtimeServer of servers) {
    test(`http: the whole walk over real HTTP on 127.0.0.1, served by ${runtimeServer.label}`, async (t, defer) => {
      const { server, started } = walkServer();
      const handler = streamableHttpHandler(server);
      const served = await runtimeServer.serve(handler);
      const client = walkClient("2025-11-25");
      defer(() => closeAll(client, handler, served));
      t.ok(served.url.startsWith("http://127.0.0.1:"), `listens on 127.0.0.1 (${served.url})`);
      const transport = await connectHttp(client, new URL("/mcp", served.url));
      t.ok(transport instanceof StreamableHttpTransport, "Streamable HTTP selected");
      await walk(t, client, server, started, "2025-11-25");
      await client.close();
      t.equal(handler.sessionCount, 0, "handler sessions after DELETE:");
    });
  }

  // The transports' default fetch (package.json `imports` "#default-fetch"): nodeFetch on Node, the
  // platform fetch on Bun, Deno and in the browser. The server tells them apart: each platform fetch
  // sends a User-Agent (undici "node", "Bun/…", "Deno/…"); node:http sends only what it is given.
  const fastDefault = runtime === "node";
  if (defaultFetchModule !== undefined)
    test(`http: #default-fetch resolves to the ${fastDefault ? "Node" : "platform"} module on ${runtime}`, async (t) => {
      t.ok(
        defaultFetchModule.endsWith(`/dist/shared/default-fetch-${fastDefault ? "node" : "platform"}.js`),
        `resolved ${defaultFetchModule}`,
      );
    });
  for (const runtimeServer of servers) {
    const defaultFetchName = fastDefault ? "nodeFetch" : "the platform fetch";
    test(`http: a client built without options sends with ${defaultFetchName}; a replaced fetch is used`, async (t, defer) => {
      const { server } = walkServer();
      const handler = streamableHttpHandler(server);
      const agents = [];
      const served = await runtimeServer.serve({
        fetch: (request) => {
          agents.push(request.headers.get("user-agent"));
          return handler.fetch(request);
        },
      });
      const client = walkClient("2025-11-25");
      const original = globalThis.fetch;
      defer(() => {
        globalThis.fetch = original;
        return closeAll(client, handler, served);
      });
      await connectHttp(client, new URL("/mcp", served.url));
      await t.resolves(client.callTool("add", { a: 1, b: 2 }), { content: [{ text: "3" }] });
      t.ok(agents.length >= 3, `requests seen: ${agents.length}`);
      t.deepEqual(
        agents.filter((agent) => (agent === null) !== fastDefault),
        [],
        `requests ${fastDefault ? "with" : "without"} a User-Agent:`,
      );
      // A fetch put in place of the platform's (a test's mock, a polyfill) is used at the next request, on every runtime.
      let replacedCalls = 0;
      globalThis.fetch = (input, init) => {
        replacedCalls++;
        return original(input, init);
      };
      await t.resolves(client.callTool("add", { a: 2, b: 2 }), { content: [{ text: "4" }] });
      t.equal(replacedCalls, 1, "calls through the replaced fetch:");
      // …and the mark holds: the platform fetch did send a User-Agent, here too.
      t.ok(typeof agents.at(-1) === "string" && agents.at(-1) !== "", `the platform fetch's User-Agent: ${agents.at(-1)}`);
      globalThis.fetch = original;
      await client.close();
    });
  }

  for (const { label, url } of remote) {
    test(`http: a client reaches ${label}`, async (t, defer) => {
      const client = walkClient("2025-11-25");
      defer(() => client.close());
      const transport = await connectHttp(client, url);
      t.ok(transport instanceof StreamableHttpTransport, "Streamable HTTP selected");
      t.equal(client.instructions, "walk");
      t.deepEqual(
        (await client.listAllTools()).map((tool) => tool.name),
        ["add", "wait", "ask-model", "roots", "runtime"],
        "tools:",
      );
      const progress = [];
      await t.resolves(client.callTool("add", { a: 20, b: 22 }, { onProgress: (update) => progress.push(update.progress) }), {
        content: [{ text: "42" }],
      });
      t.deepEqual(progress, [1, 2], "progress:");
      await t.resolves(client.callTool("runtime"), { content: [{ text: "node" }] });
      await t.resolves(client.callTool("ask-model"), { content: [{ text: "model said 4" }] });
      await t.resolves(client.readResource("memo://items/3"), { contents: [{ text: "item 3" }] });
      await t.resolves(client.getPrompt("greet", { name: "Alan" }), { messages: [{ content: { text: "Hello Alan" } }] });
      // Built without options, the client sent with the page's own fetch (the browser's resource timing saw it).
      const fetched = globalThis.performance.getEntriesByType("resource").filter((entry) => entry.name === url);
      t.ok(fetched.length >= 7 && fetched.every((entry) => entry.initiatorType === "fetch"), `fetches of ${url} timed: ${fetched.length}`);
      await client.close();
    });
  }

  for (const { label, url } of refused) {
    test(`http: ${label} refuses this origin`, async (t, defer) => {
      const client = walkClient("2025-11-25");
      defer(() => client.close());
      await t.rejects(connectHttp(client, url), {}, "connect");
    });
  }
}

/** The walk's server: tools, resources, prompts and completions; `runtime` names where it runs. */
export function makeWalkServer({ mcp, z, runtime }) {
  const { MCPServer } = mcp;
  const server = new MCPServer({ name: "walk-server", version: "1.0.0" }, { instructions: "walk" });
  const started = [];
  server.tool("add", { inputSchema: z.object({ a: z.number(), b: z.number() }) }, async ({ a, b }, ctx) => {
    await ctx.progress(1, 2, "adding");
    await ctx.progress(2, 2, "done");
    return { content: [{ type: "text", text: String(a + b) }] };
  });
  server.tool("wait", {}, (_args, ctx) => {
    started.push(ctx.signal);
    return new Promise(() => undefined);
  });
  server.tool("ask-model", {}, async (_args, ctx) => {
    const answer = await ctx.createMessage({ messages: [{ role: "user", content: { type: "text", text: "2+2?" } }], maxTokens: 5 });
    const content = Array.isArray(answer.content) ? answer.content[0] : answer.content;
    return { content: [{ type: "text", text: `model said ${content?.type === "text" ? content.text : "?"}` }] };
  });
  server.tool("roots", {}, async (_args, ctx) => {
    const { roots } = await ctx.listRoots();
    return { content: [{ type: "text", text: roots.map((root) => root.uri).join(",") }] };
  });
  server.tool("runtime", {}, () => ({ content: [{ type: "text", text: runtime }] }));
  server.resource("note", "memo://note", { mimeType: "text/plain" }, (uri) => ({ contents: [{ uri, text: "remember" }] }));
  server.resourceTemplate(
    "item",
    "memo://items/{id}",
    { complete: { id: (value) => ["1", "2", "12"].filter((id) => id.startsWith(value)) } },
    (uri, { id }) => ({
      contents: [{ uri, text: `item ${String(id)}` }],
    }),
  );
  server.prompt(
    "greet",
    { arguments: { name: { required: true, complete: (value) => ["Ada", "Alan"].filter((n) => n.startsWith(value)) } } },
    ({ name }) => ({
      messages: [{ role: "user", content: { type: "text", text: `Hello ${name}` } }],
    }),
  );
  return { server, started };
}
