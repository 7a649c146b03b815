// The grants without a user: enterprise-managed authorization (an ID-JAG from the identity provider,
// presented as a JWT bearer grant) and workload identity federation (the platform's token for the
// workload, presented as one), against the Authorizer's scripted world.
import { describe, expect, it } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { rejectionOf } from "./auth-client.test-helpers.js";
import { authorizer, call, MCP, world } from "./authorizer.test-helpers.js";
import type { WorkloadAssertionRequest } from "./grants.js";

describe("Authorizer: enterprise-managed authorization", () => {
  it("exchanges the user's ID token at the identity provider for an ID-JAG, and presents it as a JWT bearer grant", async () => {
    const scene = world();
    const exchanges: Record<string, string>[] = [];
    scene.fake.on("https://idp.test/token", (init) => {
      const form = Object.fromEntries(new URL(`http://x/?${String(init.body)}`).searchParams);
      exchanges.push({ ...form, authorization: init.headers["authorization"] ?? "-" });
      return Response.json({
        access_token: "id-jag-for-read",
        issued_token_type: "urn:ietf:params:oauth:token-type:id-jag",
        token_type: "N_A",
      });
    });
    const enterprise = {
      idpIssuer: "https://idp.test",
      idpTokenEndpoint: "https://idp.test/token",
      idpClientId: "idp-client",
      idToken: () => "id-token-of-the-user",
    };
    const client = {
      metadata: { client_name: "svc", redirect_uris: [] },
      preRegistered: { "*": { clientId: "mcp-client", clientSecret: "s", authMethod: "client_secret_basic" as const } },
    };
    const { fetch } = authorizer(scene, { enterprise, client, interact: undefined, redirectUri: undefined });
    await expect(call(fetch)).resolves.toEqual({ status: 200, body: { ok: "read" } });
    expect(exchanges).toEqual([
      {
        grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
        requested_token_type: "urn:ietf:params:oauth:token-type:id-jag",
        audience: "https://as.test",
        resource: MCP,
        scope: "read",
        subject_token: "id-token-of-the-user",
        subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
        client_id: "idp-client",
        authorization: "-",
      },
    ]);
    // The JWT bearer grant carries the ID-JAG alone; the client authenticates with Basic.
    expect(scene.seen).toEqual(["mcp -", "token https://as.test urn:ietf:params:oauth:grant-type:jwt-bearer", "mcp t1"]);
    // With a secret at the identity provider, it authenticates there with it; an insecure token endpoint is refused.
    const secret = world();
    secret.fake.on(
      "https://idp.test/token",
      (init) => (
        exchanges.push({ authorization: init.headers["authorization"] ?? "-" }),
        Response.json({ access_token: "id-jag-for-read", token_type: "N_A" })
      ),
    );
    const { fetch: withSecret } = authorizer(secret, { enterprise: { ...enterprise, idpClientSecret: "idp-secret" }, client });
    await expect(call(withSecret)).resolves.toMatchObject({ status: 200 });
    expect(exchanges.at(-1)).toEqual({ authorization: `Basic ${btoa("idp-client:idp-secret")}` });
    const { fetch: insecure } = authorizer(world(), { enterprise: { ...enterprise, idpTokenEndpoint: "http://idp.test/token" }, client });
    await expect(call(insecure)).rejects.toMatchObject({ data: { reason: "insecure-url" } });
  });
});

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const workloadClient = {
  metadata: { client_name: "workload", redirect_uris: [] },
  preRegistered: { "*": { clientId: "wif-workload", authMethod: "none" as const } },
};

/** A platform that hands out one token after another, and what each was asked for. */
function platform(tokens: string[]) {
  const asked: Omit<WorkloadAssertionRequest, "signal">[] = [];
  return {
    asked,
    workloadIdentity: {
      assertion: ({ signal, ...request }: WorkloadAssertionRequest) => {
        expect(signal).toBeInstanceOf(AbortSignal);
        asked.push(request);
        return Promise.resolve(tokens.shift() ?? "no-more-tokens");
      },
    },
  };
}

/** The token requests `scene` got, as forms. */
function tokenForms(scene: ReturnType<typeof world>): Record<string, string>[] {
  return scene.fake.requests
    .filter((request) => request.url === "https://as.test/token")
    .map((request) => Object.fromEntries(new URL(`http://x/?${String(request.init.body)}`).searchParams));
}

describe("Authorizer: workload identity federation", () => {
  it("presents the workload's token as a JWT bearer grant for the server's resource, with no user and no secret", async () => {
    const scene = world();
    const { asked, workloadIdentity } = platform(["workload-token-for-read"]);
    const { fetch } = authorizer(scene, { workloadIdentity, client: workloadClient, interact: undefined, redirectUri: undefined });
    await expect(call(fetch)).resolves.toEqual({ status: 200, body: { ok: "read" } });
    // The token is asked for with the authorization server's issuer as its audience.
    expect(asked).toEqual([{ audience: "https://as.test", tokenEndpoint: "https://as.test/token", resource: MCP }]);
    // One token request, the assertion and the client id alone (no offline_access: no user to come back for).
    expect(tokenForms(scene)).toEqual([
      { grant_type: JWT_BEARER, assertion: "workload-token-for-read", scope: "read", resource: MCP, client_id: "wif-workload" },
    ]);
    expect(scene.seen).toEqual(["mcp -", `token https://as.test ${JWT_BEARER} wif-workload read ${MCP}`, "mcp t1"]);
  });

  it("asks the platform for a fresh token each time a new access token is needed", async () => {
    const scene = world({ refresh: false });
    const { asked, workloadIdentity } = platform(["first-for-read", "second-for-read"]);
    const { fetch } = authorizer(scene, { workloadIdentity, client: workloadClient });
    await expect(call(fetch)).resolves.toMatchObject({ status: 200 });
    (scene.issued.get("t1") as { expired: boolean }).expired = true;
    await expect(call(fetch)).resolves.toMatchObject({ status: 200 });
    expect(asked).toHaveLength(2);
    expect(tokenForms(scene).map((form) => form["assertion"])).toEqual(["first-for-read", "second-for-read"]);
    expect(scene.seen.filter((line) => line.startsWith("mcp"))).toEqual(["mcp -", "mcp t1", "mcp t1", "mcp t2"]);
  });

  it.each(["invalid_grant", "invalid_scope", "unauthorized_client"])(
    "surfaces a %s refusal as it is: no second token request, no other grant",
    async (refusal) => {
      const scene = world();
      scene.fake.on("https://as.test/token", () =>
        Response.json({ error: refusal, error_description: "not for this workload" }, { status: 400 }),
      );
      const { workloadIdentity } = platform(["expired-workload-token"]);
      const { fetch } = authorizer(scene, { workloadIdentity, client: workloadClient });
      const error = await rejectionOf(call(fetch));
      expect(error.code).toBe(MCP_CODES.UNAUTHORIZED);
      expect(error.data).toMatchObject({ error: refusal, status: 400 });
      expect(error.message).not.toContain("expired-workload-token");
      expect(tokenForms(scene).map((form) => form["grant_type"])).toEqual([JWT_BEARER]);
      expect(scene.seen).toEqual(["mcp -"]);
    },
  );

  it("surfaces the platform's failure to give a token, before any token request", async () => {
    const scene = world();
    const broken = new Error("the projected token file is missing");
    const { fetch } = authorizer(scene, { workloadIdentity: { assertion: () => Promise.reject(broken) }, client: workloadClient });
    await expect(call(fetch)).rejects.toBe(broken);
    expect(tokenForms(scene)).toEqual([]);
  });
});
