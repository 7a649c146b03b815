import { pointerTokens } from "./json-pointer.js";
import { isJsonObject, type JsonObject } from "./json-values.js";
import { forEachSubschema } from "./subschemas.js";
import { resolveUri, splitFragment } from "./uri-resolution.js";

export interface ResolvedReference {
  readonly schema: unknown;
  readonly pointer: string;
}

// The base URI of a document without `$id`: only ever compared with itself, never fetched.
const DOCUMENT_BASE = "json-schema://document/root.json";

/**
 * The schema resources of one document, for `$ref` to find its target: the root, every subschema
 * with an `$id` (an embedded resource), and every plain-name anchor (`$anchor`, `$dynamicAnchor`,
 * draft-07 `"$id": "#name"`). A reference is resolved against the base URI of the schema holding
 * it, then looked up here; one that names no resource of this document is remote, and refused.
 */
export class SchemaResources {
  private readonly resources = new Map<string, ResolvedReference>();
  private readonly anchors = new Map<string, ResolvedReference>();
  private readonly baseOf = new Map<object, string>();
  private readonly legacyIds: boolean;

  /** `legacyIds`: draft-07 and older, where an `$id` beside a `$ref` is ignored like every other sibling. */
  constructor(document: unknown, legacyIds: boolean) {
    this.legacyIds = legacyIds;
    this.index(document, DOCUMENT_BASE, "#");
  }

  /** The target of `ref` written in `holder`, or a sentence saying why there is none. */
  resolve(ref: string, holder: JsonObject): ResolvedReference | string {
    // Every schema the compiler reaches was indexed first: by the walk from the root, or as a $ref target.
    const base = this.baseOf.get(holder) as string;
    const [resourceUri, encodedFragment] = splitFragment(resolveUri(ref, base));
    const resource = this.resources.get(resourceUri);
    if (resource === undefined) return "remote references are not supported: only references into this same document resolve";
    const fragment = decodeFragment(encodedFragment);
    if (fragment === undefined) return "is not a valid URI fragment";
    if (fragment === "") return resource;
    if (fragment.startsWith("/")) return this.followPointer(resource, resourceUri, fragment);
    return this.anchors.get(`${resourceUri}#${fragment}`) ?? `no $anchor named "${fragment}" in this schema`;
  }

  private index(schema: unknown, base: string, pointer: string): void {
    if (!isJsonObject(schema) || this.baseOf.has(schema)) return;
    const id = this.ownId(schema);
    const ownBase = id === undefined ? base : splitFragment(resolveUri(id, base))[0];
    if (id !== undefined || pointer === "#") this.resources.set(ownBase, { schema, pointer });
    this.baseOf.set(schema, ownBase);
    for (const name of anchorNames(schema)) {
      const key = `${ownBase}#${name}`;
      if (!this.anchors.has(key)) this.anchors.set(key, { schema, pointer });
    }
    forEachSubschema(schema, pointer, (subschema, subpointer) => this.index(subschema, ownBase, subpointer));
  }

  /** A string `$id` that names a resource (not a draft-07 `#anchor`), unless a legacy `$ref` hides it. */
  private ownId(schema: JsonObject): string | undefined {
    const id = schema["$id"];
    if (typeof id !== "string" || id.startsWith("#")) return undefined;
    return this.legacyIds && schema["$ref"] !== undefined ? undefined : id;
  }

  private followPointer(resource: ResolvedReference, resourceUri: string, pointer: string): ResolvedReference | string {
    let target = resource.schema;
    let base = resourceUri;
    for (const token of pointerTokens(pointer)) {
      base = isJsonObject(target) ? (this.baseOf.get(target) ?? base) : base;
      target = childAt(target, token);
      if (target === undefined) return `points at nothing: no "${token}"`;
    }
    const found = { schema: target, pointer: `${resource.pointer}${pointer}` };
    // A pointer may reach a schema outside any known keyword (under "x-defs", say): index it where it sits.
    this.index(target, base, found.pointer);
    return found;
  }
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

/** Plain-name anchors of a schema. */
function anchorNames(schema: JsonObject): string[] {
  const names: string[] = [];
  for (const keyword of ["$anchor", "$dynamicAnchor"]) {
    const name = schema[keyword];
    if (typeof name === "string") names.push(name);
  }
  const id = schema["$id"];
  if (typeof id === "string" && id.startsWith("#")) names.push(id.slice(1));
  return names;
}
