import { METHODS } from "../../constants/index.js";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import { decodeBase64, encodeBase64 } from "../../protocol/bytes-text.js";
import {
  MIN_REQUEST_STATE_SECRET_BYTES,
  REQUEST_STATE_KEY_ID,
  type RequestStateKey,
  type RequestStateKeys,
} from "../../stores/request-state-keys.js";

export interface StateBinding {
  /** Who the state belongs to (undefined when the server knows no principal). */
  readonly principal: string | undefined;
  readonly method: string;
  /** requestDigest() of the request the state was issued for. */
  readonly digest: string;
}

export type OpenedState =
  | { readonly ok: true; readonly data: unknown }
  | { readonly ok: false; readonly reason: "malformed" | "unknown-key" | "forged" | "expired" | "other-principal" | "other-request" };

type Refusal = Extract<OpenedState, { ok: false }>;
type HmacKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

/** The payload under the MAC: expiry (ms epoch), keyed tags of the principal and of the request, the handler's data. */
interface Payload {
  readonly exp: number;
  readonly sub: string;
  readonly req: string;
  readonly data?: unknown;
}

/**
 * `v1.<keyId>.<payload>.<mac>`: the key id (which may hold dots) as REQUEST_STATE_KEY_ID has it, then
 * base64url parts without dots, the MAC being 32 bytes (43 characters). Group 1 is what the MAC covers.
 */
const STATE_FORMAT = /^(v1\.([\w.-]{1,32})\.([\w-]+))\.([\w-]{43})$/;
const DEFAULT_TTL_MS = 10 * 60 * 1000;
const DEFAULT_MAX_LENGTH = 256 * 1024;
const NEVER_SALIENT = new Set(["_meta", "inputResponses", "requestState"]);

/**
 * Seals what a multi-round-trip handler needs on the client's retry into `requestState`, and opens
 * it again: HMAC-SHA256 over the whole text, bound to the principal, an expiry and the request.
 * Sealed is not secret: the client can read `data`, so it must hold nothing the client may not see.
 */
export class RequestStateSealer {
  readonly #keys: RequestStateKeys;
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #maxLength: number;

  constructor(keys: RequestStateKeys, options: { ttlMs?: number; now?: () => number; maxLength?: number } = {}) {
    const { ttlMs = DEFAULT_TTL_MS, now = Date.now, maxLength = DEFAULT_MAX_LENGTH } = options;
    if (!Number.isFinite(ttlMs) || ttlMs <= 0)
      throw new MCPError(MCP_CODES.INVALID_PARAMS, "RequestStateSealer: ttlMs must be a positive number of milliseconds");
    if (!Number.isSafeInteger(maxLength) || maxLength <= 0)
      throw new MCPError(MCP_CODES.INVALID_PARAMS, "RequestStateSealer: maxLength must be a positive whole number");
    this.#keys = keys;
    this.#ttlMs = ttlMs;
    this.#now = now;
    this.#maxLength = maxLength;
  }

