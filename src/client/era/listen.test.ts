// The stateless era's listen stream against a scripted server: which filter each stream asks for,
// which acknowledgement makes it current, which notifications count (stdio carries every stream on
// one channel: only the current stream's do), and how a stream that ends or breaks is re-opened.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { META_KEYS, NOTIFICATIONS } from "../../constants/index.js";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import type { RequestOptions } from "../../jsonrpc/dispatcher/dispatcher.types.js";
import type { JsonObject } from "../../types/types.js";
import { ListenSubscriptions, type ListenFilter } from "./listen.js";
import { SessionChanges } from "./changes.js";

interface Sent {
  readonly id: number;
  readonly filter: ListenFilter;
  readonly options: RequestOptions;
  resolve(result: JsonObject): void;
  reject(error: MCPError): void;
}

function scripted(options: { ackTimeoutMs?: number; retryDelayMs?: number } = {}) {
  const sent: Sent[] = [];
  const delivered: string[] = [];
  const reported: MCPError[] = [];
  let nextId = 1;
  let refuseBeforeSending: MCPError | undefined;
  const listen = new ListenSubscriptions({
    send: (params, requestOptions) => {
      if (refuseBeforeSending) return Promise.reject(refuseBeforeSending);
      const id = nextId++;
      requestOptions.onId?.(id);
      return new Promise((resolve, reject) =>
        sent.push({ id, filter: params["notifications"] as ListenFilter, options: requestOptions, resolve, reject }),
      );
    },
    deliver: (method, params) => delivered.push(typeof params["uri"] === "string" ? `${method} ${params["uri"]}` : method),
    report: (error) => reported.push(error),
    ackTimeoutMs: options.ackTimeoutMs ?? 1000,
    retryDelayMs: options.retryDelayMs ?? 100,
  });
  const ack = (id: number, honoured: ListenFilter): void =>
    listen.acknowledged({ _meta: { [META_KEYS.subscriptionId]: id }, notifications: honoured });
  return {
    listen,
    sent,
    delivered,
    reported,
    ack,
    refuse: (error: MCPError | undefined) => (refuseBeforeSending = error),
  };
}

const tagged = (id: number, extra: JsonObject = {}): JsonObject => ({ ...extra, _meta: { [META_KEYS.subscriptionId]: id } });

