import { DIALECT_2020_12, dialectOf, type Dialect } from "./dialects.js";
import { pointerTokens } from "./json-pointer.js";
import { isJsonObject, type JsonObject } from "./json-values.js";
import { forEachSubschema } from "./subschemas.js";
import { resolveUri, splitFragment } from "./uri-resolution.js";

export interface ResolvedReference {
  readonly schema: unknown;
  readonly pointer: string;
}

/** Why a `$ref` has no target. `unsupported`: the schema may well be right, but names a document this validator was not given. */
export interface Unresolved {
  readonly problem: string;
  readonly unsupported: boolean;
}

/** Where a schema object sits: the base URI its references resolve against, and its document's dialect. */
interface Scope {
  readonly base: string;
  readonly dialect: Dialect;
}

// The base URI of a document without `$id`: only ever compared with itself, never fetched.
const DOCUMENT_DIRECTORY = "json-schema://document/";
const DOCUMENT_BASE = `${DOCUMENT_DIRECTORY}root.json`;

/**
 * The schema resources `$ref` can reach: the root, every subschema with an `$id` (draft-04: `id`),
 * every plain-name anchor (`$anchor`, `$dynamicAnchor`, `"$id": "#name"`), and the documents given
 * in the `schemas` option under their URI. A reference is resolved against the base URI of the
 * schema holding it, then looked up here. Nothing is ever fetched.
 */
export class SchemaResources {
  readonly #resources = new Map<string, ResolvedReference>();
  readonly #anchors = new Map<string, ResolvedReference>();
  readonly #scopes = new Map<object, Scope>();
  readonly #rootDialect: Dialect;
  // The given documents are indexed on the first reference the root document does not hold: most schemas never need them.
  #given: ReadonlyMap<string, unknown> | undefined;

  constructor(document: unknown, given: ReadonlyMap<string, unknown>) {
    this.#rootDialect = dialectOf(document, DIALECT_2020_12);
    this.#indexDocument(document, DOCUMENT_BASE, "#");
    this.#given = given.size > 0 ? given : undefined;
  }

  /** The dialect of the document that holds `schema` (which the compiler reached, so it was indexed). */
  dialectAt(schema: JsonObject): Dialect {
    return (this.#scopes.get(schema) as Scope).dialect;
  }

  /** The target of `ref` written in `holder`, or why there is none. */
  resolve(ref: string, holder: JsonObject): ResolvedReference | Unresolved {
    // Every schema the compiler reaches was indexed first: by the walk from the root, or as a $ref target.
    const base = (this.#scopes.get(holder) as Scope).base;
    const [resourceUri, encodedFragment] = splitFragment(resolveUri(ref, base));
    const resource = this.#resource(resourceUri);
    if (resource === undefined) {
      const named = resourceUri.startsWith(DOCUMENT_DIRECTORY) ? "" : ` "${resourceUri}"`;
      return { problem: `a remote reference: the document${named} is not in the schemas option (nothing is fetched)`, unsupported: true };
    }
    const fragment = decodeFragment(encodedFragment);
    if (fragment === undefined) return invalid("is not a valid URI fragment");
    if (fragment === "") return resource;
    if (fragment.startsWith("/")) return this.#followPointer(resource, fragment);
    return this.#anchors.get(`${resourceUri}#${fragment}`) ?? invalid(`no $anchor named "${fragment}" in this schema`);
  }

  #resource(uri: string): ResolvedReference | undefined {
    const found = this.#resources.get(uri);
    if (found !== undefined || this.#given === undefined) return found;
    const given = this.#given;
    this.#given = undefined;
    for (const [documentUri, document] of given) this.#indexDocument(document, documentUri, `${documentUri}#`);
    return this.#resources.get(uri);
  }

  /** A whole document under `uri` (and under its own `$id`, if it has one), in its own dialect or the root's. */
  #indexDocument(document: unknown, uri: string, pointer: string): void {
    this.#index(document, { base: uri, dialect: dialectOf(document, this.#rootDialect) }, pointer, true);
    if (!this.#resources.has(uri)) this.#resources.set(uri, { schema: document, pointer });
  }

  #index(schema: unknown, outer: Scope, pointer: string, isDocument = false): void {
    if (!isJsonObject(schema) || this.#scopes.has(schema)) return;
    const { dialect } = outer;
    const id = ownId(schema, dialect);
    const scope = id === undefined ? outer : { base: splitFragment(resolveUri(id, outer.base))[0], dialect };
    if (id !== undefined || isDocument) this.#resources.set(scope.base, { schema, pointer });
    this.#scopes.set(schema, scope);
    for (const name of anchorNames(schema, dialect)) {
      const key = `${scope.base}#${name}`;
      if (!this.#anchors.has(key)) this.#anchors.set(key, { schema, pointer });
    }
    forEachSubschema(schema, pointer, (subschema, subpointer) => this.#index(subschema, scope, subpointer));
  }

  #followPointer(resource: ResolvedReference, pointer: string): ResolvedReference | Unresolved {
    let target = resource.schema;
    let scope = this.#scopes.get(resource.schema as object) as Scope;
    for (const token of pointerTokens(pointer)) {
      scope = isJsonObject(target) ? (this.#scopes.get(target) ?? scope) : scope;
      target = childAt(target, token);
      if (target === undefined) return invalid(`points at nothing: no "${token}"`);
    }
    const found = { schema: target, pointer: `${resource.pointer}${pointer}` };
    // A pointer may reach a schema outside any known keyword (under "x-defs", say): index it where it sits.
    this.#index(target, scope, found.pointer);
    return found;
  }
}

function invalid(problem: string): Unresolved {
  return { problem, unsupported: false };
}

function decodeFragment(fragment: string): string | undefined {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return undefined;
  }
}

const ARRAY_INDEX = /^(?:0|[1-9]\d*)$/u;

function childAt(value: unknown, token: string): unknown {
  if (Array.isArray(value)) return ARRAY_INDEX.test(token) ? (value as unknown[])[Number(token)] : undefined;
  return isJsonObject(value) && Object.hasOwn(value, token) ? value[token] : undefined;
}

/** A string `$id` (draft-04: `id`) that names a resource (not an `#anchor`), unless a draft-07-or-older `$ref` beside it hides it. */
function ownId(schema: JsonObject, dialect: Dialect): string | undefined {
  const id = schema[dialect.idKeyword];
  if (typeof id !== "string" || id.startsWith("#")) return undefined;
  return dialect.legacyRefs && schema["$ref"] !== undefined ? undefined : id;
}

/** Plain-name anchors of a schema: `$anchor`, `$dynamicAnchor`, and the draft-07 (draft-04) `"$id": "#name"` (`"id": "#name"`). */
function anchorNames(schema: JsonObject, dialect: Dialect): string[] {
  const names: string[] = [];
  for (const keyword of ["$anchor", "$dynamicAnchor", dialect.idKeyword]) {
    const name = schema[keyword];
    if (typeof name !== "string") continue;
    if (keyword !== dialect.idKeyword) names.push(name);
    else if (name.startsWith("#")) names.push(name.slice(1));
  }
  return names;
}
