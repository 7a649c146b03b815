import { describe, expect, it, vi } from "vitest";
import { EventBus, type ListenerErrorHandler, type MCPEventMap } from "./events.js";

interface TestEvents {
  ping: { n: number };
  pong: string;
}

type PingListener = (payload: TestEvents["ping"]) => void;
type PongListener = (payload: TestEvents["pong"]) => void;

const opened: MCPEventMap["connection:opened"] = { side: "server", dispatcherId: "d-1" };

describe("EventBus.on / emit", () => {
  it("calls every listener of the type, in registration order, with the payload", () => {
    const bus = new EventBus<MCPEventMap>();
    const calls: string[] = [];
    bus.on("connection:opened", (payload) => calls.push(`a:${payload.dispatcherId}`));
    bus.on("connection:opened", (payload) => calls.push(`b:${payload.side}`));
    bus.on("connection:closed", () => calls.push("closed"));

    bus.emit("connection:opened", opened);

    expect(calls).toEqual(["a:d-1", "b:server"]);
  });

  it("does nothing when the type has no listener", () => {
    const bus = new EventBus<TestEvents>();
    expect(() => bus.emit("pong", "x")).not.toThrow();
  });

  it("calls a listener registered twice twice", () => {
    const bus = new EventBus<TestEvents>();
    const listener = vi.fn<PongListener>();
    bus.on("pong", listener);
    bus.on("pong", listener);

    bus.emit("pong", "x");

    expect(listener).toHaveBeenCalledTimes(2);
  });

  it("stops calling a listener after its unsubscribe function runs, and tolerates a second call", () => {
    const bus = new EventBus<TestEvents>();
    const kept = vi.fn<PongListener>();
    const dropped = vi.fn<PongListener>();
    bus.on("pong", kept);
    const unsubscribe = bus.on("pong", dropped);

    unsubscribe();
    unsubscribe();
    bus.emit("pong", "x");

    expect(dropped).not.toHaveBeenCalled();
    expect(kept).toHaveBeenCalledWith("x");
  });

  it("removes only the registration its unsubscribe function belongs to", () => {
    const bus = new EventBus<TestEvents>();
    const listener = vi.fn<PongListener>();
    const first = bus.on("pong", listener);
    bus.on("pong", listener);

    first();
    bus.emit("pong", "x");

    expect(listener).toHaveBeenCalledTimes(1);
  });
});

describe("EventBus with MCPEventMap", () => {
  it("delivers each MCP event payload to the listeners of its type", () => {
    const bus = new EventBus<MCPEventMap>();
    const completed: MCPEventMap["request:completed"][] = [];
    const closed: MCPEventMap["connection:closed"][] = [];
    bus.on("request:completed", (payload) => completed.push(payload));
    bus.on("connection:closed", (payload) => closed.push(payload));

    bus.emit("request:completed", { side: "client", method: "tools/call", id: 3, durationMs: 12.5, outcome: "cancelled" });
    bus.emit("connection:closed", { side: "server", dispatcherId: "d-1", reason: undefined });

    expect(completed).toEqual([{ side: "client", method: "tools/call", id: 3, durationMs: 12.5, outcome: "cancelled" }]);
    expect(closed).toEqual([{ side: "server", dispatcherId: "d-1", reason: undefined }]);
  });
});

describe("EventBus.off", () => {
  it("removes every registration of the listener for that type only", () => {
    const bus = new EventBus<TestEvents>();
    const listener = vi.fn<PongListener>();
    const other = vi.fn<PongListener>();
    bus.on("pong", listener);
    bus.once("pong", listener);
    bus.on("pong", other);

    bus.off("pong", listener);
    bus.emit("pong", "x");

    expect(listener).not.toHaveBeenCalled();
    expect(other).toHaveBeenCalledOnce();
  });

  it("leaves the bus unchanged for an unknown listener or type", () => {
    const bus = new EventBus<TestEvents>();
    const listener = vi.fn<PongListener>();
    bus.on("pong", listener);

    bus.off("pong", vi.fn<PongListener>());
    bus.off("ping", vi.fn<PingListener>());
    bus.emit("pong", "x");

    expect(listener).toHaveBeenCalledOnce();
    expect(bus.hasListeners("ping")).toBe(false);
  });
});

