// The web-standard globals the universal entry relies on: the part of the WinterTC minimum common
// API that Node, Bun, Deno, browsers and edge workers all provide. Only tsconfig.core.json sees this
// file, so anything outside this list (Buffer, process, DOM) fails the core build. Tests and the
// Node entry get the same names from @types/node instead.

interface AbortSignalEventMap {
  abort: unknown;
}

interface AbortSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  throwIfAborted(): void;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

declare var AbortSignal: {
  prototype: AbortSignal;
  abort(reason?: unknown): AbortSignal;
  any(signals: AbortSignal[]): AbortSignal;
};

interface AbortController {
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
}

declare var AbortController: {
  prototype: AbortController;
  new (): AbortController;
};

interface DOMException extends Error {
  readonly name: string;
}

declare var DOMException: {
  prototype: DOMException;
  new (message?: string, name?: string): DOMException;
};

type TimerHandle = ReturnType<typeof setTimeout>;
declare function setTimeout(callback: () => void, ms?: number): { readonly __timer: unique symbol };
declare function clearTimeout(handle: TimerHandle | undefined): void;
declare function queueMicrotask(callback: () => void): void;

interface Performance {
  now(): number;
}
declare var performance: Performance;

interface Crypto {
  getRandomValues<T extends Uint8Array>(array: T): T;
  randomUUID(): string;
  readonly subtle: SubtleCrypto;
}
declare var crypto: Crypto;

// WebCrypto, only as far as the library uses it: HMAC-SHA256 keys and SHA-256 digests.
interface CryptoKey {
  readonly type: string;
  readonly extractable: boolean;
}
interface SubtleCrypto {
  importKey(
    format: "raw",
    keyData: Uint8Array,
    algorithm: { name: "HMAC"; hash: "SHA-256" },
    extractable: boolean,
    keyUsages: ("sign" | "verify")[],
  ): Promise<CryptoKey>;
  sign(algorithm: "HMAC", key: CryptoKey, data: Uint8Array): Promise<ArrayBuffer>;
  verify(algorithm: "HMAC", key: CryptoKey, signature: Uint8Array, data: Uint8Array): Promise<boolean>;
  digest(algorithm: "SHA-256", data: Uint8Array): Promise<ArrayBuffer>;
}

// ---- WebCrypto for JOSE (src/auth/jose): asymmetric signatures ----
// Merged into the declarations above. Names and shapes are the WebCrypto spec's (W3C Web Cryptography
// API §13, §20, §23, §29); only the members the JWS algorithms ES256, RS256, PS256 and EdDSA need.
interface KeyAlgorithm {
  readonly name: string;
}
type KeyUsage = "encrypt" | "decrypt" | "sign" | "verify" | "deriveKey" | "deriveBits" | "wrapKey" | "unwrapKey";
interface CryptoKey {
  /** The algorithm and its parameters, e.g. `{ name: "ECDSA", namedCurve: "P-256" }` or RSA's `modulusLength` and `hash`. */
  readonly algorithm: KeyAlgorithm;
  readonly usages: KeyUsage[];
}
interface CryptoKeyPair {
  readonly publicKey: CryptoKey;
  readonly privateKey: CryptoKey;
}
interface Algorithm {
  name: string;
}
interface EcKeyImportParams extends Algorithm {
  namedCurve: string;
}
interface RsaHashedImportParams extends Algorithm {
  hash: string | Algorithm;
}
interface EcKeyGenParams extends Algorithm {
  namedCurve: string;
}
interface RsaHashedKeyGenParams extends RsaHashedImportParams {
  modulusLength: number;
  publicExponent: Uint8Array;
}
interface EcdsaParams extends Algorithm {
  hash: string | Algorithm;
}
interface RsaPssParams extends Algorithm {
  saltLength: number;
}
/** RFC 7517 members as WebCrypto's `JsonWebKey` dictionary has them (the RSA `oth` member left out). */
interface JsonWebKey {
  kty?: string;
  use?: string;
  key_ops?: string[];
  alg?: string;
  ext?: boolean;
  crv?: string;
  x?: string;
  y?: string;
  d?: string;
  n?: string;
  e?: string;
  p?: string;
  q?: string;
  dp?: string;
  dq?: string;
  qi?: string;
}
interface SubtleCrypto {
  importKey(
    format: "jwk",
    keyData: JsonWebKey,
    algorithm: Algorithm | EcKeyImportParams | RsaHashedImportParams,
    extractable: boolean,
    keyUsages: KeyUsage[],
  ): Promise<CryptoKey>;
  importKey(
    format: "pkcs8" | "spki" | "raw",
    keyData: Uint8Array,
    algorithm: Algorithm | EcKeyImportParams | RsaHashedImportParams,
    extractable: boolean,
    keyUsages: KeyUsage[],
  ): Promise<CryptoKey>;
  exportKey(format: "jwk", key: CryptoKey): Promise<JsonWebKey>;
  exportKey(format: "pkcs8" | "spki" | "raw", key: CryptoKey): Promise<ArrayBuffer>;
  /** Asymmetric algorithms only: they make a key pair (a symmetric one would make a single `CryptoKey`). */
  generateKey(
    algorithm: EcKeyGenParams | RsaHashedKeyGenParams | { name: "Ed25519" | "X25519" },
    extractable: boolean,
    keyUsages: KeyUsage[],
  ): Promise<CryptoKeyPair>;
  sign(algorithm: Algorithm | EcdsaParams | RsaPssParams, key: CryptoKey, data: Uint8Array): Promise<ArrayBuffer>;
  verify(algorithm: Algorithm | EcdsaParams | RsaPssParams, key: CryptoKey, signature: Uint8Array, data: Uint8Array): Promise<boolean>;
}

