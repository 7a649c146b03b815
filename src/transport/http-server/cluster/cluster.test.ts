import { afterEach, describe, expect, it } from "vitest";
import { MCPClient } from "../../../client/mcp-client/mcp-client.js";
import { StreamableHttpTransport } from "../../http-client/streamable-http.js";
import { URL_BASE, httpRequest } from "../http-server.test-helpers.js";
import { deployment, type Deployment } from "./cluster.test-helpers.js";

const open: Deployment[] = [];
const clients: MCPClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const each of open.splice(0)) await each.close();
});

function cluster(count = 3): Deployment {
  // Clients reconnect 20 ms after a broken stream (the server's `retry`).
  const made = deployment(count, { retryMs: 20 });
  open.push(made);
  return made;
}

async function clientOf(through: Deployment, options: ConstructorParameters<typeof MCPClient>[1] = {}): Promise<MCPClient & { readonly sessionId: string }> {
  const client = new MCPClient({ name: "cluster-client", version: "1.0.0" }, { era: "session", ...options });
  clients.push(client);
  const transport = new StreamableHttpTransport(URL_BASE, { fetchImpl: through.fetch });
  await client.connect(transport);
  return Object.assign(client, { sessionId: transport.sessionId as string });
}

const textOf = (result: { content?: unknown }) => (result.content as { text: string }[])[0]?.text;

describe("a session served by three instances", () => {
  it("answers every request whichever instance it lands on, then ends everywhere on DELETE with nothing left", async () => {
    const three = cluster();
    const client = await clientOf(three);
    const sessionId = client.sessionId;
    expect(sessionId).toMatch(/^i0\.[0-9a-f]{64}$/);
    for (let call = 0; call < 6; call++) expect(textOf(await client.callTool("echo", { text: `call ${call}` }))).toBe(`call ${call}`);
    const progress: number[] = [];
    expect(textOf(await client.callTool("steps", { count: 5 }, { onProgress: ({ progress: step }) => void progress.push(step) }))).toBe("5 steps");
    expect(progress).toEqual([1, 2, 3, 4, 5]);
    expect(three.counts.every((count) => count >= 3)).toBe(true);
    expect(three.instances.map((instance) => instance.handler.sessionCount)).toEqual([1, 0, 0]);
    await client.close();
    await expect.poll(() => three.directory.size).toBe(0);
    expect(three.events.size).toBe(0);
    for (let index = 0; index < 3; index++) {
      three.route = index;
      const response = await three.fetch(URL_BASE, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": sessionId }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }) });
      expect(response.status).toBe(404);
    }
  });

  it("delivers a server-to-client request and its answer across instances", async () => {
    const three = cluster();
    const client = await clientOf(three, { sampling: () => ({ role: "assistant", content: { type: "text", text: "fine" }, model: "m" }) });
    expect(textOf(await client.callTool("ask", {}))).toBe('model said {"type":"text","text":"fine"}');
  });

  it("cancels a request through another instance", async () => {
    const three = cluster();
    const client = await clientOf(three);
    const controller = new AbortController();
    const call = client.callTool("wait", {}, { signal: controller.signal });
    await expect.poll(() => three.gate.entered).toBe(1);
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: "MCP.REQUEST_CANCELLED" });
    expect(textOf(await client.callTool("echo", { text: "after" }))).toBe("after");
  });

  it("refuses a session id of another instance that does not exist", async () => {
    const three = cluster();
    const response = await three.instances[1]?.handler.fetch(httpRequest({ body: { jsonrpc: "2.0", id: 1, method: "ping" }, session: `i0.${"0".repeat(64)}` }));
    expect(response?.status).toBe(404);
  });
});

describe("an instance that stops", () => {
  it("answers the requests that were running on it with an error once another instance takes the session over, which goes on serving it", async () => {
    const three = cluster();
    three.route = 0;
    const client = await clientOf(three);
    const call = client.callTool("wait", {});
    await expect.poll(() => three.gate.entered).toBe(1);
    three.kill(0);
    await expect(call).rejects.toMatchObject({ code: "MCP.INTERNAL_ERROR", message: expect.stringContaining("stopped before answering") });
    expect(textOf(await client.callTool("echo", { text: "still here" }))).toBe("still here");
    const record = await three.directory.get(client.sessionId);
    expect(record).toMatchObject({ epoch: 1, instance: expect.stringMatching(/^i[12]$/), state: { protocolVersion: "2025-11-25", clientInfo: { name: "cluster-client" } } });
  });

  it("loses nothing when the instance that relayed a stream stops: the client resumes through another", async () => {
    const three = cluster();
    three.route = 1;
    const client = await clientOf(three);
    expect(client.sessionId.startsWith("i1.")).toBe(true);
    three.route = 0;
    const progress: number[] = [];
    const call = client.callTool("wait", {}, { onProgress: ({ progress: step }) => void progress.push(step) });
    await expect.poll(() => three.gate.entered).toBe(1);
    three.kill(0);
    three.route = "alternate";
    three.gate.open();
    expect(textOf(await call)).toMatch(/^waited in i1\./);
    expect(progress).toEqual([0]);
    expect((await three.directory.get(client.sessionId))?.epoch).toBe(0);
  });

  it("hands its sessions over when it closes: another instance goes on with them at once", async () => {
    const three = cluster();
    three.route = 0;
    const client = await clientOf(three);
    await three.instances[0]?.handler.close();
    three.dead.add(0);
    expect(textOf(await client.callTool("echo", { text: "moved" }))).toBe("moved");
    expect(await three.directory.get(client.sessionId)).toMatchObject({ epoch: 1, instance: "i1" });
  });
});
