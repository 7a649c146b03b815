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
    const telemetry = new Telemetry({ tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }), propagator: new W3CTraceContextPropagator() });
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
    expect(seen).toEqual(["received tools/call 1", "completed tools/call success number", "received tools/call 2", "completed tools/call error number"]);
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
});
