// The reference the wire schemas must match: zod's own answer, summarised the same way.
import * as z from "zod/mini";

import { summarizeIssues } from "./issues.js";
import type { ValidationResult } from "./wire-schema.js";

export function zodAnswer(schema: z.core.$ZodType, value: unknown): ValidationResult<unknown> {
  const parsed = z.safeParse(schema, value, { jitless: true, reportInput: true });
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, issues: summarizeIssues(parsed.error.issues) };
}
