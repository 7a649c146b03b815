import type { EventBus, MCPEventMap, RequestOutcome } from "../../events/events.js";
import type { JsonRpcErrorObject } from "../../schemas/jsonrpc.js";
import type { RequestRecord } from "../../telemetry/telemetry.js";
import type { JsonRpcId, Side } from "../../types/types.js";

/** An incoming request as its end is recorded. */
export interface EndingRequest {
  readonly side: Side;
  readonly method: string;
  readonly id: JsonRpcId;
  readonly record: RequestRecord | undefined;
  /** `performance.now()` when it arrived (0 when nobody listens to events). */
  readonly startedAt: number;
}

/**
 * Records how an incoming request ended — its span and metrics, and `request:completed` — the same
 * way for a connection's dispatcher and for the stateless request path: `error` when it was
 * answered with one, `cancelled` when no answer was due.
 */
export function endRequest(
  request: EndingRequest,
  events: EventBus<MCPEventMap> | undefined,
  cancelled: boolean,
  error: JsonRpcErrorObject | undefined,
): void {
  const outcome: RequestOutcome = cancelled ? "cancelled" : error ? "error" : "success";
  if (outcome === "error")
    request.record?.end("error", {
      type: String((error as JsonRpcErrorObject).code),
      code: (error as JsonRpcErrorObject).code,
      message: (error as JsonRpcErrorObject).message,
    });
  else request.record?.end(outcome);
  events?.emit("request:completed", {
    side: request.side,
    method: request.method,
    id: request.id,
    durationMs: performance.now() - request.startedAt,
    outcome,
  });
}
