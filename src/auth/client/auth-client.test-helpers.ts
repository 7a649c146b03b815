// Test doubles for the authorization building blocks: a fetch that answers by URL (404 for any URL
// not scripted, like the conformance mocks' express apps) and records every request, and builders
// for what the conformance suite's mock servers serve.
import { expect } from "vitest";
import { MCPError } from "../../error-codes/mcp-error.js";
import type { FetchInit, FetchLike } from "../../transport/http-client/http-options.js";
import type { AuthFailureReason } from "./auth-error.js";

export type Route = (init: FetchInit) => Response | Promise<Response>;

/** A fetch double keyed by exact URL. */
export class FakeFetch {
  readonly requests: { readonly url: string; readonly init: FetchInit }[] = [];
  readonly #routes = new Map<string, Route>();

  on(url: string, route: Route): this {
    this.#routes.set(url, route);
    return this;
  }

  /** Serves `body` as JSON at `url`. */
  json(url: string, body: unknown, status = 200): this {
    return this.on(url, () => Response.json(body, { status }));
  }

  get urls(): string[] {
    return this.requests.map((request) => request.url);
  }

  readonly fetch: FetchLike = async (url, init) => {
    this.requests.push({ url, init });
    const route = this.#routes.get(url);
    return route === undefined ? new Response("Not Found", { status: 404 }) : route(init);
  };
}

/** The rejection of `promise` (or the throw of `run`), asserted to be an MCPError. */
export async function rejectionOf(promise: Promise<unknown> | (() => unknown)): Promise<MCPError> {
  try {
    await (typeof promise === "function" ? promise() : promise);
  } catch (error) {
    expect(error).toBeInstanceOf(MCPError);
    return error as MCPError;
  }
  throw new Error("expected a rejection");
}

/** Matches an MCPError of `code` whose `data.reason` is `reason`: for `toThrow` and `rejects.toThrow`. */
export function authFailure(code: string, reason: AuthFailureReason): unknown {
  return expect.objectContaining({ code, data: expect.objectContaining({ reason }) });
}

/** Asserts that `promise` rejects with an MCPError of `code` and `reason`, and gives it. */
export async function expectAuthFailure(
  promise: Promise<unknown> | (() => unknown),
  code: string,
  reason: AuthFailureReason,
): Promise<MCPError> {
  const error = await rejectionOf(promise);
  expect(error.code).toBe(code);
  expect((error.data as { reason?: string }).reason).toBe(reason);
  return error;
}

/** The conformance mock's protected resource metadata: `resource` and one authorization server. */
export function prm(resource: string, authorizationServer: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { resource, authorization_servers: [authorizationServer], ...extra };
}

/** The conformance mock's authorization server metadata (createAuthServer.ts) for `issuer`, endpoints under `base`. */
export function asMetadata(issuer: string, base = issuer, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    issuer,
    authorization_endpoint: `${base}/authorize`,
    token_endpoint: `${base}/token`,
    registration_endpoint: `${base}/register`,
    response_types_supported: ["code"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    authorization_response_iss_parameter_supported: true,
    token_endpoint_auth_methods_supported: ["none"],
    ...extra,
  };
}
