// The `initialize` request and the version check on its answer.
import { isProtocolVersion, METHODS, PROTOCOL_VERSIONS, type AnyProtocolVersion, type ProtocolVersion } from "../../constants/index.js";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import type { JsonRpcDispatcher } from "../../jsonrpc/dispatcher/dispatcher.js";
import type { InitializeRequestParams, InitializeResult } from "../../schemas/schemas.js";
import type { ConnectOptions } from "./mcp-client.types.js";

/** The server's answer to `initialize`, in a revision this client speaks. */
export type NegotiatedServer = InitializeResult & { readonly protocolVersion: ProtocolVersion };

/** Sends `initialize` and rejects with `MCP.PROTOCOL_VERSION_MISMATCH` when the server answers a revision this client does not speak. */
export async function initialize(
  dispatcher: JsonRpcDispatcher<AnyProtocolVersion>,
  params: InitializeRequestParams,
  options: ConnectOptions,
): Promise<NegotiatedServer> {
  const result = (await dispatcher.request(METHODS.initialize, params, options)) as InitializeResult;
  if (!isProtocolVersion(result.protocolVersion)) throw versionMismatch(params.protocolVersion, result.protocolVersion);
  return result as NegotiatedServer;
}

export function versionMismatch(offered: string, answered: string): MCPError {
  return new MCPError(
    MCP_CODES.PROTOCOL_VERSION_MISMATCH,
    `The server answered protocol version "${answered}" to this client's "${offered}"; this client speaks ${PROTOCOL_VERSIONS.join(", ")}`,
    { data: { offered, answered, supported: PROTOCOL_VERSIONS } },
  );
}
