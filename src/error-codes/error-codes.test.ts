import { describe, expect, it, vi } from "vitest";
import { JSONRPC_ERROR_CODES, MCP_CODES, WIRE_CODE_OF, mcpCodeOfWire } from "./error-codes.js";
import { JsonRpcError, MCPError, describeThrown, toMCPError, toWireError } from "./mcp-error.js";

describe("MCP_CODES", () => {
  it("holds the 15 design codes, the input-rounds bound and the rate-limit refusal, each namespaced MCP.* and named by its key", () => {
    const entries = Object.entries(MCP_CODES);
    expect(entries).toHaveLength(17);
    for (const [key, code] of entries) expect(code).toBe(`MCP.${key}`);
  });

  it("maps every code to a wire number, local outcomes to -32603", () => {
    expect(Object.keys(WIRE_CODE_OF).toSorted()).toEqual(Object.values(MCP_CODES).toSorted());
    expect(WIRE_CODE_OF[MCP_CODES.NOT_FOUND]).toBe(-32002);
    expect(WIRE_CODE_OF[MCP_CODES.UNAUTHORIZED]).toBe(-32001);
    expect(WIRE_CODE_OF[MCP_CODES.PROTOCOL_VERSION_MISMATCH]).toBe(-32602);
    for (const local of [MCP_CODES.REQUEST_CANCELLED, MCP_CODES.TIMEOUT, MCP_CODES.TRANSPORT_CLOSED, MCP_CODES.INPUT_ROUNDS_EXCEEDED])
      expect(WIRE_CODE_OF[local]).toBe(-32603);
  });

  it("maps received numbers back to local codes, unknown ones to MCP.HANDLER_FAILED", () => {
    expect(mcpCodeOfWire(JSONRPC_ERROR_CODES.PARSE_ERROR)).toBe(MCP_CODES.PROTOCOL_INVALID);
    expect(mcpCodeOfWire(-32600)).toBe(MCP_CODES.PROTOCOL_INVALID);
    expect(mcpCodeOfWire(-32601)).toBe(MCP_CODES.METHOD_NOT_FOUND);
    expect(mcpCodeOfWire(-32602)).toBe(MCP_CODES.INVALID_PARAMS);
    expect(mcpCodeOfWire(JSONRPC_ERROR_CODES.UNSUPPORTED_PROTOCOL_VERSION)).toBe(MCP_CODES.PROTOCOL_VERSION_MISMATCH);
    expect(mcpCodeOfWire(-32603)).toBe(MCP_CODES.INTERNAL_ERROR);
    expect(mcpCodeOfWire(-32001)).toBe(MCP_CODES.UNAUTHORIZED);
    expect(mcpCodeOfWire(-32002)).toBe(MCP_CODES.NOT_FOUND);
    expect(mcpCodeOfWire(JSONRPC_ERROR_CODES.RATE_LIMITED)).toBe(MCP_CODES.RATE_LIMITED);
    expect(WIRE_CODE_OF[MCP_CODES.RATE_LIMITED]).toBe(-32029);
    expect(mcpCodeOfWire(-32042)).toBe(MCP_CODES.HANDLER_FAILED);
    expect(mcpCodeOfWire(12345)).toBe(MCP_CODES.HANDLER_FAILED);
  });
});

