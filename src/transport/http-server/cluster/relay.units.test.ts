import { afterEach, describe, expect, it, vi } from "vitest";
import { InMemoryInstanceBus, type InstanceBus } from "../../../stores/instance-bus.js";
import { InMemorySessionDirectory } from "../../../stores/session-directory.js";
import { eventStreamOf, exchangeOf } from "../fetch-exchange.js";
import type { EventSink, EventStreamBody, HttpExchange, HttpReply } from "../http-server.types.js";
import { InstanceWatch } from "./instance-watch.js";
import { Incoming, type IncomingPort } from "./relay-in.js";
import { Outgoing } from "./relay-out.js";
import { parseRelayMessage, type RelayMessage } from "./relay-wire.js";
import { isRelayed, relayedExchange } from "./relayed-exchange.js";
import { Relay } from "./relay.js";

const URL_MCP = "http://127.0.0.1/mcp";
type Req = Extract<RelayMessage, { t: "req" }>;
const REQ: Req = {
  t: "req",
  r: "r1",
  from: "a",
  method: "POST",
  url: URL_MCP,
  headers: { "content-type": "application/json", "x-n": "1" },
  body: '{"x":"é"}',
};
const { body: _body, ...BODILESS } = REQ;
const JSON_HEADERS = { "content-type": "application/json" };

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

function sink(): EventSink & { written: string[]; ended: number; aborted: string[] } {
  const state = { written: [] as string[], ended: 0, aborted: [] as string[] };
  return Object.assign(state, {
    write: (text: string) => (state.written.push(text), 0),
    end: () => void state.ended++,
    abort: (reason: Error) => void state.aborted.push(reason.message),
  });
}

/** An event-stream reply the test drives through `to` once it is opened; what it holds before is written at `open`. */
class Stream implements EventStreamBody {
  to: EventSink | undefined;
  cancelled = 0;
  constructor(private readonly early: string[] = []) {}
  open(to: EventSink): () => void {
    this.to = to;
    for (const text of this.early) to.write(text);
    return () => void this.cancelled++;
  }
}

describe("parseRelayMessage", () => {
  it("parses each kind of message", () => {
    const valid: RelayMessage[] = [
      REQ,
      BODILESS,
      { t: "ack", r: "1" },
      { t: "head", r: "1", status: 200, headers: JSON_HEADERS, body: "{}", stream: false },
      { t: "head", r: "1", status: 200, headers: {}, stream: true },
      { t: "data", r: "1", n: 0, text: "" },
      { t: "end", r: "1", n: 1 },
      { t: "abort", r: "1", n: 2 },
      { t: "gone", r: "1", from: "a" },
    ];
    for (const message of valid) expect(parseRelayMessage(JSON.stringify(message))).toEqual(message);
  });

  it("refuses what is not a relay message, without throwing", () => {
    const refused: unknown[] = [
      null,
      42,
      "req",
      [],
      { r: "1" },
      { t: "nope", r: "1" },
      { t: "constructor", r: "1" },
      { t: "toString", r: "1" },
      { t: ["ack"], r: "1" },
      { t: "ack" },
      { t: "ack", r: 1 },
      { t: "ack", r: null },
      { t: "gone", r: "1" },
    ];
    refused.push(
      { ...REQ, headers: null },
      { ...REQ, headers: "x" },
      { ...REQ, headers: { a: 1 } },
      { ...REQ, body: 1 },
      { ...REQ, body: null },
      { t: "head", r: "1", status: "200", headers: {}, stream: false },
      { t: "data", r: "1", n: 0, text: null },
    );
    for (const message of refused) expect(parseRelayMessage(JSON.stringify(message))).toBeUndefined();
    expect(parseRelayMessage("not json")).toBeUndefined();
    expect(parseRelayMessage('{"t":"ack","r":"1","headers":null}')).toMatchObject({ t: "ack", r: "1" });
  });
});

