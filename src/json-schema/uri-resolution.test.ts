import { describe, expect, it } from "vitest";

import { resolveUri, splitFragment } from "./uri-resolution.js";

// The normal and abnormal examples of RFC 3986 section 5.4, against its base URI.
const BASE = "http://a/b/c/d;p?q";

describe("resolveUri", () => {
  it.each([
    ["g:h", "g:h"],
    ["g", "http://a/b/c/g"],
    ["./g", "http://a/b/c/g"],
    ["g/", "http://a/b/c/g/"],
    ["/g", "http://a/g"],
    ["//g", "http://g"],
    ["?y", "http://a/b/c/d;p?y"],
    ["g?y", "http://a/b/c/g?y"],
    ["#s", "http://a/b/c/d;p?q#s"],
    ["g#s", "http://a/b/c/g#s"],
    ["", "http://a/b/c/d;p?q"],
    [".", "http://a/b/c/"],
    ["./", "http://a/b/c/"],
    ["..", "http://a/b/"],
    ["../g", "http://a/b/g"],
    ["../..", "http://a/"],
    ["../../g", "http://a/g"],
    ["../../../g", "http://a/g"],
    ["/./g", "http://a/g"],
    ["/../g", "http://a/g"],
    ["g.", "http://a/b/c/g."],
    ["g..", "http://a/b/c/g.."],
    ["./../g", "http://a/b/g"],
    ["g/./h", "http://a/b/c/g/h"],
    ["g/../h", "http://a/b/c/h"],
    ["http:g", "http:g"],
    ["//g/./x/../y", "http://g/y"],
  ])("resolves %j to %j", (reference, expected) => {
    expect(resolveUri(reference, BASE)).toBe(expected);
  });

  it("merges against a base with an authority and an empty path", () => {
    expect(resolveUri("g", "http://a")).toBe("http://a/g");
  });

  it("keeps a URN base for fragment-only references", () => {
    expect(resolveUri("#/$defs/a", "urn:uuid:deadbeef")).toBe("urn:uuid:deadbeef#/$defs/a");
  });
});

describe("splitFragment", () => {
  it("splits at the first #", () => {
    expect(splitFragment("a.json#/x#y")).toEqual(["a.json", "/x#y"]);
    expect(splitFragment("a.json")).toEqual(["a.json", ""]);
  });
});
