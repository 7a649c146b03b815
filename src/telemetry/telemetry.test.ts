import {
  context,
  createTraceState,
  INVALID_SPAN_CONTEXT,
  metrics,
  propagation,
  ProxyTracerProvider,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Context,
  type SpanContext,
  type TextMapPropagator,
} from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from "@opentelemetry/core";
import { MeterProvider, MetricReader, type DataPoint, type Histogram } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { JsonObject } from "../types/types.js";
import { JsonRpcDispatcher } from "../jsonrpc/dispatcher/dispatcher.js";
import { InMemoryTransport } from "../transport/in-memory/in-memory.js";
import { defaultTelemetry, INSTRUMENTATION_SCOPE, METRIC_NAMES, Telemetry, type RequestInfo, type TelemetryOptions } from "./telemetry.js";
import { connectionTelemetry, openTelemetryInUse } from "./telemetry-loader.js";

/** A reader the test pulls from on demand. */
class PullMetricReader extends MetricReader {
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

interface Harness {
  telemetry: Telemetry;
  finishedSpans(): ReadableSpan[];
  dataPoints<T = number>(metricName: string): Promise<DataPoint<T>[]>;
}

function createHarness(overrides: TelemetryOptions = {}): Harness {
  const exporter = new InMemorySpanExporter();
  const reader = new PullMetricReader();
  const options: TelemetryOptions = {
    tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
    meterProvider: new MeterProvider({ readers: [reader] }),
    propagator: new W3CTraceContextPropagator(),
    ...overrides,
  };
  return {
    telemetry: new Telemetry(options),
    finishedSpans: () => exporter.getFinishedSpans(),
    async dataPoints<T>(metricName: string) {
      const { resourceMetrics } = await reader.collect();
      const scope = resourceMetrics.scopeMetrics.find((scopeMetrics) => scopeMetrics.scope.name === INSTRUMENTATION_SCOPE);
      const metric = scope?.metrics.find((candidate) => candidate.descriptor.name === metricName);
      return (metric?.dataPoints ?? []) as DataPoint<T>[];
    },
  };
}

function onlySpan(harness: Harness): ReadableSpan {
  const spans = harness.finishedSpans();
  expect(spans).toHaveLength(1);
  return spans[0] as ReadableSpan;
}

function request(overrides: Partial<RequestInfo> = {}): RequestInfo {
  return { side: "client", method: "ping", id: 1, params: undefined, ...overrides };
}

const REMOTE_PARENT: SpanContext = {
  traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
  spanId: "00f067aa0ba902b7",
  traceFlags: TraceFlags.SAMPLED,
  isRemote: true,
  traceState: createTraceState("rojo=00f067aa0ba902b7"),
};

function contextWithRemoteParent(): Context {
  return trace.setSpanContext(ROOT_CONTEXT, REMOTE_PARENT);
}

const contextManager = new AsyncLocalStorageContextManager();

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
});

afterAll(() => {
  context.disable();
});

describe("request metrics", () => {
  it("counts an outgoing request under its own side and records its duration from performance.now()", async () => {
    let now = 1000;
    vi.spyOn(performance, "now").mockImplementation(() => now);
    const harness = createHarness();

    const record = harness.telemetry.outgoingRequest(request({ method: "tools/list" }))!;
    now = 1042.5;
    record.end("success");

    const totals = await harness.dataPoints(METRIC_NAMES.requestTotal);
    expect(totals.map((point) => [point.attributes, point.value])).toEqual([
      [{ direction: "client", method: "tools/list", status: "success" }, 1],
    ]);
    const durations = await harness.dataPoints<Histogram>(METRIC_NAMES.requestDuration);
    expect(durations).toHaveLength(1);
    expect(durations[0]?.attributes).toEqual({ direction: "client", method: "tools/list" });
    expect(durations[0]?.value.count).toBe(1);
    expect(durations[0]?.value.sum).toBe(42.5);
  });

  it.each([
    ["server", "client"],
    ["client", "server"],
  ] as const)("counts a request received by the %s under the direction of its sender, %s", async (side, sender) => {
    const harness = createHarness();

    harness.telemetry.incomingRequest(request({ side, method: "ping" }))!.end("success");

    const totals = await harness.dataPoints(METRIC_NAMES.requestTotal);
    expect(totals.map((point) => point.attributes)).toEqual([{ direction: sender, method: "ping", status: "success" }]);
    const durations = await harness.dataPoints<Histogram>(METRIC_NAMES.requestDuration);
    expect(durations.map((point) => point.attributes)).toEqual([{ direction: sender, method: "ping" }]);
  });

  it("counts each outcome under its own status", async () => {
    const harness = createHarness();
    const { telemetry } = harness;

    telemetry.outgoingRequest(request({ id: 1 }))!.end("success");
    telemetry.outgoingRequest(request({ id: 2 }))!.end("error", { type: "-32603", code: -32603 });
    telemetry.outgoingRequest(request({ id: 3 }))!.end("error");
    telemetry.outgoingRequest(request({ id: 4 }))!.end("cancelled");

    const totals = await harness.dataPoints(METRIC_NAMES.requestTotal);
    const countByStatus = Object.fromEntries(totals.map((point) => [point.attributes["status"], point.value]));
    expect(countByStatus).toEqual({ success: 1, error: 2, cancelled: 1 });
  });

  it("records a request once however many times it is ended", async () => {
    const harness = createHarness();
    const record = harness.telemetry.outgoingRequest(request())!;

    record.end("error", { type: "-32601", code: -32601, message: "Method not found" });
    record.end("success");

    const totals = await harness.dataPoints(METRIC_NAMES.requestTotal);
    expect(totals.map((point) => [point.attributes["status"], point.value])).toEqual([["error", 1]]);
    const span = onlySpan(harness);
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: "Method not found" });
  });
});

