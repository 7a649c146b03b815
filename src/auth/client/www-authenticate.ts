// WWW-Authenticate (RFC 9110 §11.6.1): a list of challenges, each a scheme followed by either a
// token68 or a list of auth-params whose values are tokens or quoted-strings. Commas separate both
// the challenges and the params of one challenge, so a comma is resolved by looking at what follows
// it: `name =` starts another param, anything else another challenge. The parser reads what it can
// from anything (garbage is skipped up to the next comma) and never throws; it reads each character
// a bounded number of times, and at most MAX_HEADER_CHARS of them.
import { authError } from "./auth-error.js";

/** One challenge of a WWW-Authenticate header. */
export interface AuthChallenge {
  /** The auth-scheme as sent; schemes are case-insensitive, so compare lower-cased. */
  readonly scheme: string;
  /** The token68 form (e.g. Negotiate's data), when the challenge has one instead of params. */
  readonly token68?: string;
  /** The auth-params, names lower-cased, values unquoted; a name sent twice keeps its first value. */
  readonly params: Readonly<Record<string, string>>;
}

/** The longest header read; the rest is ignored (real challenges are a few hundred characters). */
export const MAX_HEADER_CHARS = 64 * 1024;

const COMMA = 0x2c;
const EQUALS = 0x3d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