describe("relayedExchange: a relayed request as the handler reads it", () => {
  it("gives its method, url, headers (a copy), body (or none) and web Request", async () => {
    const exchange = relayedExchange(REQ);
    expect([exchange.method, exchange.url.href]).toEqual(["POST", URL_MCP]);
    expect([exchange.header("x-n"), exchange.header("x-none"), exchange.header("constructor")]).toEqual(["1", null, null]);
    const copy = exchange.headers();
    copy["x-n"] = "2";
    expect(exchange.headers()).toEqual(REQ.headers);
    // '{"x":"é"}' is 9 characters, 10 bytes.
    await expect(exchange.text(10)).resolves.toEqual({ ok: true, text: '{"x":"é"}' });
    await expect(exchange.text(9)).resolves.toEqual({ ok: false, tooLarge: true });
    const request = exchange.request();
    expect([request.method, request.url, request.headers.get("x-n"), await request.text()]).toEqual(["POST", URL_MCP, "1", '{"x":"é"}']);
    expect(isRelayed(exchange)).toBe(true);
    expect(isRelayed(exchangeOf(new Request(URL_MCP)))).toBe(false);
    const bodiless = relayedExchange({ ...BODILESS, method: "GET" });
    await expect(bodiless.text(100)).resolves.toEqual({ ok: false, tooLarge: false, detail: "the body is empty" });
    expect(bodiless.request().body).toBeNull();
  });

  it("tells its listeners once when its client leaves; a late one at once; a removed one never", () => {
    const exchange = relayedExchange(REQ);
    const told: string[] = [];
    exchange.onClientGone(() => told.push("first"));
    exchange.onClientGone(() => told.push("removed"))();
    exchange.leave();
    exchange.leave();
    expect(told).toEqual(["first"]);
    exchange.onClientGone(() => told.push("late"))();
    expect(told).toEqual(["first", "late"]);
  });
});

function outgoing(orphaned: () => Promise<HttpReply> = () => Promise.resolve({ status: 202, headers: { orphaned: "yes" } })) {
  const log = { sent: [] as RelayMessage[], done: 0 };
  const out = new Outgoing("r1", { self: "a", send: (message) => void log.sent.push(message), done: () => void log.done++ }, orphaned);
  return Object.assign(log, { out });
}
const head = (stream: boolean): RelayMessage =>
  stream
    ? { t: "head", r: "r1", status: 200, headers: {}, stream }
    : { t: "head", r: "r1", status: 200, headers: JSON_HEADERS, body: "{}", stream };
const data = (n: number, text: string): RelayMessage => ({ t: "data", r: "r1", n, text });

describe("Outgoing: a request relayed to another instance", () => {
  it("answers with the target's JSON reply once taken, and ignores everything after it; 503 when not taken", async () => {
    const o = outgoing();
    o.out.receive({ t: "ack", r: "r1" });
    o.out.notTaken();
    expect(o.out.answered).toBe(false);
    o.out.receive(head(false));
    await expect(o.out.reply).resolves.toEqual({ status: 200, headers: JSON_HEADERS, body: "{}" });
    expect(o.out.answered).toBe(true);
    for (const late of [{ t: "ack", r: "r1" }, head(true), data(0, "x"), REQ, { t: "gone", r: "r1", from: "b" }] as RelayMessage[])
      o.out.receive(late);
    o.out.targetGone();
    o.out.clientGone();
    expect([o.done, o.sent]).toEqual([1, []]);
    const untaken = outgoing();
    untaken.out.notTaken();
    const reply = await untaken.out.reply;
    expect([reply.status, reply.body, untaken.done]).toEqual([503, expect.stringContaining("did not take the request"), 1]);
  });

  it("writes a streamed reply's pieces in order, those before `open` first, then ends it", async () => {
    const o = outgoing();
    o.out.receive({ t: "ack", r: "r1" });
    o.out.receive(data(0, "before the head"));
    o.out.receive(head(true));
    expect((await o.out.reply).body).toBe(o.out);
    o.out.receive(data(0, "a"));
    o.out.receive(data(1, "b"));
    const client = sink();
    o.out.open(client);
    expect(client.written).toEqual(["a", "b"]);
    o.out.receive(data(2, "c"));
    o.out.receive({ t: "end", r: "r1", n: 3 });
    o.out.receive(data(4, "late"));
    expect(client).toMatchObject({ written: ["a", "b", "c"], ended: 1, aborted: [] });
    expect(o.done).toBe(1);
  });

  it("ends or aborts at `open` a stream that ended before it; aborts one that breaks after, or skips a piece (never a gap)", () => {
    const ends: ["end" | "abort", boolean][] = [
      ["end", false],
      ["abort", false],
      ["abort", true],
    ];
    for (const [ending, openFirst] of ends) {
      const o = outgoing();
      const client = sink();
      o.out.receive(head(true));
      if (openFirst) o.out.open(client);
      o.out.receive(data(0, "a"));
      o.out.receive({ t: ending, r: "r1", n: 1 });
      if (!openFirst) o.out.open(client);
      expect([client.written, client.ended, client.aborted.length, o.done]).toEqual([
        ["a"],
        ending === "end" ? 1 : 0,
        ending === "abort" ? 1 : 0,
        1,
      ]);
    }
    const skipping = outgoing();
    const client = sink();
    skipping.out.receive(head(true));
    skipping.out.open(client);
    skipping.out.receive(data(1, "skipped one"));
    skipping.out.receive(data(0, "too late"));
    expect(client).toMatchObject({ written: [], ended: 0, aborted: ["The relayed stream broke; resume it with Last-Event-ID"] });
  });

  it("answers with the orphaned reply, once, when the target goes before its head; aborts a stream being relayed", async () => {
    let calls = 0;
    const o = outgoing(() => (calls++, Promise.resolve({ status: 202, headers: {} })));
    o.out.receive({ t: "ack", r: "r1" });
    o.out.targetGone();
    o.out.targetGone();
    o.out.receive(head(false));
    await expect(o.out.reply).resolves.toEqual({ status: 202, headers: {} });
    expect([calls, o.done]).toEqual([1, 1]);
    const streaming = outgoing();
    const client = sink();
    streaming.out.receive(head(true));
    streaming.out.open(client);
    streaming.out.receive(data(0, "a"));
    streaming.out.targetGone();
    streaming.out.receive(data(1, "b"));
    expect([client.written, client.aborted.length, streaming.done]).toEqual([["a"], 1, 1]);
  });

  it("tells the target once when its client leaves, before the reply or while streaming", async () => {
    const o = outgoing();
    o.out.clientGone();
    o.out.clientGone();
    expect(o.sent).toEqual([{ t: "gone", r: "r1", from: "a" }]);
    const reply = await o.out.reply;
    expect([reply.status, reply.body, o.done]).toEqual([503, expect.stringContaining("the client left"), 1]);
    const streaming = outgoing();
    const client = sink();
    streaming.out.receive(head(true));
    const leave = streaming.out.open(client);
    leave();
    streaming.out.receive(data(0, "a"));
    expect([streaming.sent, client.written, streaming.done]).toEqual([[{ t: "gone", r: "r1", from: "a" }], [], 1]);
  });
});

