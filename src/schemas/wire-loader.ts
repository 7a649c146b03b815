import { MCP_CODES } from "../error-codes/error-codes.js";
import { MCPError } from "../error-codes/mcp-error.js";
import { onDemand } from "../lazy/on-demand.js";
import type * as WireLayer from "../wire/wire.js";
import type * as ConverterModule from "./json-schema-converter.js";

/** The wire layer: each revision's codec (zod-free, see src/wire/). */
export type Wire = typeof WireLayer;

/** Zod's JSON Schema converter, for zod/mini tool schemas (see json-schema-converter.ts). */
export type JsonSchemaConverter = typeof ConverterModule;

// Pure: a bundle that never loads one (a client never needs the converter) drops it.
const wire = /* @__PURE__ */ onDemand(() => import("../wire/wire.js"));
const converter = /* @__PURE__ */ onDemand(() => import("./json-schema-converter.js"));

/**
 * Loads the wire layer, once per process. Importing the library does not load it: the first
 * `connect` / `start` does, so a process that never connects never pays for it.
 */
export function loadWire(): Promise<Wire> {
  return wire.load();
}

/** Whether the wire layer is loaded (a request path that loads it itself skips the wait once it is). */
export function wireLoaded(): boolean {
  return wire.current() !== undefined;
}

/** The wire layer, loaded by a connection; what runs before any asks to connect first. */
export function wireLayer(): Wire {
  const layer = wire.current();
  if (layer === undefined)
    throw new MCPError(MCP_CODES.TRANSPORT_CLOSED, "Not connected: the protocol's schemas load with the first connect() or start()");
  return layer;
}

/** Loads zod's JSON Schema converter once, when a server first has a zod/mini tool schema. */
export function loadJsonSchemaConverter(): Promise<JsonSchemaConverter> {
  return converter.load();
}

/** The converter if a server loaded it already. */
export function loadedJsonSchemaConverter(): JsonSchemaConverter | undefined {
  return converter.current();
}
