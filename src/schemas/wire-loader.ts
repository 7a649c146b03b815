import { MCP_CODES } from "../error-codes/error-codes.js";
import { MCPError } from "../error-codes/mcp-error.js";
import { onDemand } from "../lazy/on-demand.js";
import type * as ConverterModule from "./json-schema-converter.js";
import type * as WireLayer from "./wire.js";

/** The zod-backed part of the library: codecs, validation. */
export type Wire = typeof WireLayer;

/** Zod's JSON Schema converter (a server's: see json-schema-converter.ts). */
export type JsonSchemaConverter = typeof ConverterModule;

// Pure: a bundle that never loads one (a client never needs the converter) drops it.
const wire = /* @__PURE__ */ onDemand(() => import("./wire.js"));
const converter = /* @__PURE__ */ onDemand(() => import("./json-schema-converter.js"));

/**
 * Loads the wire layer, once per process. Importing the library does not load zod: the first
 * `connect` / `start` does, so a process that never connects never pays for it.
 */
export function loadWire(): Promise<Wire> {
  return wire.load();
}

/** The wire layer, loaded by a connection; what runs before any asks to connect first. */
export function wireLayer(): Wire {
  const layer = wire.current();
  if (layer === undefined) throw new MCPError(MCP_CODES.TRANSPORT_CLOSED, "Not connected: the protocol's schemas load with the first connect() or start()");
  return layer;
}

/** Loads zod's JSON Schema converter once, beside the wire layer, when a server starts. */
export function loadJsonSchemaConverter(): Promise<JsonSchemaConverter> {
  return converter.load();
}

/** The converter if a server's start loaded it already. */
export function loadedJsonSchemaConverter(): JsonSchemaConverter | undefined {
  return converter.current();
}
