import { trace } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it, vi } from "vitest";

import { EventBus, type MCPEventMap } from "../../events/events.js";
import { Telemetry } from "../../telemetry/telemetry.js";
import { streamableHttpHandler } from "../../transport/http-server/streamable-handler.js";
import { MCPServer } from "../mcp-server/mcp-server.js";
import { InMemoryTransport } from "../../transport/in-memory/in-memory.js";
import { modernMessage, modernRequest } from "./stateless.test-helpers.js";

describe("stateless-era requests are observed as session requests are", () => {
  it("records a SERVER span per request (the trace context from _meta) and the server's request events", async () => {
    const exporter = new InMemorySpanExporter();
    const telemetry = new Telemetry({
      tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
      propagator: new W3CTraceContextPropagator(),
    });
    const events = new EventBus<MCPEventMap>();
    const seen: string[] = [];
    events.on("request:received", ({ method, id }) => seen.push(`received ${method} ${String(id)}`));
    events.on("request:completed", ({ method, outcome, durationMs }) => seen.push(`completed ${method} ${outcome} ${typeof durationMs}`));
    const server = new MCPServer({ name: "observed", version: "1" }, { telemetry, events });
    server.tool("ok", { description: "fine" }, () => ({ content: [] }));
    const handler = streamableHttpHandler(server);
    const traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    await (await handler.fetch(modernRequest(1, "tools/call", { name: "ok", arguments: {} }, { extra: { traceparent } }))).text();
    await (await handler.fetch(modernRequest(2, "tools/call", { name: "missing", arguments: {} }))).text();
    await handler.close();
    expect(seen).toEqual([
      "received tools/call 1",
      "completed tools/call success number",
      "received tools/call 2",
      "completed tools/call error number",
    ]);
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => [span.name, span.attributes["mcp.protocol.version"], span.attributes["error.type"]])).toEqual([
      ["tools/call ok", "2026-07-28", undefined],
      ["tools/call missing", "2026-07-28", "-32602"],
    ]);
    expect(spans[0]?.spanContext().traceId).toBe("0af7651916cd43dd8448eb211c80319c");
  });

  it("over a connection (stdio), leaves the recording to the connection's dispatcher: one span per request", async () => {
    const exporter = new InMemorySpanExporter();
    const telemetry = new Telemetry({ tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }) });
    const server = new MCPServer({ name: "observed", version: "1" }, { telemetry });
    server.tool("ok", { description: "fine" }, () => ({ content: [] }));
    const [clientEnd, serverEnd] = InMemoryTransport.pair();
    const answers: unknown[] = [];
    await clientEnd.start({ onMessage: (message) => answers.push(message), onMalformed: () => undefined, onClose: () => undefined });
    await server.start(serverEnd);
    await clientEnd.send(modernMessage(1, "tools/call", { name: "ok", arguments: {} }));
    await vi.waitFor(() => expect(answers).toHaveLength(1));
    await server.close();
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(["tools/call ok"]);
  });

  it("records with the process's OpenTelemetry when the server was given none, and without events", async () => {
    const exporter = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    try {
      const server = new MCPServer({ name: "global", version: "1" });
      server.tool("ok", { description: "fine" }, () => ({ content: [] }));
      const handler = streamableHttpHandler(server);
      await (await handler.fetch(modernRequest(1, "tools/call", { name: "ok", arguments: {} }))).text();
      await handler.close();
      expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(["tools/call ok"]);
    } finally {
      trace.disable();
    }
  });

  it("records a request whose client left as cancelled, once its handler is done", async () => {
    const events = new EventBus<MCPEventMap>();
    const outcomes: string[] = [];
    events.on("request:completed", ({ outcome }) => outcomes.push(outcome));
    const server = new MCPServer({ name: "left", version: "1" }, { events, telemetry: null });
    let entered!: () => void;
    const started = new Promise<void>((resolve) => (entered = resolve));
    server.tool("wait", { description: "ends when cancelled" }, (_args, ctx) => {
      entered();
      return new Promise((_resolve, reject) => ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason as Error)));
    });
    const handler = streamableHttpHandler(server);
    const leaving = new AbortController();
    const answered = handler.fetch(modernRequest(1, "tools/call", { name: "wait", arguments: {} }, { signal: leaving.signal }));
    await started;
    leaving.abort();
    await answered;
    await vi.waitFor(() => expect(outcomes).toEqual(["cancelled"]));
    await handler.close();
  });
});
