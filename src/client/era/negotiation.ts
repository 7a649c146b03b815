// Which era a client speaks with a server it knows nothing of: the spec's backward-compatibility
// rules. A stateless-era probe (`server/discover`) that gets a discover result keeps the stateless
// era; a -32022 naming a stateless revision this client speaks is tried once more in it; anything
// else the server says — an error of any code, a result of the wrong shape, no answer in time — means
// the session era, and `initialize` follows. Only a failure of the connection itself (closed,
// broken, cancelled, refused) ends the connect.
import { STATELESS_PROTOCOL_VERSIONS, type StatelessProtocolVersion } from "../../constants/index.js";
import { JSONRPC_ERROR_CODES, MCP_CODES, type MCPCode } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import type { DiscoverResult } from "../../schemas/schemas.js";

/** A server's discover result, and the stateless revision it was asked in. */
export interface Discovered {
  readonly version: StatelessProtocolVersion;
  readonly result: DiscoverResult;
}

/** Outcomes that say nothing of the server's era: the connection failed, or the caller gave up. */
// Literals (typed as MCP_CODES' values), not reads of MCP_CODES: a read at the top level stays in every app that imports the package.
// Stryker disable next-line ArrayDeclaration: a handshake tried after such a failure fails the same way (nothing can be sent on a closed or
// cancelled connection); the set spares the attempt and keeps the probe's own error
const CONNECTION_FAILURES: ReadonlySet<MCPCode> = /* @__PURE__ */ new Set<MCPCode>([
  "MCP.TRANSPORT_CLOSED",
  "MCP.TRANSPORT_ERROR",
  "MCP.REQUEST_CANCELLED",
  "MCP.UNAUTHORIZED",
]);

/** `server/discover` in `version`, and once more in the revision a -32022 names when this client speaks it. */
export async function discover(
  send: (version: StatelessProtocolVersion) => Promise<unknown>,
  version: StatelessProtocolVersion,
): Promise<Discovered> {
  try {
    return { version, result: (await send(version)) as DiscoverResult };
  } catch (error) {
    const shared = sharedVersion(error);
    if (shared === undefined) throw error;
    return { version: shared, result: (await send(shared)) as DiscoverResult };
  }
}

/** The stateless revision a -32022 error lists as supported that this client speaks (the newest), if any. */
function sharedVersion(error: unknown): StatelessProtocolVersion | undefined {
  if (!(error instanceof MCPError) || error.wireCode !== JSONRPC_ERROR_CODES.UNSUPPORTED_PROTOCOL_VERSION) return undefined;
  const supported = (error.data as { readonly supported?: unknown } | undefined)?.supported;
  if (!Array.isArray(supported)) return undefined;
  return STATELESS_PROTOCOL_VERSIONS.findLast((version) => supported.includes(version));
}

/**
 * Whether a failed probe means "not the stateless era" (fall back to `initialize`) rather than a
 * failed connection. An HTTP server that refuses the probe with a status answered it (a 2025 server
 * says 400 to a POST without a session), except 401 and 403: those refuse the caller, in any era.
 */
export function fallsBackToSession(error: unknown): boolean {
  // What a request rejects with is an MCPError: its fields are read as they are.
  const failure = error as MCPError;
  if (failure.code === MCP_CODES.TRANSPORT_ERROR && typeof (failure.data as { status?: unknown } | undefined)?.status === "number")
    return true;
  return !CONNECTION_FAILURES.has(failure.code);
}
