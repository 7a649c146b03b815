// The stateless era's requests carry the W3C trace context in `_meta` next to the revision's keys,
// as the session era's do: `traceparent` (the client span, under the caller's active span) and the
// caller's `tracestate`, and the server's span joins the client's trace.
import { context, createTraceState, ROOT_CONTEXT, SpanKind, trace, TraceFlags } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InMemoryTransport, MCPClient, MCPServer, type JsonObject } from "../src/index.js";
import { Telemetry } from "../src/telemetry/index.js";

const PARENT = {
  traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
  spanId: "00f067aa0ba902b7",
  traceFlags: TraceFlags.SAMPLED,
  isRemote: true,
  traceState: createTraceState("rojo=00f067aa0ba902b7"),
};

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});
afterAll(() => {
  context.disable();
});

describe("trace context in the stateless era", () => {
  it("puts traceparent and tracestate into each request's _meta, and the server's span joins the trace", async () => {
    const exporter = new InMemorySpanExporter();
    const telemetry = new Telemetry({
      tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
      propagator: new W3CTraceContextPropagator(),
    });
    const seen: JsonObject[] = [];
    const server = new MCPServer({ name: "traced", version: "1" }, { telemetry });
    server.tool("echo", { description: "echo" }, (_args, ctx) => {
      seen.push(ctx.meta as JsonObject);
      return { content: [] };
    });
    const [clientEnd, serverEnd] = InMemoryTransport.pair();
    await server.start(serverEnd);
    const client = new MCPClient({ name: "tracer", version: "1" }, { telemetry });
    await expect(client.connect(clientEnd)).resolves.toMatchObject({ era: "stateless" });
    await context.with(trace.setSpanContext(ROOT_CONTEXT, PARENT), () => client.callTool("echo"));
    const clientSpan = exporter.getFinishedSpans().find((span) => span.kind === SpanKind.CLIENT && span.name === "tools/call echo");
    const serverSpan = exporter.getFinishedSpans().find((span) => span.kind === SpanKind.SERVER && span.name === "tools/call echo");
    expect(clientSpan?.parentSpanContext?.spanId).toBe(PARENT.spanId);
    expect(seen).toEqual([
      expect.objectContaining({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        traceparent: `00-${PARENT.traceId}-${clientSpan?.spanContext().spanId}-01`,
        tracestate: "rojo=00f067aa0ba902b7",
      }),
    ]);
    expect(serverSpan?.spanContext().traceId).toBe(PARENT.traceId);
    expect(serverSpan?.parentSpanContext?.spanId).toBe(clientSpan?.spanContext().spanId);
    await client.close();
    await server.close();
  });
});
