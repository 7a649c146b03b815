// stdioTransportFor: a stdio entry of an `mcpServers` configuration started as a child process (its
// env on top of the minimal safe one, its cwd, its stderr told with the server's name), an HTTP entry
// left to the group; and a group that starts the example weather server with it and stops it on close.
import { tmpdir } from "node:os";
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { MCPClientGroup } from "../client/group/server-group.js";
import type { ChildProcessTransport } from "./spawn-stdio.js";
import { stdioTransportFor } from "./server-group.js";

const exampleServer = fileURLToPath(new URL("../../examples/weather-server.mjs", import.meta.url));
const REPORT_ENV =
  "process.stderr.write(JSON.stringify({ cwd: process.cwd(), key: process.env.GROUP_KEY ?? null, " +
  "secret: process.env.GROUP_HOST_SECRET ?? null, path: typeof process.env.PATH }))";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup();
});

describe("stdioTransportFor", () => {
  it("starts a stdio entry with its args, its env on a minimal one, its cwd, and hands its stderr on with the server's name", async () => {
    process.env["GROUP_HOST_SECRET"] = "host only";
    cleanups.push(async () => void delete process.env["GROUP_HOST_SECRET"]);
    const told: string[] = [];
    const spawned: string[] = [];
    const transportFor = stdioTransportFor({
      stderr: (text, server) => told.push(`${server}: ${text}`),
      closeTimeoutMs: 500,
      maxFrameBytes: 4096,
      onSpawn: (server) => spawned.push(server),
    });
    const cwd = realpathSync(tmpdir());
    const transport = (await transportFor("reporter", {
      type: "stdio",
      command: process.execPath,
      args: ["-e", REPORT_ENV],
      env: { GROUP_KEY: "given" },
      cwd,
    })) as ChildProcessTransport;
    await expect(transport.exited).resolves.toMatchObject({ exitCode: 0 });
    expect(JSON.parse(transport.stderrTail)).toEqual({ cwd, key: "given", secret: null, path: "string" });
    // However the child's stderr came in chunks, each is told with the server's name.
    expect(told.every((text) => text.startsWith("reporter: "))).toBe(true);
    expect(told.map((text) => text.slice("reporter: ".length)).join("")).toBe(transport.stderrTail);
    expect(spawned).toEqual(["reporter"]);
    await transport.close();
  });

  it("starts an entry with neither args nor env nor cwd, and leaves an HTTP entry to the group", async () => {
    const transportFor = stdioTransportFor();
    expect(await transportFor("remote", { type: "http", url: "http://127.0.0.1:1/mcp" })).toBeUndefined();
    const transport = (await transportFor("bare", { type: "stdio", command: process.execPath })) as ChildProcessTransport;
    await transport.close();
    await expect(transport.exited).resolves.toMatchObject({ signal: null });
  });

  it("lets a group start the example weather server, and stops it on close", async () => {
    const children: ChildProcessTransport[] = [];
    const group = new MCPClientGroup(
      { mcpServers: { weather: { command: process.execPath, args: [exampleServer] } } },
      {
        clientInfo: { name: "node-group", version: "1.0.0" },
        clientOptions: { telemetry: null },
        transportFor: stdioTransportFor({ stderr: "keep", onSpawn: (_server, child) => children.push(child) }),
      },
    );
    cleanups.push(() => group.close());
    await expect(group.connect()).resolves.toMatchObject({ connected: ["weather"] });
    expect((await group.listTools()).map((tool) => tool.name)).toEqual(["weather__forecast", "weather__to_fahrenheit"]);
    await expect(group.callTool("weather__to_fahrenheit", { celsius: 100 })).resolves.toMatchObject({
      structuredContent: { fahrenheit: 212 },
    });
    await group.close();
    await expect(children[0]?.exited).resolves.toMatchObject({ exitCode: 0 });
  });
});
