// rateLimit on a real server, in both eras: buckets per caller and per caller and tool, refusals
// that cost nothing and say when to come back, the client's retry honouring that wait, names from
// the wire that are no tool, bounded memory, and the options refused.
import { describe, expect, it } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPServer } from "../../server/mcp-server/mcp-server.js";
import { rateLimit } from "./rate-limit.js";
import { retry } from "./retry.js";
import { ERAS, clientAs, testClock, text, textOf } from "./server-builtins.test-helpers.js";

function limitedServer(layer: ReturnType<typeof rateLimit>, ran: string[] = []): MCPServer {
  const server = new MCPServer({ name: "limited", version: "1.0.0" }, { telemetry: null });
  for (const name of ["search", "deploy"]) {
    server.tool(name, {}, () => {
      ran.push(name);
      return text(name);
    });
  }
  // On tools/call only: the client lists the tools after a call to learn their output schemas, and those lists would spend tokens too.
  return server.use("tools/call", layer);
}

const ada = { subject: "ada", clientId: "app", scopes: [] };
const bob = { subject: "bob", clientId: "app", scopes: [] };

describe.each(ERAS)("rateLimit, %s era", (era) => {
  it("gives each caller a bucket, and refuses with the wait until a token is back", async () => {
    const clock = testClock();
    const ran: string[] = [];
    const server = limitedServer(rateLimit({ perCaller: { capacity: 2, refillPerSecond: 4 }, now: clock.now }), ran);
    const [asAda, asBob] = [await clientAs(server, era, ada), await clientAs(server, era, bob)];
    await asAda.callTool("search", {});
    await asAda.callTool("search", {});
    await expect(asAda.callTool("search", {})).rejects.toMatchObject({
      code: MCP_CODES.RATE_LIMITED,
      data: { retryAfterMs: 250 },
      message: expect.stringContaining("limited to 2 at once and 4 per second; retry in 250 ms"),
    });
    // Another caller has a bucket of its own.
    expect(textOf(await asBob.callTool("deploy", {}))).toBe("deploy");
    clock.advance(100);
    await expect(asAda.callTool("search", {})).rejects.toMatchObject({ data: { retryAfterMs: 150 } });
    clock.advance(150);
    expect(textOf(await asAda.callTool("search", {}))).toBe("search");
    expect(ran.filter((name) => name === "search")).toHaveLength(3);
    await Promise.all([asAda.close(), asBob.close()]);
  });

  it("limits each caller's calls of a tool, without spending the caller's bucket on a refusal", async () => {
    const clock = testClock();
    const server = limitedServer(
      rateLimit({
        perCaller: { capacity: 3, refillPerSecond: 1 },
        perTool: { deploy: { capacity: 1, refillPerSecond: 1 } },
        now: clock.now,
      }),
    );
    const client = await clientAs(server, era, ada);
    await client.callTool("deploy", {});
    await expect(client.callTool("deploy", {})).rejects.toMatchObject({
      code: MCP_CODES.RATE_LIMITED,
      message: expect.stringContaining('calls of "deploy"'),
    });
    await expect(client.callTool("deploy", {})).rejects.toMatchObject({ code: MCP_CODES.RATE_LIMITED });
    // Two refusals later the caller still has two of its three tokens: a tool not named is not limited by tool.
    await client.callTool("search", {});
    await client.callTool("search", {});
    await expect(client.callTool("search", {})).rejects.toMatchObject({ message: expect.stringContaining("this caller's requests") });
    await client.close();
  });

  it("takes a name from the wire that no bucket has (__proto__, constructor) as an unlimited tool", async () => {
    const server = limitedServer(rateLimit({ perTool: { deploy: { capacity: 1, refillPerSecond: 1 } } }));
    const client = await clientAs(server, era);
    for (const name of ["__proto__", "constructor", "toString"]) {
      await expect(client.callTool(name, {})).rejects.toMatchObject({
        code: MCP_CODES.INVALID_PARAMS,
        message: expect.stringContaining(`Unknown tool: ${name}`),
      });
    }
    // Anonymous callers share one bucket per tool.
    await client.callTool("deploy", {});
    const other = await clientAs(server, era);
    await expect(other.callTool("deploy", {})).rejects.toMatchObject({ code: MCP_CODES.RATE_LIMITED });
    await Promise.all([client.close(), other.close()]);
  });

  it("lets the client's retry wait what the server asked, for any request (the refused one never ran)", async () => {
    const ran: string[] = [];
    const server = limitedServer(rateLimit({ perTool: { capacity: 1, refillPerSecond: 200 } }), ran);
    const client = await clientAs(server, era, ada);
    client.use(retry());
    await client.callTool("deploy", {});
    // Refused once (5 ms to wait), sent again by retry although deploy is not named as idempotent.
    expect(textOf(await client.callTool("deploy", {}))).toBe("deploy");
    expect(ran).toEqual(["deploy", "deploy"]);
    const impatient = await clientAs(limitedServer(rateLimit({ perCaller: { capacity: 1, refillPerSecond: 0.1 } })), era, ada);
    impatient.use(retry({ maxDelayMs: 1_000 }));
    await impatient.callTool("search", {});
    // The server asks for about 10 s (less what the clock moved since): longer than the host waits, so the call fails at once.
    const refused = await impatient.callTool("search", {}).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: MCP_CODES.RATE_LIMITED });
    expect((refused as { data: { retryAfterMs: number } }).data.retryAfterMs).toBeGreaterThan(9_000);
    await Promise.all([client.close(), impatient.close()]);
  });
});

