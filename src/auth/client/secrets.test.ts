// No authorization code, PKCE verifier, state, token or client secret may reach an error: every
// failure path below is driven with such values in reach, and each error's message and data are
// searched for them.
import { describe, expect, it } from "vitest";
import type { MCPError } from "../../error-codes/mcp-error.js";
import { FakeFetch, asMetadata, prm, rejectionOf } from "./auth-client.test-helpers.js";
import { buildAuthorizationUrl, verifyAuthorizationCallback } from "./authorization-request.js";
import { discoverAuthorizationServer, discoverLegacyAuthorizationServer } from "./authorization-server.js";
import { pkceChallenge } from "./pkce.js";
import { discoverProtectedResource } from "./protected-resource.js";
import { secureUrl } from "./url-safety.js";
import { formatChallenge } from "./www-authenticate.js";

const CODE = "SECRET-CODE-8f3a";
const STATE = "SECRET-STATE-0123456789abcdefghijklmnopqrstu";
const VERIFIER = "SECRET-VERIFIER-0123456789abcdefghijklmnopqrst";
const TOKEN = "SECRET-TOKEN-c0ffee";
const CLIENT_SECRET = "SECRET-CLIENT-hunter2";
const SECRETS = [CODE, STATE, VERIFIER, TOKEN, CLIENT_SECRET, "SECRET-"];

const AS = "https://as.example.com";
const RS = "https://mcp.example.com";
const SERVER = `${RS}/mcp`;
const expected = { state: STATE, issuer: AS, issParameterSupported: true };

/** The secrets an error shows in its message or data (none, when all is right). */
function secretsIn(error: MCPError): string[] {
  const shown = `${error.message} ${JSON.stringify(error.data)}`;
  return SECRETS.filter((secret) => shown.includes(secret));
}

function callback(params: Record<string, string>): string {
  const url = new URL("http://localhost:8765/callback");
  for (const [name, value] of Object.entries(params)) url.searchParams.append(name, value);
  return url.toString();
}

describe("no secret in any error", () => {
  it.each([
    ["a forged state", { code: CODE, state: `${STATE}x`, iss: AS }],
    ["no state", { code: CODE, iss: AS }],
    ["a missing iss", { code: CODE, state: STATE }],
    ["a wrong iss", { code: CODE, state: STATE, iss: "https://evil.example.com" }],
    ["a refusal", { error: "access_denied", error_description: "denied", state: STATE, iss: AS }],
    ["no code", { state: STATE, iss: AS }],
  ])("verifyAuthorizationCallback, %s", async (_name, params) => {
    expect(secretsIn(await rejectionOf(() => verifyAuthorizationCallback(callback(params), expected)))).toEqual([]);
  });

  it.each(["code", "state"])("verifyAuthorizationCallback, %s twice", async (name) => {
    const url = new URL(callback({ code: CODE, state: STATE, iss: AS }));
    url.searchParams.append(name, name === "code" ? CODE : STATE);
    expect(secretsIn(await rejectionOf(() => verifyAuthorizationCallback(url, expected)))).toEqual([]);
  });

  it("buildAuthorizationUrl with an insecure endpoint or redirect URI", async () => {
    const request = {
      authorizationEndpoint: `${AS}/authorize`,
      clientId: "c",
      redirectUri: "http://localhost:1/cb",
      codeChallenge: "x",
      state: STATE,
      resource: SERVER,
    };
    expect(
      secretsIn(
        await rejectionOf(() =>
          buildAuthorizationUrl({ ...request, authorizationEndpoint: `http://as.example.com/authorize?client_secret=${CLIENT_SECRET}` }),
        ),
      ),
    ).toEqual([]);
    expect(
      secretsIn(await rejectionOf(() => buildAuthorizationUrl({ ...request, redirectUri: `http://app.example.com/cb?state=${STATE}` }))),
    ).toEqual([]);
  });

  it("pkceChallenge with a malformed verifier", async () => {
    expect(secretsIn(await rejectionOf(pkceChallenge(`${VERIFIER}!`)))).toEqual([]);
    expect(secretsIn(await rejectionOf(pkceChallenge(VERIFIER.slice(0, 20))))).toEqual([]);
  });

  it("secureUrl with secrets in the query, or a secret that is not a URL", async () => {
    expect(secretsIn(await rejectionOf(() => secureUrl(`http://as.example.com/token?access_token=${TOKEN}`, "token endpoint")))).toEqual(
      [],
    );
    expect(secretsIn(await rejectionOf(() => secureUrl(`https://as.example.com/token?code=${CODE}#${STATE}`, "token endpoint")))).toEqual(
      [],
    );
    expect(secretsIn(await rejectionOf(() => secureUrl(CLIENT_SECRET, "token endpoint")))).toEqual([]);
  });

  it("formatChallenge with a secret in a value that cannot be sent", async () => {
    expect(secretsIn(await rejectionOf(() => formatChallenge({ scheme: "Bearer", params: { error: `${TOKEN}\r\n` } })))).toEqual([]);
  });

  it("discovery whose URLs carry secrets in their query", async () => {
    const query = `?access_token=${TOKEN}&code=${CODE}`;
    const metadataUrl = `${RS}/prm.json${query}`;
    const server = new FakeFetch()
      .on(metadataUrl, () => new Response(null, { status: 503 }))
      .on(`${RS}/gone.json${query}`, () => Promise.reject(new TypeError("Failed to fetch")))
      .on(`${RS}/down.json${query}`, () => Promise.reject(new Error("socket hang up")));
    for (const path of ["/prm.json", "/gone.json", "/down.json", "/missing.json"]) {
      expect(
        secretsIn(
          await rejectionOf(
            discoverProtectedResource(`${SERVER}${query}`, { fetch: server.fetch, resourceMetadataUrl: `${RS}${path}${query}` }),
          ),
        ),
      ).toEqual([]);
    }
    expect(secretsIn(await rejectionOf(discoverProtectedResource(`${SERVER}${query}`, { fetch: server.fetch })))).toEqual([]);
    expect(secretsIn(await rejectionOf(discoverProtectedResource(`http://mcp.example.com/mcp${query}`, { fetch: server.fetch })))).toEqual(
      [],
    );
    expect(
      secretsIn(await rejectionOf(discoverLegacyAuthorizationServer(`http://mcp.example.com/mcp${query}`, { fetch: server.fetch }))),
    ).toEqual([]);
    expect(secretsIn(await rejectionOf(discoverAuthorizationServer(`${AS}/t${query}`, { fetch: server.fetch })))).toEqual([]);
  });

  it("discovery of documents that fail validation", async () => {
    const server = new FakeFetch()
      .json(`${RS}/.well-known/oauth-protected-resource/mcp`, prm("https://evil.example.com/mcp", AS))
      .json(`${AS}/.well-known/oauth-authorization-server`, asMetadata("https://attacker.example.com"))
      .json(
        `${AS}/.well-known/oauth-authorization-server/t2`,
        asMetadata(`${AS}/t2`, `${AS}/t2`, { token_endpoint: `http://as.example.com/token?client_secret=${CLIENT_SECRET}` }),
      );
    expect(secretsIn(await rejectionOf(discoverProtectedResource(SERVER, { fetch: server.fetch })))).toEqual([]);
    expect(secretsIn(await rejectionOf(discoverAuthorizationServer(AS, { fetch: server.fetch })))).toEqual([]);
    expect(secretsIn(await rejectionOf(discoverAuthorizationServer(`${AS}/t2`, { fetch: server.fetch })))).toEqual([]);
  });
});
