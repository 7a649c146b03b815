import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";

/** A server the host starts as a child process and talks to over its stdio. */
export interface StdioServerEntry {
  readonly type: "stdio";
  readonly command: string;
  readonly args?: readonly string[];
  /** Added to the child's (minimal) environment. */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/** A server at a URL: Streamable HTTP with the HTTP+SSE fallback (`"http"`, `"streamable-http"`), or HTTP+SSE only (`"sse"`). */
export interface HttpServerEntry {
  readonly type: "http" | "streamable-http" | "sse";
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** One validated entry of `mcpServers`, its `type` always set. */
export type ServerEntry = StdioServerEntry | HttpServerEntry;

/** The `mcpServers` configuration as Claude Desktop, Cursor and others write it (VS Code's `servers` is read too). */
export interface ServersConfig {
  readonly mcpServers?: Readonly<Record<string, unknown>>;
  readonly servers?: Readonly<Record<string, unknown>>;
}

// Literals, not imported constants: nothing is read at load time by an app that never builds a group.
const HTTP_TYPES: ReadonlySet<string> = /* @__PURE__ */ new Set(["http", "streamable-http", "sse"]);

/**
 * Validates a parsed `mcpServers` configuration: each entry is a stdio one (`command`) or an HTTP
 * one (`url`), with an optional `type` that agrees. Entries with `"disabled": true` are left out.
 * Anything else is refused with `MCP.INVALID_PARAMS` naming the server; nothing is thrown but that.
 */
export function parseServersConfig(config: unknown): Map<string, ServerEntry> {
  const servers = serversOf(config);
  const parsed = new Map<string, ServerEntry>();
  for (const [name, entry] of Object.entries(servers)) {
    if (name === "") throw invalid("A server in the configuration has an empty name");
    if (isObject(entry) && entry["disabled"] === true) continue;
    parsed.set(name, entryOf(name, entry));
  }
  return parsed;
}

function serversOf(config: unknown): Record<string, unknown> {
  if (!isObject(config)) throw invalid(`The MCP servers configuration must be an object with "mcpServers", not ${kindOf(config)}`);
  const servers = config["mcpServers"] ?? config["servers"];
  if (!isObject(servers)) throw invalid(`The MCP servers configuration must have an "mcpServers" object, not ${kindOf(servers)}`);
  return servers;
}

function entryOf(name: string, entry: unknown): ServerEntry {
  if (!isObject(entry)) throw invalidEntry(name, `must be an object, not ${kindOf(entry)}`);
  const type = entry["type"];
  if (type !== undefined && type !== "stdio" && !(typeof type === "string" && HTTP_TYPES.has(type))) {
    throw invalidEntry(name, `has type ${JSON.stringify(type)}; expected "stdio", "http", "streamable-http" or "sse"`);
  }
  const hasCommand = entry["command"] !== undefined;
  const hasUrl = entry["url"] !== undefined;
  if (hasCommand === hasUrl)
    throw invalidEntry(name, hasCommand ? 'has both "command" and "url"' : 'is neither a stdio server ("command") nor an HTTP one ("url")');
  if (hasCommand) {
    if (type !== undefined && type !== "stdio") throw invalidEntry(name, `has a "command" but type "${type}"`);
    return stdioEntry(name, entry);
  }
  if (type === "stdio") throw invalidEntry(name, 'has type "stdio" but no "command"');
  return httpEntry(name, entry, (type ?? "http") as HttpServerEntry["type"]);
}

function stdioEntry(name: string, entry: Record<string, unknown>): StdioServerEntry {
  const command = entry["command"];
  if (typeof command !== "string" || command === "") throw invalidEntry(name, `"command" must be a non-empty string`);
  const args = entry["args"];
  if (args !== undefined && !(Array.isArray(args) && args.every((arg) => typeof arg === "string")))
    throw invalidEntry(name, `"args" must be an array of strings`);
  const cwd = entry["cwd"];
  if (cwd !== undefined && typeof cwd !== "string") throw invalidEntry(name, `"cwd" must be a string`);
  const env = stringsOf(name, "env", entry["env"]);
  return {
    type: "stdio",
    command,
    ...(args === undefined ? {} : { args: [...args] }),
    ...(env === undefined ? {} : { env }),
    ...(cwd === undefined ? {} : { cwd }),
  };
}

function httpEntry(name: string, entry: Record<string, unknown>, type: HttpServerEntry["type"]): HttpServerEntry {
  const url = entry["url"];
  if (typeof url !== "string" || !isHttpUrl(url))
    throw invalidEntry(name, `"url" must be an http: or https: URL, not ${JSON.stringify(url)}`);
  const headers = stringsOf(name, "headers", entry["headers"]);
  return { type, url, ...(headers === undefined ? {} : { headers }) };
}

function stringsOf(name: string, field: string, value: unknown): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value) || !Object.values(value).every((item) => typeof item === "string"))
    throw invalidEntry(name, `"${field}" must be an object of strings`);
  return { ...(value as Record<string, string>) };
}

function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  return Array.isArray(value) ? "an array" : typeof value;
}

function invalid(message: string, server?: string): MCPError {
  return new MCPError(MCP_CODES.INVALID_PARAMS, message, server === undefined ? {} : { data: { server } });
}

function invalidEntry(name: string, problem: string): MCPError {
  return invalid(`MCP server "${name}" ${problem}`, name);
}
