// The registry reader against the real `@opentelemetry/api`: each function must answer as the API's.
import {
  context,
  isSpanContextValid,
  metrics,
  propagation,
  ROOT_CONTEXT,
  trace,
  TraceFlags,
  type MeterProvider,
  type SpanContext,
} from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { BasicTracerProvider } from "@opentelemetry/sdk-trace-base";
import * as fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { activeContext, contextWith, isValidSpanContext, OPENTELEMETRY_GLOBAL, registered, runWith, spanContextOf } from "./global-api.js";

const registry = globalThis as unknown as Record<symbol, Record<string, unknown> | undefined>;

afterEach(() => {
  trace.disable();
  metrics.disable();
  propagation.disable();
  context.disable();
});

const SPAN_CONTEXT: SpanContext = {
  traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
  spanId: "00f067aa0ba902b7",
  traceFlags: TraceFlags.SAMPLED,
};

describe("registered", () => {
  it("finds what the API registered, kind by kind, and nothing before", () => {
    expect(registered("trace")).toBeUndefined();
    const meterProvider = { getMeter: () => metrics.getMeterProvider().getMeter("x") } as MeterProvider;
    const propagator = new W3CTraceContextPropagator();
    const contextManager = new AsyncLocalStorageContextManager();
    metrics.setGlobalMeterProvider(meterProvider);
    propagation.setGlobalPropagator(propagator);
    context.setGlobalContextManager(contextManager);
    trace.setGlobalTracerProvider(new BasicTracerProvider());

    expect(registered("metrics")).toBe(meterProvider);
    expect(registered("propagation")).toBe(propagator);
    expect(registered("context")).toBe(contextManager);
    // The API registers its own proxy, which delegates to the provider given.
    expect(registered("trace")).toBe(trace.getTracerProvider());
  });

  it.each(["1.9.0", "1.9.1", "1.10.0", "1.42.7", "01.9.0", "1.8.0", "1.9.0-rc.1", "2.0.0", "0.9.0", "1.9", "", "x.y.z"])(
    "takes a record of API version %j exactly when the API would",
    (version) => {
      const meterProvider = { getMeter: () => metrics.getMeterProvider().getMeter("x") } as MeterProvider;
      metrics.setGlobalMeterProvider(meterProvider);
      const record = registry[OPENTELEMETRY_GLOBAL] as Record<string, unknown>;
      const own = record["version"];
      record["version"] = version;
      try {
        const apiTakesIt = metrics.getMeterProvider() === meterProvider;
        expect(registered("metrics") === meterProvider).toBe(apiTakesIt);
        expect(apiTakesIt).toBe(/^0?1\.(9|[1-9]\d)\.\d+$/.test(version));
      } finally {
        record["version"] = own;
      }
    },
  );
});

describe("contexts", () => {
  it("without a context manager: a root context like the API's, and callbacks just run", () => {
    const root = activeContext();
    expect(root).toBe(activeContext());
    const key = Symbol("k");
    const set = root.setValue(key, 1);
    expect([set.getValue(key), root.getValue(key), set.deleteValue(key).getValue(key), set.getValue(key)]).toEqual([
      1,
      undefined,
      undefined,
      1,
    ]);
    expect([ROOT_CONTEXT.setValue(key, 1).getValue(key), ROOT_CONTEXT.getValue(key)]).toEqual([1, undefined]);
    expect(runWith(set, () => activeContext())).toBe(root);
    expect(runWith(set, () => undefined)).toBeUndefined();
  });

  it("with one: the manager's active context, and callbacks run in the context given", () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    const key = Symbol("k");
    const inside = runWith(activeContext().setValue(key, "v"), () => [activeContext().getValue(key), context.active().getValue(key)]);
    expect(inside).toEqual(["v", "v"]);
    expect(activeContext()).toBe(context.active());
  });

  it("reads and sets the active span under the API's key", () => {
    const span = trace.wrapSpanContext(SPAN_CONTEXT);
    const withSpan = contextWith(activeContext(), span);
    expect(trace.getSpan(withSpan)).toBe(span);
    expect(spanContextOf(trace.setSpan(ROOT_CONTEXT, span))).toBe(SPAN_CONTEXT);
    expect(spanContextOf(ROOT_CONTEXT)).toBeUndefined();
    expect(spanContextOf(ROOT_CONTEXT.setValue(Symbol.for("OpenTelemetry Context Key SPAN"), null))).toBeUndefined();
  });
});

describe("isValidSpanContext", () => {
  const hex = "0123456789abcdefABCDEF".split("");
  const id = (length: number): fc.Arbitrary<unknown> =>
    fc.oneof(
      fc.string({ unit: fc.constantFrom(...hex), minLength: length, maxLength: length }),
      fc.string({ unit: fc.constantFrom("0", "0", "0", "1"), minLength: length, maxLength: length }),
      fc.string({ unit: fc.constantFrom(...hex, "g", "-", " ", "é"), minLength: length - 1, maxLength: length + 1 }),
      fc.constantFrom("0".repeat(length), undefined, null, 12, ["a"]),
    );

  it("agrees with the API's isSpanContextValid", () => {
    fc.assert(
      fc.property(id(32), id(16), (traceId, spanId) => {
        const spanContext = { traceId, spanId, traceFlags: 0 } as SpanContext;
        expect(isValidSpanContext(spanContext)).toBe(isSpanContextValid(spanContext));
      }),
      { numRuns: 2000 },
    );
    expect(isValidSpanContext(SPAN_CONTEXT)).toBe(true);
  });
});
