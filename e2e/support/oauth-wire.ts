// What an e2e authorization flow put on the wire, recorded where the host can see it: the
// Authorizer's own requests (metadata, registration, token endpoint) through its `fetch` option, the
// user's part through its `interact`, and the bearer tokens sent to the MCP server through the
// transport's fetch. The tests read the flow's values (codes, verifiers, tokens, secrets) from here.
import { createHash } from "node:crypto";
import {
  Authorizer,
  headlessInteraction,
  InMemoryOAuthStore,
  MCPClient,
  StreamableHttpTransport,
  type AuthorizerOptions,
  type FetchLike,
  type MCPClientOptions,
  type StreamableHttpTransportOptions,
} from "../../src/index.js";

/** Where the headless interaction stops; never contacted. */
export const REDIRECT_URI = "http://127.0.0.1:53682/callback";

export interface Exchange {
  readonly url: string;
  readonly method: string;
  /** The request's form or JSON body ("" for none). */
  readonly body: string;
  readonly authorization: string | undefined;
  /** The request's DPoP proof (RFC 9449), if it had one. */
  readonly dpop: string | undefined;
  readonly status: number;
  /** The answer's text. */
  readonly answer: string;
  /** The answer's `DPoP-Nonce` header, if it had one. */
  readonly dpopNonce: string | undefined;
}

/** One token endpoint request: its form parameters, its JSON answer. */
export interface TokenExchange {
  readonly params: URLSearchParams;
  readonly answer: Record<string, unknown>;
  readonly status: number;
  readonly authorization: string | undefined;
  readonly dpop: string | undefined;
  readonly dpopNonce: string | undefined;
}

export class Wire {
  readonly exchanges: Exchange[] = [];
  /** Each authorization: the URL the user was sent to, and the URL they came back to. */
  readonly visits: { readonly authorizationUrl: string; readonly callback: string }[] = [];
  /** Every `Authorization` header sent to the MCP server. */
  readonly bearers: string[] = [];
  /** Awaited before each token endpoint request (a test holds a refresh with it). */
  beforeToken: (() => Promise<void>) | undefined;
  /** Called as each request to the MCP server enters the Authorizer. */
  onMcpRequest: (() => void) | undefined;

  /** The Authorizer's fetch: the platform's, recorded. */
  readonly fetch: FetchLike = async (url, init) => {
    if (url.endsWith("/token")) await this.beforeToken?.();
    const response = await fetch(url, init);
    const { authorization, dpop } = init.headers;
    this.exchanges.push({
      url,
      method: init.method,
      body: init.body ?? "",
      authorization,
      dpop,
      status: response.status,
      answer: await response.clone().text(),
      dpopNonce: response.headers.get("dpop-nonce") ?? undefined,
    });
    return response;
  };

  /** The token endpoint requests of one grant type, with their form parameters and JSON answers. */
  tokenRequests(grantType: string): TokenExchange[] {
    return this.exchanges
      .filter((exchange) => exchange.url.endsWith("/token") && new URLSearchParams(exchange.body).get("grant_type") === grantType)
      .map(({ body, answer, status, authorization, dpop, dpopNonce }) => ({
        params: new URLSearchParams(body),
        answer: JSON.parse(answer) as Record<string, unknown>,
        status,
        authorization,
        dpop,
        dpopNonce,
      }));
  }
}

/** An Authorizer for `REDIRECT_URI` with a headless user, a memory store, and everything recorded on `wire`. */
export function hostAuthorizer(
  wire: Wire,
  options: Partial<AuthorizerOptions> = {},
): { readonly authorizer: Authorizer; readonly store: InMemoryOAuthStore } {
  const store = new InMemoryOAuthStore();
  const user = headlessInteraction(REDIRECT_URI);
  const authorizer = new Authorizer({
    client: { metadata: { client_name: "oidc-e2e host", redirect_uris: [REDIRECT_URI] } },
    redirectUri: REDIRECT_URI,
    interact: async (authorizationUrl, signal) => {
      const callback = await user(authorizationUrl, signal);
      wire.visits.push({ authorizationUrl, callback });
      return callback;
    },
    store,
    fetch: wire.fetch,
    ...options,
  });
  return { authorizer, store };
}

