import { JSONRPC_ERROR_CODES, MCP_CODES, WIRE_CODE_OF, mcpCodeOfWire, type MCPCode } from "./error-codes.js";

import type { JsonRpcErrorObject } from "../schemas/jsonrpc.js";

// Brands keyed in the global symbol registry, so `instanceof` holds across two copies of the package.
const MCP_ERROR_BRAND = Symbol.for("@suaveplan/mcp/MCPError");
const JSONRPC_ERROR_BRAND = Symbol.for("@suaveplan/mcp/JsonRpcError");

function hasBrand(value: unknown, brand: symbol): boolean {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[brand] === true;
}

function withData(code: number, message: string, data: unknown): JsonRpcErrorObject {
  return data === undefined ? { code, message } : { code, message, data };
}

/** A wire error: exactly what goes into a JSON-RPC error response. Throw it from a handler to pick the number. */
export class JsonRpcError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = "JsonRpcError";
    this.code = code;
    this.data = data;
    Object.defineProperty(this, JSONRPC_ERROR_BRAND, { value: true });
  }

  toJSON(): JsonRpcErrorObject {
    return withData(this.code, this.message, this.data);
  }

  static override [Symbol.hasInstance](value: unknown): value is JsonRpcError {
    return hasBrand(value, JSONRPC_ERROR_BRAND);
  }
}

export interface MCPErrorOptions {
  readonly cause?: unknown;
  readonly data?: unknown;
  /** The JSON-RPC number to send when this error crosses the wire; defaults from the code. */
  readonly wireCode?: number;
}

/** A local error: every failure the library reports carries one of the `MCP.*` codes. */
export class MCPError extends Error {
  readonly code: MCPCode;
  readonly data: unknown;
  readonly wireCode: number;

  constructor(code: MCPCode, message: string, options: MCPErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "MCPError";
    this.code = code;
    this.data = options.data;
    this.wireCode = options.wireCode ?? WIRE_CODE_OF[code];
    Object.defineProperty(this, MCP_ERROR_BRAND, { value: true });
  }

  /** The error as it goes on the wire. */
  toJSON(): JsonRpcErrorObject {
    return withData(this.wireCode, this.message, this.data);
  }

  /** A received error response, as the caller's rejection: its number is kept as `wireCode`. */
  static fromWire(error: JsonRpcErrorObject): MCPError {
    return new MCPError(mcpCodeOfWire(error.code), error.message, {
      wireCode: error.code,
      data: error.data,
      cause: new JsonRpcError(error.code, error.message, error.data),
    });
  }

  static override [Symbol.hasInstance](value: unknown): value is MCPError {
    return hasBrand(value, MCP_ERROR_BRAND);
  }
}

/** A readable message for anything that was thrown, including non-errors and hostile objects. */
export function describeThrown(thrown: unknown): string {
  if (typeof thrown === "string") return thrown;
  if (thrown instanceof Error) return thrown.message;
  try {
    return JSON.stringify(thrown) ?? String(thrown);
  } catch {
    return "a value that cannot be described was thrown";
  }
}

/** Normalises anything thrown into an `MCPError` (an `MCPError` is returned as it is). */
export function toMCPError(thrown: unknown, code: MCPCode = MCP_CODES.HANDLER_FAILED): MCPError {
  if (thrown instanceof MCPError) return thrown;
  if (thrown instanceof JsonRpcError) return MCPError.fromWire(thrown.toJSON());
  return new MCPError(code, describeThrown(thrown), { cause: thrown });
}

/** What a handler's failure sends on the wire. */
export function toWireError(thrown: unknown): JsonRpcErrorObject {
  if (thrown instanceof JsonRpcError || thrown instanceof MCPError) return thrown.toJSON();
  return { code: JSONRPC_ERROR_CODES.INTERNAL_ERROR, message: describeThrown(thrown) };
}
