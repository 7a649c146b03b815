import { describe, expect, it, vi } from "vitest";

import { InMemorySessionDirectory } from "./session-directory.js";
import { describeSessionDirectory, recordOf } from "./session-directory.test-helpers.js";

/** A directory on a clock the suite moves. */
function clocked(): { directory: InMemorySessionDirectory; wait: (ms: number) => Promise<void> } {
  let time = Date.UTC(2026, 6, 28, 12);
  const directory = new InMemorySessionDirectory({ now: () => time });
  return { directory, wait: (ms) => Promise.resolve(void (time += ms)) };
}

describeSessionDirectory("InMemorySessionDirectory", clocked, 1000);

describe("InMemorySessionDirectory", () => {
  it("counts the sessions that live, dropping those that expired", async () => {
    const { directory, wait } = clocked();
    await directory.create(recordOf("a"), 1000);
    await directory.create(recordOf("b"), 3000);
    expect(directory.size).toBe(2);
    await wait(1000);
    expect(directory.size).toBe(1);
    await directory.remove("b", 0);
    expect(directory.size).toBe(0);
  });

  it("reads Date.now when given no clock", async () => {
    const now = vi.spyOn(Date, "now").mockReturnValue(1_000_000);
    const directory = new InMemorySessionDirectory();
    await directory.create(recordOf("a"), 10);
    await directory.renewLease("i1", "t", 10);
    now.mockReturnValue(1_000_009);
    expect(await directory.get("a")).toEqual(recordOf("a"));
    expect(await directory.alive("i1")).toBe(true);
    now.mockReturnValue(1_000_010);
    expect(await directory.get("a")).toBeUndefined();
    expect(await directory.alive("i1")).toBe(false);
  });
});
