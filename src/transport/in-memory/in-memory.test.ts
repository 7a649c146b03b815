import { describe, expect, it, vi } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import type { TransportReceiver } from "../transport/transport.types.js";
import { InMemoryTransport } from "./in-memory.js";

function recorder() {
  const received: unknown[] = [];
  const receiver: TransportReceiver & { closes: number } = {
    closes: 0,
    onMessage: (message) => received.push(message),
    onMalformed: vi.fn(),
    onClose: () => {
      receiver.closes++;
    },
  };
  return { received, receiver };
}

async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

describe("InMemoryTransport.pair", () => {
  it("delivers in order, asynchronously, what one end sends to the other", async () => {
    const [a, b] = InMemoryTransport.pair();
    const { received, receiver } = recorder();
    await b.start(receiver);
    await a.start(recorder().receiver);
    const sends = [a.send({ n: 1 }), a.send([{ n: 2 }, { n: 3 }])];
    expect(received).toEqual([]);
    await Promise.all(sends);
    await flush();
    expect(received).toEqual([{ n: 1 }, [{ n: 2 }, { n: 3 }]]);
  });

  it("hands the receiver a copy: the sender mutating its object after send changes nothing", async () => {
    const [a, b] = InMemoryTransport.pair();
    const { received, receiver } = recorder();
    await b.start(receiver);
    const message = { params: { list: [1] } };
    await a.send(message);
    message.params.list.push(2);
    await flush();
    expect(received).toEqual([{ params: { list: [1] } }]);
    expect(received[0]).not.toBe(message);
  });

  it("keeps what arrives before start and delivers it on start", async () => {
    const [a, b] = InMemoryTransport.pair();
    await a.send({ early: true });
    const { received, receiver } = recorder();
    await b.start(receiver);
    await flush();
    expect(received).toEqual([{ early: true }]);
  });

  it("fails send after close with MCP.TRANSPORT_CLOSED, and refuses a start after close", async () => {
    const [a] = InMemoryTransport.pair();
    await a.close();
    await expect(a.send({})).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
    await expect(a.start(recorder().receiver)).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
  });

  it("refuses a second start with MCP.ALREADY_CONNECTED", async () => {
    const [a] = InMemoryTransport.pair();
    await a.start(recorder().receiver);
    await expect(a.start(recorder().receiver)).rejects.toMatchObject({ code: MCP_CODES.ALREADY_CONNECTED });
  });

  it("fails send of an unserialisable message with MCP.TRANSPORT_ERROR", async () => {
    const [a] = InMemoryTransport.pair();
    await expect(a.send({ n: 1n })).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: expect.stringContaining("serialisable"),
    });
    await expect(a.send(undefined)).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: expect.stringContaining("no JSON form"),
    });
  });

  it("closes both ends once, after delivering what was sent before close", async () => {
    const [a, b] = InMemoryTransport.pair();
    const left = recorder();
    const right = recorder();
    await a.start(left.receiver);
    await b.start(right.receiver);
    await a.send({ last: true });
    await a.close();
    await a.close();
    expect(left.receiver.closes).toBe(1);
    await flush();
    expect(right.received).toEqual([{ last: true }]);
    expect(right.receiver.closes).toBe(1);
    await expect(b.send({})).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
  });

  it("drops what the peer had in flight to an end that closed", async () => {
    const [a, b] = InMemoryTransport.pair();
    const left = recorder();
    await a.start(left.receiver);
    await b.start(recorder().receiver);
    const sending = b.send({ unwanted: true });
    await a.close();
    await sending;
    await flush();
    expect(left.received).toEqual([]);
  });
});
