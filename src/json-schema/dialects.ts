import { isJsonObject } from "./json-values.js";

/** What differs between the JSON Schema drafts this validator reads, decided per document by its `$schema`. */
export interface Dialect {
  /** Draft-07 and older: `$ref` hides its sibling keywords, an `$id` beside it included. */
  readonly legacyRefs: boolean;
  /** The keyword that names a resource or a plain-name anchor: `id` up to draft-04, `$id` since draft-06. */
  readonly idKeyword: "id" | "$id";
}

export const DIALECT_2020_12: Dialect = { legacyRefs: false, idKeyword: "$id" };

const DRAFT = /draft-0([3-7])\b/;

/**
 * The dialect of a document: its own `$schema` when it names a draft, else `inherited` (the root
 * document's, for a document given in the `schemas` option; 2020-12 for the root). Only the drafts'
 * differences are read from it: any other `$schema` (2019-09, 2020-12, a custom meta-schema) is 2020-12.
 */
export function dialectOf(document: unknown, inherited: Dialect): Dialect {
  const uri = isJsonObject(document) ? document["$schema"] : undefined;
  if (typeof uri !== "string") return inherited;
  const draft = DRAFT.exec(uri)?.[1];
  // Drafts 3 to 5 name resources with `id`, 6 and 7 with `$id`.
  return draft === undefined ? DIALECT_2020_12 : { legacyRefs: true, idKeyword: draft > "5" ? "$id" : "id" };
}
