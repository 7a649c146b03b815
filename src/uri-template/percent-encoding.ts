const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
const RESERVED = ":/?#[]@!$&'()*+,;=";
const HEX_DIGITS = "0123456789ABCDEF";
const REPLACEMENT_CHARACTER = 0xfffd;

/** One code point per token (a lone surrogate is a token of its own). */
const CODE_POINTS = /[^]/gu;
/** As CODE_POINTS, but a percent-encoded triplet is one token: reserved expansion keeps it whole. */
const CODE_POINTS_AND_TRIPLETS = /%[0-9A-Fa-f]{2}|[^]/gu;

/** The characters of a value as RFC 6570 counts them for prefixes and copies them for U+R. */
function tokenize(text: string, allowReserved: boolean): readonly string[] {
  return text.match(allowReserved ? CODE_POINTS_AND_TRIPLETS : CODE_POINTS) ?? [];
}

function utf8Bytes(codePoint: number): readonly number[] {
  if (codePoint < 0x80) return [codePoint];
  if (codePoint < 0x800) return [0xc0 | (codePoint >> 6), 0x80 | (codePoint & 0x3f)];
  if (codePoint < 0x10000) {
    return [0xe0 | (codePoint >> 12), 0x80 | ((codePoint >> 6) & 0x3f), 0x80 | (codePoint & 0x3f)];
  }
  return [
    0xf0 | (codePoint >> 18),
    0x80 | ((codePoint >> 12) & 0x3f),
    0x80 | ((codePoint >> 6) & 0x3f),
    0x80 | (codePoint & 0x3f),
  ];
}

function isLoneSurrogate(codePoint: number): boolean {
  return codePoint >= 0xd800 && codePoint <= 0xdfff;
}

function percentEncodeCodePoint(char: string): string {
  const codePoint = char.codePointAt(0) as number;
  const bytes = utf8Bytes(isLoneSurrogate(codePoint) ? REPLACEMENT_CHARACTER : codePoint);
  return bytes.map((byte) => `%${HEX_DIGITS.charAt(byte >> 4)}${HEX_DIGITS.charAt(byte & 0xf)}`).join("");
}

function encodeToken(token: string, allowReserved: boolean): string {
  const keepsAsIs = UNRESERVED.test(token) || (allowReserved && (token.length === 3 || RESERVED.includes(token)));
  return keepsAsIs ? token : percentEncodeCodePoint(token);
}

/**
 * Percent-encodes a value as RFC 6570 §3.2.1 does: unreserved characters stay, everything else
 * becomes UTF-8 triplets, except reserved characters and existing triplets when `allowReserved`.
 * A lone surrogate is encoded as U+FFFD, the way a TextEncoder would.
 */
export function percentEncode(text: string, allowReserved: boolean): string {
  return tokenize(text, allowReserved)
    .map((token) => encodeToken(token, allowReserved))
    .join("");
}

/** The first `maxLength` characters of a value (a prefix modifier); U+R counts a triplet as one. */
export function truncateCharacters(text: string, maxLength: number, allowReserved: boolean): string {
  return tokenize(text, allowReserved).slice(0, maxLength).join("");
}

/** Decodes percent-encoded UTF-8; `undefined` for a malformed triplet or invalid UTF-8. */
export function percentDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
