import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError, toMCPError } from "../../error-codes/mcp-error.js";
import { connectHttp } from "../../transport/http-client/http-fallback.js";
import { HttpSseTransport } from "../../transport/http-client/http-sse.js";
import type { Transport } from "../../transport/transport/transport.types.js";
import type { MCPClient } from "../mcp-client/mcp-client.js";
import type { MCPClientGroupOptions } from "./group.types.js";
import type { ServerEntry } from "./servers-config.js";

/**
 * Connects `client` to one server of the group within `connectTimeoutMs` (default 30 s), over the
 * transport `transportFor` gives, else over HTTP for a `url` entry. Rejects with why it could not,
 * naming the server; a transport made for a connection that failed is closed (a child is stopped).
 */
export async function openServer(client: MCPClient, server: string, entry: ServerEntry, options: MCPClientGroupOptions): Promise<void> {
  const timeoutMs = options.connectTimeoutMs ?? 30_000;
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new MCPError(MCP_CODES.TIMEOUT, `it did not start and connect within ${timeoutMs} ms`)),
    timeoutMs,
  );
  try {
    await connectOver(client, server, entry, options, controller.signal);
  } catch (error) {
    const cause = toMCPError(controller.signal.aborted ? controller.signal.reason : error, MCP_CODES.TRANSPORT_ERROR);
    throw new MCPError(cause.code, `MCP server "${server}" did not connect: ${cause.message}`, { cause, data: { server } });
  } finally {
    clearTimeout(timer);
  }
}

async function connectOver(
  client: MCPClient,
  server: string,
  entry: ServerEntry,
  options: MCPClientGroupOptions,
  signal: AbortSignal,
): Promise<void> {
  const transport = await transportOf(server, entry, options, signal);
  if (transport !== undefined) {
    try {
      await client.connect(transport, { signal });
    } catch (error) {
      await transport.close().catch(ignored);
      throw error;
    }
    return;
  }
  if (entry.type === "stdio") {
    throw new MCPError(
      MCP_CODES.INVALID_PARAMS,
      "a stdio server is started by the group's transportFor (stdioTransportFor() of @suaveplan/mcp/node), and none was given",
    );
  }
  const http = entry.headers === undefined ? { ...options.http } : { ...options.http, headers: entry.headers };
  if (entry.type === "sse") await client.connect(new HttpSseTransport(entry.url, http), { signal });
  else await connectHttp(client, entry.url, { ...http, connect: { signal } });
}

/** What `transportFor` gives, unless the time runs out first (a transport that comes later is closed). */
async function transportOf(
  server: string,
  entry: ServerEntry,
  options: MCPClientGroupOptions,
  signal: AbortSignal,
): Promise<Transport | undefined> {
  const made = (async () => options.transportFor?.(server, entry))();
  const aborted = new Promise<never>((_resolve, reject) =>
    signal.addEventListener("abort", () => reject(signal.reason as Error), { once: true }),
  );
  try {
    return await Promise.race([made, aborted]);
  } catch (error) {
    if (signal.aborted) void made.then((late) => late?.close()).catch(ignored);
    throw error;
  }
}

/** A transport that fails to close after its connection failed changes nothing: the failure is what is reported. */
function ignored(): undefined {
  return undefined;
}
