// The few calls of `@opentelemetry/api` the glue makes, answered from where version 1 of the API
// keeps what is registered with it. A process's SDK registers through whichever copy of the API it
// imports, and every copy reads that same global, so the library needs no copy of its own at run
// time (only its types): each function here answers as the API's would, by the API's rules.
import type { Context, ContextManager, MeterProvider, Span, SpanContext, TextMapPropagator, TracerProvider } from "@opentelemetry/api";

/** Where the API keeps its registrations; it creates the record with the first registration of anything. */
export const OPENTELEMETRY_GLOBAL = Symbol.for("opentelemetry.js.api.1");

/** What the API keeps under that key: the version of the API that created it, and one entry per kind. */
interface Registrations {
  readonly version?: unknown;
  /** The registering API's tracer proxy, delegating to the SDK's provider. */
  readonly trace?: TracerProvider;
  readonly context?: ContextManager;
  readonly propagation?: TextMapPropagator;
  readonly metrics?: MeterProvider;
}

/**
 * What is registered as `kind`, or undefined. As the API's `getGlobal`, for the 1.9 API this package
 * depends on: the record must come from an API of major 1, minor 9 or later, without a pre-release.
 */
export function registered<K extends Exclude<keyof Registrations, "version">>(kind: K): Registrations[K] | undefined {
  const registrations = (globalThis as { [OPENTELEMETRY_GLOBAL]?: Registrations })[OPENTELEMETRY_GLOBAL];
  const version = /^(\d+)\.(\d+)\.\d+$/.exec(String(registrations?.version));
  return version && +(version[1] as string) === 1 && +(version[2] as string) >= 9 ? registrations?.[kind] : undefined;
}

/** A context as the API's `ROOT_CONTEXT` is one: an immutable map, each change a new context. */
class MapContext implements Context {
  readonly #values: Map<symbol, unknown>;

  constructor(values: Map<symbol, unknown>) {
    this.#values = values;
  }

  getValue(key: symbol): unknown {
    return this.#values.get(key);
  }

  setValue(key: symbol, value: unknown): Context {
    return new MapContext(new Map(this.#values).set(key, value));
  }

  deleteValue(key: symbol): Context {
    const values = new Map(this.#values);
    values.delete(key);
    return new MapContext(values);
  }
}

/** The active context while no context manager is registered (the API's no-op manager answers its root). */
const ROOT_CONTEXT: Context = /* @__PURE__ */ new MapContext(new Map());

/** `context.active()`. */
export function activeContext(): Context {
  return registered("context")?.active() ?? ROOT_CONTEXT;
}

/** `context.with(context, fn)`: without a context manager, `fn` just runs. */
export function runWith<T>(context: Context, fn: () => T): T {
  const manager = registered("context");
  return manager ? manager.with(context, fn) : fn();
}

// The API's key for the active span: a `Symbol.for`, so every copy of the API shares it.
const SPAN_KEY = Symbol.for("OpenTelemetry Context Key SPAN");

/** `trace.getSpanContext(context)`. */
export function spanContextOf(context: Context): SpanContext | undefined {
  return ((context.getValue(SPAN_KEY) || undefined) as Span | undefined)?.spanContext();
}

/** `trace.setSpan(context, span)`. */
export function contextWith(context: Context, span: Span): Context {
  return context.setValue(SPAN_KEY, span);
}

/** `isSpanContextValid`: a trace id of 32 and a span id of 16 hex digits, not all zeros. */
export function isValidSpanContext(spanContext: SpanContext): boolean {
  return isId(spanContext.traceId, 32) && isId(spanContext.spanId, 16);
}

function isId(id: unknown, length: number): boolean {
  return typeof id === "string" && id.length === length && /^[\da-f]*[1-9a-f][\da-f]*$/i.test(id);
}