// tchar (RFC 9110 §5.6.2): ALPHA, DIGIT and !#$%&'*+-.^_`|~
function isTchar(code: number): boolean {
  if ((code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) return true;
  return code < 0x80 && "!#$%&'*+-.^_`|~".includes(String.fromCharCode(code));
}

// token68 before its trailing "=" padding: ALPHA, DIGIT and -._~+/
function isToken68Char(code: number): boolean {
  if ((code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) return true;
  return code === 0x2d || code === 0x2e || code === 0x5f || code === 0x7e || code === 0x2b || code === 0x2f;
}

/** A position in the header, and the moves the grammar needs. */
class Cursor {
  pos = 0;
  constructor(readonly text: string) {}

  get done(): boolean {
    return this.pos >= this.text.length;
  }

  /** The code unit here, or -1 at the end. */
  code(): number {
    return this.done ? -1 : this.text.charCodeAt(this.pos);
  }

  /** Skips spaces and tabs; true when there were any. */
  skipWhitespace(): boolean {
    const start = this.pos;
    while (this.code() === 0x20 || this.code() === 0x09) this.pos++;
    return this.pos > start;
  }

  /** Skips whitespace and commas (empty list elements are allowed, RFC 9110 §5.6.1). */
  skipSeparators(): void {
    while (this.code() === 0x20 || this.code() === 0x09 || this.code() === COMMA) this.pos++;
  }

  token(): string {
    const start = this.pos;
    while (isTchar(this.code())) this.pos++;
    return this.text.slice(start, this.pos);
  }

  /** A quoted-string from its opening quote, unescaped; an unterminated one runs to the end. */
  quoted(): string {
    this.pos++;
    let value = "";
    let from = this.pos;
    while (!this.done) {
      const code = this.code();
      if (code === QUOTE) {
        value += this.text.slice(from, this.pos);
        this.pos++;
        return value;
      }
      if (code === BACKSLASH && this.pos + 1 < this.text.length) {
        value += this.text.slice(from, this.pos) + this.text.charAt(this.pos + 1);
        this.pos += 2;
        from = this.pos;
      } else this.pos++;
    }
    return value + this.text.slice(from);
  }

  /** Skips what cannot be read up to the next comma outside a quoted-string (not consuming it). */
  skipItem(): void {
    while (!this.done && this.code() !== COMMA) {
      if (this.code() === QUOTE) this.quoted();
      else this.pos++;
    }
  }

  /** True when, past separators, a `name =` follows: the next list element is an auth-param. */
  paramAhead(): boolean {
    const start = this.pos;
    this.skipSeparators();
    const named = this.token() !== "";
    this.skipWhitespace();
    const param = named && this.code() === EQUALS;
    this.pos = start;
    return param;
  }
}

/** The challenges of a WWW-Authenticate header (several headers joined with ", " are one list); never throws. */
export function parseWwwAuthenticate(header: string | null | undefined): AuthChallenge[] {
  if (typeof header !== "string") return [];
  const cursor = new Cursor(header.length > MAX_HEADER_CHARS ? header.slice(0, MAX_HEADER_CHARS) : header);
  const challenges: AuthChallenge[] = [];
  for (cursor.skipSeparators(); !cursor.done; cursor.skipSeparators()) {
    // A param with no challenge before it belongs to nothing.
    if (cursor.paramAhead()) {
      cursor.skipItem();
      continue;
    }
    const scheme = cursor.token();
    if (scheme === "") cursor.skipItem();
    else challenges.push(challengeAfter(cursor, scheme));
  }
  return challenges;
}

function challengeAfter(cursor: Cursor, scheme: string): AuthChallenge {
  const params = Object.create(null) as Record<string, string>;
  const spaced = cursor.skipWhitespace();
  if (cursor.done) return { scheme, params };
  if (cursor.code() === COMMA) {
    // "Bearer , realm=…": an empty first element of the param list, then the params.
    if (cursor.paramAhead()) {
      cursor.skipSeparators();
      readParams(cursor, params);
    }
    return { scheme, params };
  }
  if (!spaced) {
    cursor.skipItem();
    return { scheme, params };
  }
  const token68 = readToken68(cursor);
  if (token68 !== undefined) return { scheme, token68, params };
  readParams(cursor, params);
  return { scheme, params };
}

/** A token68 ending the challenge, or undefined (the cursor unmoved) when what follows is params. */
function readToken68(cursor: Cursor): string | undefined {
  const start = cursor.pos;
  while (isToken68Char(cursor.code())) cursor.pos++;
  if (cursor.pos === start) return undefined;
  while (cursor.code() === EQUALS) cursor.pos++;
  const end = cursor.pos;
  cursor.skipWhitespace();
  if (cursor.done || cursor.code() === COMMA) return cursor.text.slice(start, end);
  cursor.pos = start;
  return undefined;
}

function readParams(cursor: Cursor, params: Record<string, string>): void {
  for (;;) {
    readParam(cursor, params);
    if (cursor.done || !cursor.paramAhead()) return;
    cursor.skipSeparators();
  }
}

/** One `name = value`, or whatever stands there skipped up to the next comma. */
function readParam(cursor: Cursor, params: Record<string, string>): void {
  const name = cursor.token().toLowerCase();
  cursor.skipWhitespace();
  if (name === "" || cursor.code() !== EQUALS) {
    cursor.skipItem();
    return;
  }
  cursor.pos++;
  cursor.skipWhitespace();
  const value = cursor.code() === QUOTE ? cursor.quoted() : cursor.token();
  // RFC 9110 allows each name once; the first is kept so a later copy cannot override it.
  if (!(name in params)) params[name] = value;
  cursor.skipWhitespace();
  if (cursor.code() !== COMMA) cursor.skipItem();
}

// ---- Formatting: the header a resource server sends, and the parser's round-trip partner ----

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;
// qdtext and quoted-pair together: HTAB, SP, VCHAR and obs-text, nothing that breaks a header line.
const QUOTABLE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * A challenge as header text: the scheme, then its token68 or its params with every value quoted.
 * Throws `MCP.INVALID_PARAMS` when a scheme or name is not a token or a value cannot be quoted
 * (a line break, a control character, a character above U+00FF): a header must not be split or forged.
 */
export function formatChallenge(challenge: AuthChallenge): string {
  if (!TOKEN.test(challenge.scheme)) throw authError("invalid-argument", "A WWW-Authenticate scheme must be an HTTP token");
  if (challenge.token68 !== undefined) {
    if (!TOKEN68.test(challenge.token68))
      throw authError("invalid-argument", `The token68 of a ${challenge.scheme} challenge is not valid token68`);
    return `${challenge.scheme} ${challenge.token68}`;
  }
  const params = Object.entries(challenge.params).map(([name, value]) => {
    if (!TOKEN.test(name)) throw authError("invalid-argument", `A ${challenge.scheme} challenge parameter name must be an HTTP token`);
    if (!QUOTABLE.test(value))
      throw authError("invalid-argument", `The ${name} parameter of a ${challenge.scheme} challenge has a character a header cannot carry`);
    return `${name}="${value.replace(/[\\"]/g, "\\$&")}"`;
  });
  return params.length === 0 ? challenge.scheme : `${challenge.scheme} ${params.join(", ")}`;
}

/** Several challenges as one WWW-Authenticate value. */
export function formatWwwAuthenticate(challenges: readonly AuthChallenge[]): string {
  return challenges.map(formatChallenge).join(", ");
}

// ---- What the client reads of a Bearer (RFC 6750 §3) or DPoP (RFC 9449 §7.1) challenge ----

/** The parameters an MCP client acts on, from the chosen challenge. */
export interface BearerChallenge {
  /** The scheme as sent ("Bearer", "DPoP"). */
  readonly scheme: string;
  /** RFC 9728 §5.1: where the protected resource metadata is. */
  readonly resourceMetadata?: string;
  /** The scopes the request needs (space-separated). */
  readonly scope?: string;
  /** `invalid_token`, `insufficient_scope`, `invalid_request`… */
  readonly error?: string;
  readonly errorDescription?: string;
  /** Every param of the challenge (lower-cased names). */
  readonly params: Readonly<Record<string, string>>;
}

/**
 * The challenge of the first scheme of `schemes` (case-insensitive; default Bearer, then DPoP) that
 * the header has, with its MCP parameters picked out; undefined when it has none of them.
 */
export function readBearerChallenge(
  header: string | null | undefined | readonly AuthChallenge[],
  schemes: readonly string[] = ["Bearer", "DPoP"],
): BearerChallenge | undefined {
  const challenges = typeof header === "string" || header === null || header === undefined ? parseWwwAuthenticate(header) : header;
  for (const wanted of schemes) {
    const challenge = challenges.find((candidate) => candidate.scheme.toLowerCase() === wanted.toLowerCase());
    if (challenge !== undefined) return bearerChallengeOf(challenge);
  }
  return undefined;
}

function bearerChallengeOf({ scheme, params }: AuthChallenge): BearerChallenge {
  const picked: { -readonly [K in keyof BearerChallenge]: BearerChallenge[K] } = { scheme, params };
  if (params["resource_metadata"] !== undefined) picked.resourceMetadata = params["resource_metadata"];
  if (params["scope"] !== undefined) picked.scope = params["scope"];
  if (params["error"] !== undefined) picked.error = params["error"];
  if (params["error_description"] !== undefined) picked.errorDescription = params["error_description"];
  return picked;
}
