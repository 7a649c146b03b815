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
  const made = deployment(count);
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
