// The retry layer on a real client: idempotent requests sent again after a failure that may pass,
// with a doubling backoff, up to the attempts allowed; tools/call only for the tools named; other
// failures, a cancelled call and non-idempotent requests never sent twice.
import { afterEach, describe, expect, it, vi } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import { MCPClient } from "../../client/mcp-client/mcp-client.js";
import { MCPServer } from "../../server/mcp-server/mcp-server.js";
import { InMemoryTransport } from "../../transport/in-memory/in-memory.js";
import type { ClientMiddleware } from "../client-middleware.js";
import { retry } from "./retry.js";

afterEach(() => {
  vi.useRealTimers();
});

async function connected(era: "session" | "stateless" = "session"): Promise<{ client: MCPClient; ran: string[] }> {
  const ran: string[] = [];
  const server = new MCPServer({ name: "retry", version: "1.0.0" }, { telemetry: null });
  for (const name of ["lookup", "charge"]) server.tool(name, {}, () => (ran.push(name), { content: [{ type: "text", text: name }] }));
  server.prompt("greet", { arguments: { name: { complete: () => ["Ada"] } } }, () => ({
    messages: [{ role: "user", content: { type: "text", text: "hi" } }],
  }));
  server.resource("readme", "file:///readme", {}, (uri) => ({ contents: [{ uri, text: "read me" }] }));
  server.resourceTemplate("page", "file:///pages/{id}", {}, (uri) => ({ contents: [{ uri, text: "page" }] }));
  const [clientEnd, serverEnd] = InMemoryTransport.pair();
  await server.start(serverEnd);
  const client = new MCPClient({ name: "retry-client", version: "1.0.0" }, { era, telemetry: null });
  await client.connect(clientEnd);
  return { client, ran };
}

/** A layer under the retry that fails each method's first `failures` sends with `error`, and counts the sends. */
function flaky(failures: number, error: () => unknown = () => new MCPError(MCP_CODES.TRANSPORT_ERROR, "connection reset")) {
  const sends = new Map<string, number>();
  const layer: ClientMiddleware = (next) => (request, context) => {
    const key = request.method === "tools/call" ? `tools/call ${request.params.name}` : request.method;
    const count = (sends.get(key) ?? 0) + 1;
    sends.set(key, count);
    return count <= failures ? Promise.reject(error()) : next(request, context);
  };
  return { layer, sends };
}

/** The abort listeners among a spy's calls of add/removeEventListener. */
const listeners = (calls: unknown[][]) => calls.filter(([type]) => type === "abort").map(([, listener]) => listener);

