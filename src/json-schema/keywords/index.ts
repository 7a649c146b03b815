import type { KeywordCheck } from "../node.js";
import type { SchemaReader } from "../schema-reader.js";
import { compileArrayConstraints } from "./array-constraints.js";
import { compileCombinators } from "./combinators.js";
import { compileConditional } from "./conditional.js";
import { compileContains } from "./contains.js";
import { compileItemKeywords } from "./items.js";
import { compileNumberKeywords } from "./number.js";
import { compileObjectApplicators } from "./object-applicators.js";
import { compileObjectConstraints } from "./object-constraints.js";
import { compilePropertyKeywords } from "./properties.js";
import { compileReference } from "./reference.js";
import { compileStringKeywords } from "./string.js";
import { compileTypeKeywords } from "./type.js";
import { compileUnevaluated } from "./unevaluated.js";

// Type first, so a yes/no question about a value of the wrong kind stops at once; then roughly in
// the order a reader expects issues (a property's own issues before the object's missing ones).
// unevaluated* must come last: it reads what all the others evaluated.
const KEYWORD_GROUPS: readonly ((reader: SchemaReader) => KeywordCheck[])[] = [
  compileTypeKeywords,
  compileNumberKeywords,
  compileStringKeywords,
  compileReference,
  compilePropertyKeywords,
  compileObjectConstraints,
  compileObjectApplicators,
  compileItemKeywords,
  compileArrayConstraints,
  compileContains,
  compileCombinators,
  compileConditional,
  compileUnevaluated,
];

/** The checks of one schema object. Keywords this library does not know are ignored, as the spec asks. */
export function compileKeywords(reader: SchemaReader): KeywordCheck[] {
  if (reader.context.legacyRefs(reader.schema) && reader.has("$ref")) return compileReference(reader);
  return KEYWORD_GROUPS.flatMap((compileGroup) => compileGroup(reader));
}