describe("notification metrics", () => {
  it("counts notifications by direction and method", async () => {
    const harness = createHarness();

    harness.telemetry.notification("server", "notifications/progress");
    harness.telemetry.notification("server", "notifications/progress");
    harness.telemetry.notification("client", "notifications/initialized");

    const totals = await harness.dataPoints(METRIC_NAMES.notificationTotal);
    expect(totals.map((point) => [point.attributes, point.value])).toEqual([
      [{ direction: "server", method: "notifications/progress" }, 2],
      [{ direction: "client", method: "notifications/initialized" }, 1],
    ]);
  });
});

describe("request spans", () => {
  it("names a tool call after its tool and marks it as a GenAI execute_tool operation", () => {
    const harness = createHarness();

    harness.telemetry
      .outgoingRequest(
        request({
          method: "tools/call",
          id: 7,
          params: { name: "get-weather", arguments: { city: "Oslo" } },
          sessionId: "191c4850af6c49e08843a3f6c80e5046",
          protocolVersion: "2025-11-25",
        }),
      )!
      .end("success");

    const span = onlySpan(harness);
    expect(span.name).toBe("tools/call get-weather");
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.instrumentationScope.name).toBe("@suaveplan/mcp");
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.attributes).toEqual({
      "mcp.method.name": "tools/call",
      "jsonrpc.request.id": "7",
      "mcp.session.id": "191c4850af6c49e08843a3f6c80e5046",
      "mcp.protocol.version": "2025-11-25",
      "gen_ai.tool.name": "get-weather",
      "gen_ai.operation.name": "execute_tool",
    });
  });

  it("keeps a tool call without a usable tool name to the bare method name", () => {
    const harness = createHarness();

    harness.telemetry.incomingRequest(request({ side: "server", method: "tools/call", params: { name: 42 } }))!.end("success");

    const span = onlySpan(harness);
    expect(span.name).toBe("tools/call");
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.attributes["gen_ai.tool.name"]).toBeUndefined();
    expect(span.attributes["gen_ai.operation.name"]).toBe("execute_tool");
  });

  it("names a prompt request after its prompt", () => {
    const harness = createHarness();

    harness.telemetry.outgoingRequest(request({ method: "prompts/get", id: "req-3", params: { name: "code-review" } }))!.end("success");

    const span = onlySpan(harness);
    expect(span.name).toBe("prompts/get code-review");
    expect(span.attributes).toEqual({
      "mcp.method.name": "prompts/get",
      "jsonrpc.request.id": "req-3",
      "gen_ai.prompt.name": "code-review",
    });
  });

  it.each(["resources/read", "resources/subscribe", "resources/unsubscribe"])(
    "records the resource URI of %s but keeps it out of the span name",
    (method) => {
      const harness = createHarness();

      harness.telemetry.outgoingRequest(request({ method, params: { uri: "file:///tmp/report.pdf" } }))!.end("success");

      const span = onlySpan(harness);
      expect(span.name).toBe(method);
      expect(span.attributes["mcp.resource.uri"]).toBe("file:///tmp/report.pdf");
    },
  );

  it("records only the method and request id when nothing else is known", () => {
    const harness = createHarness();

    harness.telemetry.outgoingRequest(request({ method: "resources/read", params: { uri: ["not", "a", "string"] } }))!.end("success");

    const span = onlySpan(harness);
    expect(span.name).toBe("resources/read");
    expect(span.attributes).toEqual({ "mcp.method.name": "resources/read", "jsonrpc.request.id": "1" });
  });
});

