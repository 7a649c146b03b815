// A server layer that checks the caller's scopes (or roles) before a tool, prompt or resource is
// served, on every transport: the entries' own `requiredScopes` (what the HTTP `authorization`
// option checks before the body is read) and rules of the layer's own. A caller without them gets
// MCP.UNAUTHORIZED naming what is missing; lists still show every entry.
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import type { MCPServer } from "../../server/mcp-server/mcp-server.js";
import type { HandlerContext } from "../../server/mcp-server/mcp-server.types.js";
import type { JsonObject } from "../../types/types.js";
import type { ServerMiddleware } from "../server-middleware.js";

type Rules = Readonly<Record<string, readonly string[]>>;

export interface RequireScopesOptions {
  /** The server whose entries' `requiredScopes` are checked (a mount's entries carry their child's). */
  readonly server?: MCPServer;
  /** Scopes (or roles) per tool name, per prompt name, per resource URI, on top of the entries' own. */
  readonly tools?: Rules;
  readonly prompts?: Rules;
  readonly resources?: Rules;
  /** What the caller holds (default: the token principal's `scopes`; none for an anonymous caller). */
  readonly scopesOf?: (context: HandlerContext) => readonly string[];
}

/** The scope check: `server.use(requireScopes({ server, tools: { deploy: ["deploy:write"] } }))`. */
export function requireScopes(options: RequireScopesOptions): ServerMiddleware {
  const scopesOf = options.scopesOf ?? principalScopes;
  return (next) => (request, context) => {
    const needed = neededFor(options, request.method, request.params);
    if (needed.length > 0) {
      const held = new Set(scopesOf(context));
      const missing = needed.filter((scope) => !held.has(scope));
      if (missing.length > 0)
        throw new MCPError(
          MCP_CODES.UNAUTHORIZED,
          `${request.method} of ${targetOf(request.params as JsonObject)} ` +
            `needs the scopes ${missing.join(" ")}, which the caller does not hold`,
          { data: { missingScopes: missing } },
        );
    }
    return next(request, context);
  };
}

/** The scopes a request needs: its entry's, then the layer's rules for its name or URI. */
function neededFor(options: RequireScopesOptions, method: string, params: JsonObject | undefined): readonly string[] {
  const rules =
    method === "tools/call"
      ? options.tools
      : method === "prompts/get"
        ? options.prompts
        : method === "resources/read"
          ? options.resources
          : undefined;
  if (rules === undefined && options.server === undefined) return [];
  const own = options.server?.registrationOf(method, params)?.config.requiredScopes ?? [];
  const key = String(params?.["name"] ?? params?.["uri"]);
  const extra = rules !== undefined && Object.hasOwn(rules, key) ? (rules[key] as readonly string[]) : [];
  return [...new Set([...own, ...extra])];
}

function targetOf(params: JsonObject): string {
  return JSON.stringify(params["name"] ?? params["uri"]);
}

function principalScopes(context: HandlerContext): readonly string[] {
  const scopes = (context.principal as { readonly scopes?: unknown } | undefined)?.scopes;
  return Array.isArray(scopes) ? scopes.filter((scope): scope is string => typeof scope === "string") : [];
}
