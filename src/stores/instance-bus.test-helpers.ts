// The InstanceBus contract: what every implementation (in memory, Redis, a user's own) must do, as a
// suite any of them runs with `describeInstanceBus(name, make)`. `make` gives a bus to send on and one
// to listen on: the same bus in one process, two buses on two connections for a shared one. Delivery
// takes its time, so the suite waits for what it expects; it tells that something did not arrive by a
// later message to the same instance arriving alone (delivery is in order).
import { describe, expect, it } from "vitest";

import type { InstanceBus } from "./instance-bus.js";

export interface InstanceBusUnderTest {
  readonly sender: InstanceBus;
  readonly receiver: InstanceBus;
}

export type MakeInstanceBus = () => InstanceBusUnderTest | Promise<InstanceBusUnderTest>;

/** Resolves once `check` holds (bounded: 10 s). */
export async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("waited 10 s in vain");
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** A listener that keeps what it hears. */
function hearing(): { heard: string[]; listener: (message: string) => void } {
  const heard: string[] = [];
  return { heard, listener: (message) => void heard.push(message) };
}

export function describeInstanceBus(name: string, make: MakeInstanceBus): void {
  describe(`${name}: the InstanceBus contract`, () => {
    describeDelivery(make);
    describeStopping(make);
  });
}

function describeDelivery(make: MakeInstanceBus): void {
  it("delivers a message to the listeners of the instance it names, and to no other", async () => {
    const { sender, receiver } = await make();
    const a = hearing();
    const b = hearing();
    await receiver.listen("a", a.listener);
    await receiver.listen("b", b.listener);
    await sender.send("a", "1");
    await sender.send("b", "2");
    await sender.send("a", "3");
    await until(() => a.heard.length === 2 && b.heard.length === 1);
    await sender.send("b", "4");
    await until(() => b.heard.length === 2);
    expect(a.heard).toEqual(["1", "3"]);
    expect(b.heard).toEqual(["2", "4"]);
  });

  it("delivers a thousand messages from one sender in the order they were sent", async () => {
    const { sender, receiver } = await make();
    const { heard, listener } = hearing();
    await receiver.listen("ordered", listener);
    const sent = Array.from({ length: 1000 }, (_, n) => `message ${n}`);
    await Promise.all(sent.map((message) => sender.send("ordered", message)));
    await until(() => heard.length === sent.length);
    expect(heard).toEqual(sent);
  });

  it("hands each message to every listener of the instance, a function listening twice twice", async () => {
    const { sender, receiver } = await make();
    const first = hearing();
    const second = hearing();
    await Promise.all([receiver.listen("x", first.listener), receiver.listen("x", second.listener), receiver.listen("x", second.listener)]);
    await sender.send("x", "hello");
    await until(() => first.heard.length === 1 && second.heard.length === 2);
    expect(first.heard).toEqual(["hello"]);
    expect(second.heard).toEqual(["hello", "hello"]);
  });

  it("goes on telling the other listeners when one throws", async () => {
    const { sender, receiver } = await make();
    const { heard, listener } = hearing();
    await receiver.listen("x", () => {
      throw new Error("listener broke");
    });
    await receiver.listen("x", listener);
    await sender.send("x", "1");
    await sender.send("x", "2");
    await until(() => heard.length === 2);
    expect(heard).toEqual(["1", "2"]);
  });

  it("carries any text whole: empty, control characters, every plane of Unicode, a mebibyte", async () => {
    const { sender, receiver } = await make();
    const { heard, listener } = hearing();
    await receiver.listen("text ✓ {i}", listener);
    const texts = [
      "",
      '\u0000\r\n\t"\\',
      "héllo, 世界, 🎉, \u{10FFFF}",
      JSON.stringify({ jsonrpc: "2.0", id: 1, result: { text: "é🎉" } }),
      "x".repeat(1024 * 1024 - 7) + "🎉é✓",
    ];
    for (const text of texts) await sender.send("text ✓ {i}", text);
    await until(() => heard.length === texts.length);
    expect(heard.map((text) => text.length)).toEqual(texts.map((text) => text.length));
    expect(heard).toEqual(texts);
  });
}

function describeStopping(make: MakeInstanceBus): void {
  it("stops handing messages to a listener once its stop resolved, the others listening on", async () => {
    const { sender, receiver } = await make();
    const stopped = hearing();
    const kept = hearing();
    const stop = await receiver.listen("x", stopped.listener);
    const stopKept = await receiver.listen("x", kept.listener);
    await sender.send("x", "before");
    await until(() => stopped.heard.length === 1 && kept.heard.length === 1);
    await stop();
    await stop();
    await sender.send("x", "after");
    await until(() => kept.heard.length === 2);
    expect(stopped.heard).toEqual(["before"]);
    expect(kept.heard).toEqual(["before", "after"]);
    // The last listener gone, the next one hears only what is sent after it listens.
    await stopKept();
    await sender.send("x", "to nobody");
    const next = hearing();
    await receiver.listen("x", next.listener);
    await sender.send("x", "again");
    await until(() => next.heard.length === 1);
    expect(next.heard).toEqual(["again"]);
    expect(kept.heard).toEqual(["before", "after"]);
    // Stopping again, after others came, stops only what it stopped the first time.
    await stop();
    await stopKept();
    await sender.send("x", "still");
    await until(() => next.heard.length === 2);
    expect(next.heard).toEqual(["again", "still"]);
  });

  it("drops a message to an instance nobody listens for, without an error", async () => {
    const { sender, receiver } = await make();
    await expect(sender.send("nobody", "lost")).resolves.toBeUndefined();
    const { heard, listener } = hearing();
    await receiver.listen("nobody", listener);
    await sender.send("nobody", "heard");
    await until(() => heard.length === 1);
    expect(heard).toEqual(["heard"]);
  });
}
