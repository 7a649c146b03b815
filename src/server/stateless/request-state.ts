import { METHODS } from "../../constants/index.js";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import { MIN_REQUEST_STATE_SECRET_BYTES, REQUEST_STATE_KEY_ID, type RequestStateKey, type RequestStateKeys } from "../../stores/request-state-keys.js";
import { decodeBase64url, encodeBase64url } from "./base64url.js";

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

interface Parts {
  readonly keyId: string;
  /** Everything the MAC covers: `v1.<keyId>.<payload>`. */
  readonly signed: string;
  readonly payload: string;
  readonly mac: Uint8Array<ArrayBuffer>;
}

const PREFIX = "v1.";
const MAC_CHARS = 43; // 32 bytes of HMAC-SHA256 in unpadded base64url
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const DEFAULT_TTL_MS = 10 * 60 * 1000;
const DEFAULT_MAX_LENGTH = 256 * 1024;
/** Imported keys kept per sealer; only ids the key store knows get in, so this is the rotation window, not attacker-driven. */
const KEY_CACHE_SIZE = 16;
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
  readonly #imported = new Map<string, { readonly secret: Uint8Array; readonly key: Promise<HmacKey> }>();

  constructor(keys: RequestStateKeys, options: { ttlMs?: number; now?: () => number; maxLength?: number } = {}) {
    const { ttlMs = DEFAULT_TTL_MS, now = Date.now, maxLength = DEFAULT_MAX_LENGTH } = options;
    if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new MCPError(MCP_CODES.INVALID_PARAMS, "RequestStateSealer: ttlMs must be a positive number of milliseconds");
    if (!Number.isSafeInteger(maxLength) || maxLength <= 0) throw new MCPError(MCP_CODES.INVALID_PARAMS, "RequestStateSealer: maxLength must be a positive whole number");
    this.#keys = keys;
    this.#ttlMs = ttlMs;
    this.#now = now;
    this.#maxLength = maxLength;
  }

  /** The sealed text for `data` (JSON-serialisable); rejects with an MCPError when it cannot be serialised or would exceed `maxLength`. */
  async seal(data: unknown, binding: StateBinding): Promise<string> {
    const key = usableKey(await this.#keys.current());
    const hmac = await this.#cryptoKey(key);
    const payload: Payload = { exp: this.#now() + this.#ttlMs, sub: await principalTag(hmac, binding), req: await requestTag(hmac, binding), data };
    const signed = `${PREFIX}${key.id}.${encodeBase64url(utf8(payloadJson(payload)))}`;
    const state = `${signed}.${encodeBase64url(new Uint8Array(await crypto.subtle.sign("HMAC", hmac, utf8(signed))))}`;
    if (state.length > this.#maxLength) {
      throw new MCPError(MCP_CODES.INTERNAL_ERROR, `requestState would be ${state.length} characters, more than the ${this.#maxLength} allowed: keep less data in it`);
    }
    return state;
  }

  /** The data sealed for this binding, or why the state is refused. Never throws for any `state`; a failing key store rejects. */
  async open(state: unknown, binding: StateBinding): Promise<OpenedState> {
    const parts = typeof state === "string" && state.length <= this.#maxLength ? partsOf(state) : undefined;
    if (parts === undefined) return refused("malformed");
    const key = await this.#keys.byId(parts.keyId);
    if (key === undefined) return refused("unknown-key");
    const hmac = await this.#cryptoKey(usableKey(key));
    // The MAC is checked (in constant time, by WebCrypto) before anything of the payload is decoded.
    if (!(await crypto.subtle.verify("HMAC", hmac, parts.mac, utf8(parts.signed)))) return refused("forged");
    const payload = payloadOf(parts.payload);
    if (payload === undefined) return refused("malformed");
    if (this.#now() >= payload.exp) return refused("expired");
    if (payload.sub !== (await principalTag(hmac, binding))) return refused("other-principal");
    if (payload.req !== (await requestTag(hmac, binding))) return refused("other-request");
    return { ok: true, data: payload.data };
  }

  /** One import per key id; a key store that reuses an id for another secret gets a fresh import. */
  #cryptoKey(key: RequestStateKey): Promise<HmacKey> {
    const cached = this.#imported.get(key.id);
    this.#imported.delete(key.id);
    const entry = cached !== undefined && sameBytes(cached.secret, key.secret) ? cached : importKey(key.secret);
    this.#imported.set(key.id, entry);
    if (this.#imported.size > KEY_CACHE_SIZE) this.#imported.delete(this.#imported.keys().next().value as string);
    return entry.key;
  }
}

/** SHA-256 (base64url) of the method and the params that identify the request: name + arguments for tools/call and prompts/get, uri for resources/read; canonical JSON (sorted keys) so key order does not matter; `_meta`, `inputResponses` and `requestState` never count. */
export async function requestDigest(method: string, params: Record<string, unknown> | undefined): Promise<string> {
  const canonical = canonicalJson([method, salientParams(method, params ?? {})]);
  return encodeBase64url(new Uint8Array(await crypto.subtle.digest("SHA-256", utf8(canonical))));
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
    return Object.fromEntries(Object.keys(record).toSorted().map((name) => [name, record[name]]));
  });
}

