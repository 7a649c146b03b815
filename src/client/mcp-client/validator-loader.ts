import { onDemand } from "../../lazy/on-demand.js";
import type * as JsonSchemaModule from "../../json-schema/index.js";

/** The JSON Schema validator: `compileJsonSchema` and `applyDefaults`. */
export type JsonSchemaValidation = typeof JsonSchemaModule;

// Pure: a client app that never meets an outputSchema or a form elicitation never loads the validator (src/lazy/lazy.md).
const validator = /* @__PURE__ */ onDemand(() => import("../../json-schema/index.js"));

/** Loads the validator once per process: a tool's outputSchema, or the schema of a form elicitation, first asks for it. */
export function loadValidator(): Promise<JsonSchemaValidation> {
  return validator.load();
}

/** The validator if it is loaded already (a check that finds it there runs at once, with no promise to wait for). */
export function loadedValidator(): JsonSchemaValidation | undefined {
  return validator.current();
}
