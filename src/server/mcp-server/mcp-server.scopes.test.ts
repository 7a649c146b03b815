// `requiredScopes` at registration: read by the HTTP `authorization` option through registrationOf,
// never sent to clients.
import { describe, expect, it } from "vitest";
import { MCPServer } from "./mcp-server.js";
import { initializedRawClientOf } from "./mcp-server.test-helpers.js";

function scopedServer(): MCPServer {
  const server = new MCPServer({ name: "scoped", version: "1.0.0" });
  server.tool("write", { description: "writes", requiredScopes: ["files:write"] }, () => ({ content: [] }));
  server.prompt("write", { requiredScopes: ["prompts:write"] }, () => ({ messages: [] }));
  server.resource("vault", "file:///vault", { mimeType: "text/plain", requiredScopes: ["vault"] }, (uri) => ({
    contents: [{ uri, text: "" }],
  }));
  server.resourceTemplate(
    "book",
    "library://books/{id}",
    { requiredScopes: ["books"], list: () => [{ uri: "library://books/1", name: "one" }] },
    (uri) => ({ contents: [{ uri, text: "" }] }),
  );
  return server;
}

describe("requiredScopes", () => {
  it("is what registrationOf finds for the entry a request names, enabled entries only", () => {
    const server = scopedServer();
    const scopesOf = (method: string, params: Record<string, unknown> | undefined) =>
      server.registrationOf(method, params)?.config.requiredScopes;
    expect(scopesOf("tools/call", { name: "write" })).toEqual(["files:write"]);
    expect(scopesOf("prompts/get", { name: "write" })).toEqual(["prompts:write"]);
    expect(scopesOf("resources/read", { uri: "file:///vault" })).toEqual(["vault"]);
    expect(scopesOf("resources/read", { uri: "library://books/42" })).toEqual(["books"]);
    for (const [method, params] of [
      ["tools/call", { name: "missing" }],
      ["tools/call", { name: 7 }],
      ["tools/call", undefined],
      ["resources/read", { uri: "file:///elsewhere" }],
      ["resources/read", undefined],
      ["tools/list", { name: "write" }],
      ["completion/complete", { name: "write" }],
    ] as const) {
      expect(server.registrationOf(method, params)).toBeUndefined();
    }
    const vault = server.resource("hidden", "file:///hidden", { requiredScopes: ["h"] }, (uri) => ({ contents: [{ uri, text: "" }] }));
    vault.disable();
    expect(server.registrationOf("resources/read", { uri: "file:///hidden" })).toBeUndefined();
  });

  it("stays on the server: no list shows it", async () => {
    const { client } = await initializedRawClientOf(scopedServer(), "2025-11-25");
    const lists = [
      await client.request("tools/list", {}),
      await client.request("prompts/list", {}),
      await client.request("resources/list", {}),
      await client.request("resources/templates/list", {}),
    ];
    expect(JSON.stringify(lists)).not.toContain("requiredScopes");
    expect(lists[0]).toMatchObject({ tools: [{ name: "write", description: "writes" }] });
    expect(lists[2]).toMatchObject({
      resources: [{ uri: "file:///vault", name: "vault", mimeType: "text/plain" }, { uri: "library://books/1" }],
    });
    await client.close();
  });
});
