import type {
  Attributes,
  Context,
  Counter,
  Histogram,
  Link,
  MeterProvider,
  Span,
  SpanKind,
  SpanOptions,
  SpanStatusCode,
  TextMapGetter,
  TextMapPropagator,
  TextMapSetter,
  Tracer,
  TracerProvider,
} from "@opentelemetry/api";
import type { RequestOutcome } from "../events/events.js";
import type { JsonObject, JsonRpcId, Side } from "../types/types.js";

import { INSTRUMENTATION_SCOPE, METRIC_NAMES } from "./names.js";
import { isJsonObject, withFields } from "../types/objects.js";
import { activeContext, contextWith, isValidSpanContext, registered, runWith, spanContextOf } from "./global-api.js";

export { INSTRUMENTATION_SCOPE, METRIC_NAMES } from "./names.js";

// Attribute keys of the OpenTelemetry semantic conventions for MCP (docs/gen-ai/mcp.md).
const ATTR_METHOD_NAME = "mcp.method.name";
const ATTR_SESSION_ID = "mcp.session.id";
const ATTR_PROTOCOL_VERSION = "mcp.protocol.version";
const ATTR_RESOURCE_URI = "mcp.resource.uri";
const ATTR_REQUEST_ID = "jsonrpc.request.id";
const ATTR_TOOL_NAME = "gen_ai.tool.name";
const ATTR_PROMPT_NAME = "gen_ai.prompt.name";
const ATTR_OPERATION_NAME = "gen_ai.operation.name";
const ATTR_ERROR_TYPE = "error.type";
const ATTR_RESPONSE_STATUS_CODE = "rpc.response.status_code";

/** `error.type` when a failure comes without a type of its own. */
const FALLBACK_ERROR_TYPE = "_OTHER";

// The values of the API's enums `SpanKind.SERVER`, `SpanKind.CLIENT` and `SpanStatusCode.ERROR`
// (the API is not loaded: see global-api.ts).
const SPAN_KIND_SERVER = 1 as unknown as SpanKind;
const SPAN_KIND_CLIENT = 2 as unknown as SpanKind;
const SPAN_STATUS_ERROR = 2 as unknown as SpanStatusCode;

export interface TelemetryOptions {
  /** Defaults to the global meter provider as it is when the Telemetry is constructed (none registered: no metrics). */
  meterProvider?: MeterProvider | undefined;
  /** Defaults to the global tracer provider, looked up on every request (so a later registration still counts; none: no spans). */
  tracerProvider?: TracerProvider | undefined;
  /** Defaults to the global propagator, looked up on every request. */
  propagator?: TextMapPropagator | undefined;
}

export interface RequestInfo {
  /** The side of the dispatcher that records the request. */
  side: Side;
  method: string;
  id: JsonRpcId;
  params: JsonObject | undefined;
  sessionId?: string | undefined;
  protocolVersion?: string | undefined;
}

/** Why a request failed: `type` becomes `error.type`, `code` the JSON-RPC error code, `message` the span status text. */
export interface RequestError {
  type: string;
  code?: number | undefined;
  message?: string | undefined;
}

export interface RequestRecord {
  /** Outgoing: the params to put on the wire (with trace context); incoming: as received. */
  readonly params: JsonObject | undefined;
  /** Runs `fn` with the request's span as the active span. */
  run<T>(fn: () => T): T;
  /** Records the outcome and ends the span; a second call does nothing. */
  end(outcome: RequestOutcome, error?: RequestError): void;
}

interface RequestInstruments {
  readonly total: Counter;
  readonly duration: Histogram;
}

/** Metrics and spans of MCP requests, for the OpenTelemetry SDK a host registers: a no-op until one is there. */
export class Telemetry {
  readonly #requestInstruments: RequestInstruments | undefined;
  readonly #notificationTotal: Counter | undefined;
  readonly #tracerProvider: TracerProvider | undefined;
  /** The tracer of the provider last used, which only a new global registration changes. */
  #tracer: { readonly provider: TracerProvider; readonly tracer: Tracer } | undefined;
  readonly #propagator: TextMapPropagator | undefined;
  readonly #injection: InjectionCarrier = { fields: undefined };