describe("span errors", () => {
  it("records the error type, the JSON-RPC code and the message of a failed request", () => {
    const harness = createHarness();

    harness.telemetry
      .incomingRequest(request({ side: "server", method: "tools/call", params: { name: "x" } }))!
      .end("error", { type: "-32602", code: -32602, message: "Invalid params" });

    const span = onlySpan(harness);
    expect(span.attributes["error.type"]).toBe("-32602");
    expect(span.attributes["rpc.response.status_code"]).toBe("-32602");
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: "Invalid params" });
  });

  it("falls back to _OTHER for an error without a type and records no status code", () => {
    const harness = createHarness();

    harness.telemetry.outgoingRequest(request())!.end("error");

    const span = onlySpan(harness);
    expect(span.attributes["error.type"]).toBe("_OTHER");
    expect(span.attributes["rpc.response.status_code"]).toBeUndefined();
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR });
  });

  it("types a cancelled request as cancelled unless told otherwise", () => {
    const harness = createHarness();

    harness.telemetry.outgoingRequest(request({ id: 1 }))!.end("cancelled");
    harness.telemetry.outgoingRequest(request({ id: 2 }))!.end("cancelled", { type: "timeout" });

    const types = harness.finishedSpans().map((span) => [span.attributes["error.type"], span.status.code]);
    expect(types).toEqual([
      ["cancelled", SpanStatusCode.ERROR],
      ["timeout", SpanStatusCode.ERROR],
    ]);
  });

  it("marks a span failed for an error inside a successful result while the metric says success", async () => {
    const harness = createHarness();

    harness.telemetry.outgoingRequest(request({ method: "tools/call", params: { name: "x" } }))!.end("success", { type: "tool_error" });

    const span = onlySpan(harness);
    expect(span.attributes["error.type"]).toBe("tool_error");
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    const totals = await harness.dataPoints(METRIC_NAMES.requestTotal);
    expect(totals.map((point) => point.attributes["status"])).toEqual(["success"]);
  });
});

describe("trace context injection", () => {
  it("puts the client span's traceparent in a copy of params._meta and leaves the caller's objects alone", () => {
    const harness = createHarness();
    const meta = { progressToken: "p-1" };
    const params: JsonObject = { name: "get-weather", _meta: meta };
    const before = structuredClone(params);

    const record = harness.telemetry.outgoingRequest(request({ method: "tools/call", params }))!;
    record.end("success");

    const span = onlySpan(harness);
    const { traceId, spanId } = span.spanContext();
    expect(record.params).toEqual({
      name: "get-weather",
      _meta: { progressToken: "p-1", traceparent: `00-${traceId}-${spanId}-01` },
    });
    expect(record.params).not.toBe(params);
    expect(record.params?.["_meta"]).not.toBe(meta);
    expect(params).toEqual(before);
  });

  it("creates _meta when the request has no params", () => {
    const harness = createHarness();

    const record = harness.telemetry.outgoingRequest(request({ params: undefined }))!;

    expect(Object.keys(record.params ?? {})).toEqual(["_meta"]);
    expect(record.params?.["_meta"]).toEqual({ traceparent: expect.stringMatching(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/) });
  });

  it("carries the tracestate of the active trace and parents the client span on the active span", () => {
    const harness = createHarness();

    const record = context.with(contextWithRemoteParent(), () => harness.telemetry.outgoingRequest(request({ params: {} }))!);
    record.end("success");

    const span = onlySpan(harness);
    expect(span.parentSpanContext?.spanId).toBe(REMOTE_PARENT.spanId);
    expect(span.spanContext().traceId).toBe(REMOTE_PARENT.traceId);
    expect(record.params?.["_meta"]).toEqual({
      traceparent: `00-${REMOTE_PARENT.traceId}-${span.spanContext().spanId}-01`,
      tracestate: "rojo=00f067aa0ba902b7",
    });
  });

  it("sends a malformed _meta as it is", () => {
    const harness = createHarness();
    const params: JsonObject = { _meta: "not an object" };

    const record = harness.telemetry.outgoingRequest(request({ params }))!;

    expect(record.params).toBe(params);
  });

  it("returns the caller's params object itself when the propagator writes nothing", () => {
    // No tracer SDK: outside a trace the span has no valid context, so W3C writes nothing.
    const harness = createHarness({ tracerProvider: new ProxyTracerProvider() });
    const traced: JsonObject = { _meta: { progressToken: 1 } };
    const untraced: JsonObject = { _meta: { progressToken: 2 } };

    const inside = context.with(contextWithRemoteParent(), () => harness.telemetry.outgoingRequest(request({ params: traced }))!);
    const outside = harness.telemetry.outgoingRequest(request({ params: untraced }))!;

    expect(inside.params?.["_meta"]).toEqual({
      progressToken: 1,
      traceparent: `00-${REMOTE_PARENT.traceId}-${REMOTE_PARENT.spanId}-01`,
      tracestate: "rojo=00f067aa0ba902b7",
    });
    expect(outside.params).toBe(untraced);
  });
});