describe("rateLimit's memory and options", () => {
  it("keeps at most maxBuckets: full buckets go first, then the oldest", async () => {
    const clock = testClock();
    const server = limitedServer(
      rateLimit({
        perCaller: { capacity: 1, refillPerSecond: 1 },
        maxBuckets: 2,
        callerOf: (context) => (context.principal as { subject: string }).subject,
        now: clock.now,
      }),
    );
    const clients = await Promise.all(["a", "b", "c", "d"].map((subject) => clientAs(server, "session", { subject })));
    const [a, b, c, d] = clients as [(typeof clients)[0], (typeof clients)[0], (typeof clients)[0], (typeof clients)[0]];
    await a.callTool("search", {});
    clock.advance(1_000);
    await b.callTool("search", {});
    // Three buckets: a's is full again (a second passed), so it goes and b's empty one stays.
    await c.callTool("search", {});
    await expect(b.callTool("search", {})).rejects.toMatchObject({ code: MCP_CODES.RATE_LIMITED });
    // Three again, none full: the oldest (b's) goes, and b starts afresh.
    await d.callTool("search", {});
    expect(textOf(await b.callTool("search", {}))).toBe("search");
    await Promise.all(clients.map((client) => client.close()));
  });

  it("limits every request it sees when put in front of all methods (the client's own lists too)", async () => {
    const server = new MCPServer({ name: "all", version: "1.0.0" }, { telemetry: null }).use(
      rateLimit({ perCaller: { capacity: 3, refillPerSecond: 0.001 }, perTool: { tools: { capacity: 1, refillPerSecond: 1 } } }),
    );
    server.prompt("hello", {}, () => ({ messages: [] }));
    const client = await clientAs(server, "session", ada);
    await client.listPrompts();
    await client.getPrompt("hello");
    // initialize, the list and the prompt spent the caller's three tokens (a tool's bucket counts tools/call only).
    await expect(client.listTools()).rejects.toMatchObject({
      code: MCP_CODES.RATE_LIMITED,
      message: expect.stringContaining("this caller's requests"),
    });
    await client.close();
  });

  it("keeps only full buckets out when tool buckets alone are given", async () => {
    const clock = testClock();
    const server = limitedServer(rateLimit({ perTool: { capacity: 1, refillPerSecond: 1 }, maxBuckets: 1, now: clock.now }));
    const client = await clientAs(server, "session", ada);
    await client.callTool("search", {});
    clock.advance(1_000);
    // Two buckets: search's is full again, so it goes; deploy's stays and is empty.
    await client.callTool("deploy", {});
    await expect(client.callTool("deploy", {})).rejects.toMatchObject({ code: MCP_CODES.RATE_LIMITED });
    await client.callTool("search", {});
    await client.close();
  });

  it("refuses a layer with no bucket, and buckets that could never give a token", () => {
    expect(() => rateLimit({})).toThrow(
      expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS, message: "rateLimit: give perCaller, perTool, or both" }),
    );
    for (const bucket of [
      { capacity: 0, refillPerSecond: 1 },
      { capacity: 1, refillPerSecond: 0 },
      { capacity: Number.POSITIVE_INFINITY, refillPerSecond: 1 },
      { capacity: 1, refillPerSecond: Number.NaN },
    ]) {
      expect(() => rateLimit({ perCaller: bucket })).toThrow(
        expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS, message: expect.stringContaining("rateLimit: a bucket needs") }),
      );
      expect(() => rateLimit({ perTool: { deploy: bucket } })).toThrow(expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS }));
    }
  });
});
