import { isJsonObject, type JsonObject } from "./json-values.js";
import { compileKeywords } from "./keywords/index.js";
import { FALSE_NODE, TRUE_NODE, type SchemaNode } from "./node.js";
import { SchemaResources } from "./references.js";
import { SchemaReader, invalidSchema, type CompileContext, type CompilerSettings } from "./schema-reader.js";

export interface CompiledDocument {
  readonly root: SchemaNode;
  /** Distinct compiled schema objects: with the data's size, it sizes a run's work budget. */
  readonly nodeCount: number;
  readonly tracksEvaluation: boolean;
}

const LEGACY_DRAFT = /draft-0[3-7]/;

/** Compiles a whole schema document: every subschema once, `$ref`s resolved to the node they name. */
export function compileDocument(document: unknown, settings: CompilerSettings): CompiledDocument {
  const compiler = new SchemaCompiler(document, settings);
  const root = compiler.compile(document, "#");
  return { root, nodeCount: compiler.nodeCount, tracksEvaluation: compiler.tracksEvaluation };
}

class SchemaCompiler implements CompileContext {
  readonly settings: CompilerSettings;
  readonly legacyRefs: boolean;
  tracksEvaluation = false;
  // Keyed by the schema object itself: a $ref target (or a schema object shared by two parents) compiles once.
  private readonly nodes = new Map<object, SchemaNode>();
  private readonly resources: SchemaResources;

  constructor(document: unknown, settings: CompilerSettings) {
    this.settings = settings;
    const dialect = isJsonObject(document) ? document["$schema"] : undefined;
    this.legacyRefs = typeof dialect === "string" && LEGACY_DRAFT.test(dialect);
    this.resources = new SchemaResources(document, this.legacyRefs);
  }

  get nodeCount(): number {
    return this.nodes.size;
  }

  compile(schema: unknown, pointer: string): SchemaNode {
    if (schema === true) return TRUE_NODE;
    if (schema === false) return FALSE_NODE;
    if (!isJsonObject(schema)) throw invalidSchema(pointer, "must be a schema (an object or a boolean)");
    const compiled = this.nodes.get(schema);
    if (compiled !== undefined) return compiled;
    const node: SchemaNode = { checks: [] };
    this.nodes.set(schema, node);
    node.checks.push(...compileKeywords(new SchemaReader(schema, pointer, this)));
    return node;
  }

  resolveRef(ref: string, holder: JsonObject, pointer: string): SchemaNode {
    const target = this.resources.resolve(ref, holder);
    if (typeof target === "string") throw invalidSchema(pointer, `cannot resolve "${ref}": ${target}`);
    return this.compile(target.schema, target.pointer);
  }

  trackEvaluation(): void {
    this.tracksEvaluation = true;
  }
}
