import { isJsonObject } from "../json-schema/json-values.js";
import { encodeHeaderValue } from "./header-encoding.js";
import { headerParamArgument, headerParamValue, type HeaderParam } from "./header-params.js";
import { STATELESS_HEADERS, expectedMcpName } from "./mcp-headers.js";

/**
 * The headers a client sends with a stateless-era POST, from its body: `MCP-Protocol-Version` (the
 * version its `_meta` names), `Mcp-Method`, `Mcp-Name` where the method has one (encoded when it is
 * not plain text), and for a tools/call one `Mcp-Param-{Name}` per annotated argument of the tool
 * (`toolParams`): omitted for an argument that is null or absent, kept for an empty string.
 */
export function statelessRequestHeaders(
  version: string,
  method: string,
  params: Record<string, unknown> | undefined,
  toolParams: readonly HeaderParam[] | undefined,
): Record<string, string> {
  const headers: Record<string, string> = { [STATELESS_HEADERS.protocolVersion]: version, [STATELESS_HEADERS.method]: method };
  const name = expectedMcpName(method, params);
  if (name !== undefined) headers[STATELESS_HEADERS.name] = encodeHeaderValue(name);
  const args = isJsonObject(params) ? params["arguments"] : undefined;
  for (const param of toolParams ?? []) {
    const value = headerParamValue(param, headerParamArgument(param, args));
    if (value !== undefined) headers[STATELESS_HEADERS.paramPrefix + param.header] = value;
  }
  return headers;
}
