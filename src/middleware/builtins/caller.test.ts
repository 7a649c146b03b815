// The caller's key the server's built-in layers keep things per: a token principal's subject, else
// its client, else the principal as JSON; none for an anonymous request. Keys of different kinds
// never meet, whatever a subject holds.
import { describe, expect, it } from "vitest";
import { callerKey } from "./caller.js";

describe("callerKey", () => {
  it("is the subject, else the client, else the principal as JSON", () => {
    expect(callerKey({ principal: { subject: "ada", clientId: "app" } })).toBe("sub ada");
    expect(callerKey({ principal: { subject: undefined, clientId: "app" } })).toBe("client app");
    expect(callerKey({ principal: { user: 7 } })).toBe('principal {"user":7}');
    expect(callerKey({ principal: "api-key-owner" })).toBe('principal "api-key-owner"');
    expect(callerKey({ principal: 10n })).toBe("principal 10");
  });

  it("is undefined without a principal", () => {
    expect(callerKey({ principal: undefined })).toBeUndefined();
    expect(callerKey({ principal: null })).toBeUndefined();
  });

  it("keeps a subject that looks like a client apart from that client", () => {
    expect(callerKey({ principal: { subject: "client app" } })).not.toBe(callerKey({ principal: { clientId: "app" } }));
  });
});
