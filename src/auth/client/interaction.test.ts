// headlessInteraction's cookies: an authorization server such as oidc-provider keeps the state of
// one authorization request (its interaction, then its resume) in cookies set along the redirect
// chain, so the follower sends them back as a browser would, within that one interaction only.
import { describe, expect, it } from "vitest";
import { headlessInteraction, type RedirectFetch } from "./interaction.js";

const REDIRECT = "http://127.0.0.1:3000/callback";
const signal = new AbortController().signal;

/** A redirect chain: each URL answers 303 to the next with its Set-Cookie fields; what each request carried as `Cookie` is noted. */
function chain(hops: readonly (readonly [url: string, location: string, setCookies?: readonly string[]])[]) {
  const sent: (string | undefined)[] = [];
  const fetch: RedirectFetch = (url, init) => {
    sent.push(init.headers?.["cookie"]);
    const hop = hops.find(([from]) => from === url);
    const headers = new Headers({ location: hop?.[1] ?? "/nowhere" });
    for (const field of hop?.[2] ?? []) headers.append("set-cookie", field);
    return Promise.resolve({ status: 303, headers });
  };
  return { sent, follow: headlessInteraction(REDIRECT, fetch) };
}

describe("headlessInteraction keeps the interaction's cookies", () => {
  it("sends a cookie back to its origin under its Path (default: the setting URL's directory), as oidc-provider needs", async () => {
    const { sent, follow } = chain([
      [
        "https://as.test/oidc/auth?client_id=c",
        "/interaction/u1",
        [
          "_interaction=u1; path=/interaction/u1; httponly; samesite=lax",
          "_interaction_resume=u1; path=/oidc/auth/u1; httponly",
          "_site=s; Path=/",
        ],
      ],
      [
        "https://as.test/interaction/u1",
        "https://as.test/oidc/auth/u1",
        ["_session=abc; path=/oidc; expires=Fri, 01 Jan 2100 00:00:00 GMT", "_login=1"],
      ],
      ["https://as.test/oidc/auth/u1", "https://as.test/oidcx/other", ["_interaction_resume=; path=/oidc/auth/u1; max-age=0"]],
      ["https://as.test/oidcx/other", "https://as.test/interaction/more"],
      ["https://as.test/interaction/more", `${REDIRECT}?code=c&state=s`],
    ]);
    await expect(follow("https://as.test/oidc/auth?client_id=c", signal)).resolves.toBe(`${REDIRECT}?code=c&state=s`);
    expect(sent).toEqual([
      undefined,
      "_interaction=u1; _site=s",
      "_interaction_resume=u1; _site=s; _session=abc",
      "_site=s",
      "_site=s; _login=1",
    ]);
  });

  it("sends none to another origin, and none from one interaction to the next", async () => {
    const { sent, follow } = chain([
      ["https://as.test/authorize", "https://login.test/", ["a=1; Path=/"]],
      ["https://login.test/", "https://as.test/done", ["b=2; Path=/"]],
      ["https://as.test/done", `${REDIRECT}?code=c`],
    ]);
    await follow("https://as.test/authorize", signal);
    await follow("https://as.test/authorize", signal);
    expect(sent).toEqual([undefined, undefined, "a=1", undefined, undefined, "a=1"]);
  });

  it("drops a cookie on Max-Age ≤ 0 or a past Expires (Max-Age first), and skips fields without a name", async () => {
    const { sent, follow } = chain([
      [
        "https://as.test/a",
        "/b",
        [
          "keep=1; Max-Age=60; Expires=Thu, 01 Jan 1970 00:00:00 GMT",
          "gone=1; Max-Age=0; Expires=Fri, 01 Jan 2100 00:00:00 GMT",
          "past=1; Expires=Thu, 01 Jan 1970 00:00:00 GMT",
          "odd=1; Max-Age=soon; Expires=whenever; Path=relative; Secure",
          "noname",
          "=anonymous",
        ],
      ],
      ["https://as.test/b", "/c", ["keep=2; Max-Age=-1", "later=1"]],
      ["https://as.test/c", `${REDIRECT}?code=c`],
    ]);
    await follow("https://as.test/a", signal);
    expect(sent).toEqual([undefined, "keep=1; odd=1", "odd=1; later=1"]);
  });

  it("keeps none with a fetch whose headers cannot list Set-Cookie fields", async () => {
    const sent: (string | undefined)[] = [];
    const fetch: RedirectFetch = (url, init) => {
      sent.push(init.headers?.["cookie"]);
      return Promise.resolve({
        status: 302,
        headers: { get: (name: string) => (name === "location" ? (url.endsWith("/a") ? "/b" : REDIRECT) : "a=1") },
      });
    };
    await expect(headlessInteraction(REDIRECT, fetch)("https://as.test/a", signal)).resolves.toBe(REDIRECT);
    expect(sent).toEqual([undefined, undefined]);
  });
});
