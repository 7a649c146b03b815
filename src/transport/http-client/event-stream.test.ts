import { getEventListeners } from "node:events";
import { describe, expect, it, vi } from "vitest";
import { pump } from "./event-stream.js";
import { liveStream, streamOf } from "./http-client.test-helpers.js";
import { SseParser } from "./sse-parser.js";

describe("pump", () => {
  it("reads nothing from, and cancels, a stream whose reader was already given up on", async () => {
    const live = liveStream();
    live.push("data: never delivered\n\n");
    const onItem = vi.fn();
    await expect(pump(live.stream, new SseParser(), AbortSignal.abort(), onItem, () => undefined)).resolves.toBeUndefined();
    expect(onItem).not.toHaveBeenCalled();
    expect(live.cancelled).toBe(true);
  });

  it("leaves no abort listener behind on a signal that outlives the stream (the transport's closing signal)", async () => {
    const closing = new AbortController();
    const onItem = vi.fn();
    await expect(pump(streamOf(["data: one\n\n"]), new SseParser(), closing.signal, onItem, () => undefined)).resolves.toBeUndefined();
    expect(onItem).toHaveBeenCalledTimes(1);
    expect(getEventListeners(closing.signal, "abort")).toEqual([]);
  });
});