  constructor(options: TelemetryOptions = {}) {
    const meter = (options.meterProvider ?? registered("metrics"))?.getMeter(INSTRUMENTATION_SCOPE);
    if (meter) {
      this.#requestInstruments = {
        total: meter.createCounter(METRIC_NAMES.requestTotal, { description: "MCP requests completed.", unit: "{request}" }),
        duration: meter.createHistogram(METRIC_NAMES.requestDuration, { description: "MCP request duration.", unit: "ms" }),
      };
      this.#notificationTotal = meter.createCounter(METRIC_NAMES.notificationTotal, {
        description: "MCP notifications sent or received.",
        unit: "{notification}",
      });
    }
    this.#tracerProvider = options.tracerProvider;
    this.#propagator = options.propagator;
  }

  /**
   * Starts the CLIENT span of a request this side sends, and puts its trace context in `_meta`.
   * Undefined when there is nothing to record or carry (no SDK, no trace context): most requests.
   */
  outgoingRequest(info: RequestInfo): RequestRecord | undefined {
    const parent = activeContext();
    const tracer = this.#currentTracer();
    const span = tracer && startSpan(tracer, info, SPAN_KIND_CLIENT, parent, undefined);
    const spanContext = span ? contextWithSpan(parent, span) : parent;
    const fields = this.#injectTraceContext(spanContext);
    if (quiet(tracer, parent) && fields === undefined && !this.#requestInstruments) return undefined;
    const params = fields === undefined ? info.params : withTraceContext(info.params, fields);
    return new ActiveRequest(this.#requestInstruments, span, spanContext, params, info.side, info.method);
  }

  /** Starts the SERVER span of a request the peer sent, parented on the trace context of its `_meta` (undefined: nothing to record). */
  incomingRequest(info: RequestInfo): RequestRecord | undefined {
    const ambient = activeContext();
    const parent = this.#extractTraceContext(ambient, info.params);
    const tracer = this.#currentTracer();
    // With nothing extracted, no span and no metrics, the handler runs in the ambient context as it is.
    if (quiet(tracer, parent) && parent === ambient && !this.#requestInstruments) return undefined;
    const span = tracer && startSpan(tracer, info, SPAN_KIND_SERVER, parent, ambientLinks(ambient, parent));
    const spanContext = span ? contextWithSpan(parent, span) : parent;
    const direction = peerOf(info.side);
    return new ActiveRequest(this.#requestInstruments, span, spanContext, info.params, direction, info.method);
  }

  /** Counts one notification; `direction` is the side that sent it. */
  notification(direction: Side, method: string): void {
    this.#notificationTotal?.add(1, { direction, method });
  }

  /** The tracer of the given provider, else of the global one; none while no tracer provider is registered (no span is made). */
  #currentTracer(): Tracer | undefined {
    const provider = this.#tracerProvider ?? registered("trace");
    if (provider === undefined) return undefined;
    if (this.#tracer?.provider !== provider) this.#tracer = { provider, tracer: provider.getTracer(INSTRUMENTATION_SCOPE) };
    return this.#tracer.tracer;
  }

  /** The fields the propagator writes for `spanContext`, or undefined when it writes none. */
  #injectTraceContext(spanContext: Context): Record<string, string> | undefined {
    const carrier = this.#injection;
    carrier.fields = undefined;
    try {
      (this.#propagator ?? registered("propagation"))?.inject(spanContext, carrier, collectingSetter);
    } catch {
      return undefined; // a broken propagator must not fail the request: it goes out untraced
    }
    return carrier.fields;
  }

  #extractTraceContext(ambient: Context, params: JsonObject | undefined): Context {
    const meta = params?.["_meta"];
    const propagator = this.#propagator ?? registered("propagation");
    if (!isJsonObject(meta) || !propagator) return ambient;
    try {
      return propagator.extract(ambient, meta, metaGetter);
    } catch {
      return ambient;
    }
  }
}

/** Nothing for a span: no tracer, and no trace the request is part of. */
function quiet(tracer: Tracer | undefined, parent: Context): boolean {
  return tracer === undefined && spanContextOf(parent) === undefined;
}

function startSpan(tracer: Tracer, info: RequestInfo, kind: SpanKind, parent: Context, links: Link[] | undefined): Span {
  const attributes = requestAttributes(info);
  const options: SpanOptions = links === undefined ? { kind, attributes } : { kind, attributes, links };
  return tracer.startSpan(spanName(info.method, attributes), options, parent);
}

let sharedTelemetry: { readonly telemetry: Telemetry; readonly meterProvider: MeterProvider | undefined } | undefined;

/**
 * The Telemetry of dispatchers given none: one instance on what is registered with the global
 * OpenTelemetry API. It is rebuilt when the global meter provider changes, since its meter is bound
 * when it is built (its tracer and propagator are looked up on use).
 */
export function defaultTelemetry(): Telemetry {
  const meterProvider = registered("metrics");
  if (sharedTelemetry === undefined || sharedTelemetry.meterProvider !== meterProvider) {
    sharedTelemetry = { telemetry: new Telemetry(), meterProvider };
  }
  return sharedTelemetry.telemetry;
}

/** One request in flight: its span, its context and the moment it started. */
class ActiveRequest implements RequestRecord {
  readonly params: JsonObject | undefined;
  readonly #instruments: RequestInstruments | undefined;
  /** None without a tracer. */
  readonly #span: Span | undefined;
  readonly #context: Context;
  readonly #direction: Side;
  readonly #method: string;
  readonly #startedAt: number;
  #ended = false;

  constructor(
    instruments: RequestInstruments | undefined,
    span: Span | undefined,
    spanContext: Context,
    params: JsonObject | undefined,
    direction: Side,
    method: string,
  ) {
    this.#instruments = instruments;
    this.#startedAt = instruments ? performance.now() : 0;
    this.#span = span;
    this.#context = spanContext;
    this.params = params;
    this.#direction = direction;
    this.#method = method;
  }

  run<T>(fn: () => T): T {
    return runWith(this.#context, fn);
  }

  end(outcome: RequestOutcome, error?: RequestError): void {
    if (this.#ended) return;
    this.#ended = true;
    const instruments = this.#instruments;
    if (instruments) {
      const durationMs = performance.now() - this.#startedAt;
      const direction = this.#direction;
      const method = this.#method;
      instruments.total.add(1, { direction, method, status: outcome });
      instruments.duration.record(durationMs, { direction, method });
    }
    const span = this.#span;
    if (!span) return;
    // A successful call can still carry an error, e.g. a tool result with isError ("tool_error").
    if (outcome !== "success" || error !== undefined) recordFailure(span, outcome, error);
    span.end();
  }
}

function recordFailure(span: Span, outcome: RequestOutcome, error: RequestError | undefined): void {
  span.setAttribute(ATTR_ERROR_TYPE, error?.type ?? (outcome === "cancelled" ? "cancelled" : FALLBACK_ERROR_TYPE));
  if (error?.code !== undefined) span.setAttribute(ATTR_RESPONSE_STATUS_CODE, String(error.code));
  const message = error?.message;
  span.setStatus(message === undefined ? { code: SPAN_STATUS_ERROR } : { code: SPAN_STATUS_ERROR, message });
}

function requestAttributes(info: RequestInfo): Attributes {
  const attributes: Attributes = { [ATTR_METHOD_NAME]: info.method, [ATTR_REQUEST_ID]: String(info.id) };
  if (info.sessionId !== undefined) attributes[ATTR_SESSION_ID] = info.sessionId;
  if (info.protocolVersion !== undefined) attributes[ATTR_PROTOCOL_VERSION] = info.protocolVersion;
  addTargetAttributes(attributes, info.method, info.params);
  return attributes;
}

/** The attributes naming what the request acts on: a tool, a prompt or a resource. */
function addTargetAttributes(attributes: Attributes, method: string, params: JsonObject | undefined): void {
  switch (method) {
    case "tools/call":
      attributes[ATTR_OPERATION_NAME] = "execute_tool";
      setIfString(attributes, ATTR_TOOL_NAME, params?.["name"]);
      return;
    case "prompts/get":
      setIfString(attributes, ATTR_PROMPT_NAME, params?.["name"]);
      return;
    case "resources/read":
    case "resources/subscribe":
    case "resources/unsubscribe":
      setIfString(attributes, ATTR_RESOURCE_URI, params?.["uri"]);
      return;
  }
}

function setIfString(attributes: Attributes, key: string, value: unknown): void {
  if (typeof value === "string") attributes[key] = value;
}

/** `{mcp.method.name} {target}`, the target being the tool or prompt name; never the URI (high cardinality). */
function spanName(method: string, attributes: Attributes): string {
  const target = attributes[ATTR_TOOL_NAME] ?? attributes[ATTR_PROMPT_NAME];
  return target === undefined ? method : `${method} ${String(target)}`;
}

/** The context carrying `span`; a span without a valid context (no SDK) adds nothing, so none is allocated. */
function contextWithSpan(parent: Context, span: Span): Context {
  return isValidSpanContext(span.spanContext()) ? contextWith(parent, span) : parent;
}

/** A link to the ambient span (e.g. the transport's HTTP span) when `_meta` supplied another parent. */
function ambientLinks(ambient: Context, parent: Context): Link[] | undefined {
  if (parent === ambient) return undefined;
  const ambientSpanContext = spanContextOf(ambient);
  if (ambientSpanContext === undefined || !isValidSpanContext(ambientSpanContext)) return undefined;
  return spanContextOf(parent) === ambientSpanContext ? undefined : [{ context: ambientSpanContext }];
}

/** Adds the propagator's fields to a copy of `params._meta`; the caller's objects are never touched. */
function withTraceContext(params: JsonObject | undefined, fields: Record<string, string>): JsonObject | undefined {
  const meta = params?.["_meta"];
  if (meta === undefined) return withFields(params, { _meta: fields });
  // A malformed _meta is sent as the caller wrote it; schema validation, not telemetry, reports it.
  if (!isJsonObject(meta)) return params;
  return withFields(params, { _meta: withFields(meta, fields) });
}

function peerOf(side: Side): Side {
  return side === "client" ? "server" : "client";
}

/** Collects what a propagator injects, creating the record only once something is written. */
interface InjectionCarrier {
  fields: Record<string, string> | undefined;
}

const collectingSetter: TextMapSetter<InjectionCarrier> = {
  set(carrier, key, value) {
    (carrier.fields ??= {})[key] = value;
  },
};

const metaGetter: TextMapGetter<JsonObject> = {
  keys: (carrier) => Object.keys(carrier),
  get(carrier, key) {
    const value = carrier[key];
    return typeof value === "string" ? value : undefined;
  },
};
