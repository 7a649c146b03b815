import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";

/** A merged name taken apart: the server it belongs to and the name that server gave. */
export interface RoutedName {
  readonly server: string;
  readonly name: string;
}

/**
 * Refuses a separator that is empty, and server names that would make a merged name ambiguous: one
 * containing the separator, or one whose `name + separator` begins another's (`a` and `a_` with
 * `"__"`: `a___t` could be either's). With neither, a merged name has at most one server prefix.
 */
export function checkServerNames(names: readonly string[], separator: string): void {
  if (typeof separator !== "string" || separator === "")
    throw new MCPError(MCP_CODES.INVALID_PARAMS, "The separator of merged names must be a non-empty string");
  for (const name of names) {
    if (name.includes(separator)) {
      throw new MCPError(
        MCP_CODES.INVALID_PARAMS,
        `MCP server "${name}" has the separator "${separator}" in its name: its merged names would be ambiguous`,
        { data: { server: name } },
      );
    }
    const other = names.find((candidate) => candidate !== name && (candidate + separator).startsWith(name + separator));
    if (other !== undefined) {
      throw new MCPError(
        MCP_CODES.INVALID_PARAMS,
        `MCP servers "${name}" and "${other}" make ambiguous merged names with the separator "${separator}"`,
        { data: { server: other } },
      );
    }
  }
}

/** `<server><separator><name>`. */
export function mergedName(server: string, name: string, separator: string): string {
  return server + separator + name;
}

/** The server whose prefix `merged` carries (unique, see `checkServerNames`) and the name after it. */
export function routeName(merged: string, servers: Iterable<string>, separator: string): RoutedName | undefined {
  for (const server of servers) {
    const prefix = server + separator;
    if (merged.startsWith(prefix) && merged.length > prefix.length) return { server, name: merged.slice(prefix.length) };
  }
  return undefined;
}
