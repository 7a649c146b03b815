import type { KeywordCheck } from "../node.js";
import type { SchemaReader } from "../schema-reader.js";
import { isMultipleOf } from "./multiple-of.js";

/** `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` (numeric, or draft-04 booleans) and `multipleOf`. */
export function compileNumberKeywords(reader: SchemaReader): KeywordCheck[] {
  const checks: KeywordCheck[] = [];
  const minimum = reader.number("minimum");
  const maximum = reader.number("maximum");
  const exclusiveMinimum = reader.numberOrBoolean("exclusiveMinimum");
  const exclusiveMaximum = reader.numberOrBoolean("exclusiveMaximum");
  if (minimum !== undefined) checks.push(checkLowerBound(minimum, exclusiveMinimum === true));
  if (typeof exclusiveMinimum === "number") checks.push(checkLowerBound(exclusiveMinimum, true));
  if (maximum !== undefined) checks.push(checkUpperBound(maximum, exclusiveMaximum === true));
  if (typeof exclusiveMaximum === "number") checks.push(checkUpperBound(exclusiveMaximum, true));
  const divisor = reader.positiveNumber("multipleOf");
  if (divisor !== undefined) checks.push(checkMultipleOf(divisor));
  return checks;
}

function checkLowerBound(limit: number, exclusive: boolean): KeywordCheck {
  const message = `must be ${exclusive ? "greater than" : "at least"} ${limit}`;
  return (value, at, run) => typeof value !== "number" || (exclusive ? value > limit : value >= limit) || run.fail(at, () => message);
}

function checkUpperBound(limit: number, exclusive: boolean): KeywordCheck {
  const message = `must be ${exclusive ? "less than" : "at most"} ${limit}`;
  return (value, at, run) => typeof value !== "number" || (exclusive ? value < limit : value <= limit) || run.fail(at, () => message);
}

function checkMultipleOf(divisor: number): KeywordCheck {
  const message = `must be a multiple of ${divisor}`;
  return (value, at, run) => typeof value !== "number" || isMultipleOf(value, divisor) || run.fail(at, () => message);
}