describe("trace context extraction", () => {
  it("parents the server span on the client span across an inject → extract round trip", async () => {
    const client = createHarness();
    const server = createHarness();

    const outgoing = client.telemetry.outgoingRequest(request({ side: "client", method: "tools/call", id: 9, params: { name: "echo" } }))!;
    const incoming = server.telemetry.incomingRequest(request({ side: "server", method: "tools/call", id: 9, params: outgoing.params }))!;
    incoming.end("success");
    outgoing.end("success");

    const clientSpan = onlySpan(client);
    const serverSpan = onlySpan(server);
    expect(serverSpan.kind).toBe(SpanKind.SERVER);
    expect(serverSpan.name).toBe("tools/call echo");
    expect(serverSpan.spanContext().traceId).toBe(clientSpan.spanContext().traceId);
    expect(serverSpan.parentSpanContext).toMatchObject({ spanId: clientSpan.spanContext().spanId, isRemote: true });
    expect(serverSpan.links).toEqual([]);
    expect(incoming.params).toBe(outgoing.params);
    const [clientTotals, serverTotals] = await Promise.all([
      client.dataPoints(METRIC_NAMES.requestTotal),
      server.dataPoints(METRIC_NAMES.requestTotal),
    ]);
    expect(clientTotals.map((point) => point.attributes["direction"])).toEqual(["client"]);
    expect(serverTotals.map((point) => point.attributes["direction"])).toEqual(["client"]);
  });

  it("links the ambient span when _meta names another parent", () => {
    const harness = createHarness();
    const ambient = harness.telemetry.outgoingRequest(request())!;
    const ambientSpanContext = trace.getSpanContext(ambient.run(() => context.active())) as SpanContext;
    const meta = { traceparent: `00-${REMOTE_PARENT.traceId}-${REMOTE_PARENT.spanId}-01` };

    ambient.run(() => harness.telemetry.incomingRequest(request({ side: "server", params: { _meta: meta } }))!).end("success");

    const [serverSpan] = harness.finishedSpans();
    expect(serverSpan?.parentSpanContext?.spanId).toBe(REMOTE_PARENT.spanId);
    expect(serverSpan?.links.map((link) => link.context.spanId)).toEqual([ambientSpanContext.spanId]);
  });

  it("parents the server span on the ambient span, unlinked, when _meta has no trace context", () => {
    const harness = createHarness();
    const ambient = harness.telemetry.outgoingRequest(request())!;
    const ambientSpanId = ambient.run(() => trace.getActiveSpan()?.spanContext().spanId);

    ambient
      .run(() => harness.telemetry.incomingRequest(request({ side: "server", params: { _meta: { progressToken: 5 } } }))!)
      .end("success");
    ambient.run(() => harness.telemetry.incomingRequest(request({ side: "server", params: { _meta: [] } }))!).end("success");

    const serverSpans = harness.finishedSpans();
    expect(serverSpans.map((span) => span.parentSpanContext?.spanId)).toEqual([ambientSpanId, ambientSpanId]);
    expect(serverSpans.map((span) => span.links)).toEqual([[], []]);
  });

  it("does not link the ambient span when _meta carries only baggage", () => {
    const harness = createHarness({
      propagator: new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
    });
    const ambient = harness.telemetry.outgoingRequest(request())!;
    const ambientSpanId = ambient.run(() => trace.getActiveSpan()?.spanContext().spanId);

    const incoming = ambient.run(() =>
      harness.telemetry.incomingRequest(request({ side: "server", params: { _meta: { baggage: "user=alice" } } }))!,
    );
    const baggage = incoming.run(() => propagation.getActiveBaggage()?.getEntry("user")?.value);
    incoming.end("success");

    const [serverSpan] = harness.finishedSpans();
    expect(baggage).toBe("alice");
    expect(serverSpan?.parentSpanContext?.spanId).toBe(ambientSpanId);
    expect(serverSpan?.links).toEqual([]);
  });

  it("ignores an ambient span without a valid context", () => {
    const harness = createHarness();
    const invalidAmbient = trace.setSpan(ROOT_CONTEXT, trace.wrapSpanContext(INVALID_SPAN_CONTEXT));
    const meta = { traceparent: `00-${REMOTE_PARENT.traceId}-${REMOTE_PARENT.spanId}-01` };

    context
      .with(invalidAmbient, () => harness.telemetry.incomingRequest(request({ side: "server", params: { _meta: meta } }))!)
      .end("success");

    const span = onlySpan(harness);
    expect(span.parentSpanContext?.spanId).toBe(REMOTE_PARENT.spanId);
    expect(span.links).toEqual([]);
  });

  it("lets a propagator enumerate _meta and read its string values only", () => {
    const seen: [string, string | string[] | undefined][] = [];
    const enumeratingPropagator: TextMapPropagator = {
      inject: () => undefined,
      extract(active, carrier, getter) {
        for (const key of getter.keys(carrier)) seen.push([key, getter.get(carrier, key)]);
        return active;
      },
      fields: () => [],
    };
    const harness = createHarness({ propagator: enumeratingPropagator });

    harness.telemetry.incomingRequest(request({ side: "server", params: { _meta: { progressToken: 3, vendor: "v-1" } } }))!;

    expect(seen).toEqual([
      ["progressToken", undefined],
      ["vendor", "v-1"],
    ]);
  });

  it("starts a root span when there is neither _meta nor an ambient span", () => {
    const harness = createHarness();

    harness.telemetry.incomingRequest(request({ side: "server", params: { name: "x" } }))!.end("success");

    expect(onlySpan(harness).parentSpanContext).toBeUndefined();
  });
});

