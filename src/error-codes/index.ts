export * from "./error-codes.js";
export * from "./mcp-error.js";
