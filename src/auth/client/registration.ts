// Which client_id this client presents to an authorization server, in the spec's order: the host's
// pre-registered credentials, else a Client ID Metadata Document when the server supports them,
// else dynamic registration (RFC 7591) when it has an endpoint, else a clear error. The result is
// kept by issuer: another issuer never sees it.
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError, describeThrown } from "../../error-codes/mcp-error.js";
import type { ClientRegistration, OAuthStore, TokenEndpointAuthMethod } from "./oauth-store.js";
import type { FetchLike, FetchResponse } from "../../transport/http-client/http-options.js";
import { jsonAnswer, NEVER } from "./token-endpoint.js";

/** What the client says of itself when it registers (RFC 7591 §2). */
export interface ClientMetadata {
  readonly client_name: string;
  readonly redirect_uris: readonly string[];
  /** `native` for a desktop or CLI host (loopback redirects), `web` for a hosted one. */
  readonly application_type?: "native" | "web";
  readonly client_uri?: string;
  readonly logo_uri?: string;
  readonly grant_types?: readonly string[];
  readonly token_endpoint_auth_method?: TokenEndpointAuthMethod;
  readonly scope?: string;
  readonly software_id?: string;
  readonly software_version?: string;
}

/** How a host identifies its client: any of these, tried in the spec's order. */
export interface ClientIdentity {
  /** Credentials registered beforehand, by issuer (or for every issuer under `"*"`). */
  readonly preRegistered?: Readonly<Record<string, ClientRegistration>>;
  /** The https URL of this client's metadata document (its client_id where the server supports them). */
  readonly metadataDocumentUrl?: string;
  /** For dynamic registration. */
  readonly metadata: ClientMetadata;
}

/** The part of an authorization server's metadata registration reads (RFC 8414). */
export interface RegistrationServer {
  readonly issuer: string;
  readonly registration_endpoint?: string;
  readonly client_id_metadata_document_supported?: boolean;
  readonly token_endpoint_auth_methods_supported?: readonly string[];
}

/** The registration to use with `server`, made (and kept) if there is none yet. */
export async function registrationFor(
  server: RegistrationServer,
  identity: ClientIdentity,
  store: OAuthStore,
  fetch: FetchLike,
  signal?: AbortSignal,
): Promise<ClientRegistration> {
  const given = identity.preRegistered?.[server.issuer] ?? identity.preRegistered?.["*"];
  if (given) return given;
  const kept = await store.getRegistration(server.issuer);
  if (kept && !expired(kept)) return kept;
  if (server.client_id_metadata_document_supported === true && identity.metadataDocumentUrl !== undefined) {
    return { clientId: identity.metadataDocumentUrl, authMethod: "none" };
  }
  if (server.registration_endpoint === undefined) {
    const documentNote = identity.metadataDocumentUrl === undefined ? " used: no metadataDocumentUrl given" : "";
    throw new MCPError(
      MCP_CODES.UNAUTHORIZED,
      `The authorization server ${server.issuer} offers no way to register this client ` +
        `(no Client ID Metadata Document support${documentNote}, no registration_endpoint): ` +
        "give pre-registered credentials for it",
    );
  }
  const registered = await register(server.registration_endpoint, registrationRequest(identity.metadata, server), fetch, signal);
  await store.setRegistration(server.issuer, registered);
  return registered;
}

/** The metadata sent to a registration endpoint: a refresh-capable code grant, and the auth method the server takes. */
function registrationRequest(metadata: ClientMetadata, server: RegistrationServer): Record<string, unknown> {
  const supported = server.token_endpoint_auth_methods_supported;
  const wanted = metadata.token_endpoint_auth_method ?? "none";
  // A server that lists its methods gets one of them: the one asked for, else the first it has of ours.
  const method =
    supported === undefined || supported.includes(wanted)
      ? wanted
      : (["none", "client_secret_basic", "client_secret_post"].find((candidate) => supported.includes(candidate)) ?? wanted);
  return {
    application_type: "native",
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    ...metadata,
    token_endpoint_auth_method: method,
  };
}

async function register(
  endpoint: string,
  body: Record<string, unknown>,
  fetch: FetchLike,
  signal: AbortSignal | undefined,
): Promise<ClientRegistration> {
  let response: FetchResponse;
  try {
    response = await fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
      signal: signal ?? NEVER,
    });
  } catch (error) {
    throw new MCPError(MCP_CODES.TRANSPORT_ERROR, `Dynamic client registration at ${endpoint} failed: ${describeThrown(error)}`);
  }
  const answer = (await jsonAnswer(response)) as Record<string, unknown> | undefined;
  if (!response.ok || typeof answer?.["client_id"] !== "string") {
    const error = typeof answer?.["error"] === "string" ? `, ${answer["error"].slice(0, 100)}` : "";
    throw new MCPError(MCP_CODES.UNAUTHORIZED, `Dynamic client registration at ${endpoint} was refused (HTTP ${response.status}${error})`, {
      data: { status: response.status },
    });
  }
  const secret = answer["client_secret"];
  const method = answer["token_endpoint_auth_method"] ?? body["token_endpoint_auth_method"];
  const expiresAt = answer["client_secret_expires_at"];
  return {
    clientId: answer["client_id"],
    ...(typeof secret === "string" ? { clientSecret: secret } : {}),
    authMethod: (typeof method === "string" ? method : "none") as TokenEndpointAuthMethod,
    ...(typeof expiresAt === "number" ? { clientSecretExpiresAt: expiresAt } : {}),
  };
}

function expired(registration: ClientRegistration): boolean {
  const at = registration.clientSecretExpiresAt;
  return at !== undefined && at !== 0 && at * 1000 <= Date.now();
}
