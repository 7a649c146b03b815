// `npm run demo:auth` (after its build): the MCP authorization flow on loopback, run as a child
// process. Its transcript shows each step (the refused first call, discovery, registration, the code
// with PKCE, the token, the protected call, a step-up, a refresh) and holds no secret: every code,
// state, verifier, token and client secret that crossed the child's fetch (recorded by
// fixtures/secret-recorder.mjs) is absent from what it printed, and so is anything JWT-shaped.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const demo = fileURLToPath(new URL("../examples/auth-demo.mjs", import.meta.url));
const recorder = pathToFileURL(fileURLToPath(new URL("./fixtures/secret-recorder.mjs", import.meta.url))).href;
const run = promisify(execFile);

type Secrets = Record<"codes" | "states" | "verifiers" | "accessTokens" | "refreshTokens" | "idTokens" | "clientSecrets", string[]>;

/** The demo's output, and the secrets its fetch saw. */
async function runDemo(): Promise<{ readonly stdout: string; readonly stderr: string; readonly secrets: Secrets }> {
  const dir = await mkdtemp(join(tmpdir(), "auth-demo-"));
  try {
    const file = join(dir, "secrets.json");
    const { stdout, stderr } = await run(process.execPath, ["--import", recorder, demo], {
      timeout: 30_000,
      env: { ...process.env, SECRETS_FILE: file },
    });
    return { stdout, stderr, secrets: JSON.parse(await readFile(file, "utf8")) as Secrets };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The lines of the step titled `title` (up to the next title). */
function stepOf(lines: readonly string[], title: string): string[] {
  const start = lines.indexOf(`── ${title}`);
  expect(start).toBeGreaterThanOrEqual(0);
  const next = lines.findIndex((line, index) => index > start && line.startsWith("── "));
  return lines.slice(start + 1, next === -1 ? undefined : next).filter((line) => line !== "");
}

/** The value `label: …` of the first line with that label. */
const valueOf = (lines: readonly string[], label: string): string =>
  (lines.find((line) => line.startsWith(`   ${label}: `)) ?? "").slice(label.length + 5);

describe("the auth demo", () => {
  it("shows every step of the flow, and prints no secret", async () => {
    const { stdout, stderr, secrets } = await runDemo();
    const lines = stdout.split("\n");
    expect(lines.filter((line) => line.startsWith("── "))).toEqual([
      "── the servers (127.0.0.1)",
      "── the first call, without a token",
      "── discovery",
      "── dynamic client registration",
      "── authorization code + PKCE (headless login)",
      "── the token",
      "── the protected call",
      "── step-up: write-note needs mcp:write",
      "── refresh",
      "── close",
    ]);
    const issuer = valueOf(lines, "authorization server").replace("oidc-provider, issuer ", "");
    const mcp = valueOf(lines, "MCP server").split(" ")[0] as string;
    const metadata = `${new URL(mcp).origin}/.well-known/oauth-protected-resource/mcp`;
    expect(issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oidc$/);
    expect(mcp).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);

    expect(stepOf(lines, "the first call, without a token")).toEqual([
      "   MCP request: POST server/discover → 401",
      `   WWW-Authenticate: Bearer scope="mcp:read", resource_metadata="${metadata}"`,
    ]);
    const discovery = stepOf(lines, "discovery");
    expect(discovery).toContain(`   protected resource metadata: GET ${metadata} → 200`);
    expect(discovery).toContain(`   authorization servers: ["${issuer}"]`);
    expect(discovery).toContain(`   authorization server metadata: GET ${issuer}/.well-known/openid-configuration → 200`);
    expect(valueOf(discovery, "issuer")).toBe(issuer);
    const registration = stepOf(lines, "dynamic client registration");
    expect(registration[0]).toBe(`   registration: POST ${issuer}/reg → 201`);
    const clientId = valueOf(registration, "client_id").split(" ")[0] as string;
    expect(clientId).toMatch(/^\S{8,}$/);
    const code = stepOf(lines, "authorization code + PKCE (headless login)");
    expect([
      valueOf(code, "  client_id"),
      valueOf(code, "  scope"),
      valueOf(code, "  resource"),
      valueOf(code, "  code_challenge_method").split(" ")[0],
    ]).toEqual([clientId, "mcp:read offline_access", mcp, "S256"]);
    expect(valueOf(code, "redirected to")).toContain(`with a code (not shown), state matching, iss ${issuer}`);
    expect(code.at(-1)).toBe("   token request: grant_type=authorization_code with the code and the PKCE code_verifier (not shown) → 200");
    const token = stepOf(lines, "the token");
    expect([valueOf(token, "access token"), valueOf(token, "scope"), valueOf(token, "refresh token")]).toEqual([
      `a JWT (not shown) for audience ${mcp}, subject alice`,
      "mcp:read",
      "issued (not shown)",
    ]);
    expect(valueOf(token, "expires")).toMatch(/^in 300 s \(exp \d{4}-\d\d-\d\dT/);

    // The principal our server verified, as its tool saw it.
    const [called] = stepOf(lines, "the protected call");
    expect(JSON.parse(called?.replace("   whoami: ", "") ?? "")).toEqual({
      subject: "alice",
      clientId,
      scopes: ["mcp:read"],
      issuer,
      audience: mcp,
    });
    const stepUp = stepOf(lines, "step-up: write-note needs mcp:write");
    expect(stepUp.slice(0, 2)).toEqual([
      "   MCP request: POST tools/call → 403",
      '   WWW-Authenticate: Bearer error="insufficient_scope", error_description="this request needs the scopes mcp:read mcp:write", ' +
        `scope="mcp:read mcp:write", resource_metadata="${metadata}"`,
    ]);
    expect(valueOf(stepUp, "  scope")).toBe("mcp:read offline_access mcp:write");
    expect(valueOf(stepUp, "scope")).toBe("mcp:read mcp:write");
    expect(stepUp.slice(-2)).toEqual(["   MCP request again, with the token: POST tools/call → 200", "   write-note: note written"]);
    const refresh = stepOf(lines, "refresh");
    expect(refresh).toContain("   token request: grant_type=refresh_token with the refresh token (not shown) → 200");
    expect(valueOf(refresh, "refresh token")).toBe("a new one (rotated; not shown)");
    expect(JSON.parse(valueOf(refresh, "whoami"))).toMatchObject({ subject: "alice", scopes: ["mcp:read", "mcp:write"] });

    // The flow's secrets went over the wire, and none of them (nor a JWT's payload or signature) was printed.
    expect([secrets.codes.length, secrets.states.length, secrets.verifiers.length]).toEqual([2, 2, 2]);
    expect(secrets.accessTokens.length).toBeGreaterThanOrEqual(3);
    expect(secrets.refreshTokens.length).toBeGreaterThanOrEqual(3);
    const printed = stdout + stderr;
    const needles = Object.values(secrets)
      .flat()
      .flatMap((secret) => [
        secret,
        ...secret
          .split(".")
          .slice(1)
          .filter((part) => part.length >= 16),
      ]);
    expect(needles.filter((needle) => printed.includes(needle))).toEqual([]);
    expect(printed).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
    // The only long base64url value printed is the client_id, which is no secret.
    expect(new Set(printed.match(/[\w-]{32,}/g))).toEqual(new Set([clientId]));
  });
});