/** An MCPClient (era "auto") connected to `url` over Streamable HTTP, its requests authorized by `authorizer`. */
export async function authorizedClient(
  url: string,
  authorizer: Authorizer,
  wire: Wire,
  defer: (cleanup: () => Promise<void>) => void,
  options: { readonly client?: MCPClientOptions; readonly transport?: StreamableHttpTransportOptions } = {},
): Promise<MCPClient> {
  const authorized = authorizer.wrap((target, init) => {
    wire.bearers.push(init.headers["authorization"] ?? "");
    return fetch(target, init);
  });
  const fetchImpl: FetchLike = (target, init) => {
    wire.onMcpRequest?.();
    return authorized(target, init);
  };
  const client = new MCPClient({ name: "oidc-e2e", version: "1.0.0" }, { telemetry: null, ...options.client });
  defer(() => client.close());
  await client.connect(new StreamableHttpTransport(url, { ...options.transport, fetchImpl }));
  return client;
}

/** A compact JWT's header and payload. */
export function decodeJwt(token: string): { readonly header: Record<string, unknown>; readonly payload: Record<string, unknown> } {
  const [header = "", payload = ""] = token.split(".");
  return {
    header: JSON.parse(Buffer.from(header, "base64url").toString()) as Record<string, unknown>,
    payload: JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<string, unknown>,
  };
}

/** RFC 7636 S256. */
export function s256(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}

/** A tools/call of the stateless era, as our client sends it, with `token` as its bearer. */
export function rawToolCall(url: string, name: string, token: string): Promise<Response> {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
  };
  return fetch(url, {
    method: "POST",
    headers: {
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": name,
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, _meta: meta } }),
    signal: AbortSignal.timeout(5_000),
  });
}

/** An access token straight from the token endpoint, by client credentials (HTTP Basic), for `resource`. */
export async function clientCredentialsToken(
  tokenEndpoint: string,
  client: { readonly clientId: string; readonly clientSecret: string },
  resource: string,
  scope = "mcp:read",
): Promise<string> {
  const response = await fetch(tokenEndpoint, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${btoa(`${client.clientId}:${client.clientSecret}`)}`,
    },
    body: new URLSearchParams({ grant_type: "client_credentials", resource, scope }).toString(),
    signal: AbortSignal.timeout(5_000),
  });
  const answer = (await response.json()) as { access_token?: string };
  if (typeof answer.access_token !== "string") throw new Error(`no access token: HTTP ${response.status}`);
  return answer.access_token;
}

/** Waits (at most `maxMs`) until a JWT's `exp` has passed. */
export function untilExpired(token: string, maxMs = 5_000): Promise<void> {
  return until(Number(decodeJwt(token).payload["exp"]) * 1000, maxMs);
}

/** Waits (at most `maxMs`) until the clock has passed `epochMs`. */
export async function until(epochMs: number, maxMs = 5_000): Promise<void> {
  const waitMs = epochMs - Date.now() + 50;
  if (waitMs > maxMs) throw new Error(`that is ${waitMs} ms away`);
  if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
}

/** The flow's secrets as they went over the wire, by kind. */
export interface Secrets {
  readonly codes: string[];
  readonly verifiers: string[];
  readonly accessTokens: string[];
  readonly refreshTokens: string[];
  readonly clientSecrets: string[];
  /** States, registration access tokens, ID tokens. */
  readonly others: string[];
}

/** Every code, verifier, token and secret that `wire` saw sent or answered. */
export function secretsOn(wire: Wire): Secrets {
  const secrets: Secrets = { codes: [], verifiers: [], accessTokens: [], refreshTokens: [], clientSecrets: [], others: [] };
  for (const exchange of wire.exchanges) {
    const sent = new URLSearchParams(exchange.body);
    add(secrets.codes, sent.get("code"));
    add(secrets.verifiers, sent.get("code_verifier"));
    add(secrets.refreshTokens, sent.get("refresh_token"));
    add(secrets.clientSecrets, sent.get("client_secret"));
    if (exchange.authorization?.startsWith("Basic ") === true)
      add(secrets.clientSecrets, atob(exchange.authorization.slice(6)).split(":")[1]);
    const answer = parsedObject(exchange.answer);
    add(secrets.accessTokens, answer["access_token"]);
    add(secrets.refreshTokens, answer["refresh_token"]);
    add(secrets.clientSecrets, answer["client_secret"]);
    add(secrets.others, answer["registration_access_token"]);
    add(secrets.others, answer["id_token"]);
  }
  for (const visit of wire.visits) {
    add(secrets.codes, new URL(visit.callback).searchParams.get("code"));
    add(secrets.others, new URL(visit.callback).searchParams.get("state"));
  }
  for (const bearer of wire.bearers) add(secrets.accessTokens, bearer.replace(/^Bearer /, ""));
  return secrets;
}

function add(into: string[], value: unknown): void {
  if (typeof value === "string" && value !== "" && !into.includes(value)) into.push(value);
}

function parsedObject(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
