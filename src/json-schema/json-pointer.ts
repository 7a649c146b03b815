/** `#/properties/a~1b`: a JSON pointer (RFC 6901) with one more token, escaped. */
export function appendPointer(pointer: string, token: string | number): string {
  return `${pointer}/${String(token).replaceAll("~", "~0").replaceAll("/", "~1")}`;
}

/** The unescaped tokens of a pointer such as `/$defs/a~1b` (`~1` is `/`, `~0` is `~`). */
export function pointerTokens(pointer: string): string[] {
  return pointer
    .slice(1)
    .split("/")
    .map((token) => token.replaceAll("~1", "/").replaceAll("~0", "~"));
}
