import { JSONRPC_ERROR_CODES } from "../../error-codes/error-codes.js";
import { JsonRpcError } from "../../error-codes/mcp-error.js";

const CURSOR_PREFIX = "c1.";

/** One page of `items` from an opaque `cursor`; an unreadable cursor is -32602, as the spec says. */
export function paginate<T>(items: readonly T[], cursor: string | undefined, pageSize: number): { items: T[]; nextCursor?: string } {
  const start = cursor === undefined ? 0 : offsetOf(cursor, items.length);
  const end = start + pageSize;
  const page = items.slice(start, end);
  return end < items.length ? { items: page, nextCursor: CURSOR_PREFIX + end.toString(36) } : { items: page };
}

function offsetOf(cursor: string, length: number): number {
  const digits = cursor.slice(CURSOR_PREFIX.length);
  if (!cursor.startsWith(CURSOR_PREFIX) || !/^[0-9a-z]{1,8}$/.test(digits))
    throw new JsonRpcError(JSONRPC_ERROR_CODES.INVALID_PARAMS, `Invalid cursor: ${JSON.stringify(cursor.slice(0, 64))}`);
  // A cursor past the end is stale (the list shrank), not forged: it yields an empty last page.
  return Math.min(Number.parseInt(digits, 36), length);
}
