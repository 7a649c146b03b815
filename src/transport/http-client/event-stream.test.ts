import { describe, expect, it, vi } from "vitest";
import { pump } from "./event-stream.js";
import { liveStream } from "./http-client.test-helpers.js";
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
});
