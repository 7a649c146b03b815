// A server layer that keeps results under a size: what a handler gives is measured as the JSON it
// becomes (UTF-8 bytes) before it is sent. A tool's oversized result becomes a tool error the model
// can read and act on (ask for less); any other method's, MCP.INTERNAL_ERROR.
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import type { ServerMiddleware } from "../server-middleware.js";

export interface SizeLimitOptions {
  /** The largest result, in bytes of its JSON. */
  readonly maxBytes: number;
}

/** The size-limit layer: `server.use(sizeLimit({ maxBytes: 1_000_000 }))`. */
export function sizeLimit({ maxBytes }: SizeLimitOptions): ServerMiddleware {
  if (!(maxBytes > 0 && Number.isSafeInteger(maxBytes)))
    throw new MCPError(MCP_CODES.INVALID_PARAMS, `sizeLimit: maxBytes must be a positive whole number, not ${maxBytes}`);
  const encoder = new TextEncoder();
  return (next) => async (request, context) => {
    const result = await next(request, context);
    // Strings of at most maxBytes / 3 UTF-16 units cannot be over it (3 bytes at most per unit): most results are not encoded.
    const text = JSON.stringify(result);
    const bytes = text.length * 3 <= maxBytes ? 0 : encoder.encode(text).byteLength;
    if (bytes <= maxBytes) return result;
    const what = request.method === "tools/call" ? `tool ${JSON.stringify(request.params.name)}` : request.method;
    const message = `The result of ${what} is ${bytes} bytes, over this server's limit of ${maxBytes}`;
    if (request.method === "tools/call") return { content: [{ type: "text", text: `${message}: ask for less.` }], isError: true };
    throw new MCPError(MCP_CODES.INTERNAL_ERROR, message, { data: { bytes, maxBytes } });
  };
}
