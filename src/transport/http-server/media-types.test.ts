import { describe, expect, it } from "vitest";
import { accepts, isJsonContentType } from "./media-types.js";

describe("accepts: q=0 refuses a media range, any other q admits it", () => {
  it.each([
    "application/json;q=0",
    "application/json; q=0",
    "application/json ; Q = 0 ",
    "application/json;q=0.000",
    "application/json;q=0.",
    "application/json;charset=utf-8;q=0",
  ])("%s refuses application/json", (range) => {
    expect(accepts(`${range}, text/event-stream`, "application/json")).toBe(false);
    expect(accepts(`${range}, text/event-stream`, "text/event-stream")).toBe(true);
  });

  it.each([
    "application/json;q=0.5",
    "application/json; q=0.001",
    "application/json;q=1",
    "application/json;seq=0",
    "application/json; x-q=0",
    "application/json;q=0 5",
  ])("%s admits application/json", (range) => {
    expect(accepts(range, "application/json")).toBe(true);
  });

  it("leaves out only the range that says q=0, wildcards included", () => {
    expect(accepts("text/*;q=0, application/json", "text/event-stream")).toBe(false);
    expect(accepts("text/*;q=0, application/json", "application/json")).toBe(true);
    expect(accepts("*/*;q=0", "application/json")).toBe(false);
  });
});

describe("accepts: which ranges admit a type", () => {
  it("matches the type exactly, by type/* or by */*, case-insensitively, and nothing else", () => {
    expect(accepts("Application/JSON", "application/json")).toBe(true);
    expect(accepts("application/*", "application/json")).toBe(true);
    expect(accepts("*/*", "text/event-stream")).toBe(true);
    expect(accepts("application/jsonx, text/*", "application/json")).toBe(false);
    expect(accepts("", "application/json")).toBe(false);
  });

  it("admits anything without a header, and answers each header by its own ranges when headers alternate", () => {
    expect(accepts(null, "text/event-stream")).toBe(true);
    const headers = ["application/json", "text/event-stream", "application/json"];
    expect(headers.map((header) => [accepts(header, "application/json"), accepts(header, "text/event-stream")])).toEqual([
      [true, false],
      [false, true],
      [true, false],
    ]);
  });
});

describe("isJsonContentType", () => {
  it.each([
    ["application/json", true],
    [" Application/JSON ; charset=utf-8", true],
    ["application/json;", true],
    ["application/jsonx", false],
    ["text/plain; application/json", false],
    [";application/json", false],
    [null, false],
  ] as const)("%s → %s", (contentType, json) => {
    expect(isJsonContentType(contentType)).toBe(json);
  });
});
