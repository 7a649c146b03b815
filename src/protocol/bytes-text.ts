// Bytes as text: the library's one Base64 (padded, or base64url unpadded), and random bytes in hex.

/** Base64 of `bytes` (RFC 4648 §4, padded), or with `url` its URL-safe form without padding (§5). */
export function encodeBase64(bytes: Uint8Array, url = false): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  const text = btoa(binary);
  return url ? text.replace(/=+$/, "").replaceAll("+", "-").replaceAll("/", "_") : text;
}

/**
 * The bytes of text exactly as `encodeBase64(bytes, url)` writes it, or undefined: other characters,
 * a bad length or padding, unused bits that are not zero. One text per byte string, so changing any
 * character of a MAC changes the MAC.
 */
export function decodeBase64(text: string, url = false): Uint8Array<ArrayBuffer> | undefined {
  if (!(url ? /^[\w-]*$/ : /^[A-Za-z0-9+/]*={0,2}$/).test(text)) return undefined;
  let binary: string;
  try {
    binary = atob(url ? text.replaceAll("-", "+").replaceAll("_", "/") : text);
  } catch {
    return undefined;
  }
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  // atob is lenient (missing padding, any unused bits): only the canonical text is taken.
  return encodeBase64(bytes, url) === text ? bytes : undefined;
}

/** `byteCount` random bytes (crypto.getRandomValues) as lower-case hex: ids that are unguessable and plain ASCII. */
export function randomHex(byteCount: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(byteCount)), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Lower-case or upper-case hex as bytes (what `randomHex` writes); undefined for anything else. */
export function decodeHex(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text)) return undefined;
  return Uint8Array.from({ length: text.length / 2 }, (_, at) => Number.parseInt(text.slice(2 * at, 2 * at + 2), 16));
}
