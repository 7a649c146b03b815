// requireScopes on a real server, in both eras: the entries' own requiredScopes and the layer's
// rules, scopes or roles of the caller, what a refusal names, lists left alone, names from the wire
// that no rule has, and a mounted child's scopes checked by the parent's layer.
import { describe, expect, it } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { mount } from "../../server/compose/mount.js";
import { MCPServer } from "../../server/mcp-server/mcp-server.js";
import { requireScopes } from "./require-scopes.js";
import { ERAS, clientAs, text, textOf } from "./server-builtins.test-helpers.js";

function scopedServer(): MCPServer {
  const server = new MCPServer({ name: "scoped", version: "1.0.0" }, { telemetry: null });
  server.tool("deploy", { requiredScopes: ["deploy:write"] }, () => text("deployed"));
  server.tool("search", {}, () => text("found"));
  server.prompt("review", { requiredScopes: ["prompts"] }, () => ({ messages: [] }));
  server.resource("vault", "file:///vault", {}, (uri) => ({ contents: [{ uri, text: "gold" }] }));
  return server;
}

const principal = (...scopes: string[]) => ({ subject: "ada", clientId: "app", scopes });

describe.each(ERAS)("requireScopes, %s era", (era) => {
  it("checks the entries' own requiredScopes, naming what is missing", async () => {
    const server = scopedServer();
    server.use(requireScopes({ server }));
    const without = await clientAs(server, era, principal("other"));
    await expect(without.callTool("deploy", {})).rejects.toMatchObject({
      code: MCP_CODES.UNAUTHORIZED,
      message: 'tools/call of "deploy" needs the scopes deploy:write, which the caller does not hold',
      data: { missingScopes: ["deploy:write"] },
    });
    await expect(without.getPrompt("review")).rejects.toMatchObject({ code: MCP_CODES.UNAUTHORIZED, data: { missingScopes: ["prompts"] } });
    expect(textOf(await without.callTool("search", {}))).toBe("found");
    // Lists show every entry.
    expect((await without.listTools()).tools.map((tool) => tool.name)).toEqual(["deploy", "search"]);
    const granted = await clientAs(server, era, principal("deploy:write", "prompts"));
    expect(textOf(await granted.callTool("deploy", {}))).toBe("deployed");
    expect((await granted.getPrompt("review")).messages).toEqual([]);
    // No principal at all: no scopes.
    const anonymous = await clientAs(server, era);
    await expect(anonymous.callTool("deploy", {})).rejects.toMatchObject({ code: MCP_CODES.UNAUTHORIZED });
    await Promise.all([without.close(), granted.close(), anonymous.close()]);
  });

  it("adds rules of its own per tool, prompt and resource, and checks roles through scopesOf", async () => {
    const server = scopedServer();
    server.use(
      requireScopes({
        server,
        tools: { deploy: ["admin"], search: ["reader"] },
        resources: { "file:///vault": ["treasurer"] },
        prompts: { review: ["reviewer"] },
        scopesOf: (context) => (context.principal as { roles: string[] }).roles,
      }),
    );
    const reader = await clientAs(server, era, { roles: ["reader", "deploy:write"] });
    expect(textOf(await reader.callTool("search", {}))).toBe("found");
    await expect(reader.callTool("deploy", {})).rejects.toMatchObject({ data: { missingScopes: ["admin"] } });
    await expect(reader.readResource("file:///vault")).rejects.toMatchObject({
      code: MCP_CODES.UNAUTHORIZED,
      message: expect.stringContaining('resources/read of "file:///vault" needs the scopes treasurer'),
    });
    await expect(reader.getPrompt("review")).rejects.toMatchObject({ data: { missingScopes: ["prompts", "reviewer"] } });
    const treasurer = await clientAs(server, era, { roles: ["treasurer"] });
    expect((await treasurer.readResource("file:///vault")).contents).toEqual([{ uri: "file:///vault", text: "gold" }]);
    await Promise.all([reader.close(), treasurer.close()]);
  });

  it("finds no rule for a name from the wire such as __proto__, and lets the call fail on its own", async () => {
    const server = scopedServer().use(requireScopes({ tools: { deploy: ["admin"] } }));
    const client = await clientAs(server, era, { scopes: "not a list" });
    for (const name of ["__proto__", "constructor"])
      await expect(client.callTool(name, {})).rejects.toMatchObject({
        code: MCP_CODES.INVALID_PARAMS,
        message: expect.stringContaining(`Unknown tool: ${name}`),
      });
    // Methods the rules do not name pass without a look at the caller.
    expect((await client.listTools()).tools).toHaveLength(2);
    expect((await client.getPrompt("review")).messages).toEqual([]);
    // Scopes that are no list count as none.
    await expect(client.callTool("deploy", {})).rejects.toMatchObject({ code: MCP_CODES.UNAUTHORIZED });
    await client.close();
  });

  it("checks a mounted child's requiredScopes from the parent", async () => {
    const parent = new MCPServer({ name: "parent", version: "1.0.0" }, { telemetry: null });
    await mount(parent, "ops", scopedServer());
    parent.use(requireScopes({ server: parent }));
    const client = await clientAs(parent, era, principal());
    await expect(client.callTool("ops_deploy", {})).rejects.toMatchObject({ data: { missingScopes: ["deploy:write"] } });
    expect(textOf(await client.callTool("ops_search", {}))).toBe("found");
    await client.close();
  });
});
