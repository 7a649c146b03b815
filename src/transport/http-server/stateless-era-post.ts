import { JSONRPC_VERSION, isStatelessProtocolVersion } from "../../constants/index.js";
import { JSONRPC_ERROR_CODES, MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError, describeThrown } from "../../error-codes/mcp-error.js";
import type { WireMessage } from "../../jsonrpc/dispatcher/classify.js";
import { STATELESS_HEADERS, checkStatelessHeaders } from "../../protocol/mcp-headers.js";
import type { JsonRpcErrorObject } from "../../schemas/jsonrpc.js";
import { claimsStatelessEra, requestedVersion } from "../../server/stateless/request-meta.js";
import type { RequestChannel } from "../../server/stateless/stateless-context.js";
import type { StatelessAnswer } from "../../server/stateless/stateless-requests.js";
import type { JsonObject, JsonRpcId } from "../../types/types.js";
import { encodeMessage } from "../encode.js";
import type { InboundContext } from "../transport/transport.types.js";
import { HTTP_DEFAULTS } from "./defaults.js";
import type { HttpExchange, HttpReply } from "./http-server.types.js";
import type { PostedMessages } from "./messages.js";
import { MCP_HEADERS, emptyReply, errorReply, invalidRequestReply, sseHeaders } from "./responses.js";
import { SseConnection } from "./sse-connection.js";
import type { StreamableEndpoint } from "./streamable-endpoint.js";

/**
 * HTTP status of a stateless-era error: 404 for an unknown method, 403 for a caller `authorize` refused, 400 for a request refused before
 * its handler ran or for the revision's own codes; 200 with the error in the body otherwise.
 */
function statusOf(error: JsonRpcErrorObject, envelope: boolean | undefined): number {
  if (error.code === JSONRPC_ERROR_CODES.METHOD_NOT_FOUND) return 404;
  if (error.code === JSONRPC_ERROR_CODES.UNAUTHORIZED) return 403;
  if (envelope || error.code === JSONRPC_ERROR_CODES.MISSING_REQUIRED_CLIENT_CAPABILITY) return 400;
  return 200;
}

function mismatch(message: string, id: JsonRpcId): HttpReply {
  return errorReply(400, message, { code: JSONRPC_ERROR_CODES.HEADER_MISMATCH, id });
}

/**
 * Whether a POST belongs to the stateless era: no session named, and its message (or its protocol version header) says 2026-07-28 or later.
 */
export function isStatelessEraPost(endpoint: StreamableEndpoint, exchange: HttpExchange, posted: PostedMessages): boolean {
  if (endpoint.server.statelessVersions.length === 0 || exchange.header(MCP_HEADERS.sessionId) !== null) return false;
  return (
    isStatelessProtocolVersion(exchange.header(MCP_HEADERS.protocolVersion)) ||
    posted.messages.some((message) => claimsStatelessEra(message.params))
  );
}

/**
 * A stateless-era POST: one message; a request is checked against its headers (the protocol
 * version, `Mcp-Method`, `Mcp-Name`, the tool's `Mcp-Param-*`), served by the server's stateless
 * request path and answered with JSON — or, once the request sends a notification first (progress,
 * a log message, a listen stream), with an SSE stream that ends with the answer. No session, no
 * dispatcher, no transport object; closing the response cancels the request.
 */
export async function statelessEraPost(
  endpoint: StreamableEndpoint,
  exchange: HttpExchange,
  inbound: InboundContext,
  posted: PostedMessages,
): Promise<HttpReply> {
  if (posted.batch) return invalidRequestReply("a 2026-07-28 POST carries one JSON-RPC message, not a batch");
  const message = posted.messages[0] as WireMessage;
  // Cancellation is closing the response stream in this era: a notification has nothing to act on.
  if (message.method === undefined) return invalidRequestReply("a client sends no responses");
  if (message.id === undefined) return emptyReply(202);
  const refused = checkHeaders(endpoint, exchange, message);
  if (refused) return refused;
  return answer(exchange, inbound, message.id as JsonRpcId, endpoint.options.keepAliveMs ?? HTTP_DEFAULTS.keepAliveMs, (channel) =>
    endpoint.server.serveStateless(message.id as JsonRpcId, message.method as string, message.params, channel),
  );
}

