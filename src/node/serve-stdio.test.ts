import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MCPServer } from "../server/mcp-server/mcp-server.js";
import { serveStdio } from "./serve-stdio.js";

function lines(stream: PassThrough): unknown[] {
  const text = (stream.read() as Buffer | null)?.toString() ?? "";
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as unknown);
}

const originalConsole = { log: console.log, info: console.info, debug: console.debug, warn: console.warn };
afterEach(() => Object.assign(console, originalConsole));

function serverWithTool(): MCPServer {
  const server = new MCPServer({ name: "stdio-test", version: "1.0.0" });
  server.tool("hello", {}, () => ({ content: [{ type: "text", text: "hi" }] }));
  return server;
}

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
};

describe("serveStdio", () => {
  it("serves a server on the given streams and finishes when the input ends", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const session = await serveStdio(serverWithTool(), { stdin, stdout });
    stdin.write(`${JSON.stringify(initialize)}\n`);
    stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "hello" } })}\n`);
    await vi.waitFor(() => expect(stdout.readableLength).toBeGreaterThan(0));
    await vi.waitFor(() => expect(session.client).toBeDefined());
    stdin.end();
    await session.finished;
    expect(lines(stdout)).toEqual([
      expect.objectContaining({ id: 1, result: expect.objectContaining({ protocolVersion: "2025-06-18" }) }),
      { jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "hi" }] } },
    ]);
    expect(stdout.writableEnded).toBe(true);
    expect(console.log).toBe(originalConsole.log);
  });

  it("answers a frame over the size limit with -32700", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    await serveStdio(serverWithTool(), { stdin, stdout, maxFrameBytes: 64 });
    stdin.write(`${JSON.stringify({ ...initialize, padding: "p".repeat(100) })}\n`);
    await vi.waitFor(() => expect(stdout.readableLength).toBeGreaterThan(0));
    expect(lines(stdout)).toEqual([
      { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: a frame is longer than the limit of 64 bytes" } },
    ]);
  });

  it("serves on process stdio by default, with console output moved to stderr and stdout left open", async () => {
    const written: string[] = [];
    const fakeWrite = (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
      written.push(Buffer.from(chunk).toString());
      const callback = rest.find((arg): arg is () => void => typeof arg === "function");
      callback?.();
      return true;
    };
    const write = vi.spyOn(process.stdout, "write").mockImplementation(fakeWrite);
    const stdin = new PassThrough();
    vi.spyOn(process, "stdin", "get").mockReturnValue(stdin as unknown as typeof process.stdin);
    const session = await serveStdio(serverWithTool());
    expect(console.log).not.toBe(originalConsole.log);
    expect(console.warn).not.toBe(originalConsole.warn);
    stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 9, method: "ping" })}\n`);
    await vi.waitFor(() => expect(written.join("")).toContain('"id":9'));
    stdin.end();
    await session.finished;
    write.mockRestore();
    expect(process.stdout.writableEnded).toBe(false);
  });
});
