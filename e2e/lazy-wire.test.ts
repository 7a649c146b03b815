// Importing the universal entry loads no zod, no wire schema and no OpenTelemetry API: the wire layer
// (the codecs) and the telemetry glue are reached only through the dynamic imports in
// src/schemas/wire-loader.ts and src/telemetry/telemetry-loader.ts, run by the first connection, and
// the wire layer loads no zod either: only zod's JSON Schema converter does, for zod/mini tool schemas.
// The glue itself loads no copy of the OpenTelemetry API: it reads what the host's copy registered.
// This walks the static imports, as the module loader would.
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { STATIC_IMPORT, staticGraph } from "./support/static-imports.js";

const root = resolve(import.meta.dirname, "..");

describe("importing the universal entry", () => {
  const graph = staticGraph(resolve(root, "src/index.ts"));

  it("loads no zod and no OpenTelemetry API: both wait for the first connection", () => {
    expect([...graph.packages].filter((name) => name.startsWith("zod") || name.startsWith("@opentelemetry"))).toEqual([]);
    expect(graph.files).not.toContain(resolve(root, "src/telemetry/telemetry.ts"));
    // Checking a tool's own zod schema goes through the schema's own parse (zod-validation.ts imports zod's types only).
    expect(
      [...graph.files]
        .filter((file) => file.includes("/src/schemas/"))
        .map((file) => file.slice(file.lastIndexOf("/") + 1))
        .toSorted(),
    ).toEqual(["wire-loader.ts", "zod-validation.ts"]);
    expect(
      [...graph.files]
        .filter((file) => file.includes("/src/wire/"))
        .map((file) => file.slice(file.lastIndexOf("/") + 1))
        .toSorted(),
    ).toEqual(["issues.ts"]);
  });

  it("and the wire layer the first connection loads imports no zod: only the converter for zod/mini tool schemas does", () => {
    const wire = staticGraph(resolve(root, "src/wire/wire.ts"));
    expect([...wire.packages]).toEqual([]);
    expect(wire.files).toContain(resolve(root, "src/wire/wire-tables.generated.ts"));
    expect([...staticGraph(resolve(root, "src/schemas/json-schema-converter.ts")).packages]).toEqual(["zod/v4/core"]);
  });

  it("counts what the module loader loads: value imports, re-exports and bare imports, not type imports or import()", () => {
    const source = [
      'import "zod";',
      'import type { A } from "a";',
      "import {",
      "  b,",
      '} from "./b.js";',
      'export * from "./c.js";',
      'export type { D } from "d";',
      'const e = await import("e");',
      "",
    ].join("\n");
    expect([...source.matchAll(STATIC_IMPORT)].map(([, specifier]) => specifier)).toEqual(["zod", "./b.js", "./c.js"]);
  });

  it("still reaches the whole library (the walk follows every value import)", () => {
    for (const module of [
      "server/mcp-server/mcp-server.ts",
      "client/mcp-client/mcp-client.ts",
      "jsonrpc/dispatcher/dispatcher.ts",
      "transport/http-server/streamable-handler.ts",
    ]) {
      expect(graph.files).toContain(resolve(root, "src", module));
    }
  });

  it("a client's own modules reach no JSON Schema validator: it loads with the first outputSchema or form elicitation", () => {
    const client = staticGraph(resolve(root, "src/client/mcp-client/mcp-client.ts"));
    for (const file of staticGraph(resolve(root, "src/transport/http-client/streamable-http.ts")).files) client.files.add(file);
    // What a client uses of src/json-schema/ up front: the value checks, pointers and the subschema walk (the header parameters).
    expect(
      [...client.files]
        .filter((file) => file.includes("/src/json-schema/"))
        .map((file) => file.slice(file.lastIndexOf("/") + 1))
        .toSorted(),
    ).toEqual(["aborted.ts", "json-pointer.ts", "json-values.ts", "subschemas.ts"]);
    expect(client.files).toContain(resolve(root, "src/client/mcp-client/validator-loader.ts"));
  });

  it("while @suaveplan/mcp/schemas loads zod at once; /telemetry loads no package (it reads the OpenTelemetry API's global)", () => {
    expect([...staticGraph(resolve(root, "src/schemas/index.ts")).packages]).toContain("zod/mini");
    expect([...staticGraph(resolve(root, "src/telemetry/index.ts")).packages]).toEqual([]);
  });
});
