import { describe, expect, it } from "vitest";

import { taskOwner } from "./task-owner.js";

describe("taskOwner", () => {
  it("keys a principal by its SHA-256 in base64url: the same for the same principal, never its text", async () => {
    const principal = '{"issuer":"https://auth.example","subject":"alice","token":"secret-token"}';
    const owner = await taskOwner(principal, "session-1");
    expect(owner).toMatch(/^p:[\w-]{43}$/);
    expect(await taskOwner(principal, "session-2")).toBe(owner);
    expect(await taskOwner(principal.replace("alice", "bob"), "session-1")).not.toBe(owner);
    for (const part of ["alice", "secret", "token", "auth.example"]) expect(owner).not.toContain(part);
  });

  it("hashes the empty principal too: it is a principal, not its absence", async () => {
    // SHA-256 of no bytes.
    expect(await taskOwner("", undefined)).toBe("p:47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU");
  });

  it("keys a request without a principal by its session, else as anonymous", async () => {
    expect(await taskOwner(undefined, "6f1c")).toBe("s:6f1c");
    expect(await taskOwner(undefined, undefined)).toBe("anon");
  });
});
