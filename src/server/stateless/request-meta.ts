import { LOGGING_LEVELS, META_KEYS, isStatelessProtocolVersion, type StatelessProtocolVersion } from "../../constants/index.js";
import { JSONRPC_ERROR_CODES } from "../../error-codes/error-codes.js";
import { JsonRpcError } from "../../error-codes/mcp-error.js";
import { isJsonObject } from "../../json-schema/json-values.js";
import type { ClientCapabilities, Implementation, LoggingLevel } from "../../schemas/schemas.js";

/** What a stateless-era request says of itself in `params._meta`. */
export interface RequestMeta {
  readonly protocolVersion: StatelessProtocolVersion;
  readonly capabilities: ClientCapabilities;
  readonly clientInfo: Implementation | undefined;
  readonly logLevel: LoggingLevel | undefined;
}

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

function invalid(message: string): JsonRpcError {
  return new JsonRpcError(JSONRPC_ERROR_CODES.INVALID_PARAMS, message);
}

/**
 * Reads the per-request fields of `_meta`: -32602 when a required one is missing or malformed,
 * -32022 (with the versions served) when the version is not one of `served`.
 */
export function readRequestMeta(params: unknown, served: readonly string[]): RequestMeta {
  const meta = metaOf(params);
  const version = meta?.[META_KEYS.protocolVersion];
  if (typeof version !== "string") throw invalid(`params._meta["${META_KEYS.protocolVersion}"] is required: the protocol version of this request`);
  if (!isStatelessProtocolVersion(version) || !served.includes(version)) {
    throw new JsonRpcError(JSONRPC_ERROR_CODES.UNSUPPORTED_PROTOCOL_VERSION, `Unsupported protocol version: ${JSON.stringify(version.slice(0, 64))}`, { supported: [...served], requested: version });
  }
  const capabilities = meta?.[META_KEYS.clientCapabilities];
  if (!isJsonObject(capabilities)) throw invalid(`params._meta["${META_KEYS.clientCapabilities}"] is required: an object of the client's capabilities ({} for none)`);
  const clientInfo = meta?.[META_KEYS.clientInfo];
  if (clientInfo !== undefined && !(isJsonObject(clientInfo) && typeof clientInfo["name"] === "string" && typeof clientInfo["version"] === "string")) {
    throw invalid(`params._meta["${META_KEYS.clientInfo}"] must be an object with a string name and version`);
  }
  const logLevel = meta?.[META_KEYS.logLevel];
  if (logLevel !== undefined && !(LOGGING_LEVELS as readonly unknown[]).includes(logLevel)) {
    throw invalid(`params._meta["${META_KEYS.logLevel}"] must be one of ${LOGGING_LEVELS.join(", ")}`);
  }
  return { protocolVersion: version, capabilities: capabilities, clientInfo: clientInfo as Implementation | undefined, logLevel: logLevel as LoggingLevel | undefined };
}