/** Base64 of a binary string (each character one byte), and back; `atob` throws on what is not Base64. */
declare function btoa(data: string): string;
declare function atob(data: string): string;

interface TextEncoder {
  encode(input?: string): Uint8Array;
}
declare var TextEncoder: {
  prototype: TextEncoder;
  new (): TextEncoder;
};

interface TextDecoder {
  decode(input?: Uint8Array, options?: { stream?: boolean }): string;
}
declare var TextDecoder: {
  prototype: TextDecoder;
  new (label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean }): TextDecoder;
};

// ---- Fetch API: the web-standard HTTP handler and the HTTP client transports ----

interface Headers {
  get(name: string): string | null;
  has(name: string): boolean;
  set(name: string, value: string): void;
  append(name: string, value: string): void;
  delete(name: string): void;
  forEach(callback: (value: string, name: string) => void): void;
}
type HeadersInit = Headers | Record<string, string> | [string, string][];
declare var Headers: {
  prototype: Headers;
  new (init?: HeadersInit): Headers;
};

interface ReadableStreamReadResult<T> {
  done: boolean;
  value?: T;
}
interface ReadableStreamDefaultReader<T> {
  read(): Promise<ReadableStreamReadResult<T>>;
  cancel(reason?: unknown): Promise<void>;
  releaseLock(): void;
  readonly closed: Promise<void>;
}
interface ReadableStreamDefaultController<T> {
  enqueue(chunk: T): void;
  close(): void;
  error(reason?: unknown): void;
  readonly desiredSize: number | null;
}
interface UnderlyingSource<T> {
  start?(controller: ReadableStreamDefaultController<T>): void | Promise<void>;
  pull?(controller: ReadableStreamDefaultController<T>): void | Promise<void>;
  cancel?(reason?: unknown): void | Promise<void>;
}
interface ReadableStream<T = Uint8Array> {
  getReader(): ReadableStreamDefaultReader<T>;
  cancel(reason?: unknown): Promise<void>;
  readonly locked: boolean;
}
declare var ReadableStream: {
  prototype: ReadableStream;
  new <T = Uint8Array>(source?: UnderlyingSource<T>, strategy?: { highWaterMark?: number; size?(chunk: T): number }): ReadableStream<T>;
};

type BodyInit = ReadableStream<Uint8Array> | Uint8Array | string;

interface Body {
  readonly body: ReadableStream<Uint8Array> | null;
  readonly bodyUsed: boolean;
  text(): Promise<string>;
  json(): Promise<unknown>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

interface RequestInit {
  method?: string;
  headers?: HeadersInit;
  body?: BodyInit | null;
  signal?: AbortSignal | null;
}
interface Request extends Body {
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
  readonly signal: AbortSignal;
}
declare var Request: {
  prototype: Request;
  new (input: string | URL | Request, init?: RequestInit): Request;
};

interface ResponseInit {
  status?: number;
  statusText?: string;
  headers?: HeadersInit;
}
interface Response extends Body {
  readonly status: number;
  readonly ok: boolean;
  readonly statusText: string;
  readonly headers: Headers;
}
declare var Response: {
  prototype: Response;
  new (body?: BodyInit | null, init?: ResponseInit): Response;
  json(data: unknown, init?: ResponseInit): Response;
};

declare function fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;

interface URLSearchParams {
  get(name: string): string | null;
  getAll(name: string): string[];
  set(name: string, value: string): void;
}
interface URL {
  readonly href: string;
  readonly origin: string;
  readonly protocol: string;
  readonly host: string;
  readonly hostname: string;
  readonly port: string;
  readonly pathname: string;
  readonly search: string;
  readonly searchParams: URLSearchParams;
  toString(): string;
}
declare var URL: {
  prototype: URL;
  new (url: string | URL, base?: string | URL): URL;
  canParse(url: string, base?: string): boolean;
};
