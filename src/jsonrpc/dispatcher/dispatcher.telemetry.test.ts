import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { MeterProvider, MetricReader, type DataPoint } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { INSTRUMENTATION_SCOPE, METRIC_NAMES, Telemetry } from "../../telemetry/telemetry.js";
import { InMemoryTransport } from "../../transport/in-memory/in-memory.js";
import { JsonRpcDispatcher } from "./dispatcher.js";
import { connectedPair, rejection, scriptedDispatcher, settle } from "./dispatcher.test-helpers.js";

afterEach(() => {
  vi.useRealTimers();
});

class PullMetricReader extends MetricReader {
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

function instrumented() {
  const exporter = new InMemorySpanExporter();
  const reader = new PullMetricReader();
  const telemetry = new Telemetry({
    tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
    meterProvider: new MeterProvider({ readers: [reader] }),
    propagator: new W3CTraceContextPropagator(),
  });
  async function points(name: string): Promise<Array<DataPoint<number>>> {
    const { resourceMetrics } = await reader.collect();
    const scope = resourceMetrics.scopeMetrics.find((candidate) => candidate.scope.name === INSTRUMENTATION_SCOPE);
    return (scope?.metrics.find((metric) => metric.descriptor.name === name)?.dataPoints ?? []) as Array<DataPoint<number>>;
  }
  return { telemetry, exporter, points };
}

describe("JsonRpcDispatcher with telemetry", () => {
  it("records a CLIENT span and a SERVER span in one trace, the trace context carried in _meta", async () => {
    const { telemetry, exporter } = instrumented();
    const { client, server } = await connectedPair({ telemetry }, { telemetry });
    let seenMeta: unknown;
    server.setRequestHandler("tools/call", (_params, context) => {
      seenMeta = context.meta;
      return { content: [] };
    });
    await client.request("tools/call", { name: "echo", arguments: {} });
    const spans = exporter.getFinishedSpans();
    const clientSpan = spans.find((span) => span.kind === SpanKind.CLIENT);
    const serverSpan = spans.find((span) => span.kind === SpanKind.SERVER);
    expect(clientSpan?.name).toBe("tools/call echo");
    expect(serverSpan?.name).toBe("tools/call echo");
    expect(serverSpan?.spanContext().traceId).toBe(clientSpan?.spanContext().traceId);
    expect(serverSpan?.parentSpanContext?.spanId).toBe(clientSpan?.spanContext().spanId);
    expect(serverSpan?.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "echo",
      "jsonrpc.request.id": "1",
      "mcp.protocol.version": "2025-11-25",
    });
    expect(seenMeta).toMatchObject({ traceparent: expect.stringMatching(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/) });
  });

  it("counts requests by initiator, method and status, and times them", async () => {
    const { telemetry, points } = instrumented();
    const { client, server } = await connectedPair({ telemetry }, { telemetry });
    server.setRequestHandler("test/ok", () => ({}));
    server.setRequestHandler("test/fail", () => {
      throw new Error("no");
    });
    server.setRequestHandler("test/hang", () => new Promise(() => undefined));
    await client.request("test/ok");
    await client.request("test/fail").catch(() => undefined);
    const controller = new AbortController();
    const hanging = client.request("test/hang", {}, { signal: controller.signal }).catch(() => undefined);
    await settle();
    controller.abort();
    await hanging;
    await settle();
    await client.notify("test/note");
    await server.notify("test/from-server");
    await settle();
    const totals = (await points(METRIC_NAMES.requestTotal)).map((point) => [
      point.attributes["method"],
      point.attributes["status"],
      point.attributes["direction"],
      point.value,
    ]);
    // Both ends record each request; the client initiated all of them.
    expect(totals).toEqual(
      expect.arrayContaining([
        ["test/ok", "success", "client", 2],
        ["test/fail", "error", "client", 2],
        ["test/hang", "cancelled", "client", 2],
      ]),
    );
    expect((await points(METRIC_NAMES.requestDuration)).length).toBeGreaterThan(0);
    const notifications = (await points(METRIC_NAMES.notificationTotal)).map((point) => [
      point.attributes["method"],
      point.attributes["direction"],
      point.value,
    ]);
    expect(notifications).toEqual(
      expect.arrayContaining([
        ["test/note", "client", 2],
        ["notifications/cancelled", "client", 2],
        ["test/from-server", "server", 2],
      ]),
    );
  });

  it("marks the server span of a failed request with the JSON-RPC code", async () => {
    const { telemetry, exporter } = instrumented();
    const { client, server } = await connectedPair({ telemetry }, { telemetry });
    server.setRequestHandler("test/fail", () => {
      throw new Error("broken");
    });
    await client.request("test/fail").catch(() => undefined);
    const serverSpan = exporter.getFinishedSpans().find((span) => span.kind === SpanKind.SERVER);
    expect(serverSpan?.status).toEqual({ code: SpanStatusCode.ERROR, message: "broken" });
    expect(serverSpan?.attributes["error.type"]).toBe("-32603");
    const clientSpan = exporter.getFinishedSpans().find((span) => span.kind === SpanKind.CLIENT);
    expect(clientSpan?.attributes["error.type"]).toBe("-32603");
  });

  it("types a local failure of the caller (timeout) by its MCP code", async () => {
    const { telemetry, exporter } = instrumented();
    const { client, server } = await connectedPair({ telemetry, timeoutMs: 5 }, { telemetry });
    server.setRequestHandler("test/hang", () => new Promise(() => undefined));
    await client.request("test/hang").catch(() => undefined);
    const clientSpan = exporter.getFinishedSpans().find((span) => span.kind === SpanKind.CLIENT);
    expect(clientSpan?.attributes["error.type"]).toBe("MCP.TIMEOUT");
    await client.close();
  });

  it("counts a timed-out call as an error, an aborted one as cancelled, and one whose result check had to wait as a success", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    const { telemetry, points } = instrumented();
    const { dispatcher, peer } = await scriptedDispatcher({ side: "client", telemetry, timeoutMs: 100 });
    dispatcher.setResultCheck(
      "test/checked",
      (result) => Promise.resolve(result),
      () => undefined,
    );
    const checked = dispatcher.request("test/checked");
    const controller = new AbortController();
    const aborted = rejection(dispatcher.request("test/aborted", {}, { signal: controller.signal }));
    const late = rejection(dispatcher.request("test/late"));
    await peer.waitForSent(3);
    peer.deliver({ jsonrpc: "2.0", id: 1, result: { fine: true } });
    await expect(checked).resolves.toEqual({ fine: true });
    controller.abort();
    expect((await aborted).code).toBe(MCP_CODES.REQUEST_CANCELLED);
    await vi.advanceTimersByTimeAsync(100);
    expect((await late).code).toBe(MCP_CODES.TIMEOUT);
    vi.useRealTimers();
    const totals = (await points(METRIC_NAMES.requestTotal)).map((point) => [
      point.attributes["method"],
      point.attributes["status"],
      point.value,
    ]);
    expect(totals.toSorted((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
      ["test/aborted", "cancelled", 1],
      ["test/checked", "success", 1],
      ["test/late", "error", 1],
    ]);
  });

  it("works on the global OpenTelemetry API when no telemetry is given", async () => {
    const [a, b] = InMemoryTransport.pair();
    const client = new JsonRpcDispatcher({ side: "client" });
    const server = new JsonRpcDispatcher({ side: "server" });
    server.setRequestHandler("test/ok", () => ({ fine: true }));
    await server.connect(b);
    await client.connect(a);
    await expect(client.request("test/ok", { x: 1 })).resolves.toEqual({ fine: true });
  });
});