function incoming(serve: IncomingPort["serve"], sendFails = false) {
  const log = { sent: [] as RelayMessage[], to: new Set<string>(), done: 0 };
  const send: IncomingPort["send"] = (to, message) => (
    log.to.add(to),
    log.sent.push(message),
    sendFails ? Promise.reject(new Error("bus down")) : Promise.resolve()
  );
  const port: IncomingPort = { send, serve, done: () => void log.done++ };
  return Object.assign(log, { incoming: new Incoming(REQ, port) });
}

describe("Incoming: a request relayed here", () => {
  it("takes the request, serves it as relayed, and answers with a head (500 when serving throws); leaving after does nothing", async () => {
    let served: HttpExchange | undefined;
    const i = incoming((exchange) => ((served = exchange), Promise.resolve({ status: 200, headers: JSON_HEADERS, body: "{}" })));
    await i.incoming.serve();
    expect(i.sent).toEqual([
      { t: "ack", r: "r1" },
      { t: "head", r: "r1", status: 200, headers: JSON_HEADERS, body: "{}", stream: false },
    ]);
    expect([[...i.to], i.done, isRelayed(served as HttpExchange)]).toEqual([["a"], 1, true]);
    let left = 0;
    served?.onClientGone(() => left++);
    i.incoming.leave();
    expect([left, i.done]).toEqual([0, 1]);
    const empty = incoming(() => Promise.resolve({ status: 202, headers: {} }));
    await empty.incoming.serve();
    expect(empty.sent[1]).toStrictEqual({ t: "head", r: "r1", status: 202, headers: {}, stream: false });
    const failing = incoming(() => Promise.reject(new Error("boom")));
    await failing.incoming.serve();
    expect(failing.sent[1]).toMatchObject({ t: "head", status: 500, stream: false, body: expect.stringContaining("Internal error: boom") });
  });

  it("relays an event-stream reply as numbered pieces, then its end or its abort", async () => {
    for (const ending of ["end", "abort"] as const) {
      const stream = new Stream(["first"]);
      const i = incoming(() => Promise.resolve({ status: 200, headers: {}, body: stream }));
      await i.incoming.serve();
      stream.to?.write("second");
      if (ending === "end") stream.to?.end();
      else stream.to?.abort(new Error("broke"));
      stream.to?.end();
      expect(i.sent).toStrictEqual([
        { t: "ack", r: "r1" },
        { t: "head", r: "r1", status: 200, headers: {}, stream: true },
        { t: "data", r: "r1", n: 0, text: "first" },
        { t: "data", r: "r1", n: 1, text: "second" },
        { t: ending, r: "r1", n: 2 },
      ]);
      expect([i.done, stream.cancelled]).toEqual([1, 0]);
    }
  });

  it("leaves before the reply came (its stream then opened and cancelled at once) or while streaming (relaying no end)", async () => {
    const reply = deferred<HttpReply>();
    let left = 0;
    const i = incoming((exchange) => (exchange.onClientGone(() => left++), reply.promise));
    const serving = i.incoming.serve();
    i.incoming.leave();
    i.incoming.leave();
    expect([left, i.done]).toEqual([1, 1]);
    const stream = new Stream();
    reply.resolve({ status: 200, headers: {}, body: stream });
    await serving;
    expect([stream.cancelled, i.done]).toEqual([1, 1]);
    const json = incoming(() => Promise.resolve({ status: 200, headers: {}, body: "{}" }));
    const answering = json.incoming.serve();
    json.incoming.leave();
    await answering;
    expect(json.done).toBe(1);
    const streaming = new Stream();
    const relaying = incoming(() => Promise.resolve({ status: 200, headers: {}, body: streaming }));
    await relaying.incoming.serve();
    relaying.incoming.leave();
    streaming.to?.end();
    expect([streaming.cancelled, relaying.done, relaying.sent.map((message) => message.t)]).toEqual([1, 1, ["ack", "head"]]);
  });

  it("leaves when the bus fails to carry what it sends", async () => {
    let left = 0;
    const i = incoming((exchange) => (exchange.onClientGone(() => left++), deferred<HttpReply>().promise), true);
    void i.incoming.serve();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect([left, i.done]).toEqual([1, 1]);
  });
});

