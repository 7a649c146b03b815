import { META_KEYS, isStatelessProtocolVersion, type StatelessProtocolVersion } from "../../constants/index.js";
import { JSONRPC_ERROR_CODES } from "../../error-codes/error-codes.js";
import { JsonRpcError } from "../../error-codes/mcp-error.js";
import { isJsonObject } from "../../json-schema/json-values.js";

/** The `_meta` of params, when there is an object there. */
export function metaOf(params: unknown): Record<string, unknown> | undefined {
  const meta = isJsonObject(params) ? params["_meta"] : undefined;
  return isJsonObject(meta) ? meta : undefined;
}

/** Whether a request claims the stateless era: its `_meta` names a protocol version (any value, even one we do not speak). */
export function claimsStatelessEra(params: unknown): boolean {
  const meta = metaOf(params);
  return meta !== undefined && META_KEYS.protocolVersion in meta;
}

/** The version a request asks for, when it names one as a string. */
export function requestedVersion(params: unknown): string | undefined {
  const version = metaOf(params)?.[META_KEYS.protocolVersion];
  return typeof version === "string" ? version : undefined;
}

/**
 * The revision a stateless-era request asks for: -32602 when `_meta` names none, -32022 (with the
 * versions served) when it is not one of `served`. The rest of `_meta` is checked with the params,
 * by that revision's schema.
 */
export function servedVersionOf(params: unknown, served: readonly string[]): StatelessProtocolVersion {
  const version = metaOf(params)?.[META_KEYS.protocolVersion];
  if (typeof version !== "string")
    throw new JsonRpcError(
      JSONRPC_ERROR_CODES.INVALID_PARAMS,
      `params._meta["${META_KEYS.protocolVersion}"] is required: the protocol version of this request`,
    );
  if (!isStatelessProtocolVersion(version) || !served.includes(version)) {
    throw new JsonRpcError(
      JSONRPC_ERROR_CODES.UNSUPPORTED_PROTOCOL_VERSION,
      `Unsupported protocol version: ${JSON.stringify(version.slice(0, 64))}`,
      { supported: [...served], requested: version },
    );
  }
  return version;
}
