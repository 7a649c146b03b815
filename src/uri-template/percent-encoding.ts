/** What `percentEncode` replaces: any code point but the unreserved characters (RFC 3986 §2.3). */
const NOT_UNRESERVED = /[^\w\-.~]/gu;
/** As NOT_UNRESERVED, but reserved characters are kept too, and a percent-encoded triplet is matched whole (and kept). */
const TRIPLET_OR_NOT_URI_CHAR = /%[\dA-Fa-f]{2}|[^\w\-.~:/?#[\]@!$&'()*+,;=]/gu;
/** One code point per token (a lone surrogate is a token of its own). */
const CODE_POINTS = /[^]/gu;
/** As CODE_POINTS, but a percent-encoded triplet is one token: reserved expansion keeps it whole. */
const CODE_POINTS_AND_TRIPLETS = /%[\dA-Fa-f]{2}|[^]/gu;

const encoder = /* @__PURE__ */ new TextEncoder();

/** A code point's UTF-8 bytes as triplets; a lone surrogate becomes U+FFFD, as TextEncoder writes it. */
function escapeCodePoint(char: string): string {
  return Array.from(encoder.encode(char), (byte) => "%" + byte.toString(16).padStart(2, "0"))
    .join("")
    .toUpperCase();
}

/**
 * Percent-encodes a value as RFC 6570 §3.2.1 does: unreserved characters stay, everything else
 * becomes UTF-8 triplets, except reserved characters and existing triplets when `allowReserved`.
 */
export function percentEncode(text: string, allowReserved: boolean): string {
  // A token of three characters can only be a triplet: a code point is at most two.
  return text.replace(allowReserved ? TRIPLET_OR_NOT_URI_CHAR : NOT_UNRESERVED, (token) =>
    token.length === 3 ? token : escapeCodePoint(token),
  );
}

/** The first `maxLength` characters of a value (a prefix modifier); U+R counts a triplet as one. */
export function truncateCharacters(text: string, maxLength: number, allowReserved: boolean): string {
  return (text.match(allowReserved ? CODE_POINTS_AND_TRIPLETS : CODE_POINTS) ?? []).slice(0, maxLength).join("");
}

/** The reserved characters of RFC 3986 (gen-delims and sub-delims) and '%': their triplets are kept by `{+var}` matching. */
const KEPT_ENCODED = ":/?#[]@!$&'()*+,;=%";
const TRIPLET = /%([\dA-Fa-f]{2})/g;

/** Decodes percent-encoded UTF-8; `undefined` for a malformed triplet or invalid UTF-8. */
export function percentDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/**
 * Decodes what a reserved expansion (`{+var}`, `{#var}`) matched: triplets of reserved characters
 * and of '%' stay as sent, so an encoded "/" stays distinct from a raw one; every other triplet is
 * decoded. `undefined` for malformed percent-encoding or invalid UTF-8, as `percentDecode`.
 */
export function percentDecodeKeepingReserved(text: string): string | undefined {
  // "%2F" becomes "%252F", which decoding turns back into "%2F".
  return percentDecode(
    text.replace(TRIPLET, (triplet, hex: string) =>
      KEPT_ENCODED.includes(String.fromCharCode(parseInt(hex, 16))) ? "%25" + hex : triplet,
    ),
  );
}
