import { FORMAT_CHECKERS } from "../formats/index.js";
import { countCodePoints } from "../json-values.js";
import type { KeywordCheck } from "../node.js";
import type { SchemaReader } from "../schema-reader.js";

/** `minLength`, `maxLength` (in code points), `pattern`, and `format` when formats are asserted. */
export function compileStringKeywords(reader: SchemaReader): KeywordCheck[] {
  const checks: KeywordCheck[] = [];
  const minLength = reader.count("minLength");
  if (minLength !== undefined) checks.push(checkMinLength(minLength));
  const maxLength = reader.count("maxLength");
  if (maxLength !== undefined) checks.push(checkMaxLength(maxLength));
  const pattern = reader.pattern("pattern");
  if (pattern !== undefined) checks.push(checkPattern(pattern));
  const format = reader.string("format");
  if (format !== undefined && reader.context.settings.formats === "assert") {
    const isFormat = FORMAT_CHECKERS.get(format);
    if (isFormat !== undefined) checks.push(checkFormat(format, isFormat));
  }
  return checks;
}

function characters(count: number): string {
  return count === 1 ? "1 character" : `${count} characters`;
}

// A string has at least half as many code points as UTF-16 units, so most lengths decide without counting.
function checkMinLength(limit: number): KeywordCheck {
  const message = `must be at least ${characters(limit)} long`;
  const isLongEnough = (text: string): boolean => text.length >= limit && (text.length >= 2 * limit || countCodePoints(text) >= limit);
  return (value, at, run) => typeof value !== "string" || isLongEnough(value) || run.fail(at, () => message);
}

function checkMaxLength(limit: number): KeywordCheck {
  const message = `must be at most ${characters(limit)} long`;
  const isShortEnough = (text: string): boolean => text.length <= limit || (text.length <= 2 * limit && countCodePoints(text) <= limit);
  return (value, at, run) => typeof value !== "string" || isShortEnough(value) || run.fail(at, () => message);
}

const MAX_SHOWN_PATTERN_LENGTH = 100;

function checkPattern(pattern: RegExp): KeywordCheck {
  const source = pattern.source.replaceAll("\\/", "/");
  const shown = source.length > MAX_SHOWN_PATTERN_LENGTH ? `${source.slice(0, MAX_SHOWN_PATTERN_LENGTH)}…` : source;
  const message = `must match the pattern ${shown}`;
  return (value, at, run) => typeof value !== "string" || pattern.test(value) || run.fail(at, () => message);
}

function checkFormat(format: string, isFormat: (text: string) => boolean): KeywordCheck {
  const message = `expected ${format} format`;
  return (value, at, run) => typeof value !== "string" || isFormat(value) || run.fail(at, () => message);
}
