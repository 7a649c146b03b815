import type { WireMessage } from "../../jsonrpc/dispatcher/classify.js";
import type { MCPServer } from "../../server/mcp-server/mcp-server.js";
import type { JsonRpcId } from "../../types/types.js";
import type { InboundContext } from "../transport/transport.types.js";
import type { EventStore } from "./event-store.js";
import type { HttpCluster } from "./cluster-seam.js";

/** What `authenticate` decided about one HTTP request. */
export type AuthenticationResult =
  /** The caller is known: `authInfo` reaches handlers and `authorize` as `InboundContext.authInfo`. */
  | { readonly authInfo: unknown }
  /**
   * Refused: 401 (who are you?), 403 (not you, or not with that token), 400 (a malformed request,
   * e.g. a token in the query string) or 503 (the token cannot be checked now); `wwwAuthenticate`
   * defaults to `Bearer` for 401.
   */
  | AuthenticationRefusal;

export type AuthenticationRefusal =
  | { readonly refuse: 401 | 403; readonly wwwAuthenticate?: string; readonly message?: string }
  | { readonly refuse: 400 | 503; readonly wwwAuthenticate?: string; readonly message: string };

/** Resolves the caller of one HTTP request; it runs for every POST, GET and DELETE (not for CORS preflights). */
export type Authenticate = (request: Request) => AuthenticationResult | Promise<AuthenticationResult>;

/**
 * The resource-server side of OAuth on an HTTP endpoint, as the handlers call it (`protectedResource()`
 * builds one). The handlers only call it; all it does lives in its own module, so an app that does
 * not use it carries none of it.
 */
export interface HttpAuthorization {
  /**
   * Every request, around the endpoint behind it (`door`): its protected resource metadata is
   * answered before any other check; a reply carrying a handler's insufficient-scope error, answered
   * before its response started, becomes that 403.
   */
  serve(exchange: HttpExchange, door: { handle(exchange: HttpExchange): Promise<HttpReply> }): Promise<HttpReply>;
  /** The endpoint's `authenticate` hook: the caller from the request's bearer token. */
  readonly authenticate: Authenticate;
  /**
   * A POST's messages as read (when they passed the checks, before they are served): a 403 when the
   * caller lacks a scope one of its requests needs (naming every scope they need); else undefined.
   */
  admit(
    endpoint: { readonly server: MCPServer },
    inbound: InboundContext,
    read: { readonly ok: true; readonly posted: { readonly messages: readonly WireMessage[] } } | { readonly ok: false },
  ): { readonly ok: false; readonly reply: HttpReply } | undefined;
}

/** What both HTTP handlers share: who may call, how much, and how sessions are bounded. */
export interface HttpEndpointOptions {
  /** Serve only this path (e.g. "/mcp"); other paths get 404. Default: every path. */
  readonly path?: string;
  /**
   * Host header values served: "name" (any port) or "name:port"; "*" for any. Default: the loopback
   * names (localhost, 127.0.0.1, [::1]) — DNS-rebinding protection; a public deployment lists its names.
   */
  readonly allowedHosts?: readonly string[] | "*";
  /**
   * Browser origins allowed to call (others get 403), answered with CORS headers; "*" for any.
   * Default: loopback origins. Requests without an Origin header (non-browser clients) always pass.
   */
  readonly allowedOrigins?: readonly string[] | "*";
  /** The largest request body accepted, in bytes (default 4 MiB); a larger one gets 413. */
  readonly maxBodyBytes?: number;
  /** The low-level hook: resolves each request's caller (see `Authenticate`); not with `authorization`, which brings its own. */
  readonly authenticate?: Authenticate;
  /**
   * OAuth 2.1 resource server (`protectedResource({ resource, authorizationServers, verifier })`):
   * serves the protected resource metadata, verifies bearer tokens, checks the scopes each request
   * needs, and answers 401/403 with their `WWW-Authenticate` challenges.
   */
  readonly authorization?: HttpAuthorization;
  /**
   * Binds each session to the principal that opened it (the spec's session-hijacking advice): a
   * request whose principal differs gets 404, as if the session did not exist. With `authorization`,
   * `tokenOwner` binds it to the token's issuer, subject and client.
   */
  readonly sessionOwner?: (authInfo: unknown) => string | undefined;
  /** Sessions open at once (default 1000); past it a new session gets 503. */
  readonly maxSessions?: number;
  /** Interval of SSE keep-alive comments (default 15 s); 0 turns them off. */
  readonly keepAliveMs?: number;
}