  /** The sealed text for `data` (JSON-serialisable); rejects with an MCPError when it cannot be serialised or would exceed `maxLength`. */
  async seal(data: unknown, binding: StateBinding): Promise<string> {
    const key = await this.#keys.current();
    const hmac = await importKey(key);
    const [sub, req] = await tags(hmac, binding);
    const payload: Payload = { exp: this.#now() + this.#ttlMs, sub, req, data };
    const signed = `v1.${key.id}.${encodeBase64(utf8(payloadJson(payload)), true)}`;
    const state = `${signed}.${await tag(hmac, signed)}`;
    if (state.length > this.#maxLength) {
      throw new MCPError(
        MCP_CODES.INTERNAL_ERROR,
        `requestState would be ${state.length} characters, more than the ${this.#maxLength} allowed: keep less data in it`,
      );
    }
    return state;
  }

  /** The data sealed for this binding, or why the state is refused. Never throws for any `state`; a failing key store rejects. */
  async open(state: unknown, binding: StateBinding): Promise<OpenedState> {
    const parts = typeof state === "string" && state.length <= this.#maxLength ? STATE_FORMAT.exec(state) : null;
    const mac = parts && decodeBase64(parts[4] as string, true);
    if (!parts || !mac) return refused("malformed");
    const key = await this.#keys.byId(parts[2] as string);
    if (key === undefined) return refused("unknown-key");
    const hmac = await importKey(key);
    // The MAC is checked (in constant time, by WebCrypto) before anything of the payload is decoded.
    if (!(await crypto.subtle.verify("HMAC", hmac, mac, utf8(parts[1] as string)))) return refused("forged");
    const payload = payloadOf(parts[3] as string);
    if (payload === undefined) return refused("malformed");
    if (this.#now() >= payload.exp) return refused("expired");
    const [sub, req] = await tags(hmac, binding);
    if (payload.sub !== sub) return refused("other-principal");
    if (payload.req !== req) return refused("other-request");
    return { ok: true, data: payload.data };
  }
}

/**
 * SHA-256 (base64url) of the method and the params that identify the request: name + arguments for tools/call and prompts/get, uri for
 * resources/read; canonical JSON (sorted keys) so key order does not matter; `_meta`, `inputResponses` and `requestState` never count.
 */
export async function requestDigest(method: string, params: Record<string, unknown> | undefined): Promise<string> {
  const canonical = canonicalJson([method, salientParams(method, params ?? {})]);
  return encodeBase64(new Uint8Array(await crypto.subtle.digest("SHA-256", utf8(canonical))), true);
}

function salientParams(method: string, params: Record<string, unknown>): Record<string, unknown> {
  switch (method) {
    case METHODS.toolsCall:
    case METHODS.promptsGet:
      return { name: params["name"], arguments: params["arguments"] };
    case METHODS.resourcesRead:
      return { uri: params["uri"] };
    default:
      return Object.fromEntries(Object.entries(params).filter(([name]) => !NEVER_SALIENT.has(name)));
  }
}

/** JSON with every object's keys sorted, at every depth. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_name, inner: unknown) => {
    if (typeof inner !== "object" || inner === null || Array.isArray(inner)) return inner;
    const record = inner as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(record)
        .toSorted()
        .map((name) => [name, record[name]]),
    );
  });
}

/** The payload, once its MAC held; undefined when it is not ours (bad base64url, bad UTF-8, bad JSON, wrong shape). */
function payloadOf(text: string): Payload | undefined {
  let parsed: unknown;
  try {
    // Text that is not base64url decodes to nothing, which is no JSON either.
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(decodeBase64(text, true)));
  } catch {
    return undefined;
  }
  const { exp, sub, req } = Object(parsed) as Record<string, unknown>;
  return Number.isFinite(exp) && typeof sub === "string" && typeof req === "string" ? (parsed as Payload) : undefined;
}

function payloadJson(payload: Payload): string {
  try {
    return JSON.stringify(payload);
  } catch (error) {
    throw new MCPError(MCP_CODES.INTERNAL_ERROR, "requestState data must be JSON-serialisable", { cause: error });
  }
}

/** Keyed tags of the principal and of the request, so a state read by anyone names neither; "[" keeps them apart from the `v1.` texts. */
function tags(hmac: HmacKey, { principal, method, digest }: StateBinding): Promise<[string, string]> {
  return Promise.all([tag(hmac, JSON.stringify(["principal", principal ?? null])), tag(hmac, JSON.stringify(["request", method, digest]))]);
}

async function tag(hmac: HmacKey, text: string): Promise<string> {
  return encodeBase64(new Uint8Array(await crypto.subtle.sign("HMAC", hmac, utf8(text))), true);
}

/** The key for WebCrypto, once the store's key is checked: a valid id, a secret of at least 32 bytes. */
function importKey(key: RequestStateKey): Promise<HmacKey> {
  const idFits = typeof key?.id === "string" && REQUEST_STATE_KEY_ID.test(key.id);
  if (idFits && key.secret instanceof Uint8Array && key.secret.length >= MIN_REQUEST_STATE_SECRET_BYTES) {
    return crypto.subtle.importKey("raw", key.secret, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
  }
  throw new MCPError(
    MCP_CODES.INTERNAL_ERROR,
    `the request-state key store gave a key without a valid id or with a secret under ${MIN_REQUEST_STATE_SECRET_BYTES} bytes`,
  );
}

function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

function refused(reason: Refusal["reason"]): Refusal {
  return { ok: false, reason };
}