function checkHeaders(endpoint: StreamableEndpoint, exchange: HttpExchange, message: WireMessage): HttpReply | undefined {
  const version = requestedVersion(message.params);
  const header = exchange.header(STATELESS_HEADERS.protocolVersion);
  // A mismatch is told before whether the version is served (the spec's precedence).
  if (version !== undefined && header !== version) {
    const why =
      header === null
        ? "MCP-Protocol-Version is required and must equal params._meta's protocol version"
        : `MCP-Protocol-Version ${JSON.stringify(header.slice(0, 64))} differs from params._meta's ${JSON.stringify(version.slice(0, 64))}`;
    return mismatch(`Header mismatch: ${why}`, message.id as JsonRpcId);
  }
  const method = message.method as string;
  const problem = checkStatelessHeaders(
    (name) => exchange.header(name),
    method,
    message.params,
    endpoint.server.headerParamsOf(method, message.params),
  );
  return problem === undefined ? undefined : mismatch(problem, message.id as JsonRpcId);
}

type Serve = (channel: RequestChannel) => Promise<StatelessAnswer>;

/** Answers with JSON unless a notification comes before the answer: then with an event stream. */
function answer(exchange: HttpExchange, inbound: InboundContext, id: JsonRpcId, keepAliveMs: number, serve: Serve): Promise<HttpReply> {
  const post = new PostAnswer(exchange, inbound, id, keepAliveMs);
  void serve(post).then((answered) => post.finish(answered));
  return post.replied;
}

/**
 * One POST's answer, and the channel its request writes to. A class, not an object literal: a
 * literal with an accessor (`get signal()`) is built on V8's slow path, and on Node 20 the shape
 * each one gets keeps the request's objects alive through young-generation collections (about 4 KiB
 * promoted per request, a fifth of a call's CPU going to GC).
 */
class PostAnswer implements RequestChannel {
  readonly replied: Promise<HttpReply>;
  // The request's abort signal is made when something reads it (most requests end before their client could leave).
  #controller: AbortController | undefined;
  #cancelled: MCPError | undefined;
  #stream: SseConnection | undefined;
  #reply!: (reply: HttpReply) => void;
  readonly #stopWatching: () => void;

  readonly #id: JsonRpcId;
  readonly #keepAliveMs: number;

  constructor(
    exchange: HttpExchange,
    readonly inbound: InboundContext,
    id: JsonRpcId,
    keepAliveMs: number,
  ) {
    this.#id = id;
    this.#keepAliveMs = keepAliveMs;
    this.replied = new Promise<HttpReply>((resolve) => (this.#reply = resolve));
    this.#stopWatching = exchange.onClientGone(() => this.#leave());
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#cancelled) this.#controller.abort(this.#cancelled);
    }
    return this.#controller.signal;
  }

  // The request's context sends nothing once its signal fired (the client left).
  notify(method: string, params: JsonObject): Promise<void> {
    try {
      this.#write(encodeMessage({ jsonrpc: JSONRPC_VERSION, method, params }));
    } catch (error) {
      return Promise.reject(error);
    }
    return Promise.resolve();
  }

  finish(given: StatelessAnswer): void {
    if (this.#cancelled) return;
    let answered = given;
    let body: string;
    try {
      body = encodeMessage(
        "error" in answered
          ? { jsonrpc: JSONRPC_VERSION, id: this.#id, error: answered.error }
          : { jsonrpc: JSONRPC_VERSION, id: this.#id, result: answered.result },
      );
    } catch (error) {
      // A result with no JSON form (a bigint, a cycle) still gets an answer, or the POST would never end.
      answered = { error: { code: JSONRPC_ERROR_CODES.INTERNAL_ERROR, message: describeThrown(error) }, envelope: false };
      body = encodeMessage({ jsonrpc: JSONRPC_VERSION, id: this.#id, error: answered.error });
    }
    if (this.#stream) {
      this.#write(body);
      this.#stream.close();
      return;
    }
    this.#stopWatching();
    this.#reply({
      status: "error" in answered ? statusOf(answered.error, answered.envelope) : 200,
      headers: { "content-type": "application/json" },
      body,
    });
  }

  #leave(): void {
    this.#cancelled = new MCPError(MCP_CODES.REQUEST_CANCELLED, "The client closed the response");
    this.#controller?.abort(this.#cancelled);
    // Nobody reads this reply; it only lets the exchange end.
    if (!this.#stream) this.#reply(emptyReply(499));
  }

  #write(data: string): void {
    if (!this.#stream) {
      this.#stream = new SseConnection({ keepAliveMs: this.#keepAliveMs, onClientGone: () => this.#leave() });
      this.#stopWatching();
      this.#reply({ status: 200, headers: sseHeaders({}), body: this.#stream });
    }
    this.#stream.write({ event: "message", data });
  }
}
