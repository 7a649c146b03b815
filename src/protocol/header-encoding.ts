import { decodeBase64, encodeBase64 } from "./bytes-text.js";

/** The sentinel around a Base64-encoded header value: `=?base64?<base64 of the UTF-8 bytes>?=` (lower case, exactly). */
const PREFIX = "=?base64?";
const SUFFIX = "?=";

/** What a plain value may hold once the HTTP layer has dropped the surrounding whitespace: HTAB, SP and visible ASCII. */
const FIELD_VALUE = /^[\t\x20-\x7e]*$/;
/** What a value may hold to travel unencoded: SP and visible ASCII, no space at either end. */
const PLAIN_SAFE = /^(?:[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?)?$/;

const UTF8_DECODER = /* @__PURE__ */ new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * A header value as sent: the value itself when it is plain (visible ASCII and inner spaces only),
 * else `=?base64?…?=`. A value that begins with the sentinel's prefix is encoded too, so a receiver
 * never mistakes a literal for an encoding. Lone surrogates have no UTF-8 form and become U+FFFD.
 */
export function encodeHeaderValue(value: string): string {
  return PLAIN_SAFE.test(value) && !value.startsWith(PREFIX) ? value : `${PREFIX}${encodeBase64(new TextEncoder().encode(value))}${SUFFIX}`;
}

/**
 * The value a received `Mcp-Name` / `Mcp-Param-*` header stands for. The surrounding whitespace is
 * dropped (RFC 9110 §5.5); `=?base64?…?=` is decoded strictly (canonical padded Base64, valid UTF-8);
 * anything else is the literal text, which may hold only HTAB, SP and visible ASCII.
 */
export function decodeHeaderValue(raw: string): { ok: true; value: string } | { ok: false; reason: string } {
  const text = trimFieldValue(raw);
  // `=?base64?=` starts with the prefix and ends with the suffix, sharing a `?`: it is a literal.
  if (text.length >= PREFIX.length + SUFFIX.length && text.startsWith(PREFIX) && text.endsWith(SUFFIX)) {
    return decodeBase64Text(text.slice(PREFIX.length, -SUFFIX.length));
  }
  return FIELD_VALUE.test(text)
    ? { ok: true, value: text }
    : { ok: false, reason: "holds a character that is not visible ASCII, space or tab" };
}

/**
 * A received field value without the optional whitespace (SP, HTAB) around it (RFC 9110 §5.5), which `Headers` drops itself but another
 * lookup may not.
 */
export function trimFieldValue(raw: string): string {
  return raw.replace(/^[\t ]+|[\t ]+$/g, "");
}

function decodeBase64Text(payload: string): { ok: true; value: string } | { ok: false; reason: string } {
  const bytes = decodeBase64(payload);
  if (bytes === undefined) return { ok: false, reason: "is not canonical padded Base64" };
  try {
    return { ok: true, value: UTF8_DECODER.decode(bytes) };
  } catch {
    return { ok: false, reason: "is Base64 of bytes that are not UTF-8" };
  }
}
