import { describe, expect, it } from "vitest";

import { InMemoryInstanceBus } from "./instance-bus.js";
import { describeInstanceBus } from "./instance-bus.test-helpers.js";

describeInstanceBus("InMemoryInstanceBus", () => {
  const bus = new InMemoryInstanceBus();
  return { sender: bus, receiver: bus };
});

describe("InMemoryInstanceBus", () => {
  it("delivers on a later turn, never during send", async () => {
    const bus = new InMemoryInstanceBus();
    const heard: string[] = [];
    await bus.listen("x", (message) => heard.push(message));
    const sending = bus.send("x", "later");
    expect(heard).toEqual([]);
    await sending;
    await Promise.resolve();
    expect(heard).toEqual(["later"]);
  });

  it("hands a message to the listeners there were when it was sent, not to one that came after", async () => {
    const bus = new InMemoryInstanceBus();
    const heard: string[] = [];
    await bus.listen("x", (message) => heard.push(`first ${message}`));
    const sending = bus.send("x", "m");
    const later = bus.listen("x", (message) => heard.push(`second ${message}`));
    await Promise.all([sending, later]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(heard).toEqual(["first m"]);
  });
});