describe("MCPError", () => {
  it("carries its code, the wire number, data and cause, and serialises as a wire error", () => {
    const cause = new Error("disk");
    const error = new MCPError(MCP_CODES.NOT_FOUND, "no such file", { cause, data: { uri: "file:///x" } });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("MCPError");
    expect(error.code).toBe("MCP.NOT_FOUND");
    expect(error.wireCode).toBe(-32002);
    expect(error.cause).toBe(cause);
    expect(error.toJSON()).toEqual({ code: -32002, message: "no such file", data: { uri: "file:///x" } });
    expect(JSON.parse(JSON.stringify(error))).toEqual(error.toJSON());
    expect(new MCPError(MCP_CODES.NOT_FOUND, "tool", { wireCode: -32602 }).toJSON()).toEqual({ code: -32602, message: "tool" });
    expect("cause" in new MCPError(MCP_CODES.TIMEOUT, "t")).toBe(false);
  });

  it("rebuilds a received wire error with its number kept", () => {
    const error = MCPError.fromWire({ code: -32601, message: "Method not found: x", data: [1] });
    expect(error.code).toBe(MCP_CODES.METHOD_NOT_FOUND);
    expect(error.wireCode).toBe(-32601);
    expect(error.data).toEqual([1]);
    expect(error.cause).toBeInstanceOf(JsonRpcError);
  });

  it("holds instanceof across two copies of the package (a look-alike class with the same brand)", async () => {
    vi.resetModules();
    const copy = await import("./mcp-error.js");
    expect(copy.MCPError).not.toBe(MCPError);
    const foreign = new copy.MCPError(MCP_CODES.TIMEOUT, "from the other copy");
    expect(foreign instanceof MCPError).toBe(true);
    expect(new MCPError(MCP_CODES.TIMEOUT, "ours") instanceof copy.MCPError).toBe(true);
    expect(new copy.JsonRpcError(-1, "x") instanceof JsonRpcError).toBe(true);
    expect(foreign instanceof JsonRpcError).toBe(false);
    expect(new Error("plain") instanceof MCPError).toBe(false);
    expect((null as unknown) instanceof MCPError).toBe(false);
    expect({ code: "MCP.TIMEOUT" } instanceof MCPError).toBe(false);
  });
});

describe("JsonRpcError", () => {
  it("is the exact wire error, data omitted when absent", () => {
    expect(new JsonRpcError(-32042, "elicit", { url: "u" }).toJSON()).toEqual({ code: -32042, message: "elicit", data: { url: "u" } });
    expect(new JsonRpcError(-32600, "bad").toJSON()).toEqual({ code: -32600, message: "bad" });
    expect(new JsonRpcError(-32600, "bad").name).toBe("JsonRpcError");
  });
});

describe("normalising thrown values", () => {
  it("describes anything thrown, hostile values included", () => {
    const circular: Record<string, unknown> = {};
    circular["self"] = circular;
    expect(describeThrown("text")).toBe("text");
    expect(describeThrown(new TypeError("typed"))).toBe("typed");
    expect(describeThrown(undefined)).toBe("undefined");
    expect(describeThrown(42)).toBe("42");
    expect(describeThrown(circular)).toBe("a value that cannot be described was thrown");
    expect(describeThrown(Symbol("s"))).toBe("Symbol(s)");
  });

  it("turns anything into an MCPError, keeping MCP errors and reading wire errors", () => {
    const original = new MCPError(MCP_CODES.TIMEOUT, "t");
    expect(toMCPError(original)).toBe(original);
    expect(toMCPError(new JsonRpcError(-32601, "m")).code).toBe(MCP_CODES.METHOD_NOT_FOUND);
    const fromString = toMCPError("oops");
    expect(fromString.code).toBe(MCP_CODES.HANDLER_FAILED);
    expect(fromString.message).toBe("oops");
    expect(fromString.cause).toBe("oops");
    expect(toMCPError(new Error("io"), MCP_CODES.TRANSPORT_ERROR).code).toBe(MCP_CODES.TRANSPORT_ERROR);
  });

  it("turns anything into the wire error a handler's failure sends", () => {
    expect(toWireError(new JsonRpcError(-32602, "p", { at: "x" }))).toEqual({ code: -32602, message: "p", data: { at: "x" } });
    expect(toWireError(new MCPError(MCP_CODES.UNAUTHORIZED, "no"))).toEqual({ code: -32001, message: "no" });
    expect(toWireError(new Error("e"))).toEqual({ code: -32603, message: "e" });
    expect(toWireError(null)).toEqual({ code: -32603, message: "null" });
  });
});