describe("EventBus.once", () => {
  it("calls the listener on the next emit only", () => {
    const bus = new EventBus<TestEvents>();
    const listener = vi.fn<PongListener>();
    bus.once("pong", listener);

    bus.emit("pong", "first");
    bus.emit("pong", "second");

    expect(listener).toHaveBeenCalledOnce();
    expect(listener).toHaveBeenCalledWith("first");
    expect(bus.hasListeners("pong")).toBe(false);
  });

  it("can be cancelled before it fires", () => {
    const bus = new EventBus<TestEvents>();
    const listener = vi.fn<PongListener>();
    const unsubscribe = bus.once("pong", listener);

    unsubscribe();
    bus.emit("pong", "x");

    expect(listener).not.toHaveBeenCalled();
  });

  it("fires once even when an earlier listener re-emits the same type", () => {
    const bus = new EventBus<TestEvents>();
    const seen: string[] = [];
    bus.on("pong", (payload) => {
      if (payload === "outer") bus.emit("pong", "inner");
    });
    bus.once("pong", (payload) => seen.push(payload));

    bus.emit("pong", "outer");

    expect(seen).toEqual(["inner"]);
  });
});

describe("EventBus.hasListeners", () => {
  it("follows registrations as they come and go", () => {
    const bus = new EventBus<TestEvents>();
    expect(bus.hasListeners("ping")).toBe(false);

    const unsubscribe = bus.on("ping", vi.fn<PingListener>());
    expect(bus.hasListeners("ping")).toBe(true);
    expect(bus.hasListeners("pong")).toBe(false);

    unsubscribe();
    expect(bus.hasListeners("ping")).toBe(false);
  });
});

describe("EventBus changes during an emit", () => {
  it("does not call a listener added while the emit runs", () => {
    const bus = new EventBus<TestEvents>();
    const late = vi.fn<PingListener>();
    bus.on("ping", () => bus.on("ping", late));

    bus.emit("ping", { n: 1 });
    expect(late).not.toHaveBeenCalled();

    bus.emit("ping", { n: 2 });
    expect(late).toHaveBeenCalledWith({ n: 2 });
  });

  it("still calls a listener removed while the emit runs, but not on the next emit", () => {
    const bus = new EventBus<TestEvents>();
    const removed = vi.fn<PingListener>();
    bus.on("ping", () => bus.off("ping", removed));
    bus.on("ping", removed);

    bus.emit("ping", { n: 1 });
    bus.emit("ping", { n: 2 });

    expect(removed).toHaveBeenCalledOnce();
    expect(removed).toHaveBeenCalledWith({ n: 1 });
  });
});

describe("EventBus listener errors", () => {
  it("hands a listener's error to onListenerError and keeps calling the others", () => {
    const onListenerError = vi.fn<ListenerErrorHandler<TestEvents>>();
    const bus = new EventBus<TestEvents>({ onListenerError });
    const boom = new Error("boom");
    const after = vi.fn<PongListener>();
    bus.on("pong", () => {
      throw boom;
    });
    bus.on("pong", after);

    expect(() => bus.emit("pong", "x")).not.toThrow();

    expect(onListenerError).toHaveBeenCalledWith(boom, "pong");
    expect(after).toHaveBeenCalledWith("x");
  });

  it("re-throws a listener's error in a microtask when no handler is given", () => {
    const scheduled: (() => void)[] = [];
    vi.spyOn(globalThis, "queueMicrotask").mockImplementation((callback) => scheduled.push(callback));
    const bus = new EventBus<TestEvents>();
    const boom = new Error("boom");
    const after = vi.fn<PongListener>();
    bus.on("pong", () => {
      throw boom;
    });
    bus.on("pong", after);

    expect(() => bus.emit("pong", "x")).not.toThrow();

    expect(after).toHaveBeenCalledOnce();
    expect(scheduled).toHaveLength(1);
    expect(() => scheduled[0]?.()).toThrow(boom);
  });

  it("re-throws in a microtask what onListenerError itself throws", () => {
    const scheduled: (() => void)[] = [];
    vi.spyOn(globalThis, "queueMicrotask").mockImplementation((callback) => scheduled.push(callback));
    const handlerFailure = new Error("handler failed");
    const bus = new EventBus<TestEvents>({
      onListenerError: () => {
        throw handlerFailure;
      },
    });
    const after = vi.fn<PongListener>();
    bus.on("pong", () => {
      throw new Error("boom");
    });
    bus.on("pong", after);

    expect(() => bus.emit("pong", "x")).not.toThrow();

    expect(after).toHaveBeenCalledOnce();
    expect(() => scheduled[0]?.()).toThrow(handlerFailure);
  });
});
