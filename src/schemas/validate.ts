// `validate` of `@suaveplan/mcp/schemas`: any zod v4 schema (classic or mini), the pre-check first
// (precheck.ts), then zod's parse as the library checks tool arguments (see zod-validation.ts).
import * as z from "zod/mini";

import type { ValidationResult } from "../wire/wire-schema.js";
import { precheckOf, VALID } from "./precheck.js";
import { validateWithZod } from "./zod-validation.js";

export type { ValidationResult } from "../wire/wire-schema.js";

/** Parses `value` with `schema`; on failure, `issues` reads like `params.name: expected string, received number`. */
export function validate<S extends z.core.$ZodType>(schema: S, value: unknown): ValidationResult<z.output<S>> {
  // A valid message is vouched for without zod's copy (protocol messages: several times quicker); zod parses the rest and explains
  // refusals.
  if (precheckOf(schema, z.safeParse)(value) === VALID) return { ok: true, value: value as z.output<S> };
  return validateWithZod(z.safeParse, schema, value);
}