const relays: Relay[] = [];
afterEach(async () => {
  for (const relay of relays.splice(0)) await relay.close();
  vi.useRealTimers();
});

const never = (): Promise<HttpReply> => new Promise(() => undefined);
const ORPHANED: HttpReply = { status: 202, headers: { orphaned: "yes" } };
const orphaned = (): Promise<HttpReply> => Promise.resolve(ORPHANED);

/** Instances "a" and "b" (leases held), each with a relay on one bus and directory; `served` lists what each served. */
async function deployment(serve: (exchange: HttpExchange) => Promise<HttpReply>) {
  vi.useFakeTimers();
  const directory = new InMemorySessionDirectory({ now: () => Date.now() });
  const bus = new InMemoryInstanceBus();
  const served: { at: string; exchange: HttpExchange }[] = [];
  const side = async (instance: string, sideBus: InstanceBus = bus): Promise<Relay> => {
    await directory.renewLease(instance, instance, 60_000);
    const relay = new Relay({
      instance,
      bus: sideBus,
      watch: new InstanceWatch(directory, 100),
      ackTimeoutMs: 300,
      serve: (exchange) => (served.push({ at: instance, exchange }), serve(exchange)),
    });
    relays.push(relay);
    await relay.start();
    return relay;
  };
  const servedAt = (instance: string): HttpExchange[] => served.filter(({ at }) => at === instance).map(({ exchange }) => exchange);
  return { directory, bus, side, servedAt, a: await side("a"), b: await side("b") };
}

function clientRequest(controller = new AbortController()): HttpExchange {
  return exchangeOf(
    new Request(URL_MCP, {
      method: "POST",
      headers: { ...JSON_HEADERS, "mcp-session-id": "s1" },
      body: '{"x":1}',
      signal: controller.signal,
    }),
  );
}