describe("retry", () => {
  it("sends an idempotent request again after a transport failure, waiting a doubling backoff", async () => {
    const { client } = await connected();
    const { layer, sends } = flaky(2);
    const waits: number[] = [];
    const setTimeoutSpy = vi.spyOn(globalThis, "setTimeout");
    client.use(retry({ delayMs: 5, maxDelayMs: 8 })).use(layer);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["lookup", "charge"]);
    for (const call of setTimeoutSpy.mock.calls) if (call[1] === 5 || call[1] === 8) waits.push(call[1]);
    expect(sends.get("tools/list")).toBe(3);
    expect(waits).toEqual([5, 8]);
    await client.close();
  });

  it("gives up after the attempts allowed, with the last failure", async () => {
    const { client } = await connected();
    const { layer, sends } = flaky(5);
    client.use(retry({ attempts: 2, delayMs: 1 })).use(layer);
    await expect(client.listPrompts()).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_ERROR, message: "connection reset" });
    expect(sends.get("prompts/list")).toBe(2);
    await client.close();
  });

  it("calls a tool twice only when it is named; other failures and other tools are not retried", async () => {
    const { client, ran } = await connected();
    const { layer, sends } = flaky(1);
    client.use(retry({ delayMs: 1, tools: ["lookup"] })).use(layer);
    await expect(client.callTool("lookup")).resolves.toMatchObject({ content: [{ type: "text", text: "lookup" }] });
    await expect(client.callTool("charge")).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_ERROR });
    expect([sends.get("tools/call lookup"), sends.get("tools/call charge")]).toEqual([2, 1]);
    expect(ran).toEqual(["lookup"]);
    const refused = flaky(1, () => new MCPError(MCP_CODES.UNAUTHORIZED, "no"));
    const other = await connected();
    other.client.use(retry({ delayMs: 1 })).use(refused.layer);
    await expect(other.client.listResources()).rejects.toMatchObject({ code: MCP_CODES.UNAUTHORIZED });
    expect(refused.sends.get("resources/list")).toBe(1);
    await Promise.all([client.close(), other.client.close()]);
  });

  it("stops waiting when the call is cancelled, and does not send it again", async () => {
    const { client } = await connected();
    const { layer, sends } = flaky(1);
    client.use(retry({ delayMs: 60_000, retryable: () => true })).use(layer);
    const controller = new AbortController();
    const listed = client.listTools(undefined, { signal: controller.signal });
    await vi.waitFor(() => expect(sends.get("tools/list")).toBe(1));
    controller.abort();
    await expect(listed).rejects.toMatchObject({ code: MCP_CODES.REQUEST_CANCELLED });
    // The send after the wait went out with the aborted signal and was refused before the server: the layer counted it.
    expect(sends.get("tools/list")).toBe(2);
    const aborted = new AbortController();
    aborted.abort();
    const { layer: again, sends: counted } = flaky(1);
    const other = await connected();
    other.client.use(retry({ delayMs: 1, retryable: () => true })).use(again);
    // Already cancelled when it failed: the failure is the answer, without a wait or another send.
    await expect(other.client.listTools(undefined, { signal: aborted.signal })).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_ERROR });
    expect(counted.get("tools/list")).toBe(1);
    await Promise.all([client.close(), other.client.close()]);
  });

  it("waits 100 ms before the second send by default", async () => {
    const { client } = await connected();
    const { layer, sends } = flaky(1);
    const setTimeoutSpy = vi.spyOn(globalThis, "setTimeout");
    client.use(retry()).use(layer);
    await client.ping();
    expect(sends.get("ping")).toBe(2);
    expect(setTimeoutSpy.mock.calls.some((call) => call[1] === 100)).toBe(true);
    await client.close();
  });

  it("retries every request that changes nothing on the server, and a timeout as a transport failure; never a subscription", async () => {
    const { client } = await connected();
    const { layer, sends } = flaky(1, () => new MCPError(MCP_CODES.TIMEOUT, "took too long"));
    client.use(retry({ delayMs: 1 })).use(layer);
    await client.listResources();
    await client.listResourceTemplates();
    await client.readResource("file:///readme");
    await client.listPrompts();
    await client.getPrompt("greet", {});
    await client.complete({ type: "ref/prompt", name: "greet" }, { name: "name", value: "A" });
    await client.ping();
    expect([...sends.entries()]).toEqual(
      ["resources/list", "resources/templates/list", "resources/read", "prompts/list", "prompts/get", "completion/complete", "ping"].map(
        (method) => [method, 2],
      ),
    );
    await expect(client.subscribeResource("file:///readme")).rejects.toMatchObject({ code: MCP_CODES.TIMEOUT });
    expect(sends.get("resources/subscribe")).toBe(1);
    // The stateless era's ping is a server/discover.
    const stateless = await connected("stateless");
    const discover = flaky(1);
    stateless.client.use(retry({ delayMs: 1 })).use(discover.layer);
    await stateless.client.ping();
    expect(discover.sends.get("server/discover")).toBe(2);
    await Promise.all([client.close(), stateless.client.close()]);
  });

  it("lets go of the call's signal once it is done waiting", async () => {
    const { client } = await connected();
    const { layer } = flaky(1);
    client.use(retry({ delayMs: 1 })).use(layer);
    const controller = new AbortController();
    const added = vi.spyOn(controller.signal, "addEventListener");
    const removed = vi.spyOn(controller.signal, "removeEventListener");
    await client.listTools(undefined, { signal: controller.signal });
    // Every abort listener put on the signal (the wait's, then the request's) was taken off again.
    expect(listeners(added.mock.calls)).toHaveLength(2);
    expect(listeners(removed.mock.calls)).toEqual(listeners(added.mock.calls));
    await client.close();
  });

  it("takes one attempt as no retry, and refuses attempts that are not a whole number of at least 1", async () => {
    const { client } = await connected();
    const { layer, sends } = flaky(1);
    client.use(retry({ attempts: 1, delayMs: 1 })).use(layer);
    await expect(client.ping()).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_ERROR });
    expect(sends.get("ping")).toBe(1);
    for (const attempts of [0, 1.5, Number.NaN])
      expect(() => retry({ attempts })).toThrow(
        expect.objectContaining({
          code: MCP_CODES.INVALID_PARAMS,
          message: `retry: attempts must be a whole number of at least 1, not ${String(attempts)}`,
        }),
      );
    await client.close();
  });

  it("retries a rate-limited call at once when the refusal names no wait; other failures of tools not named, never", async () => {
    const { client, ran } = await connected();
    const { layer, sends } = flaky(1, () => new MCPError(MCP_CODES.RATE_LIMITED, "slow down", { data: { retryAfterMs: "soon" } }));
    client.use(retry()).use(layer);
    expect((await client.callTool("charge", {})).content).toEqual([{ type: "text", text: "charge" }]);
    expect([sends.get("tools/call charge"), ran]).toEqual([2, ["charge"]]);
    // A negative wait is no wait; a wait of exactly maxDelayMs is still waited.
    for (const retryAfterMs of [-5, 20]) {
      const { layer: limited, sends: counted } = flaky(
        1,
        () => new MCPError(MCP_CODES.RATE_LIMITED, "slow down", { data: { retryAfterMs } }),
      );
      const other = (await connected()).client;
      other.use(retry({ maxDelayMs: 20 })).use(limited);
      await other.callTool("lookup", {});
      expect(counted.get("tools/call lookup")).toBe(2);
      await other.close();
    }
    await client.close();
  });
});
