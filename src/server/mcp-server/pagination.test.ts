import { describe, expect, it } from "vitest";
import { paginate } from "./pagination.js";

const items = ["a", "b", "c", "d"];

describe("paginate", () => {
  it("gives no cursor on a page that ends exactly at the end of the list", () => {
    const first = paginate(items, undefined, 2);
    expect(first).toEqual({ items: ["a", "b"], nextCursor: expect.any(String) });
    expect(paginate(items, first.nextCursor, 2)).toStrictEqual({ items: ["c", "d"] });
    expect(paginate(items, undefined, 4)).toStrictEqual({ items });
  });

  it("refuses a cursor without its prefix, even when what follows would be an offset", () => {
    const [, digits] = (paginate(items, undefined, 1).nextCursor as string).split(".");
    expect(() => paginate(items, `x1.${digits}`, 1)).toThrow(
      expect.objectContaining({ code: -32602, message: `Invalid cursor: "x1.${digits}"` }),
    );
  });

  it("quotes at most 64 characters of a refused cursor", () => {
    const long = `c1.${"!".repeat(100)}`;
    expect(() => paginate(items, long, 1)).toThrow(
      expect.objectContaining({ message: `Invalid cursor: ${JSON.stringify(long.slice(0, 64))}` }),
    );
  });
});
