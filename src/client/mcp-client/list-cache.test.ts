import { describe, expect, it } from "vitest";
import { ListCache } from "./list-cache.js";

interface Pending {
  resolve(items: string[]): void;
  reject(error: Error): void;
}

function controlledCache(): { cache: ListCache<string>; loads: Pending[] } {
  const loads: Pending[] = [];
  const cache = new ListCache<string>(() => new Promise((resolve, reject) => loads.push({ resolve, reject })));
  return { cache, loads };
}

describe("ListCache", () => {
  it("shares one load until invalidated", async () => {
    const { cache, loads } = controlledCache();
    const first = cache.get();
    expect(cache.get()).toBe(first);
    loads[0]?.resolve(["a"]);
    await expect(first).resolves.toEqual(["a"]);
    expect(cache.get()).toBe(first);
    cache.invalidate();
    const second = cache.get();
    expect(second).not.toBe(first);
    expect(loads).toHaveLength(2);
  });

  it("forgets a failed load, but not a newer one started after an invalidate", async () => {
    const { cache, loads } = controlledCache();
    const overtaken = cache.get();
    cache.invalidate();
    const current = cache.get();
    loads[0]?.reject(new Error("old listing failed"));
    await expect(overtaken).rejects.toThrow("old listing failed");
    expect(cache.get()).toBe(current);
    loads[1]?.reject(new Error("listing failed"));
    await expect(current).rejects.toThrow("listing failed");
    const retry = cache.get();
    expect(retry).not.toBe(current);
    expect(loads).toHaveLength(3);
  });
});
