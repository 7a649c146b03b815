/**
 * Compiles a JSON Schema regular expression with the `u` flag, so `.` and classes see code points.
 * A pattern written for another regex dialect may escape characters `u` forbids (`\_`, `\:`); it
 * then gets the legacy ECMAScript reading rather than making the whole schema unusable.
 */
export function compilePattern(source: string): RegExp | undefined {
  try {
    return new RegExp(source, "u");
  } catch {
    return compileLegacyPattern(source);
  }
}

function compileLegacyPattern(source: string): RegExp | undefined {
  try {
    return new RegExp(source);
  } catch {
    return undefined;
  }
}