/** `v1.<keyId>.<payload>.<mac>`, split from the right: payload and MAC have no dots, a key id may. */
function partsOf(state: string): Parts | undefined {
  const macDot = state.lastIndexOf(".");
  const payloadDot = state.lastIndexOf(".", macDot - 1);
  if (!state.startsWith(PREFIX) || payloadDot < PREFIX.length) return undefined;
  const keyId = state.slice(PREFIX.length, payloadDot);
  const payload = state.slice(payloadDot + 1, macDot);
  const macText = state.slice(macDot + 1);
  if (!REQUEST_STATE_KEY_ID.test(keyId) || !BASE64URL.test(payload) || macText.length !== MAC_CHARS) return undefined;
  const mac = decodeBase64url(macText);
  return mac === undefined ? undefined : { keyId, signed: state.slice(0, macDot), payload, mac };
}

/** The payload, once its MAC held; undefined when it is not ours (bad base64url, bad UTF-8, bad JSON, wrong shape). */
function payloadOf(text: string): Payload | undefined {
  const bytes = decodeBase64url(text);
  let parsed: unknown;
  try {
    parsed = bytes === undefined ? undefined : JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
  const { exp, sub, req } = parsed as Record<string, unknown>;
  return Number.isFinite(exp) && typeof sub === "string" && typeof req === "string" ? (parsed as Payload) : undefined;
}

function payloadJson(payload: Payload): string {
  try {
    return JSON.stringify(payload);
  } catch (error) {
    throw new MCPError(MCP_CODES.INTERNAL_ERROR, "requestState data must be JSON-serialisable", { cause: error });
  }
}

/** Keyed tags, so a state read by anyone names neither the principal nor the arguments; "[" keeps them apart from the `v1.` texts. */
function principalTag(hmac: HmacKey, binding: StateBinding): Promise<string> {
  return tag(hmac, JSON.stringify(["principal", binding.principal ?? null]));
}

function requestTag(hmac: HmacKey, binding: StateBinding): Promise<string> {
  return tag(hmac, JSON.stringify(["request", binding.method, binding.digest]));
}

async function tag(hmac: HmacKey, text: string): Promise<string> {
  return encodeBase64url(new Uint8Array(await crypto.subtle.sign("HMAC", hmac, utf8(text))));
}

function usableKey(key: RequestStateKey): RequestStateKey {
  const idFits = typeof key?.id === "string" && REQUEST_STATE_KEY_ID.test(key.id);
  if (idFits && key.secret instanceof Uint8Array && key.secret.length >= MIN_REQUEST_STATE_SECRET_BYTES) return key;
  throw new MCPError(MCP_CODES.INTERNAL_ERROR, `the request-state key store gave a key without a valid id or with a secret under ${MIN_REQUEST_STATE_SECRET_BYTES} bytes`);
}

function importKey(secret: Uint8Array): { readonly secret: Uint8Array; readonly key: Promise<HmacKey> } {
  const copy = Uint8Array.from(secret);
  return { secret: copy, key: crypto.subtle.importKey("raw", copy, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]) };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, index) => byte === b[index]);
}

function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

function refused(reason: Refusal["reason"]): Refusal {
  return { ok: false, reason };
}
