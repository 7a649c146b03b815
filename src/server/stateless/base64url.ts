const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const VALUE_OF = new Map(ALPHABET.split("").map((char, value) => [char, value]));

/** Base64url without padding (RFC 4648 §5). */
export function encodeBase64url(bytes: Uint8Array): string {
  let text = "";
  for (let index = 0; index < bytes.length; index += 3) {
    const chunk = ((bytes[index] as number) << 16) | ((bytes[index + 1] ?? 0) << 8) | (bytes[index + 2] ?? 0);
    const chars = Math.min(bytes.length - index, 3) + 1;
    for (let place = 0; place < chars; place++) text += ALPHABET[(chunk >> (18 - 6 * place)) & 63];
  }
  return text;
}

/**
 * The bytes of unpadded base64url text, or undefined when it is not exactly what `encodeBase64url`
 * would write: other characters, an impossible length, or unused low bits that are not zero (two
 * texts never decode to the same bytes, so changing any character of a MAC changes the MAC).
 */
export function decodeBase64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (text.length % 4 === 1) return undefined;
  const bytes = new Uint8Array(Math.floor((text.length * 3) / 4));
  let bits = 0;
  let pending = 0;
  let written = 0;
  for (const char of text) {
    const value = VALUE_OF.get(char);
    if (value === undefined) return undefined;
    bits = ((bits << 6) | value) & 0xffffff;
    pending += 6;
    if (pending >= 8) {
      pending -= 8;
      bytes[written++] = (bits >> pending) & 0xff;
    }
  }
  return (bits & ((1 << pending) - 1)) === 0 ? bytes : undefined;
}
