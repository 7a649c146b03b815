// How the library checks a value with a zod schema: zod's own parse, never through zod's eval-based
// fast path (CSP and edge runtimes forbid it), with issues summarised into a line fit for a JSON-RPC
// error message. It imports no zod: the parse comes from the caller (zod's `safeParse`, or the
// schema's own method). A tool's arguments go straight to zod: on such small objects the pre-check
// (precheck.ts) does not pay (schemas.md, "The pre-check"); `validate` of `@suaveplan/mcp/schemas` asks it first.
import type * as z from "zod/mini";

import { summarizeIssues } from "../wire/issues.js";
import type { ValidationResult } from "../wire/wire-schema.js";
import type { ZodParse } from "./precheck.js";

// reportInput keeps each issue's input, which tells a missing field from a mistyped one. `async:
// false` is what safeParse sets on its own copy of these options anyway; giving it here lets that
// copy keep the object's shape (adding the key to a spread copy costs more than the parse of a
// small message on V8). One shared object: never mutated, by us or by zod.
const PARSE_OPTIONS: z.core.ParseContextInternal<z.core.$ZodIssue> = { jitless: true, reportInput: true, async: false };

/** Checks `value` with `schema` through `parse`; on failure, `issues` reads like `params.name: expected string, received number`. */
export function validateWithZod<S extends z.core.$ZodType>(parse: ZodParse, schema: S, value: unknown): ValidationResult<z.output<S>> {
  const parsed = parse(schema, value, PARSE_OPTIONS);
  if (parsed.success) return { ok: true, value: parsed.data as z.output<S> };
  return { ok: false, issues: summarizeIssues(parsed.error.issues) };
}

type OwnSafeParse = (value: unknown, options: unknown) => z.core.util.SafeParseResult<unknown>;

/** zod's parse through the schema's own `safeParse` (classic and zod/mini schemas both carry it). */
export const ownParse: ZodParse = (schema, value, options) => (schema as unknown as { safeParse: OwnSafeParse }).safeParse(value, options);
