import { afterEach, describe, expect, it, vi } from "vitest";

import { META_KEYS } from "../../constants/index.js";
import { InMemoryChangeFeed } from "../../stores/change-feed.js";
import { SseReader, httpRequest, initializeMessage, notification } from "../../transport/http-server/http-server.test-helpers.js";
import { streamableHttpHandler } from "../../transport/http-server/streamable-handler.js";
import { MCPServer } from "../mcp-server/mcp-server.js";
import { modernRequest } from "./stateless.test-helpers.js";

const handlers: { close(): Promise<void> }[] = [];

afterEach(async () => {
  await Promise.all(handlers.splice(0).map((handler) => handler.close()));
});

function listening() {
  const changes = new InMemoryChangeFeed();
  const server = new MCPServer({ name: "live", version: "1" }, { changeFeed: changes });
  server.tool("first", { description: "a tool" }, () => ({ content: [] }));
  server.prompt("hello", { description: "a prompt" }, () => ({ messages: [] }));
  server.resource("watched", "test://watched", {}, (uri) => ({ contents: [{ uri, text: "v1" }] }));
  const handler = streamableHttpHandler(server);
  handlers.push(handler);
  return { server, handler, changes };
}

const tagged = (id: number) => ({ [META_KEYS.subscriptionId]: id });

describe("subscriptions/listen (2026-07-28)", () => {
  it("acknowledges first with what it honours, then sends only the requested changes, each tagged with the listen id", async () => {
    const { server, handler } = listening();
    const response = await handler.fetch(
      modernRequest(7, "subscriptions/listen", {
        notifications: { toolsListChanged: true, resourceSubscriptions: ["test://watched"], unknownKind: true },
      }),
    );
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const stream = new SseReader(response.body);
    expect(await stream.nextMessage()).toEqual({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: { notifications: { toolsListChanged: true, resourceSubscriptions: ["test://watched"] }, _meta: tagged(7) },
    });
    server.prompt("another", { description: "not asked for" }, () => ({ messages: [] }));
    await server.markResourceUpdated("test://elsewhere");
    server.tool("second", { description: "asked for" }, () => ({ content: [] }));
    expect(await stream.nextMessage()).toEqual({
      jsonrpc: "2.0",
      method: "notifications/tools/list_changed",
      params: { _meta: tagged(7) },
    });
    await server.markResourceUpdated("test://watched");
    expect(await stream.nextMessage()).toEqual({
      jsonrpc: "2.0",
      method: "notifications/resources/updated",
      params: { uri: "test://watched", _meta: tagged(7) },
    });
    await server.close();
    expect(await stream.rest()).toEqual([
      {
        jsonrpc: "2.0",
        id: 7,
        result: { resultType: "complete", _meta: { ...tagged(7), [META_KEYS.serverInfo]: { name: "live", version: "1" } } },
      },
    ]);
  });

  it("stops listening when the client closes the stream", async () => {
    const { handler, changes } = listening();
    const before = changes.listenerCount;
    const stream = new SseReader(
      (await handler.fetch(modernRequest(1, "subscriptions/listen", { notifications: { promptsListChanged: true } }))).body,
    );
    await stream.nextMessage();
    expect(changes.listenerCount).toBe(before + 1);
    await stream.cancel();
    await vi.waitFor(() => expect(changes.listenerCount).toBe(before));
  });

  it("feeds the session era's notifications from the same changes", async () => {
    const { server, handler } = listening();
    const opened = await handler.fetch(httpRequest({ body: initializeMessage() }));
    const session = opened.headers.get("mcp-session-id") as string;
    await handler.fetch(httpRequest({ body: notification("notifications/initialized"), session }));
    const get = new SseReader((await handler.fetch(httpRequest({ method: "GET", session }))).body);
    const modern = new SseReader(
      (await handler.fetch(modernRequest(2, "subscriptions/listen", { notifications: { toolsListChanged: true } }))).body,
    );
    await modern.nextMessage();
    server.tool("late", { description: "new" }, () => ({ content: [] }));
    expect(await get.nextMessage()).toEqual({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    expect(await modern.nextMessage()).toMatchObject({ method: "notifications/tools/list_changed", params: { _meta: tagged(2) } });
  });
});