/** What a promise rejects with, caught at once (so it is never left unhandled while timers run). */
const rejectionOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("ListenSubscriptions", () => {
  it("opens one stream with everything watched, never times it out, and counts only that stream's notifications", async () => {
    const { listen, sent, ack } = scripted();
    listen.watch("tools");
    listen.watch("tools");
    const subscribed = listen.subscribe("memo://b", undefined);
    const other = listen.subscribe("memo://a", undefined);
    await vi.advanceTimersByTimeAsync(0);
    expect(sent.map((listenRequest) => listenRequest.filter)).toEqual([
      { toolsListChanged: true, resourceSubscriptions: ["memo://a", "memo://b"] },
    ]);
    expect(sent[0]?.options).toMatchObject({ timeoutMs: Number.POSITIVE_INFINITY, maxTotalTimeoutMs: Number.POSITIVE_INFINITY });
    // Before its acknowledgement nothing of the stream counts, and an acknowledgement of another id changes nothing.
    expect(listen.accepts(NOTIFICATIONS.toolsListChanged, tagged(1))).toBe(false);
    ack(7, { toolsListChanged: true });
    ack(1, { toolsListChanged: true, resourceSubscriptions: ["memo://a", "memo://b"] });
    await expect(Promise.all([subscribed, other])).resolves.toEqual([undefined, undefined]);
    expect(listen.accepts(NOTIFICATIONS.toolsListChanged, tagged(1))).toBe(true);
    expect(listen.accepts(NOTIFICATIONS.toolsListChanged, tagged(2))).toBe(false);
    expect(listen.accepts(NOTIFICATIONS.promptsListChanged, {})).toBe(false);
    expect(listen.accepts(NOTIFICATIONS.resourcesUpdated, tagged(1, { uri: "memo://a" }))).toBe(true);
    expect(listen.accepts(NOTIFICATIONS.resourcesUpdated, tagged(1, { uri: "memo://c" }))).toBe(false);
    expect(listen.accepts(NOTIFICATIONS.resourcesUpdated, undefined)).toBe(false);
    // Logs and progress belong to the calls' own streams.
    expect(listen.accepts(NOTIFICATIONS.message, {})).toBe(true);
    expect(listen.accepts(NOTIFICATIONS.progress, undefined)).toBe(true);
  });

  it("replaces the stream on a new filter, ending the old one once the new one is acknowledged; an empty filter ends it", async () => {
    const { listen, sent, ack } = scripted();
    const first = listen.subscribe("memo://a", undefined);
    await vi.advanceTimersByTimeAsync(0);
    ack(1, { resourceSubscriptions: ["memo://a"] });
    await first;
    const second = listen.subscribe("memo://b", undefined);
    await vi.advanceTimersByTimeAsync(0);
    expect(sent[1]?.filter).toEqual({ resourceSubscriptions: ["memo://a", "memo://b"] });
    expect(sent[0]?.options.signal?.aborted).toBe(false);
    expect(listen.accepts(NOTIFICATIONS.resourcesUpdated, tagged(1, { uri: "memo://a" }))).toBe(true);
    ack(2, { resourceSubscriptions: ["memo://a", "memo://b"] });
    await second;
    expect(sent[0]?.options.signal?.aborted).toBe(true);
    expect(listen.accepts(NOTIFICATIONS.resourcesUpdated, tagged(1, { uri: "memo://a" }))).toBe(false);
    // The old stream's end (its cancel) is not a break: nothing is re-opened.
    sent[0]?.reject(new MCPError(MCP_CODES.REQUEST_CANCELLED, "cancelled"));
    await listen.unsubscribe("memo://nothing", undefined);
    const narrowed = listen.unsubscribe("memo://b", undefined);
    await vi.advanceTimersByTimeAsync(0);
    ack(3, { resourceSubscriptions: ["memo://a"] });
    await narrowed;
    await listen.unsubscribe("memo://a", undefined);
    expect(sent.map((listenRequest) => listenRequest.options.signal?.aborted)).toEqual([true, true, true]);
    expect(sent).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sent).toHaveLength(3);
  });

  it("refuses a subscription the acknowledgement leaves out, one not acknowledged in time, and one cancelled before it began", async () => {
    const { listen, sent, ack } = scripted({ ackTimeoutMs: 500 });
    const left = rejectionOf(listen.subscribe("memo://a", undefined));
    await vi.advanceTimersByTimeAsync(0);
    ack(1, {});
    expect(await left).toMatchObject({
      code: MCP_CODES.METHOD_NOT_FOUND,
      message: "The server did not take the subscription to memo://a: its acknowledgement of subscriptions/listen left it out",
    });
    const late = rejectionOf(listen.subscribe("memo://b", undefined));
    await vi.advanceTimersByTimeAsync(500);
    expect(await late).toMatchObject({ code: MCP_CODES.TIMEOUT, message: "subscriptions/listen was not acknowledged within 500 ms" });
    expect(sent[1]?.options.signal?.aborted).toBe(true);
    sent[1]?.reject(new MCPError(MCP_CODES.REQUEST_CANCELLED, "cancelled"));
    await expect(listen.subscribe("memo://c", { signal: AbortSignal.abort("no") })).rejects.toBe("no");
    await expect(listen.unsubscribe("memo://c", { signal: AbortSignal.abort("no") })).rejects.toBe("no");
  });

  it("reports a watch the server refuses, and passes a refused subscription's error on", async () => {
    const { listen, sent, reported, refuse } = scripted();
    listen.watch("prompts");
    await vi.advanceTimersByTimeAsync(0);
    sent[0]?.reject(new MCPError(-32601 as never, "Method not found: subscriptions/listen"));
    await vi.advanceTimersByTimeAsync(0);
    expect(reported.map((error) => error.message)).toEqual(["Method not found: subscriptions/listen"]);
    refuse(new MCPError(MCP_CODES.TRANSPORT_CLOSED, "closed"));
    await expect(listen.subscribe("memo://a", undefined)).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
  });

  it("re-opens an ended or broken stream, backing off per failure in a row, reporting a streak once; delivers what it lost", async () => {
    const { listen, sent, ack, delivered, reported, refuse } = scripted({ retryDelayMs: 100 });
    listen.watch("tools");
    listen.watch("resources");
    const subscribed = listen.subscribe("memo://a", undefined);
    await vi.advanceTimersByTimeAsync(0);
    ack(1, { toolsListChanged: true, resourceSubscriptions: ["memo://a"] });
    await subscribed;
    // A graceful end: re-opened after the first delay, nothing reported.
    sent[0]?.resolve({});
    await vi.advanceTimersByTimeAsync(99);
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toHaveLength(2);
    ack(2, { toolsListChanged: true, resourcesListChanged: true, resourceSubscriptions: ["memo://a", "memo://gone"] });
    await vi.advanceTimersByTimeAsync(0);
    expect(delivered).toEqual([
      NOTIFICATIONS.toolsListChanged,
      NOTIFICATIONS.resourcesListChanged,
      `${NOTIFICATIONS.resourcesUpdated} memo://a`,
    ]);
    expect(reported).toEqual([]);
    // A break, then a server that refuses to be reached twice: 100, 200, 400 ms, one report.
    sent[1]?.reject(new MCPError(MCP_CODES.TRANSPORT_ERROR, "terminated"));
    refuse(new MCPError(MCP_CODES.TRANSPORT_ERROR, "connection refused"));
    await vi.advanceTimersByTimeAsync(100 + 200);
    refuse(undefined);
    await vi.advanceTimersByTimeAsync(399);
    expect(sent).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toHaveLength(3);
    expect(reported.map((error) => [error.code, error.message])).toEqual([
      [MCP_CODES.TRANSPORT_ERROR, "The subscriptions/listen stream ended (terminated); re-opening it"],
    ]);
    ack(3, { toolsListChanged: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(delivered.slice(3)).toEqual([NOTIFICATIONS.toolsListChanged]);
    // After a success the delay starts over.
    sent[2]?.resolve({});
    await vi.advanceTimersByTimeAsync(100);
    expect(sent).toHaveLength(4);
  });

  it("caps the wait between attempts at 30 s", async () => {
    const { listen, sent, ack, refuse } = scripted({ retryDelayMs: 20_000 });
    listen.watch("tools");
    await vi.advanceTimersByTimeAsync(0);
    ack(1, { toolsListChanged: true });
    await vi.advanceTimersByTimeAsync(0);
    refuse(new MCPError(MCP_CODES.TRANSPORT_ERROR, "down"));
    sent[0]?.resolve({});
    await vi.advanceTimersByTimeAsync(20_000);
    refuse(undefined);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toHaveLength(2);
  });

  it("stops for good when closed: the stream ends, no retry runs, a connection's close is no break", async () => {
    const { listen, sent, ack } = scripted();
    listen.watch("tools");
    await vi.advanceTimersByTimeAsync(0);
    ack(1, { toolsListChanged: true });
    await vi.advanceTimersByTimeAsync(0);
    sent[0]?.reject(new MCPError(MCP_CODES.TRANSPORT_CLOSED, "closed"));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sent).toHaveLength(1);
    listen.watch("prompts");
    await vi.advanceTimersByTimeAsync(0);
    ack(2, { toolsListChanged: true, promptsListChanged: true });
    await vi.advanceTimersByTimeAsync(0);
    sent[1]?.resolve({});
    await vi.advanceTimersByTimeAsync(0);
    listen.close();
    await vi.advanceTimersByTimeAsync(10_000);
    listen.watch("resources");
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toHaveLength(2);
    expect(listen.accepts(NOTIFICATIONS.toolsListChanged, { _meta: { [META_KEYS.subscriptionId]: 2 } })).toBe(false);
  });

  it("ends the current stream on close, and a retry waiting to run does not", async () => {
    const { listen, sent, ack } = scripted();
    listen.watch("tools");
    await vi.advanceTimersByTimeAsync(0);
    ack(1, { toolsListChanged: true });
    await vi.advanceTimersByTimeAsync(0);
    listen.close();
    expect(sent[0]?.options.signal?.aborted).toBe(true);
    const { listen: retrying, sent: retried, ack: ackRetried } = scripted();
    retrying.watch("tools");
    await vi.advanceTimersByTimeAsync(0);
    ackRetried(1, { toolsListChanged: true });
    await vi.advanceTimersByTimeAsync(0);
    retried[0]?.resolve({});
    await vi.advanceTimersByTimeAsync(0);
    retrying.close();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(retried).toHaveLength(1);
  });
});

