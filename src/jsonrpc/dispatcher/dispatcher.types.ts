import type { MCPError } from "../../error-codes/mcp-error.js";
import type { EventBus, MCPEventMap } from "../../events/events.js";
import type { $ZodType } from "zod/v4/core";

import type { AnyProtocolVersion, ProtocolVersion } from "../../constants/index.js";
import type { WireSchema } from "../../wire/wire-schema.js";
import type { Telemetry } from "../../telemetry/telemetry.js";
import type { InboundContext } from "../../transport/transport/transport.types.js";
import type { JsonObject, JsonRpcId, ProgressToken, Side } from "../../types/types.js";

/** What the dispatcher validates params with: a zod v4 schema (classic or mini), or a wire schema of the codecs. */
export type ParamsSchema = $ZodType | WireSchema;

export interface TimeoutOptions {
  /** Milliseconds without a response (or progress, see below) before the request fails with `MCP.TIMEOUT`; `Infinity`: never. */
  readonly timeoutMs?: number | undefined;
  /** A progress notification restarts the timeout (default true). */
  readonly resetTimeoutOnProgress?: boolean | undefined;
  /** A cap on the whole request, progress or not. */
  readonly maxTotalTimeoutMs?: number | undefined;
}

export interface DispatcherOptions<V extends AnyProtocolVersion = ProtocolVersion> extends TimeoutOptions {
  /** Which end this dispatcher speaks for: decides which half of the codec applies to what arrives. */
  readonly side: Side;
  /** The revision messages are checked against; `setProtocolVersion` changes it once one is negotiated. Default: the newest. */
  readonly protocolVersion?: V;
  /** Metrics and spans; `null` turns them off. Default: one `Telemetry` on the global OpenTelemetry providers. */
  readonly telemetry?: Telemetry | null | undefined;
  readonly events?: EventBus<MCPEventMap> | undefined;
  /** Names this connection in events; default a fresh id. */
  readonly id?: string;
  /** Told of what cannot be answered: responses to unknown ids, bad notifications, failed sends. */
  readonly onProtocolError?: ((error: MCPError) => void) | undefined;
  /** Told of each error the peer answered one of our requests with, before the caller's promise rejects. */
  readonly onErrorResponse?: ((error: MCPError) => void) | undefined;
  /** Told once when the connection is gone, after pending requests were rejected; `error` when it was not asked for. */
  readonly onClose?: ((error: MCPError | undefined) => void) | undefined;
  /**
   * The owner's notification layers as they are now, or undefined while there are none: each
   * notification, either way, goes on its `way` through them (what arrives once its params are
   * checked). Without layers a notification goes straight on, and nothing is made for it.
   */
  readonly notificationLayers?: (() => PassNotification | undefined) | undefined;
}

/** Puts a notification through the layers; settles once they passed it on its way (or dropped it). */
export type PassNotification = (
  direction: "incoming" | "outgoing",
  method: string,
  params: JsonObject | undefined,
  way: (params: JsonObject | undefined) => unknown,
) => Promise<unknown>;

export interface ProgressUpdate {
  readonly progressToken: ProgressToken;
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

export interface RequestOptions extends TimeoutOptions {
  readonly signal?: AbortSignal;
  /** Receives `notifications/progress` for this request (a progress token is added to `_meta`). */
  readonly onProgress?: (update: ProgressUpdate) => void;
  /** The incoming request this one is made on behalf of (routes it on HTTP). */
  readonly relatedRequestId?: JsonRpcId;
  /** Told the request's JSON-RPC id before it is sent (a `subscriptions/listen` is named by it). */
  readonly onId?: (id: JsonRpcId) => void;
}

/** What the peer's end of this connection is, for handlers. */
export interface SessionInfo {
  readonly dispatcherId: string;
  readonly sessionId: string | undefined;
  readonly protocolVersion: string;
}

/** Everything a request handler gets besides its params. */
export interface RequestContext {
  readonly id: JsonRpcId;
  readonly method: string;
  /** Fires on `notifications/cancelled`, on close of the connection. */
  readonly signal: AbortSignal;
  readonly meta: JsonObject | undefined;
  readonly progressToken: ProgressToken | undefined;
  readonly session: SessionInfo;
  readonly inbound: InboundContext | undefined;
  /** Sends `notifications/progress` when the requester asked for it; a no-op otherwise or once answered. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /** A notification that belongs to this request. */
  notify(method: string, params?: JsonObject): Promise<void>;
  /** A request to the peer made on behalf of this one; cancelled with it. */
  request(method: string, params?: JsonObject, options?: RequestOptions): Promise<unknown>;
}

export interface NotificationContext {
  readonly method: string;
  readonly session: SessionInfo;
  readonly inbound: InboundContext | undefined;
}

export type RequestHandler = (params: unknown, context: RequestContext) => unknown;
export type NotificationHandler = (params: unknown, context: NotificationContext) => void | Promise<void>;

/**
 * A check of a method's results beyond its schema (`setResultCheck`): returns the result, or a promise of it, or throws. `key` is what
 * `keyOf` took from the request.
 */
export type ResultCheck = (result: unknown, key: unknown) => unknown;