describe("a propagator that throws", () => {
  const throwingPropagator: TextMapPropagator = {
    inject(_context, carrier, setter) {
      setter.set(carrier, "traceparent", "half-written");
      throw new Error("inject failed");
    },
    extract() {
      throw new Error("extract failed");
    },
    fields: () => ["traceparent"],
  };

  it("sends the request untraced, with the caller's params", () => {
    const harness = createHarness({ propagator: throwingPropagator });
    const params: JsonObject = { _meta: { progressToken: 1 } };

    const first = harness.telemetry.outgoingRequest(request({ params }))!;
    const second = harness.telemetry.outgoingRequest(request({ params: undefined }))!;

    expect(first.params).toBe(params);
    expect(second.params).toBeUndefined();
  });

  it("parents an incoming request on the ambient context", () => {
    const harness = createHarness({ propagator: throwingPropagator });

    harness.telemetry.incomingRequest(request({ side: "server", params: { _meta: { traceparent: "x" } } }))!.end("success");

    expect(onlySpan(harness).parentSpanContext).toBeUndefined();
  });
});

describe("RequestRecord.run", () => {
  it("runs the handler with the server span active, so its own requests become children", () => {
    const harness = createHarness();
    const incoming = harness.telemetry.incomingRequest(request({ side: "server", method: "tools/call", params: { name: "ask" } }))!;

    const result = incoming.run(() => {
      harness.telemetry.outgoingRequest(request({ side: "server", method: "sampling/createMessage" }))!.end("success");
      return "handled";
    });
    incoming.end("success");

    expect(result).toBe("handled");
    const [sampling, toolCall] = harness.finishedSpans();
    expect(sampling?.name).toBe("sampling/createMessage");
    expect(sampling?.parentSpanContext?.spanId).toBe(toolCall?.spanContext().spanId);
  });

  it("runs a callback inside the client span too", () => {
    const harness = createHarness();
    const outgoing = harness.telemetry.outgoingRequest(request())!;

    const activeSpanId = outgoing.run(() => trace.getActiveSpan()?.spanContext().spanId);
    outgoing.end("success");

    expect(activeSpanId).toBe(onlySpan(harness).spanContext().spanId);
  });
});

