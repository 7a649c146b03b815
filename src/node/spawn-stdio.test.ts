import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { MCP_CODES } from "../error-codes/error-codes.js";
import { JsonRpcDispatcher } from "../jsonrpc/dispatcher/dispatcher.js";
import { spawnStdioServer, type SpawnStdioOptions } from "./spawn-stdio.js";

const fixture = (name: string) => fileURLToPath(new URL(`../../e2e/fixtures/${name}`, import.meta.url));
const exampleServer = fileURLToPath(new URL("../../examples/weather-server.mjs", import.meta.url));

async function connect(options: SpawnStdioOptions) {
  const transport = await spawnStdioServer(options);
  const client = new JsonRpcDispatcher({ side: "client", telemetry: null });
  await client.connect(transport);
  return { transport, client };
}

async function initialize(client: JsonRpcDispatcher): Promise<void> {
  await client.request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "spawn-test", version: "1" } });
  await client.notify("notifications/initialized");
}

describe("spawnStdioServer", () => {
  it("talks to a real server child process and ends it gracefully on close", async () => {
    const { transport, client } = await connect({ command: process.execPath, args: [exampleServer] });
    expect(transport.pid).toEqual(expect.any(Number));
    await initialize(client);
    await expect(client.request("tools/call", { name: "to_fahrenheit", arguments: { celsius: 100 } })).resolves.toMatchObject({
      structuredContent: { fahrenheit: 212 },
    });
    await expect(transport.send({ n: 1n })).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: expect.stringContaining("not serialisable"),
    });
    await client.close();
    await expect(transport.exited).resolves.toMatchObject({ exitCode: 0, signal: null });
    expect(transport.stderrTail).toContain("serving on stdio");
  });

  it("rejects with MCP.TRANSPORT_ERROR when the command cannot be started", async () => {
    await expect(spawnStdioServer({ command: "/nonexistent/mcp-server" })).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: expect.stringContaining("Could not start /nonexistent/mcp-server"),
    });
  });

  it("rejects pending requests with the exit code and stderr tail when the child dies", async () => {
    const { client } = await connect({ command: process.execPath, args: [fixture("crashing-server.mjs")] });
    const error = await client.request("initialize", {}).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: MCP_CODES.TRANSPORT_CLOSED,
      message: expect.stringContaining("exited with code 3; stderr: fatal: WEATHER_API_KEY is not set"),
    });
    expect((error as { cause: { data: unknown } }).cause.data).toMatchObject({
      exitCode: 3,
      signal: null,
      stderrTail: "fatal: WEATHER_API_KEY is not set\n",
    });
  });

  it("says only how the child exited when it wrote nothing to stderr, and closes at once after", async () => {
    const { transport, client } = await connect({
      command: process.execPath,
      args: ["-e", "process.stdin.once('data', () => process.exit(0))"],
      maxFrameBytes: 1024,
    });
    const error = await client.request("ping").catch((caught: unknown) => caught);
    expect(error).toMatchObject({ message: "The connection closed: The server process exited with code 0" });
    await transport.close();
    await expect(transport.exited).resolves.toMatchObject({ exitCode: 0 });
  });

  it("reports what the child writes that is not JSON, and answers it -32700", async () => {
    let echoed = "";
    const { client } = await connect({
      command: process.execPath,
      args: ["-e", "process.stdout.write('garbage\\n'); process.stdin.pipe(process.stderr)"],
      stderr: (text) => (echoed += text),
    });
    await vi.waitFor(() => expect(echoed).toContain('"code":-32700'));
    await client.close();
  });

  it("ends with SIGTERM a child that ignores the end of its input", async () => {
    const transport = await spawnStdioServer({
      command: process.execPath,
      args: ["-e", "process.stdin.resume(); setInterval(() => {}, 1000)"],
      closeTimeoutMs: 200,
    });
    await transport.close();
    await expect(transport.exited).resolves.toMatchObject({ signal: "SIGTERM" });
  });

  it("rejects every pending request at once when the child is killed mid-call", async () => {
    const { transport, client } = await connect({ command: process.execPath, args: [exampleServer] });
    await initialize(client);
    const hanging = [client.request("test/never-answered-1"), client.request("test/never-answered-2")].map((pending) =>
      pending.catch((caught: unknown) => caught),
    );
    process.kill(transport.pid as number, "SIGKILL");
    for (const error of await Promise.all(hanging)) {
      expect(error).toMatchObject({
        code: expect.stringMatching(/^MCP\.TRANSPORT_(CLOSED|ERROR)$/),
        message: expect.stringContaining("was killed by SIGKILL"),
      });
    }
    expect(client.pendingCount.outgoing).toBe(0);
  });

  it("says how the child died when a write fails on its broken pipe, and passes on a write failure of a live child", async () => {
    const transport = await spawnStdioServer({
      command: process.execPath,
      args: ["-e", "require('fs').closeSync(0); setTimeout(() => process.exit(5), 50)"],
      closeTimeoutMs: 2000,
    });
    await transport.start({ onMessage: () => undefined, onMalformed: () => undefined, onClose: () => undefined });
    await expect
      .poll(async () =>
        transport.send({ jsonrpc: "2.0", method: "x" }).then(
          () => "sent",
          (error: unknown) => error,
        ),
      )
      .toMatchObject({ message: expect.stringContaining("exited with code 5") });
    const deaf = await spawnStdioServer({
      command: process.execPath,
      args: ["-e", "require('fs').closeSync(0); setInterval(() => {}, 1000)"],
      closeTimeoutMs: 100,
    });
    await deaf.start({ onMessage: () => undefined, onMalformed: () => undefined, onClose: () => undefined });
    await expect
      .poll(async () =>
        deaf.send({ jsonrpc: "2.0", method: "x" }).then(
          () => "sent",
          (error: unknown) => error,
        ),
      )
      .toMatchObject({ code: MCP_CODES.TRANSPORT_ERROR, message: expect.stringContaining("Write failed: write EPIPE") });
    await expect(deaf.send({ n: 1n })).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
    await deaf.close();
    await expect(deaf.exited).resolves.toMatchObject({ signal: "SIGTERM" });
  });

  it("escalates to SIGTERM and then SIGKILL when the child ignores the end of its input", async () => {
    const seen: string[] = [];
    const transport = await spawnStdioServer({
      command: process.execPath,
      args: [fixture("stubborn-server.mjs")],
      closeTimeoutMs: 300,
      stderr: (text) => seen.push(text),
    });
    await vi.waitFor(() => expect(seen.join("")).toContain("ready"));
    await transport.close();
    await expect(transport.exited).resolves.toMatchObject({ signal: "SIGKILL" });
    expect(seen.join("")).toContain("ignoring SIGTERM");
  });

  it("drains a flood of stderr so the child never blocks, keeping only its tail", async () => {
    let forwarded = 0;
    const { transport, client } = await connect({
      command: process.execPath,
      args: [fixture("noisy-server.mjs")],
      stderr: (text) => (forwarded += text.length),
    });
    await expect(client.request("ping")).resolves.toEqual({});
    await vi.waitFor(() => expect(forwarded).toBe(4096 * 1024));
    expect(transport.stderrTail.length).toBe(8192);
    await client.close();
  });

  it("forwards stderr to this process when asked", async () => {
    const write = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const { client } = await connect({ command: process.execPath, args: [exampleServer], stderr: "inherit" });
    await vi.waitFor(() => expect(write.mock.calls.map(([text]) => String(text)).join("")).toContain("serving on stdio"));
    write.mockRestore();
    await client.close();
  });

  it("passes a minimal environment plus what it is given, never the host's secrets", async () => {
    process.env["MCP_TEST_SECRET"] = "do-not-leak";
    let output = "";
    const transport = await spawnStdioServer({
      command: process.execPath,
      args: ["-e", "process.stderr.write(JSON.stringify(process.env))"],
      env: { EXTRA: "given" },
      cwd: fileURLToPath(new URL("../../e2e/fixtures", import.meta.url)),
      stderr: (text) => (output += text),
    });
    await transport.exited;
    delete process.env["MCP_TEST_SECRET"];
    const env = JSON.parse(output) as Record<string, string>;
    expect(env["EXTRA"]).toBe("given");
    expect(env["PATH"]).toBe(process.env["PATH"]);
    expect(env["MCP_TEST_SECRET"]).toBeUndefined();
  });
});