describe("Relay: two instances on one bus", () => {
  it("relays a request to the instance serving it and brings its JSON reply back", async () => {
    const d = await deployment(async (exchange) => ({
      status: 200,
      headers: JSON_HEADERS,
      body: `${exchange.method} ${exchange.header("mcp-session-id")} ${JSON.stringify(await exchange.text(100))}`,
    }));
    await expect(d.a.relay("b", clientRequest(), '{"x":1}', orphaned)).resolves.toEqual({
      status: 200,
      headers: JSON_HEADERS,
      body: 'POST s1 {"ok":true,"text":"{\\"x\\":1}"}',
    });
    expect(d.servedAt("b").map(isRelayed)).toEqual([true]);
  });

  it("relays a streamed reply piece by piece to the client", async () => {
    const stream = new Stream(["one "]);
    const d = await deployment(() => Promise.resolve({ status: 200, headers: { "content-type": "text/event-stream" }, body: stream }));
    const reply = await d.a.relay("b", clientRequest(), undefined, orphaned);
    expect(reply.headers).toEqual({ "content-type": "text/event-stream" });
    const text = new Response(eventStreamOf(reply.body as EventStreamBody)).text();
    stream.to?.write("two");
    stream.to?.end();
    expect(await text).toBe("one two");
  });

  it("serves a request sent twice once, and ignores junk and messages for no request", async () => {
    const gate = deferred<HttpReply>();
    const d = await deployment(() => gate.promise);
    const twice = JSON.stringify({ ...REQ, r: "twice" });
    for (const text of [twice, twice, "junk", JSON.stringify({ t: "gone", r: "none", from: "a" })]) await d.bus.send("b", text);
    for (const text of ["junk", JSON.stringify({ t: "head", r: "none", status: 200, headers: {}, stream: false })])
      await d.bus.send("a", text);
    await vi.advanceTimersByTimeAsync(0);
    expect(d.servedAt("b")).toHaveLength(1);
    gate.resolve({ status: 200, headers: {}, body: "served" });
    await expect(d.a.relay("b", clientRequest(), "{}", orphaned)).resolves.toEqual({ status: 200, headers: {}, body: "served" });
  });

  it("answers 503 when the target never takes the request within ackTimeoutMs", async () => {
    const d = await deployment(never);
    await d.directory.renewLease("c", "c", 60_000);
    let answered: HttpReply | undefined;
    void d.a.relay("c", clientRequest(), "{}", orphaned).then((reply) => (answered = reply));
    await vi.advanceTimersByTimeAsync(299);
    expect(answered).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(answered?.status).toBe(503);
  });

  it("answers with the orphaned reply when the target's lease ends before its head", async () => {
    const d = await deployment(never);
    const reply = d.a.relay("b", clientRequest(), "{}", orphaned);
    await vi.advanceTimersByTimeAsync(0);
    expect(d.servedAt("b")).toHaveLength(1);
    await d.directory.releaseLease("b", "b");
    await vi.advanceTimersByTimeAsync(100);
    await expect(reply).resolves.toEqual(ORPHANED);
  });

  it("cancels a stream relayed here when the relaying instance's lease ends", async () => {
    const stream = new Stream();
    const d = await deployment(() => Promise.resolve({ status: 200, headers: {}, body: stream }));
    await d.a.relay("b", clientRequest(), undefined, orphaned);
    let left = 0;
    d.servedAt("b")[0]?.onClientGone(() => left++);
    await d.directory.releaseLease("a", "a");
    await vi.advanceTimersByTimeAsync(100);
    expect([stream.cancelled, left]).toEqual([1, 1]);
  });

  it("tells the target when the client leaves, and answers 503", async () => {
    const d = await deployment(never);
    const controller = new AbortController();
    const reply = d.a.relay("b", clientRequest(controller), "{}", orphaned);
    await vi.advanceTimersByTimeAsync(0);
    let left = 0;
    d.servedAt("b")[0]?.onClientGone(() => left++);
    controller.abort();
    expect((await reply).status).toBe(503);
    await vi.advanceTimersByTimeAsync(0);
    expect(left).toBe(1);
  });

  it("answers 503 at once when the bus refuses the request, or the client is gone already (relaying nothing)", async () => {
    const d = await deployment(never);
    const c = await d.side("c", {
      listen: (instance, onMessage) => d.bus.listen(instance, onMessage),
      send: () => Promise.reject(new Error("bus down")),
    });
    expect(await c.relay("b", clientRequest(), "{}", orphaned)).toMatchObject({
      status: 503,
      body: expect.stringContaining("did not take"),
    });
    const controller = new AbortController();
    controller.abort();
    for (const relay of [d.a, c])
      expect(await relay.relay("b", clientRequest(controller), "{}", orphaned)).toMatchObject({
        status: 503,
        body: expect.stringContaining("client left"),
      });
    await vi.advanceTimersByTimeAsync(1000);
    expect(d.servedAt("b")).toEqual([]);
  });

  it("close() ends both directions and stops listening", async () => {
    const d = await deployment(never);
    const out = d.a.relay("b", clientRequest(), "{}", orphaned);
    void d.b.relay("a", clientRequest(), "{}", orphaned);
    await vi.advanceTimersByTimeAsync(0);
    let left = 0;
    d.servedAt("a")[0]?.onClientGone(() => left++);
    await d.a.close();
    await expect(out).resolves.toEqual(ORPHANED);
    expect(left).toBe(1);
    void d.b.relay("a", clientRequest(), "{}", orphaned);
    await vi.advanceTimersByTimeAsync(0);
    expect(d.servedAt("a")).toHaveLength(1);
  });
});