describe("without an OpenTelemetry SDK", () => {
  it("records nothing and keeps nothing per request: no record, params untouched", () => {
    const telemetry = new Telemetry();
    const params: JsonObject = { name: "x", _meta: { traceparent: `00-${REMOTE_PARENT.traceId}-${REMOTE_PARENT.spanId}-01` } };

    expect(telemetry.outgoingRequest(request({ method: "tools/call", params }))).toBeUndefined();
    expect(telemetry.incomingRequest(request({ side: "server", method: "tools/call", params }))).toBeUndefined();
    telemetry.notification("client", "notifications/initialized");
    expect(params).toEqual({ name: "x", _meta: { traceparent: `00-${REMOTE_PARENT.traceId}-${REMOTE_PARENT.spanId}-01` } });
  });

  it("keeps a record for a request that carries baggage but no span, and runs its handler under it", () => {
    const telemetry = new Telemetry({ propagator: new W3CBaggagePropagator() });
    const incoming = telemetry.incomingRequest(request({ side: "server", params: { _meta: { baggage: "tenant=acme" } } }));
    const seen = incoming?.run(() => propagation.getBaggage(context.active())?.getEntry("tenant")?.value);
    incoming?.end("success");
    expect(seen).toBe("acme");
    const outgoing = context.with(propagation.setBaggage(ROOT_CONTEXT, propagation.createBaggage({ tenant: { value: "acme" } })), () =>
      telemetry.outgoingRequest(request({ params: {} })),
    );
    expect(outgoing?.params?.["_meta"]).toEqual({ baggage: "tenant=acme" });
  });

  it("still carries the active trace context, as the API's no-op tracer does", () => {
    const telemetry = new Telemetry({ propagator: new W3CTraceContextPropagator() });
    const traceparent = `00-${REMOTE_PARENT.traceId}-${REMOTE_PARENT.spanId}-01`;

    const outgoing = context.with(contextWithRemoteParent(), () => telemetry.outgoingRequest(request({ params: {} })));
    const incoming = telemetry.incomingRequest(request({ side: "server", params: { _meta: { traceparent } } }));
    const seenInHandler = incoming?.run(() => trace.getSpanContext(context.active()));
    outgoing?.end("error", { type: "-32603", code: -32603 });
    incoming?.end("success");

    expect(outgoing?.params?.["_meta"]).toMatchObject({ traceparent });
    expect(seenInHandler).toMatchObject({ traceId: REMOTE_PARENT.traceId, spanId: REMOTE_PARENT.spanId });
  });

  it("picks up the global providers and propagator when none is passed", async () => {
    const exporter = new InMemorySpanExporter();
    const reader = new PullMetricReader();
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    try {
      const telemetry = new Telemetry();
      const record = telemetry.outgoingRequest(request({ params: {} }))!;
      record.end("success");

      const [span] = exporter.getFinishedSpans();
      expect(span?.name).toBe("ping");
      expect(record.params?.["_meta"]).toEqual({ traceparent: `00-${span?.spanContext().traceId}-${span?.spanContext().spanId}-01` });
      const { resourceMetrics } = await reader.collect();
      const names = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics.map((metric) => metric.descriptor.name));
      expect(names).toContain("mcp_request_total");
      expect(names).toContain("mcp_request_duration_ms");
    } finally {
      trace.disable();
      metrics.disable();
      propagation.disable();
    }
  });
});

describe("the providers it is given", () => {
  it("asks its tracer provider for a tracer once", () => {
    const provider = new BasicTracerProvider();
    const getTracer = vi.spyOn(provider, "getTracer");
    const { telemetry } = createHarness({ tracerProvider: provider });

    telemetry.outgoingRequest(request({ id: 1 }))!.end("success");
    telemetry.incomingRequest(request({ side: "server", id: 2 }))!.end("success");

    expect(getTracer.mock.calls).toEqual([[INSTRUMENTATION_SCOPE]]);
  });

  it("parents an incoming request on the global propagator's extraction when given none", () => {
    const exporter = new InMemorySpanExporter();
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    try {
      const telemetry = new Telemetry({ tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }) });
      const traceparent = `00-${REMOTE_PARENT.traceId}-${REMOTE_PARENT.spanId}-01`;
      telemetry.incomingRequest(request({ side: "server", params: { _meta: { traceparent } } }))!.end("success");
    } finally {
      propagation.disable();
    }
    const [span] = exporter.getFinishedSpans();
    expect(span?.parentSpanContext).toMatchObject({ traceId: REMOTE_PARENT.traceId, spanId: REMOTE_PARENT.spanId, isRemote: true });
  });
});

