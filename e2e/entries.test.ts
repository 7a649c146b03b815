// The side entries (src/entries/entries.md): each loads one side's modules, and each export is the
// universal entry's own object. This walks the static imports of the sources, as the build's chunk
// groups do (vite.config.ts); package-tests/start-up.test.ts checks what Node loads from the tarball.
import { relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import * as client from "../src/entries/client.js";
import * as httpServer from "../src/entries/http-server.js";
import * as server from "../src/entries/server.js";
import * as universal from "../src/index.js";
import { staticGraph } from "./support/static-imports.js";

const src = resolve(import.meta.dirname, "../src");

/** The modules an entry loads, relative to src/. */
const reached = (entry: string): string[] => [...staticGraph(resolve(src, entry)).files].map((file) => relative(src, file));

/** The files among `files` under one of `paths` (a folder ending in `/`, or a file). */
const under = (files: string[], ...paths: string[]): string[] => files.filter((file) => paths.some((path) => file.startsWith(path)));
// One side's code: a folder, or the files that hold it where a folder also has a few modules both sides use.
const CLIENT = ["client/", "auth/client/", "transport/http-client/streamable-http.ts", "transport/http-client/http-sse.ts"];
const HTTP_HANDLERS = [
  "transport/http-server/streamable-handler.ts",
  "transport/http-server/sse-handler.ts",
  "transport/http-server/cluster/",
  "auth/server/jwt-verifier.ts",
  "auth/server/introspection.ts",
  "auth/jose/",
];
const SERVER = [
  "server/mcp-server/",
  "server/tasks/",
  "server/compose/",
  "server/stateless/stateless-requests.ts",
  "stores/task-store.ts",
  "stores/session-directory.ts",
];
// What a client uses of src/json-schema/ up front; the rest is the validator (src/lazy/lazy.md).
const VALIDATOR_FREE = ["json-schema/aborted.ts", "json-schema/json-pointer.ts", "json-schema/json-values.ts", "json-schema/subschemas.ts"];

describe("the side entries", () => {
  it("each side's own code, as named here, is loaded by that side's entry (so the checks below can fail)", () => {
    for (const [entry, paths] of [
      ["entries/server.ts", SERVER],
      ["entries/http-server.ts", HTTP_HANDLERS],
      ["entries/client.ts", CLIENT],
    ] as const) {
      const files = reached(entry);
      expect(paths.filter((path) => under(files, path).length === 0)).toEqual([]);
    }
  });

  it("a server (with the Node adapters) loads none of the client, the HTTP handlers, the resource server or the proxy", () => {
    const files = [...reached("entries/server.ts"), ...reached("node/serve-stdio.ts")];
    expect(files).toContain("server/mcp-server/mcp-server.ts");
    expect(files).toContain("json-schema/json-schema.ts");
    expect(under(files, ...CLIENT, ...HTTP_HANDLERS, "proxy/")).toEqual([]);
  });

  it("the HTTP handlers add the resource server and the JOSE code, still none of the client", () => {
    const files = reached("entries/http-server.ts");
    expect(files).toEqual(
      expect.arrayContaining(["transport/http-server/streamable-handler.ts", "auth/server/index.ts", "auth/jose/index.ts"]),
    );
    expect(under(files, ...CLIENT, "proxy/")).toEqual([]);
  });

  it("a client loads none of the server and not the JSON Schema validator, which it imports when first needed", () => {
    const files = reached("entries/client.ts");
    expect(files).toContain("client/mcp-client/mcp-client.ts");
    expect(
      under(files, ...SERVER, ...HTTP_HANDLERS.filter((path) => path !== "auth/jose/"), "auth/server/", "transport/http-server/", "proxy/"),
    ).toEqual([]);
    expect(under(files, "json-schema/").toSorted()).toEqual(VALIDATOR_FREE);
  });

  it("exports the universal entry's own objects, and together with the proxy all of it", () => {
    const sides: Record<string, Record<string, unknown>> = { server, httpServer, client };
    const foreign = Object.entries(sides).flatMap(([side, module]) =>
      Object.entries(module).flatMap(([name, value]) =>
        (universal as Record<string, unknown>)[name] === value ? [] : [`${side}.${name}`],
      ),
    );
    expect(foreign).toEqual([]);
    const covered = new Set(Object.values(sides).flatMap((module) => Object.keys(module)));
    expect(Object.keys(universal).filter((name) => !covered.has(name))).toEqual(["proxy", "proxyClient"]);
    expect(server.MCPServer).toBe(universal.MCPServer);
    expect(client.MCPClient).toBe(universal.MCPClient);
    expect(httpServer.streamableHttpHandler).toBe(universal.streamableHttpHandler);
  });
});
