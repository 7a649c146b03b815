import { isJsonObject, type JsonObject } from "./json-values.js";
import { compileKeywords } from "./keywords/index.js";
import { FALSE_NODE, TRUE_NODE, type SchemaNode } from "./node.js";
import { SchemaResources } from "./references.js";
import { SchemaReader, invalidSchema, unsupportedSchema, type CompileContext, type CompilerSettings } from "./schema-reader.js";

export interface CompiledDocument {
  readonly root: SchemaNode;
  /** Distinct compiled schema objects: with the data's size, it sizes a run's work budget. */
  readonly nodeCount: number;
  readonly tracksEvaluation: boolean;
}

/** Compiles a whole schema document: every subschema once, `$ref`s resolved to the node they name. */
export function compileDocument(document: unknown, settings: CompilerSettings): CompiledDocument {
  const compiler = new SchemaCompiler(document, settings);
  const root = compiler.compile(document, "#");
  return { root, nodeCount: compiler.nodeCount, tracksEvaluation: compiler.tracksEvaluation };
}

class SchemaCompiler implements CompileContext {
  readonly settings: CompilerSettings;
  tracksEvaluation = false;
  // Keyed by the schema object itself: a $ref target (or a schema object shared by two parents) compiles once.
  readonly #nodes = new Map<object, SchemaNode>();
  readonly #resources: SchemaResources;

  constructor(document: unknown, settings: CompilerSettings) {
    this.settings = settings;
    this.#resources = new SchemaResources(document, settings.schemas);
  }

  get nodeCount(): number {
    return this.#nodes.size;
  }

  compile(schema: unknown, pointer: string): SchemaNode {
    if (schema === true) return TRUE_NODE;
    if (schema === false) return FALSE_NODE;
    if (!isJsonObject(schema)) throw invalidSchema(pointer, "must be a schema (an object or a boolean)");
    const compiled = this.#nodes.get(schema);
    if (compiled !== undefined) return compiled;
    const node: SchemaNode = { checks: [] };
    this.#nodes.set(schema, node);
    node.checks.push(...compileKeywords(new SchemaReader(schema, pointer, this)));
    return node;
  }

  legacyRefs(schema: JsonObject): boolean {
    return this.#resources.dialectAt(schema).legacyRefs;
  }

  resolveRef(ref: string, holder: JsonObject, pointer: string): SchemaNode {
    const target = this.#resources.resolve(ref, holder);
    if ("problem" in target)
      throw (target.unsupported ? unsupportedSchema : invalidSchema)(pointer, `cannot resolve "${ref}": ${target.problem}`);
    return this.compile(target.schema, target.pointer);
  }

  trackEvaluation(): void {
    this.tracksEvaluation = true;
  }
}