describe("a tracer provider registered later", () => {
  it("gets the requests made after its registration, and none once it is gone", () => {
    const telemetry = new Telemetry();
    expect(telemetry.outgoingRequest(request({ id: 1 }))).toBeUndefined();
    const exporter = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    try {
      telemetry.outgoingRequest(request({ method: "tools/list", id: 2 }))!.end("success");
      telemetry.incomingRequest(request({ side: "server", method: "prompts/list", id: 3 }))!.end("success");
    } finally {
      trace.disable();
    }
    expect(telemetry.outgoingRequest(request({ id: 4 }))).toBeUndefined();
    expect(exporter.getFinishedSpans().map((span) => [span.name, span.kind])).toEqual([
      ["tools/list", SpanKind.CLIENT],
      ["prompts/list", SpanKind.SERVER],
    ]);
  });
});

describe("defaultTelemetry", () => {
  it("shares one instance until the global meter provider changes", async () => {
    const first = defaultTelemetry();
    expect(defaultTelemetry()).toBe(first);

    const reader = new PullMetricReader();
    metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
    try {
      const second = defaultTelemetry();
      second.notification("server", "notifications/tools/list_changed");

      expect(second).not.toBe(first);
      expect(defaultTelemetry()).toBe(second);
      const { resourceMetrics } = await reader.collect();
      const attributes = resourceMetrics.scopeMetrics.flatMap((scope) =>
        scope.metrics.flatMap((metric) => metric.dataPoints.map((point: DataPoint<unknown>) => point.attributes)),
      );
      expect(attributes).toEqual([{ direction: "server", method: "notifications/tools/list_changed" }]);
    } finally {
      metrics.disable();
    }
  });
});

describe("metric names", () => {
  it("are the ones the design lists", () => {
    expect(METRIC_NAMES).toEqual({
      requestTotal: "mcp_request_total",
      notificationTotal: "mcp_notification_total",
      requestDuration: "mcp_request_duration_ms",
    });
  });
});

describe("connectionTelemetry: the telemetry of a dispatcher given none", () => {
  const key = Symbol.for("opentelemetry.js.api.1");
  const registry = globalThis as unknown as Record<symbol, unknown>;

  it("is none while nothing in the process registered with OpenTelemetry, and the shared default once something did", async () => {
    // This file registered a context manager (beforeAll): the API's global is there.
    expect(openTelemetryInUse()).toBe(true);
    const registered = registry[key];
    delete registry[key];
    try {
      expect(openTelemetryInUse()).toBe(false);
      await expect(connectionTelemetry()).resolves.toBeUndefined();
    } finally {
      registry[key] = registered;
    }
    await expect(connectionTelemetry()).resolves.toBe(defaultTelemetry());
  });

  it("reaches the global SDK from dispatchers connected after it was registered", async () => {
    const exporter = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    try {
      const [clientEnd, serverEnd] = InMemoryTransport.pair();
      const server = new JsonRpcDispatcher({ side: "server" });
      server.setRequestHandler("ping", () => ({}));
      const client = new JsonRpcDispatcher({ side: "client" });
      const quiet = new JsonRpcDispatcher({ side: "client", telemetry: null });
      await Promise.all([server.connect(serverEnd), client.connect(clientEnd)]);
      await client.request("ping");
      expect(exporter.getFinishedSpans().map((span) => [span.name, span.kind])).toEqual([
        ["ping", SpanKind.SERVER],
        ["ping", SpanKind.CLIENT],
      ]);
      const [quietEnd, otherEnd] = InMemoryTransport.pair();
      const other = new JsonRpcDispatcher({ side: "server", telemetry: null });
      other.setRequestHandler("ping", () => ({}));
      await Promise.all([other.connect(otherEnd), quiet.connect(quietEnd)]);
      await quiet.request("ping");
      expect(exporter.getFinishedSpans()).toHaveLength(2);
      await Promise.all([client.close(), server.close(), quiet.close(), other.close()]);
    } finally {
      trace.disable();
    }
  });
});