export interface StreamableHttpOptions extends HttpEndpointOptions {
  /** "stateful" (default): `Mcp-Session-Id` sessions. "stateless": a fresh session per POST, closed when it is answered. */
  readonly sessions?: "stateful" | "stateless";
  /** Answer POSTed requests with one JSON body instead of an SSE stream. */
  readonly enableJsonResponse?: boolean;
  /** A session with no request and no open stream for this long is closed (default 30 min); `Infinity` keeps it. */
  readonly sessionIdleTimeoutMs?: number;
  /**
   * Where SSE events are kept for `Last-Event-ID` resumption (default: a bounded `InMemoryEventStore`); `false` for none. Stateful mode
   * only.
   */
  readonly eventStore?: EventStore | false;
  /** The SSE `retry` field (ms) sent with the priming event and before the server ends a stream for polling (default 1000). */
  readonly retryMs?: number;
  /** SEP-1699 polling: end each SSE connection of a client that will poll it back (see `closeSSEStream`) after this long. */
  readonly maxSseConnectionMs?: number;
  /**
   * Several instances (processes) serving one deployment's sessions: `sessionCluster({ directory, bus, instance })`.
   * A session lives on the instance that opened it; requests for it landing elsewhere are relayed there, and a
   * dead instance's sessions are taken over. Stateful sessions only; give every instance a shared `eventStore`.
   */
  readonly cluster?: HttpCluster;
}

export interface SseHttpOptions extends HttpEndpointOptions {
  /** The URL path clients POST their messages to (default: the path the stream was opened on). */
  readonly endpoint?: string;
}

/**
 * One HTTP request as a handler's core reads it: only what every server can hand over cheaply, so a
 * runtime adapter need not build web `Request` objects (the `fetch` path converts one into this).
 */
export interface HttpExchange {
  readonly method: string;
  readonly url: URL;
  /** A header's value by lower-case name (repeated headers joined with ", "); null when absent. */
  header(name: string): string | null;
  /** Every header by lower-case name: what handlers see as `InboundContext.headers`. */
  headers(): Record<string, string>;
  /** The body as UTF-8 text, reading no more than `maxBytes` bytes. */
  text(maxBytes: number): Promise<BodyText>;
  /** Calls `listener` if the client goes away before the reply is sent; returns what removes it. */
  onClientGone(listener: () => void): () => void;
  /** The request as a web `Request`, for `authenticate`; its body is the handler's to read. */
  request(): Request;
}

/** A request body read whole: its text, or why not (larger than allowed; not UTF-8 or the read failed). */
export type BodyText =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly tooLarge: true }
  | { readonly ok: false; readonly tooLarge: false; readonly detail: string };

/** What a handler's core answers: a status, headers (lower-case names), and no body, a text, or an event stream. */
export interface HttpReply {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body?: string | EventStreamBody | undefined;
}

/** Where an event stream's text goes: the response being sent. */
export interface EventSink {
  /** Sends text; returns how much of what was sent the client has not taken yet (bytes, or UTF-16 units). */
  write(text: string): number;
  /** Ends the response. */
  end(): void;
  /** Ends the response abruptly (the client stopped reading). */
  abort(reason: Error): void;
}

/** A reply body of Server-Sent Events, written while the reply is being sent. */
export interface EventStreamBody {
  /** Starts sending to `sink`, what was written before first; returns what to call when the client goes away. */
  open(sink: EventSink): () => void;
}

/** A web-standard HTTP endpoint: mount `fetch` on any runtime (Node through `toNodeHandler`, which uses `handle`). */
export interface HttpHandler {
  fetch(request: Request): Promise<Response>;
  /** The same endpoint for runtime adapters: an exchange in, a reply out, with no web objects in between. */
  handle(exchange: HttpExchange): Promise<HttpReply>;
  /** Closes every session (their streams end) and refuses new requests with 503. */
  close(): Promise<void>;
  readonly sessionCount: number;
}

export interface StreamableHttpHandler extends HttpHandler {
  /**
   * SEP-1699: ends the SSE connection carrying request `requestId` of session `sessionId` (the
   * session's GET stream when omitted), if its client will poll it back: it got a priming event
   * (2025-11-25 with an event store) or resumed with `Last-Event-ID`. The request goes on; the client
   * reconnects with `Last-Event-ID` after `retryMs`. Resolves whether it closed one.
   */
  closeSSEStream(sessionId: string, requestId?: JsonRpcId): Promise<boolean>;
}
