import { PROTOCOL_VERSIONS, isProtocolVersion, type ProtocolVersion } from "../../constants/index.js";
import type { HttpExchange, HttpReply } from "./http-server.types.js";
import { MCP_HEADERS, errorReply } from "./responses.js";

/** The spec: a request without `MCP-Protocol-Version`, and no other way to tell, is 2025-03-26. */
export const ASSUMED_PROTOCOL_VERSION: ProtocolVersion = "2025-03-26";

export type HeaderVersion =
  { readonly ok: true; readonly version: ProtocolVersion | undefined } | { readonly ok: false; readonly reply: HttpReply };

/**
 * The request's `MCP-Protocol-Version`: absent is fine, one we do not speak is 400 (as the spec
 * says). A supported revision other than the session's is accepted — the official suite and SDK
 * send such requests — and the session's negotiated revision still governs how it is served.
 */
export function headerVersion(exchange: HttpExchange): HeaderVersion {
  const header = exchange.header(MCP_HEADERS.protocolVersion);
  if (header === null) return { ok: true, version: undefined };
  if (!isProtocolVersion(header)) {
    return {
      ok: false,
      reply: errorReply(400, `Bad Request: unsupported MCP-Protocol-Version "${header}" (supported: ${PROTOCOL_VERSIONS.join(", ")})`),
    };
  }
  return { ok: true, version: header };
}