describe("ListenSubscriptions, the edges", () => {
  it("keeps a subscription whose stream broke right after its acknowledgement: the stream comes back with it", async () => {
    const { listen, sent, ack } = scripted({ retryDelayMs: 10 });
    const subscribed = listen.subscribe("memo://a", { timeoutMs: 5 });
    await vi.advanceTimersByTimeAsync(0);
    ack(1, { resourceSubscriptions: ["memo://a"] });
    sent[0]?.reject(new MCPError(MCP_CODES.TRANSPORT_ERROR, "terminated"));
    await expect(subscribed).resolves.toBeUndefined();
    await vi.advanceTimersByTimeAsync(10);
    expect(sent[1]?.filter).toEqual({ resourceSubscriptions: ["memo://a"] });
  });

  it("ends nothing when the last subscription goes while no stream is open, and opens none after", async () => {
    const { listen, sent, ack } = scripted({ retryDelayMs: 10 });
    const subscribed = listen.subscribe("memo://a", undefined);
    await vi.advanceTimersByTimeAsync(0);
    ack(1, { resourceSubscriptions: ["memo://a"] });
    await subscribed;
    sent[0]?.reject(new MCPError(MCP_CODES.TRANSPORT_ERROR, "terminated"));
    await vi.advanceTimersByTimeAsync(0);
    await listen.unsubscribe("memo://a", { timeoutMs: 5 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent).toHaveLength(1);
  });

  it("delivers what was missed once per break, not again on a later change of filter, and reports the break with its cause", async () => {
    const { listen, sent, ack, delivered, reported } = scripted({ retryDelayMs: 10 });
    listen.watch("tools");
    await vi.advanceTimersByTimeAsync(0);
    ack(1, { toolsListChanged: true });
    await vi.advanceTimersByTimeAsync(0);
    const broken = new MCPError(MCP_CODES.TRANSPORT_ERROR, "terminated");
    sent[0]?.reject(broken);
    await vi.advanceTimersByTimeAsync(10);
    ack(2, { toolsListChanged: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(delivered).toEqual([NOTIFICATIONS.toolsListChanged]);
    expect(reported[0]?.cause).toBe(broken);
    const subscribed = listen.subscribe("memo://a", undefined);
    await vi.advanceTimersByTimeAsync(0);
    ack(3, { toolsListChanged: true, resourceSubscriptions: ["memo://a"] });
    await subscribed;
    expect(delivered).toEqual([NOTIFICATIONS.toolsListChanged]);
  });

  it("refuses a subscription once closed", async () => {
    const { listen } = scripted();
    listen.close();
    await expect(listen.subscribe("memo://a", undefined)).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_CLOSED,
      message: "Cannot subscribe to memo://a: the connection is closed",
    });
  });
});

describe("SessionChanges", () => {
  it("uses resources/subscribe and resources/unsubscribe, hears every change, and watches nothing", async () => {
    const requests: unknown[] = [];
    const changes = new SessionChanges((method, params, options) => Promise.resolve(requests.push([method, params, options?.timeoutMs])));
    changes.watch();
    await changes.subscribe("memo://a", { timeoutMs: 5 });
    await changes.unsubscribe("memo://a", undefined);
    expect(requests).toEqual([
      ["resources/subscribe", { uri: "memo://a" }, 5],
      ["resources/unsubscribe", { uri: "memo://a" }, undefined],
    ]);
    expect(changes.accepts()).toBe(true);
    changes.close();
  });
});
