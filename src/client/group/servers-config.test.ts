// The `mcpServers` configuration as hosts write it: both kinds of entry with their optional type,
// VS Code's `servers`, disabled entries, and every malformed input refused with MCP.INVALID_PARAMS
// naming the server (never a crash); and the server names that would make merged names ambiguous.
import { describe, expect, it } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { checkServerNames, mergedName, routeName } from "./names.js";
import { parseServersConfig } from "./servers-config.js";

const refused = (message: string | RegExp, server?: string) =>
  expect.objectContaining({
    code: MCP_CODES.INVALID_PARAMS,
    message: typeof message === "string" ? expect.stringContaining(message) : expect.stringMatching(message),
    ...(server === undefined ? {} : { data: { server } }),
  });

describe("parseServersConfig", () => {
  it("reads stdio and HTTP entries, setting their type, and leaves disabled ones out", () => {
    const parsed = parseServersConfig({
      mcpServers: {
        local: { command: "node", args: ["server.mjs"], env: { KEY: "v" }, cwd: "/tmp", extra: "ignored" },
        bare: { type: "stdio", command: "srv" },
        remote: { url: "https://example.com/mcp", headers: { Authorization: "Bearer t" } },
        streamable: { type: "streamable-http", url: "http://127.0.0.1:1/mcp" },
        legacy: { type: "sse", url: "http://127.0.0.1:1/sse" },
        off: { command: "never", disabled: true },
      },
    });
    expect([...parsed]).toEqual([
      ["local", { type: "stdio", command: "node", args: ["server.mjs"], env: { KEY: "v" }, cwd: "/tmp" }],
      ["bare", { type: "stdio", command: "srv" }],
      ["remote", { type: "http", url: "https://example.com/mcp", headers: { Authorization: "Bearer t" } }],
      ["streamable", { type: "streamable-http", url: "http://127.0.0.1:1/mcp" }],
      ["legacy", { type: "sse", url: "http://127.0.0.1:1/sse" }],
    ]);
    expect([...parseServersConfig({ servers: { vs: { type: "http", url: "http://127.0.0.1/" } } }).keys()]).toEqual(["vs"]);
    expect(parseServersConfig(JSON.parse('{"mcpServers":{}}')).size).toBe(0);
  });

  it.each([
    [null, "must be an object", undefined],
    [[], "not an array", undefined],
    [{}, 'must have an "mcpServers" object, not undefined', undefined],
    [{ mcpServers: "x" }, "not string", undefined],
    [{ mcpServers: { "": { command: "x" } } }, "empty name", undefined],
    [{ mcpServers: { a: null } }, 'MCP server "a" must be an object, not null', "a"],
    [{ mcpServers: { a: { type: "ws", url: "http://x/" } } }, 'has type "ws"', "a"],
    [{ mcpServers: { a: { type: 3, command: "x" } } }, "has type 3", "a"],
    [{ mcpServers: { a: { name: "x" } } }, "is neither a stdio server", "a"],
    [{ mcpServers: { a: { command: "x", url: "http://x/" } } }, 'both "command" and "url"', "a"],
    [{ mcpServers: { a: { type: "http", command: "x" } } }, 'has a "command" but type "http"', "a"],
    [{ mcpServers: { a: { type: "stdio", url: "http://x/" } } }, 'type "stdio" but no "command"', "a"],
    [{ mcpServers: { a: { command: "" } } }, '"command" must be a non-empty string', "a"],
    [{ mcpServers: { a: { command: 7 } } }, '"command" must be a non-empty string', "a"],
    [{ mcpServers: { a: { command: "x", args: "y" } } }, '"args" must be an array of strings', "a"],
    [{ mcpServers: { a: { command: "x", args: [1] } } }, '"args" must be an array of strings', "a"],
    [{ mcpServers: { a: { command: "x", cwd: 1 } } }, '"cwd" must be a string', "a"],
    [{ mcpServers: { a: { command: "x", env: { A: 1 } } } }, '"env" must be an object of strings', "a"],
    [{ mcpServers: { a: { command: "x", env: ["A"] } } }, '"env" must be an object of strings', "a"],
    [{ mcpServers: { a: { url: "ftp://x/" } } }, '"url" must be an http: or https: URL, not "ftp://x/"', "a"],
    [{ mcpServers: { a: { url: "not a url" } } }, '"url" must be an http: or https: URL', "a"],
    [{ mcpServers: { a: { url: 5 } } }, '"url" must be an http: or https: URL, not 5', "a"],
    [{ mcpServers: { a: { url: "http://x/", headers: { A: false } } } }, '"headers" must be an object of strings', "a"],
  ])("refuses %j", (config, message, server) => {
    expect(() => parseServersConfig(config)).toThrow(refused(message, server));
  });
});

describe("merged names", () => {
  it("refuses an empty separator and names that contain it or overlap with another's prefix", () => {
    expect(() => checkServerNames(["a"], "")).toThrow(refused("non-empty"));
    expect(() => checkServerNames(["my__server"], "__")).toThrow(refused('"my__server" has the separator "__"', "my__server"));
    expect(() => checkServerNames(["a", "a_"], "__")).toThrow(refused('"a" and "a_" make ambiguous merged names', "a_"));
    expect(() => checkServerNames(["a", "ab", "b"], "__")).not.toThrow();
  });

  it("routes a merged name to its server and the name after the separator, which may contain it", () => {
    expect(mergedName("files", "read__all", "__")).toBe("files__read__all");
    expect(routeName("files__read__all", ["web", "files"], "__")).toEqual({ server: "files", name: "read__all" });
    expect(routeName("files__", ["files"], "__")).toBeUndefined();
    expect(routeName("nope__x", ["files"], "__")).toBeUndefined();
  });
});
